#include "LongRangeExperiment.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <ctime>
#include <sstream>

#include "base/InputError.h"
#include "base/text/ClassifierConfig.h"
#include "base/text/ClassifyDatasets.h"
#include "engine/Runtime.h"
#include "engine/detail/CountingAllocator.h"
#include "engine/detail/TorchPch.h"
#include "engine/nn/networks/TransformerClassifierNet.h"

namespace attnlab {

namespace {

using Clock = std::chrono::steady_clock;

// The exponent of a pattern's memory in N when nothing is measured yet (and the least a
// prediction assumes: small N is overhead-bound, so a fitted slope there underestimates).
double memoryExponent(AttentionPattern p) {
    switch (p) {
    case AttentionPattern::Full: return 2.0;
    case AttentionPattern::Strided:
    case AttentionPattern::Chunked: return 1.5;
    default: return 1.0;
    }
}

constexpr double kMargin = 1.25;  // a prediction times this must fit the budget

// needle texts of one length as token ids: every text has exactly `length` words, so no padding.
struct Batches {
    torch::Tensor ids;     // [texts, length] int64
    torch::Tensor labels;  // [texts] int64
};

Batches encodeNeedle(std::size_t count, std::uint64_t seed, int length, std::map<std::string, std::int64_t>& words,
                     const std::vector<std::string>& labels, std::int64_t vocabulary) {
    Batches b;
    if (count == 0) return {torch::zeros({0, length}, torch::kLong), torch::zeros({0}, torch::kLong)};
    const ClassificationCorpus corpus = makeClassificationDataset("needle", count, seed, length);
    b.ids = torch::zeros({static_cast<std::int64_t>(count), length}, torch::kLong);
    b.labels = torch::zeros({static_cast<std::int64_t>(count)}, torch::kLong);
    auto* ids = b.ids.data_ptr<std::int64_t>();
    auto* ys = b.labels.data_ptr<std::int64_t>();
    for (std::size_t i = 0; i < count; ++i) {
        const LabeledText& e = corpus.examples[i];
        ys[i] = std::find(labels.begin(), labels.end(), e.label) - labels.begin();
        std::istringstream in(e.text);
        int j = 0;
        for (std::string w; in >> w && j < length; ++j) {
            auto it = words.find(w);
            if (it == words.end()) {
                const auto id = static_cast<std::int64_t>(words.size()) + 1;  // 0 is padding
                if (id >= vocabulary) throw std::logic_error("needle has more words than the experiment's vocabulary");
                it = words.emplace(w, id).first;
            }
            ids[i * static_cast<std::size_t>(length) + static_cast<std::size_t>(j)] = it->second;
        }
    }
    return b;
}

std::shared_ptr<nn::ClassifierNet> makeNet(const ClassifierConfig& config) {
    auto net = nn::makeClassifierNetwork(config);
    std::dynamic_pointer_cast<nn::TransformerClassifierNetImpl>(net)->setCaptureMaps(false);
    net->train();  // dropout is 0: training mode computes what eval mode would, without maps
    return net;
}

// The previous length's weights into a network built for the next one (the same parameters; the
// positions buffer and the pattern's chunk follow the length).
void copyParameters(const torch::nn::Module& from, torch::nn::Module& to) {
    torch::NoGradGuard noGrad;
    const auto source = from.named_parameters();
    for (auto& p : to.named_parameters()) p.value().copy_(source[p.key()]);
}

// The process' CPU seconds: what a step costs whatever else the machine runs (the wall time of
// a step on a machine shared with builds grew twenty-fold, its CPU time did not).
double processCpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

std::string patternComplexity(const std::string& pattern) {
    if (pattern == "full") return "O(N^2)";
    if (pattern == "local") return "O(N W)";
    if (pattern == "strided" || pattern == "chunked") return "O(N sqrt N)";
    if (pattern == "linear") return "O(N)";
    return "";
}

LongRangeResult runLongRangeExperiment(const LongRangeOptions& o,
                                       const std::function<void(int, int, const std::string&)>& progress,
                                       const std::atomic<bool>* stop,
                                       const std::function<void(const LongRangeRow&)>& onRow) {
    if (o.patterns.empty()) throw ConfigError("--patterns needs at least one pattern");
    std::vector<AttentionPattern> patterns;
    for (const auto& name : o.patterns) patterns.push_back(parseAttentionPattern(name));
    if (o.lengths.empty()) throw ConfigError("--lengths needs at least one length");
    std::vector<int> lengths = o.lengths;
    std::sort(lengths.begin(), lengths.end());
    lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());
    for (int n : lengths)
        if (n < 8 || n > 65536) throw ConfigError("--lengths must be between 8 and 65536, got " + std::to_string(n));
    if (o.maxLength < 8 || o.maxLength > 65536)
        throw ConfigError("--max-length must be between 8 and 65536, got " + std::to_string(o.maxLength));
    if (o.steps < 1 || o.extendSteps < 1 || o.batch < 1 || o.texts < 4 || o.warmupSteps < 0)
        throw ConfigError("steps, batch and texts must be positive (texts at least 4)");
    if (o.warmupLength < 8 || o.warmupLength > 65536)
        throw ConfigError("--warmup-length must be between 8 and 65536, got " + std::to_string(o.warmupLength));
    const double physical = static_cast<double>(physicalMemoryBytes());
    if (!(o.memoryBudget >= 16.0 * 1024 * 1024))
        throw ConfigError("--memory-budget must be at least 16 MB");
    if (physical > 0 && o.memoryBudget > 0.8 * physical)
        throw ConfigError("--memory-budget of " + std::to_string(static_cast<long long>(o.memoryBudget / 1048576)) +
                          " MB exceeds 80% of this machine's " +
                          std::to_string(static_cast<long long>(physical / 1048576)) + " MB");

