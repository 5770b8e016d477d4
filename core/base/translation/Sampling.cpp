#include "base/translation/Sampling.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attnlab {

std::vector<double> temperatureSoftmax(const std::vector<double>& logits, double temperature) {
    std::vector<double> p(logits.size(), 0.0);
    if (logits.empty()) return p;
    const double top = *std::max_element(logits.begin(), logits.end());
    double sum = 0.0;
    for (std::size_t i = 0; i < logits.size(); ++i) {
        p[i] = std::exp((logits[i] - top) / temperature);
        sum += p[i];
    }
    for (double& x : p) x /= sum;  // sum >= 1: the largest logit contributes exp(0)
    return p;
}

SamplingCut cutDistribution(const std::vector<double>& probabilities, int topK, double topP) {
    SamplingCut cut;
    const std::size_t n = probabilities.size();
    cut.order.resize(n);
    std::iota(cut.order.begin(), cut.order.end(), std::size_t{0});
    std::stable_sort(cut.order.begin(), cut.order.end(),
                     [&](std::size_t a, std::size_t b) { return probabilities[a] > probabilities[b]; });
    if (n == 0) return cut;
    const std::size_t k = topK > 0 ? std::min(n, static_cast<std::size_t>(topK)) : n;
    double topKMass = 0.0;
    for (std::size_t i = 0; i < k; ++i) topKMass += probabilities[cut.order[i]];
    // p = 1 is the same rule: the smallest prefix holding all the mass, so tokens of probability 0
    // (a temperature near 0 underflows all but the most probable) are not kept.
    std::size_t kept = k;
    double cumulative = 0.0;
    for (std::size_t i = 0; i < k && topKMass > 0.0; ++i) {
        cumulative += probabilities[cut.order[i]];
        if (cumulative / topKMass >= std::min(topP, 1.0) - 1e-9) {
            kept = i + 1;
            break;
        }
    }
    cut.kept = std::max<std::size_t>(kept, 1);
    for (std::size_t i = 0; i < cut.kept; ++i) cut.keptMass += probabilities[cut.order[i]];
    return cut;
}

std::size_t drawFromCut(const SamplingCut& cut, const std::vector<double>& probabilities, double u) {
    const double target = u * cut.keptMass;
    double cumulative = 0.0;
    for (std::size_t i = 0; i < cut.kept; ++i) {
        cumulative += probabilities[cut.order[i]];
        if (target < cumulative) return cut.order[i];
    }
    return cut.order[cut.kept - 1];  // u * mass rounded up to the full mass
}

}  // namespace attnlab
