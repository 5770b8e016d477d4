#include "Experiments.h"

#include <chrono>
#include <cmath>

#include "Trainer.h"
#include "engine/detail/TorchPch.h"
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
        Corpus corpus = generateDataset(o.dataset, data);
        for (const auto& name : o.attentions) {
            ModelConfig config;
            config.architecture = Architecture::Gru;
            config.attention = parseAttentionKind(name);
            config.hidden = o.hidden;
            config.bidirectional = o.bidirectional;
            config.maxLength = std::max(64, 2 * len + 2);
            TrainingOptions t;
            t.epochs = o.epochs;
            t.seed = o.seed;
            t.threads = o.threads;
            t.learningRate = o.learningRate;
            t.validationFraction = 0.1;
            t.tokenizer = o.tokenizer.value_or(findBuiltinDataset(o.dataset)->tokenizer);  // generated: it exists
            Trainer trainer(corpus, config, t);
            double accuracy = 0.0;
            trainer.run(nullptr,
                        [&](const EpochMetrics& m) {
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

// Each method returns the output and adds the bytes of its intermediates to *bytes.
torch::Tensor fullAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, double* bytes) {
    torch::Tensor scores = torch::mm(q, k.t()) / std::sqrt(static_cast<double>(q.size(1)));  // [N, N]
    torch::Tensor w = torch::softmax(scores, 1);                                             // [N, N]
    torch::Tensor out = torch::mm(w, v);                                                     // [N, d]
    *bytes += static_cast<double>(scores.nbytes() + w.nbytes() + out.nbytes());
    return out;
}

torch::Tensor localAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, int window,
                             double* bytes) {
    const int64_t N = q.size(0), d = q.size(1), W = 2 * window + 1;
    // Pad keys/values so every query has 2w+1 neighbours; padded keys get -inf.
    torch::Tensor kp = torch::nn::functional::pad(k, torch::nn::functional::PadFuncOptions({0, 0, window, window}));
    torch::Tensor vp = torch::nn::functional::pad(v, torch::nn::functional::PadFuncOptions({0, 0, window, window}));
    torch::Tensor kw = kp.unfold(0, W, 1).transpose(1, 2);  // [N, W, d] (a view)
    torch::Tensor vw = vp.unfold(0, W, 1).transpose(1, 2);
    torch::Tensor scores = torch::bmm(kw, q.unsqueeze(2)).squeeze(2) / std::sqrt(static_cast<double>(d));  // [N, W]
    torch::Tensor pos = torch::arange(N).unsqueeze(1) + torch::arange(W).unsqueeze(0) - window;           // [N, W]
    scores = scores.masked_fill(pos.lt(0).logical_or(pos.ge(N)), -std::numeric_limits<double>::infinity());
    torch::Tensor w = torch::softmax(scores, 1);
    torch::Tensor out = torch::bmm(w.unsqueeze(1), vw).squeeze(1);  // [N, d]
    // bmm materialises the unfolded windows: N * W * d per operand.
    *bytes += static_cast<double>(kp.nbytes() + vp.nbytes() + 2 * N * W * d * 4 + 2 * scores.nbytes() + w.nbytes() +
                                  pos.nbytes() + out.nbytes());
    return out;
}

torch::Tensor linearAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, double* bytes) {
    torch::Tensor fq = torch::elu(q) + 1, fk = torch::elu(k) + 1;   // [N, d]
    torch::Tensor kv = torch::mm(fk.t(), v);                         // [d, d]
    torch::Tensor z = fk.sum(0);                                     // [d]
    torch::Tensor out = torch::mm(fq, kv) / torch::mv(fq, z).unsqueeze(1);  // [N, d]
    *bytes += static_cast<double>(fq.nbytes() + fk.nbytes() + kv.nbytes() + z.nbytes() + out.nbytes());
    return out;
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
    ComplexityResult result;
    result.lengths = o.lengths;
    for (int n : o.lengths) {
        torch::Tensor q = torch::randn({n, o.dim}), k = torch::randn({n, o.dim}), v = torch::randn({n, o.dim});
        for (const char* method : {"full", "local", "linear"}) {
            std::vector<double> times;
            double bytes = 0;
            for (int r = 0; r < o.repeats; ++r) {
                double b = 0;
                const auto start = Clock::now();
                const std::string m = method;
                if (m == "full") fullAttention(q, k, v, &b);
                else if (m == "local") localAttention(q, k, v, o.window, &b);
                else linearAttention(q, k, v, &b);
                times.push_back(std::chrono::duration<double>(Clock::now() - start).count());
                bytes = b;
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
