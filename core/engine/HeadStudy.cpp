#include "HeadStudy.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>

#include "base/InputError.h"
#include "base/forecast/Series.h"
#include "base/text/ClassifyCorpus.h"
#include "base/vision/ImageData.h"
#include "engine/detail/HeadStudyRunner.h"
#include "engine/detail/ModelAccess.h"
#include "engine/nn/networks/TransformerClassifierNet.h"

namespace attnlab {

using torch::Tensor;

int headsWithinTenPercent(const HeadStudyReport& report) {
    int best = 0;
    const double base = report.baseline.metric;
    for (const PruningPoint& p : report.pruningCurve) {
        const bool within = report.higherIsBetter ? p.metric >= 0.9 * base : p.metric <= 1.1 * base;
        if (!within) break;
        best = p.pruned;
    }
    return best;
}

std::vector<double> normalisePerLayer(const std::vector<double>& values, int heads) {
    std::vector<double> out(values.size(), 0.0);
    const std::size_t h = static_cast<std::size_t>(std::max(1, heads));
    for (std::size_t first = 0; first < values.size(); first += h) {
        const std::size_t last = std::min(values.size(), first + h);
        double norm = 0.0;
        for (std::size_t i = first; i < last; ++i) norm += values[i] * values[i];
        norm = std::sqrt(norm);
        for (std::size_t i = first; i < last; ++i) out[i] = norm > 0 ? values[i] / norm : 0.0;
    }
    return out;
}

namespace detail {

namespace {

using ModuleKey = std::pair<MapKind, int>;

// The subject's attention modules, each once, in head order.
std::vector<ModuleKey> modulesOf(const HeadSubject& subject) {
    std::vector<ModuleKey> out;
    for (const HeadId& h : subject.heads)
        if (out.empty() || out.back() != ModuleKey{h.kind, h.layer}) out.push_back({h.kind, h.layer});
    return out;
}

struct GateClear {
    const HeadSubject& subject;
    ~GateClear() { clearGates(subject); }
};

// The score with the first k heads of `order` off, for k = 0..n.
std::vector<PruningPoint> pruningCurve(const HeadSubject& subject, const std::vector<HeadId>& order,
                                       const HeadScore& baseline, const std::function<void()>& tick) {
    std::vector<PruningPoint> curve;
    const int n = static_cast<int>(order.size());
    for (int k = 0; k <= n; ++k) {
        const HeadScore s =
            k == 0 ? baseline : scoreWith(subject, std::vector<HeadId>(order.begin(), order.begin() + k));
        curve.push_back({k, n ? static_cast<double>(k) / n : 0.0, s.metric, s.loss});
        if (k) tick();
    }
    return curve;
}

}  // namespace

void clearGates(const HeadSubject& subject) {
    for (const ModuleKey& m : modulesOf(subject)) subject.module(m.first, m.second)->setHeadGate({});
}

HeadScore scoreWith(const HeadSubject& subject, const std::vector<HeadId>& off) {
    std::map<ModuleKey, Tensor> gates;
    for (const HeadId& h : off) {
        if (std::find(subject.heads.begin(), subject.heads.end(), h) == subject.heads.end())
            throw ConfigError("head " + toString(h) + " is not one of the model's");
        Tensor& gate = gates[{h.kind, h.layer}];
        if (!gate.defined()) gate = torch::ones({subject.headsPerLayer});
        gate[h.head] = 0.0f;
    }
    clearGates(subject);
    const GateClear clear{subject};
    for (auto& [where, gate] : gates) subject.module(where.first, where.second)->setHeadGate(gate);
    return subject.score();
}

std::vector<double> gateGradients(const HeadSubject& subject) {
    const std::vector<ModuleKey> modules = modulesOf(subject);
    const auto H = static_cast<std::size_t>(subject.headsPerLayer);
    std::vector<double> sums(modules.size() * H, 0.0);
    clearGates(subject);
    const GateClear clear{subject};
    torch::AutoGradMode grad(true);
    subject.forEachBatch([&](std::int64_t rows, const std::function<Tensor()>& loss) {
        std::vector<Tensor> gates;
        for (const ModuleKey& m : modules) {
            gates.push_back(torch::ones({rows, subject.headsPerLayer}, torch::requires_grad()));
            subject.module(m.first, m.second)->setHeadGate(gates.back());
        }
        const std::vector<Tensor> grads =
            torch::autograd::grad({loss()}, gates, {}, false, false, /*allow_unused=*/true);
        for (std::size_t g = 0; g < grads.size(); ++g) {
            if (!grads[g].defined()) continue;
            const Tensor perHead = grads[g].abs().sum(0).to(torch::kDouble).contiguous();
            const double* p = perHead.data_ptr<double>();
            for (std::size_t h = 0; h < H; ++h) sums[g * H + h] += p[h];
        }
    });
    return sums;
}

HeadStudyReport runHeadStudy(const HeadSubject& subject, const HeadStudyOptions& options,
                             const HeadStudyProgress& progress) {
    const std::vector<HeadId>& all = subject.heads;
    const int n = static_cast<int>(all.size());
    const int total = 1 + n + n + std::max(0, options.randomOrders) * n;
    int done = 0;
    auto tick = [&] {
        ++done;
        if (progress) progress(done, total);
    };

    HeadStudyReport report;
    report.baseline = scoreWith(subject, {});
    tick();
    const std::vector<double> gradients = gateGradients(subject);
    const std::vector<double> importance = normalisePerLayer(gradients, subject.headsPerLayer);
    for (std::size_t i = 0; i < all.size(); ++i) {
        HeadStudyEffect e;
        e.head = all[i];
        e.score = scoreWith(subject, {all[i]});
        e.deltaLoss = e.score.loss - report.baseline.loss;
        e.deltaMetric = e.score.metric - report.baseline.metric;
        e.gradient = gradients[i];
        e.importance = importance[i];
        report.heads.push_back(e);
        tick();
    }

    // Least important first; ties by head order.
    std::vector<std::size_t> rank(all.size());
    std::iota(rank.begin(), rank.end(), 0);
    std::stable_sort(rank.begin(), rank.end(), [&](std::size_t a, std::size_t b) { return importance[a] < importance[b]; });
    for (std::size_t i : rank) report.pruningOrder.push_back(all[i]);
    report.pruningCurve = pruningCurve(subject, report.pruningOrder, report.baseline, tick);

    if (options.randomOrders > 0) {
        std::mt19937_64 rng(options.seed);
        std::vector<PruningPoint> sum;
        for (int r = 0; r < options.randomOrders; ++r) {
            std::vector<HeadId> order = all;
            std::shuffle(order.begin(), order.end(), rng);
            const auto curve = pruningCurve(subject, order, report.baseline, tick);
            if (sum.empty()) {
                sum = curve;
                continue;
            }
            for (std::size_t k = 0; k < curve.size(); ++k) {
                sum[k].metric += curve[k].metric;
                sum[k].loss += curve[k].loss;
            }
        }
        for (auto& p : sum) {
            p.metric /= options.randomOrders;
            p.loss /= options.randomOrders;
        }
        report.randomCurve = std::move(sum);
    }
    return report;
}

}  // namespace detail

}  // namespace attnlab
