#pragma once
// The long-range experiment (`attnlab-cli experiment long-range`, the Experiments view): each
// self-attention pattern (nn/networks/AttentionPatterns.h: full, local, strided, chunked, linear) trains the
// classifier Transformer on the built-in `needle` texts, where one colour word anywhere among N
// noise words decides the class and the classifier reads its [CLS] token at position 0: the
// answer lies up to N positions away. For each pattern and length: validation accuracy, the
// median time of a training step, and the peak memory of a step as the CPU allocator counted it
// (engine/detail/CountingAllocator.h, as the complexity experiment measures). Torch-free header.
//
// A pattern's model first learns the task at a short warm-up length (`warmupSteps` Adam steps at
// N = `warmupLength`, where even local attention's window covers the text; not reported), then
// trains at its lengths in order, each going on from the weights of the one before (a curriculum:
// what is measured at long N is whether the pattern can carry the answer there), `steps` Adam
// steps at each of `lengths`; after the last listed length N doubles (`extendSteps` steps each)
// while the pattern's peak memory fits the budget, up to `maxLength`. Before each length the peak
// is predicted from the pattern's last two measured peaks (a power law; from one, the pattern's
// own exponent: 2 for full, 1.5 for strided and chunked, 1 for local and linear), with a margin;
// a length predicted over the budget is not run. While a length runs, an allocation of the
// experiment's thread that would take it past the budget throws, so an underestimate ends that
// length ("over budget") instead of the process.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace attnlab {

struct LongRangeOptions {
    std::vector<int> lengths{128, 512, 2048};  // trained for `steps` steps each, in order
    bool extend = true;                        // then double while the budget allows
    int maxLength = 16384;                     // the longest extension (up to 65536)
    std::vector<std::string> patterns{"full", "local", "strided", "chunked", "linear"};
    int warmupLength = 32;  // each pattern first learns the task here (not reported)
    int warmupSteps = 300;  // 0 = no warm-up
    int steps = 40;        // Adam steps per listed length
    int extendSteps = 4;   // per extension length
    int batch = 4;
    std::size_t texts = 64;  // validation texts per length (training texts are drawn fresh)
    int hidden = 32;       // d_model
    int layers = 2;
    int heads = 2;
    int feedForward = 64;
    int window = 16;       // W of local (strided's band and stride: ceil(sqrt(N + 1)))
    double learningRate = 3e-3;
    double memoryBudget = 2.0 * 1024 * 1024 * 1024;  // bytes
    std::uint64_t seed = 1;
};

struct LongRangeRow {
    std::string pattern;
    int length = 0;
    bool ran = false;            // false: predicted or found over the budget (no figures)
    bool overBudget = false;     // stopped by the budget (predicted, or refused while running)
    double accuracy = 0;         // validation, in [0, 1]
    double secondsPerStep = 0;   // median wall time over the length's steps
    double cpuSecondsPerStep = 0;  // median CPU time of the process (all its threads) per step
    double peakBytes = 0;        // the largest peak of a training step
    double predictedBytes = 0;   // the prediction made before running it (0: none yet)
    int steps = 0;               // steps trained at this length
};

struct LongRangeResult {
    std::vector<LongRangeRow> rows;  // pattern by pattern, length by length
    double memoryBudget = 0;
    // The longest length each pattern ran within the budget (in options.patterns order).
    std::vector<std::pair<std::string, int>> longest;
};

// The patterns' complexity in the articles' words: "O(N^2)", "O(N sqrt N)", "O(N)" (local: "O(N W)").
std::string patternComplexity(const std::string& pattern);

// progress(done, total, message) after each length of each pattern (total counts the listed
// lengths; extensions add to it as they come); onRow(row) with each row as it is measured (or
// found over the budget). *stop ends early with the rows so far (a length cut short gives none).
// Throws ConfigError for an unknown pattern, a length outside 8..65536, a budget below 16 MB or
// above this machine's memory, or sizes out of range.
LongRangeResult runLongRangeExperiment(const LongRangeOptions& options,
                                       const std::function<void(int, int, const std::string&)>& progress = {},
                                       const std::atomic<bool>* stop = nullptr,
                                       const std::function<void(const LongRangeRow&)>& onRow = {});

}  // namespace attnlab
