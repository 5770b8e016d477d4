#pragma once
// The classification version of the bottleneck experiment: `needle` texts of growing length,
// one keyword anywhere among noise words decides the class. A one-way GRU that classifies from
// its last state must carry the keyword to the end of the text; attention pooling reads it where
// it is. Torch-free header (the CLI's `experiment needle`; the GUI can chart the same result).
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace attnlab {

struct NeedleOptions {
    std::vector<int> lengths{25, 50, 100};
    std::vector<std::string> poolings{"none", "additive"};
    std::size_t texts = 2000;
    int epochs = 5;
    int hidden = 64;
    bool bidirectional = false;  // one-way: "none" then has one state that has read everything
    std::uint64_t seed = 1;
};

struct NeedleResult {
    std::vector<int> lengths;
    std::map<std::string, std::vector<double>> accuracy;  // pooling -> validation accuracy per length
    // pooling -> per length {accuracy when the keyword is in the first half, in the second half}
    std::map<std::string, std::vector<std::pair<double, double>>> byPosition;
};

// progress(done, total, message) after each training; *stop ends it early (results so far).
// Throws ConfigError for a length outside needle's range or an unknown pooling.
NeedleResult runNeedleExperiment(const NeedleOptions& options,
                                 const std::function<void(int, int, const std::string&)>& progress = {},
                                 const std::atomic<bool>* stop = nullptr);

}  // namespace attnlab