    ClassifierConfig base;
    base.architecture = ClassifierArchitecture::Transformer;
    base.hidden = o.hidden;
    base.layers = o.layers;
    base.heads = o.heads;
    base.feedForward = o.feedForward;
    base.dropout = 0.0f;
    base.window = o.window;
    base.vocabulary = 64;  // needle: 30 noise words and 8 keywords
    const std::vector<std::string> labels{"blue", "green", "red", "yellow"};
    base.classes = static_cast<int>(labels.size());
    {
        ClassifierConfig check = base;  // the classifier's own limits, but for the length (and s)
        check.maxLength = 256;
        if (const std::string why = validate(check); !why.empty()) throw ConfigError(why);
    }

    LongRangeResult result;
    result.memoryBudget = o.memoryBudget;
    int total = static_cast<int>(patterns.size() * lengths.size()), done = 0;
    std::map<std::string, std::int64_t> words;
    const auto budget = static_cast<std::size_t>(o.memoryBudget);

    for (std::size_t pi = 0; pi < patterns.size(); ++pi) {
        const std::string& name = o.patterns[pi];
        int longest = 0;
        std::vector<std::pair<int, double>> measured;  // (N, peak bytes)
        std::shared_ptr<nn::ClassifierNet> previous;
        std::vector<int> plan;
        const std::size_t first = o.warmupSteps > 0 ? 1 : 0;  // the warm-up, trained but not reported
        if (first) plan.push_back(o.warmupLength);
        plan.insert(plan.end(), lengths.begin(), lengths.end());
        bool over = false;
        for (std::size_t li = 0; li < plan.size(); ++li) {
            if (stop && stop->load()) return result;
            const int n = plan[li];
            const bool warm = li < first;
            const bool extension = li >= first + lengths.size();
            LongRangeRow row;
            row.pattern = name;
            row.length = n;
            if (!measured.empty() && !warm) {
                const auto [n1, p1] = measured.back();
                double slope = memoryExponent(patterns[pi]);
                if (measured.size() >= 2) {
                    const auto [n0, p0] = measured[measured.size() - 2];
                    if (p0 > 0 && p1 > 0) slope = std::max(slope, std::log(p1 / p0) / std::log(double(n1) / n0));
                }
                row.predictedBytes = p1 * std::pow(double(n) / n1, slope);
            }
            if (over || row.predictedBytes * kMargin > o.memoryBudget) {
                row.overBudget = true;
                result.rows.push_back(row);
                if (onRow) onRow(row);
                over = true;
                if (!extension && progress)
                    progress(++done, total, name + " at N = " + std::to_string(n) + ": over the memory budget");
                if (extension) break;
                continue;
            }

            ClassifierConfig config = base;
            config.pattern = patterns[pi];
            config.maxLength = n;
            // Child et al.'s strided: a band of s and every s-th key, s = sqrt(N), so that two
            // layers reach every position; chunks of sqrt(N) (chunk 0 resolves to it).
            if (config.pattern == AttentionPattern::Strided)
                config.window = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n + 1))));
            const int steps = warm ? o.warmupSteps : extension ? o.extendSteps : o.steps;
            row.steps = steps;
            const std::uint64_t seed = o.seed * 1000003ULL + static_cast<std::uint64_t>(n);
            detail::CountingScope counting(budget);
            try {
                torch::manual_seed(o.seed + pi);
                auto net = makeNet(config);
                if (previous) copyParameters(*previous, *net);
                torch::optim::Adam optimizer(net->parameters(), torch::optim::AdamOptions(o.learningRate));
                const Batches train = encodeNeedle(static_cast<std::size_t>(steps * o.batch), seed, n, words, labels,
                                                   base.vocabulary);
                const Batches valid = encodeNeedle(warm ? std::size_t{0} : o.texts, seed ^ 0x5bd1e995ULL, n, words, labels, base.vocabulary);
                std::vector<double> times, cpuTimes;
                double peak = 0;
                for (int s = 0; s < steps; ++s) {
                    if (stop && stop->load()) return result;
                    const torch::Tensor ids = train.ids.narrow(0, s * o.batch, o.batch);
                    const torch::Tensor ys = train.labels.narrow(0, s * o.batch, o.batch);
                    const torch::Tensor lens = torch::full({o.batch}, n, torch::kLong);
                    double seconds = 0, cpu = 0;
                    peak = std::max(peak, counting.peakBytesOf([&] {
                        const auto start = Clock::now();
                        const double cpuStart = processCpuSeconds();
                        optimizer.zero_grad();
                        torch::Tensor loss = torch::cross_entropy_loss(net->forward(ids, lens).logits, ys);
                        loss.backward();
                        torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);
                        optimizer.step();
                        seconds = std::chrono::duration<double>(Clock::now() - start).count();
                        cpu = processCpuSeconds() - cpuStart;
                    }));
                    times.push_back(seconds);
                    cpuTimes.push_back(cpu);
                }
                std::int64_t right = 0;
                {
                    torch::NoGradGuard noGrad;
                    for (std::int64_t at = 0; at < valid.ids.size(0); at += o.batch) {
                        const std::int64_t b = std::min<std::int64_t>(o.batch, valid.ids.size(0) - at);
                        const torch::Tensor logits =
                            net->forward(valid.ids.narrow(0, at, b), torch::full({b}, n, torch::kLong)).logits;
                        right += logits.argmax(1).eq(valid.labels.narrow(0, at, b)).sum().item<std::int64_t>();
                    }
                }
                row.ran = true;
                row.accuracy = valid.ids.size(0) ? static_cast<double>(right) / static_cast<double>(valid.ids.size(0)) : 0.0;
                row.secondsPerStep = median(times);
                row.cpuSecondsPerStep = median(cpuTimes);
                row.peakBytes = peak;
                if (!warm) {
                    measured.emplace_back(n, peak);
                    longest = n;
                }
                previous = net;
            } catch (const c10::Error&) {
                if (!counting.refused()) throw;
                row.overBudget = true;  // an allocation would have passed the budget
            }
            if (warm) {
                if (!row.ran) throw ConfigError("the warm-up at N = " + std::to_string(n) + " exceeds the memory budget");
                if (progress) progress(done, total, name + ": warmed up at N = " + std::to_string(n));
                continue;
            }
            result.rows.push_back(row);
            if (onRow) onRow(row);
            if (extension) ++total;
            if (progress) {
                std::ostringstream m;
                m << name << " at N = " << n << ": ";
                if (row.ran)
                    m << "accuracy " << std::round(row.accuracy * 1000) / 1000 << ", "
                      << std::round(row.secondsPerStep * 1000) << " ms/step (CPU "
                      << std::round(row.cpuSecondsPerStep * 1000) << " ms), peak "
                      << std::round(row.peakBytes / 1048576) << " MB";
                else
                    m << "over the memory budget";
                progress(++done, total, m.str());
            }
            if (!row.ran) {
                over = true;
                if (extension) break;
                continue;
            }
            if (li + 1 == plan.size() && o.extend && n * 2 <= o.maxLength) plan.push_back(n * 2);
        }
        result.longest.emplace_back(name, longest);
    }
    return result;
}

}  // namespace attnlab
