#pragma once
// The teaching lab's measured experiments (torch-free interface).
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/Tokenizer.h"

namespace attnlab {

// The fixed-context bottleneck: train a GRU without attention (`none`) and with
// attention on the same task at several sentence lengths; report held-out token
// accuracy per length. Textbooks claim the fixed context vector loses information as
// sentences grow and attention does not.
struct BottleneckOptions {
    std::string dataset = "copy";
    std::vector<int> lengths{5, 10, 20, 40};
    std::vector<std::string> attentions{"none", "additive"};
    int epochs = 10;
    int hidden = 128;
    std::size_t pairs = 3000;  // generated per length (10% held out)
    std::uint64_t seed = 1;
    int threads = 1;
    double learningRate = 3e-3;
    bool bidirectional = false;  // both models get the same encoder
    std::optional<TokenizerOptions> tokenizer;  // unset: the dataset's own (DatasetInfo::tokenizer)
};

struct BottleneckResult {
    std::vector<int> lengths;
    std::map<std::string, std::vector<double>> accuracy;  // attention -> per length
};

// progress(done, total, message) is called after every epoch of every run.
// Throws ConfigError for bad options. Returns early (partial result) if *stop.
BottleneckResult runBottleneckExperiment(
    const BottleneckOptions& options,
    const std::function<void(int done, int total, const std::string& message)>& progress = nullptr,
    const std::atomic<bool>* stop = nullptr);

// Cost of one attention layer as the sequence grows: full softmax attention (N x N
// matrix) and the Transformer's patterns as it trains them (nn/networks/AttentionPatterns.h): local
// (each query sees 2w+1 keys), strided (a band of s and every s-th key, s = ceil(sqrt(N))),
// chunked (chunks of ceil(sqrt(N)) and one summary per chunk) and linear (kernelised,
// phi(x) = elu(x) + 1). Time is the median of `repeats` runs; memory is the peak of the bytes
// the CPU allocator handed out during the call (every tensor the method allocates, counted
// by a wrapper around the allocator; the inputs not).
struct ComplexityOptions {
    std::vector<int> lengths{64, 128, 256, 512, 1024, 2048, 4096, 8192};
    int dim = 64;
    int window = 32;
    int repeats = 3;
    int fitFrom = 512;  // slopes are fitted on lengths >= this (small N is overhead-bound)
};

struct ComplexitySeries {
    std::vector<double> seconds;  // per length
    std::vector<double> bytes;    // per length
    double timeSlope = 0.0;       // fitted d log(time) / d log(N)
    double memorySlope = 0.0;
};

struct ComplexityResult {
    std::vector<int> lengths;
    std::map<std::string, ComplexitySeries> methods;  // "full", "local", "strided", "chunked", "linear"
};

ComplexityResult runComplexityExperiment(const ComplexityOptions& options,
                                         const std::function<void(const std::string&)>& progress = nullptr);

// Least-squares slope of log(y) against log(x) over the points with x >= fromX.
double logLogSlope(const std::vector<int>& x, const std::vector<double>& y, int fromX);

}  // namespace attnlab
