#include "RankCorrelation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace attnlab {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
int sign(double x) { return (x > 0) - (x < 0); }
}  // namespace

double kendallTau(const std::vector<double>& a, const std::vector<double>& b) {
    const std::size_t n = a.size();
    if (n != b.size() || n < 2) return kNaN;
    // O(n^2): explanations cover one text, at most a few hundred words.
    double concordant = 0, discordant = 0, tiesA = 0, tiesB = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
            const int s = sign(a[i] - a[j]) * sign(b[i] - b[j]);
            if (s > 0) ++concordant;
            else if (s < 0) ++discordant;
            if (a[i] == a[j]) ++tiesA;
            if (b[i] == b[j]) ++tiesB;
        }
    const double pairs = static_cast<double>(n) * (n - 1) / 2.0;
    const double denominator = std::sqrt((pairs - tiesA) * (pairs - tiesB));
    return denominator > 0 ? (concordant - discordant) / denominator : kNaN;
}

std::vector<double> averageRanks(const std::vector<double>& values) {
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return values[x] < values[y]; });
    std::vector<double> ranks(values.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]]) ++j;
        const double rank = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
        for (std::size_t k = i; k <= j; ++k) ranks[order[k]] = rank;
        i = j + 1;
    }
    return ranks;
}

double spearmanRho(const std::vector<double>& a, const std::vector<double>& b) {
    const std::size_t n = a.size();
    if (n != b.size() || n < 2) return kNaN;
    const std::vector<double> ra = averageRanks(a), rb = averageRanks(b);
    const double mean = (static_cast<double>(n) + 1.0) / 2.0;
    double sab = 0, saa = 0, sbb = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sab += (ra[i] - mean) * (rb[i] - mean);
        saa += (ra[i] - mean) * (ra[i] - mean);
        sbb += (rb[i] - mean) * (rb[i] - mean);
    }
    return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : kNaN;
}

double macroF1(const std::vector<int>& predicted, const std::vector<int>& truth, int classes) {
    if (predicted.size() != truth.size() || classes < 1) return kNaN;
    std::vector<double> tp(classes), fp(classes), fn(classes);
    for (std::size_t i = 0; i < truth.size(); ++i) {
        const int p = predicted[i], t = truth[i];
        if (t < 0 || t >= classes || p < 0 || p >= classes) continue;
        if (p == t) ++tp[t];
        else {
            ++fp[p];
            ++fn[t];
        }
    }
    double sum = 0;
    int counted = 0;
    for (int c = 0; c < classes; ++c) {
        if (tp[c] + fp[c] + fn[c] == 0) continue;
        sum += 2 * tp[c] / (2 * tp[c] + fp[c] + fn[c]);
        ++counted;
    }
    return counted ? sum / counted : kNaN;
}

}  // namespace attnlab
