#include "Metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

namespace attnlab {

namespace {

constexpr int kMaxOrder = 4;

using NgramCounts = std::map<Tokens, std::int64_t>;

NgramCounts countNgrams(const Tokens& tokens, int n) {
    NgramCounts counts;
    if (static_cast<int>(tokens.size()) < n) return counts;
    for (std::size_t i = 0; i + static_cast<std::size_t>(n) <= tokens.size(); ++i)
        ++counts[Tokens(tokens.begin() + static_cast<long>(i), tokens.begin() + static_cast<long>(i) + n)];
    return counts;
}

void checkShape(const AttentionMap& map) {
    if (map.rows < 0 || map.cols < 0 ||
        map.weights.size() != static_cast<std::size_t>(map.rows) * static_cast<std::size_t>(map.cols))
        throw std::invalid_argument("attention map: " + std::to_string(map.weights.size()) + " weights for " +
                                    std::to_string(map.rows) + "x" + std::to_string(map.cols));
}

// Column with most weight among the first colLimit columns (first on ties); -1 if all are NaN or -inf.
int argmaxColumn(const AttentionMap& map, int row, int colLimit) {
    int best = -1;
    float bestWeight = -std::numeric_limits<float>::infinity();
    for (int c = 0; c < colLimit; ++c) {
        float w = map.at(row, c);
        if (w > bestWeight) {
            best = c;
            bestWeight = w;
        }
    }
    return best;
}

// Gold links inside the effective limits, as a set (duplicates count once).
std::set<std::pair<int, int>> goldInside(const std::vector<AlignmentLink>& gold, int rowLimit, int colLimit) {
    std::set<std::pair<int, int>> links;  // (target, source)
    for (const auto& l : gold)
        if (l.target >= 0 && l.target < rowLimit && l.source >= 0 && l.source < colLimit)
            links.emplace(l.target, l.source);
    return links;
}

}  // namespace

double corpusBleu(const std::vector<Tokens>& hypotheses, const std::vector<Tokens>& references) {
    if (hypotheses.size() != references.size())
        throw std::invalid_argument("corpusBleu: " + std::to_string(hypotheses.size()) + " hypotheses but " +
                                    std::to_string(references.size()) + " references");
    std::int64_t sysLen = 0;
    std::int64_t refLen = 0;
    std::int64_t correct[kMaxOrder] = {};
    std::int64_t total[kMaxOrder] = {};
    for (std::size_t s = 0; s < hypotheses.size(); ++s) {
        const Tokens& hyp = hypotheses[s];
        const Tokens& ref = references[s];
        sysLen += static_cast<std::int64_t>(hyp.size());
        refLen += static_cast<std::int64_t>(ref.size());
        for (int n = 1; n <= kMaxOrder; ++n) {
            NgramCounts refCounts = countNgrams(ref, n);
            for (const auto& [ngram, count] : countNgrams(hyp, n)) {
                total[n - 1] += count;
                auto it = refCounts.find(ngram);
                if (it != refCounts.end()) correct[n - 1] += std::min(count, it->second);
            }
        }
    }

    // From here on this mirrors sacrebleu.metrics.BLEU.compute_bleu (smooth_method='exp').
    if (sysLen == 0) return 0.0;
    double brevity = sysLen < refLen ? std::exp(1.0 - static_cast<double>(refLen) / static_cast<double>(sysLen)) : 1.0;
    if (std::all_of(std::begin(correct), std::end(correct), [](std::int64_t c) { return c == 0; })) return 0.0;
    double logSum = 0.0;
    double smooth = 1.0;
    for (int n = 0; n < kMaxOrder; ++n) {
        // sacreBLEU stops at the first order with no n-grams and scores the rest as log(0): BLEU 0.
        if (total[n] == 0) return 0.0;
        double precision;
        if (correct[n] == 0) {
            smooth *= 2.0;
            precision = 1.0 / (smooth * static_cast<double>(total[n]));
        } else {
            precision = static_cast<double>(correct[n]) / static_cast<double>(total[n]);
        }
        logSum += std::log(precision);
    }
    return 100.0 * brevity * std::exp(logSum / kMaxOrder);
}

double attentionEntropy(const AttentionMap& map) {
    checkShape(map);
    if (map.rows == 0) return 0.0;
    double sum = 0.0;
    for (int r = 0; r < map.rows; ++r) {
        double h = 0.0;
        for (int c = 0; c < map.cols; ++c) {
            double p = map.at(r, c);
            if (p > 0.0) h -= p * std::log(p);
        }
        sum += h;
    }
    return sum / map.rows;
}

std::vector<AlignmentLink> argmaxLinks(const AttentionMap& map, int rowLimit, int colLimit) {
    checkShape(map);
    rowLimit = std::clamp(rowLimit, 0, map.rows);
    colLimit = std::clamp(colLimit, 0, map.cols);
    std::vector<AlignmentLink> links;
    for (int r = 0; r < rowLimit; ++r)
        if (const int c = argmaxColumn(map, r, colLimit); c >= 0) links.push_back({c, r});
    return links;
}

double alignmentErrorRate(const AttentionMap& map, const std::vector<AlignmentLink>& gold, int rowLimit,
                          int colLimit) {
    const std::vector<AlignmentLink> predicted = argmaxLinks(map, rowLimit, colLimit);
    rowLimit = std::clamp(rowLimit, 0, map.rows);
    colLimit = std::clamp(colLimit, 0, map.cols);
    const auto sure = goldInside(gold, rowLimit, colLimit);
    std::size_t hits = 0;
    for (const AlignmentLink& link : predicted) hits += sure.count({link.target, link.source});
    if (predicted.size() + sure.size() == 0) return std::numeric_limits<double>::quiet_NaN();
    return 1.0 - 2.0 * static_cast<double>(hits) / static_cast<double>(predicted.size() + sure.size());
}

double alignmentAgreement(const AttentionMap& map, const std::vector<AlignmentLink>& gold, int rowLimit,
                          int colLimit) {
    checkShape(map);
    rowLimit = std::clamp(rowLimit, 0, map.rows);
    colLimit = std::clamp(colLimit, 0, map.cols);
    auto sure = goldInside(gold, rowLimit, colLimit);
    std::set<int> rowsWithGold;
    for (const auto& link : sure) rowsWithGold.insert(link.first);
    if (rowsWithGold.empty()) return std::numeric_limits<double>::quiet_NaN();
    std::size_t agreeing = 0;
    for (int r : rowsWithGold) agreeing += sure.count({r, argmaxColumn(map, r, colLimit)});
    return static_cast<double>(agreeing) / static_cast<double>(rowsWithGold.size());
}

}  // namespace attnlab
