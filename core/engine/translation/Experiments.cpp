#include "Experiments.h"

#include <atomic>
#include <chrono>
#include <cmath>

#include "TranslationTrainer.h"
#include "engine/detail/CountingAllocator.h"
#include "engine/detail/TorchPch.h"
#include "engine/nn/networks/AttentionPatterns.h"
#include "base/translation/Datasets.h"
#include "base/InputError.h"

namespace attnlab {

BottleneckResult runBottleneckExperiment(const BottleneckOptions& o,
                                         const std::function<void(int, int, const std::string&)>& progress,
                                         const std::atomic<bool>* stop) {
    if (o.lengths.empty()) throw ConfigError("--lengths needs at least one length");
    for (int len : o.lengths)
        if (len < 1 || len > 200) throw ConfigError("--lengths must be between 1 and 200, got " + std::to_string(len));
    BottleneckResult result;
    result.lengths = o.lengths;
    const int total = static_cast<int>(o.lengths.size() * o.attentions.size()) * o.epochs;
    int done = 0;
    for (int len : o.lengths) {
        DatasetOptions data;
        data.size = o.pairs;
        data.seed = o.seed;
        data.minLen = len;
        data.maxLen = len;
        ParallelCorpus corpus = generateDataset(o.dataset, data);
        for (const auto& name : o.attentions) {
            ModelConfig config;
            config.architecture = Architecture::Gru;
            config.attention = parseAttentionKind(name);
            config.hidden = o.hidden;
            config.bidirectional = o.bidirectional;
            config.maxLength = std::max(64, 2 * len + 2);
            TranslationTrainingOptions t;
            t.epochs = o.epochs;
            t.seed = o.seed;
            t.threads = o.threads;
            t.learningRate = o.learningRate;
            t.validationFraction = 0.1;
            t.tokenizer = o.tokenizer.value_or(findBuiltinDataset(o.dataset)->tokenizer);  // generated: it exists
            TranslationTrainer trainer(corpus, config, t);
            double accuracy = 0.0;
            trainer.run(nullptr,
                        [&](const TranslationEpochMetrics& m) {
                            accuracy = m.tokenAccuracy;
                            ++done;
                            if (progress)
                                progress(done, total,
                                         "length " + std::to_string(len) + ", " + name + ": epoch " +
                                             std::to_string(m.epoch) + "/" + std::to_string(o.epochs) +
                                             ", token accuracy " + std::to_string(m.tokenAccuracy).substr(0, 5));
                        },
                        stop);
            result.accuracy[name].push_back(accuracy);
            if (stop && stop->load()) return result;
        }
    }
    return result;
}

double logLogSlope(const std::vector<int>& x, const std::vector<double>& y, int fromX) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int n = 0;
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (x[i] < fromX || !(y[i] > 0)) continue;
        const double lx = std::log(static_cast<double>(x[i])), ly = std::log(y[i]);
        sx += lx;
        sy += ly;
        sxx += lx * lx;
        sxy += lx * ly;
        ++n;
    }
    if (n < 2) return std::nan("");
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

namespace {

using Clock = std::chrono::steady_clock;

// Memory: the CPU allocator's peak during each call (detail/CountingAllocator.h).
using detail::CountingScope;

// q, k, v [N, d]. Full attention: the N x N scores and weights.
torch::Tensor fullAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v) {
    torch::Tensor scores = torch::mm(q, k.t()) / std::sqrt(static_cast<double>(q.size(1)));  // [N, N]
    torch::Tensor w = torch::softmax(scores, 1);                                             // [N, N]
    return torch::mm(w, v);                                                                  // [N, d]
}

// The patterns as the Transformer runs them (nn/networks/AttentionPatterns.h), one sequence, one head.
torch::Tensor patterned(const nn::PatternSpec& spec, const torch::Tensor& q, const torch::Tensor& k,
                        const torch::Tensor& v) {
    auto head = [](const torch::Tensor& x) { return x.view({1, 1, x.size(0), x.size(1)}); };
    return nn::patternAttention(spec, head(q), head(k), head(v), torch::Tensor(), false, 0, 0.0, false, nullptr);
}

}  // namespace

ComplexityResult runComplexityExperiment(const ComplexityOptions& o,
                                         const std::function<void(const std::string&)>& progress) {
    if (o.lengths.empty() || o.dim < 1 || o.window < 1 || o.repeats < 1)
        throw ConfigError("complexity experiment: lengths, dim, window and repeats must be positive");
    for (int n : o.lengths)
        if (n < 2 || n > 16384) throw ConfigError("lengths must be between 2 and 16384, got " + std::to_string(n));
    torch::NoGradGuard noGrad;
    torch::manual_seed(0);
    CountingScope counting;
    ComplexityResult result;
    result.lengths = o.lengths;
    for (int n : o.lengths) {
        torch::Tensor q = torch::randn({n, o.dim}), k = torch::randn({n, o.dim}), v = torch::randn({n, o.dim});
        const int root = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
        for (const char* method : {"full", "local", "strided", "chunked", "linear"}) {
            const std::string m = method;
            nn::PatternSpec spec;
            spec.pattern = m == "local"     ? AttentionPattern::Local
                           : m == "strided" ? AttentionPattern::Strided
                           : m == "chunked" ? AttentionPattern::Chunked
                                            : AttentionPattern::Linear;
            // Child et al.'s strided: a band of s and every s-th key, s = sqrt(N); chunks of sqrt(N).
            spec.window = m == "strided" ? root : o.window;
            spec.chunk = root;
            std::vector<double> times;
            double bytes = 0;
            for (int r = 0; r < o.repeats; ++r) {
                double seconds = 0;
                bytes = counting.peakBytesOf([&] {
                    const auto start = Clock::now();
                    const torch::Tensor out = m == "full" ? fullAttention(q, k, v) : patterned(spec, q, k, v);
                    static_cast<void>(out);
                    seconds = std::chrono::duration<double>(Clock::now() - start).count();
                });
                times.push_back(seconds);
            }
            std::sort(times.begin(), times.end());
            ComplexitySeries& s = result.methods[method];
            s.seconds.push_back(times[times.size() / 2]);
            s.bytes.push_back(bytes);
        }
        if (progress) progress("N = " + std::to_string(n) + " done");
    }
    for (auto& [name, s] : result.methods) {
        s.timeSlope = logLogSlope(o.lengths, s.seconds, o.fitFrom);
        s.memorySlope = logLogSlope(o.lengths, s.bytes, o.fitFrom);
    }
    return result;
}

}  // namespace attnlab
