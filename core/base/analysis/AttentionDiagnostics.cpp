#include "AttentionDiagnostics.h"

#include "base/Tokenizer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attnlab {

namespace {


bool isCross(MapKind kind) { return kind == MapKind::Cross; }

bool shapeMatches(const AttentionMap& map) {
    return map.rows >= 0 && map.cols >= 0 &&
           map.weights.size() == static_cast<std::size_t>(map.rows) * static_cast<std::size_t>(map.cols);
}

// A weight as attention mass: negative and non-finite weights carry none.
double mass(float w) { return std::isfinite(w) && w > 0.0f ? static_cast<double>(w) : 0.0; }

void addFinding(std::vector<Finding>& out, const DiagnosticFlag& flag) {
    if (flag.raised() && std::find(out.begin(), out.end(), flag.finding) == out.end()) out.push_back(flag.finding);
}

}  // namespace

bool isSpecialToken(const std::string& token) { return token == "<s>" || token == "</s>" || token == "<pad>"; }

bool isSinkToken(const std::string& token) {
    if (isSpecialToken(token)) return true;
    if (token.empty()) return false;
    for (std::size_t pos = 0; pos < token.size();) {
        if (!isPunctuationCodePoint(decodeUtf8(token, pos))) return false;
    }
    return true;
}

MapDiagnostics diagnoseMap(const AttentionMap& map, const std::vector<std::string>& keyTokens,
                           const DiagnosticThresholds& thresholds) {
    if (!shapeMatches(map))
        throw std::invalid_argument("attention map: " + std::to_string(map.weights.size()) + " weights for " +
                                    std::to_string(map.rows) + "x" + std::to_string(map.cols));
    MapDiagnostics d;
    d.rows = map.rows;
    d.cols = map.cols;
    const int n = map.cols;
    d.bandHalfWidth = std::max(1, n / 10);
    d.received.assign(static_cast<std::size_t>(n), 0.0);
    if (map.rows == 0 || n == 0) return d;

    std::vector<bool> sink(static_cast<std::size_t>(n), false);
    std::vector<bool> content(static_cast<std::size_t>(n), true);
    for (int c = 0; c < n && c < static_cast<int>(keyTokens.size()); ++c) {
        sink[static_cast<std::size_t>(c)] = isSinkToken(keyTokens[static_cast<std::size_t>(c)]);
        content[static_cast<std::size_t>(c)] = !isSpecialToken(keyTokens[static_cast<std::size_t>(c)]);
    }
    const double logN = std::log(static_cast<double>(n));
    double entropySum = 0.0;
    double diagonalSum = 0.0;
    double sinkSum = 0.0;
    for (int r = 0; r < map.rows; ++r) {
        double total = 0.0;
        for (int c = 0; c < n; ++c) total += mass(map.at(r, c));
        if (!(total > 0.0) || !std::isfinite(total)) continue;
        ++d.rowsUsed;
        const double centre = map.rows > 1 ? static_cast<double>(r) * (n - 1) / (map.rows - 1) : (n - 1) / 2.0;
        double h = 0.0;
        double band = 0.0;
        double sinkMass = 0.0;
        for (int c = 0; c < n; ++c) {
            const double p = mass(map.at(r, c)) / total;
            if (p > 0.0) h -= p * std::log(p);
            // The tolerance absorbs rounding in d(r): a key exactly w away is in the band.
            if (std::abs(c - centre) <= d.bandHalfWidth + 1e-9) band += p;
            if (sink[static_cast<std::size_t>(c)]) sinkMass += p;
            d.received[static_cast<std::size_t>(c)] += p;
        }
        entropySum += n > 1 ? h / logN : 0.0;
        diagonalSum += band;
        sinkSum += sinkMass;
    }
    if (d.rowsUsed == 0) return d;
    for (int c = 0; c < n; ++c) {
        if (!content[static_cast<std::size_t>(c)]) continue;
        ++d.contentKeys;
        if (d.received[static_cast<std::size_t>(c)] < thresholds.coverageMinimum) {
            d.uncovered.push_back(c);
            d.uncoveredTokens.push_back(c < static_cast<int>(keyTokens.size()) ? keyTokens[static_cast<std::size_t>(c)]
                                                                                 : "#" + std::to_string(c));
        }
    }
    // Row spread: each used row's distance from the mean row.
    if (d.rowsUsed >= 3 && n >= 3) {
        std::vector<double> meanRow(static_cast<std::size_t>(n), 0.0);
        std::vector<std::vector<double>> rows;
        for (int r = 0; r < map.rows; ++r) {
            double total = 0.0;
            for (int c = 0; c < n; ++c) total += mass(map.at(r, c));
            if (!(total > 0.0) || !std::isfinite(total)) continue;
            std::vector<double> p(static_cast<std::size_t>(n));
            for (int c = 0; c < n; ++c) {
                p[static_cast<std::size_t>(c)] = mass(map.at(r, c)) / total;
                meanRow[static_cast<std::size_t>(c)] += p[static_cast<std::size_t>(c)] / d.rowsUsed;
            }
            rows.push_back(std::move(p));
        }
        double spread = 0.0;
        for (const auto& p : rows) {
            double l1 = 0.0;
            for (int c = 0; c < n; ++c) l1 += std::abs(p[static_cast<std::size_t>(c)] - meanRow[static_cast<std::size_t>(c)]);
            spread += 0.5 * l1;
        }
        d.rowSpread = std::clamp(spread / static_cast<double>(rows.size()), 0.0, 1.0);
        d.spreadJudged = true;
    }
    d.valid = true;
    d.entropy = std::clamp(entropySum / d.rowsUsed, 0.0, 1.0);
    d.diagonality = std::clamp(diagonalSum / d.rowsUsed, 0.0, 1.0);
    d.sinkMass = std::clamp(sinkSum / d.rowsUsed, 0.0, 1.0);
    return d;
}

HeadDiagnostics judge(MapKind kind, int layer, int head, const MapDiagnostics& values,
                      const DiagnosticThresholds& t) {
    HeadDiagnostics h;
    h.kind = kind;
    h.layer = layer;
    h.head = head;
    h.values = values;
    if (!values.valid) return h;
    const bool cross = isCross(kind);
    auto warn = [](Finding finding) { return DiagnosticFlag{DiagnosticLevel::Warn, finding}; };
    if (values.entropy >= t.entropyWarn) h.entropy = warn(cross ? Finding::Dispersed : Finding::BroadHeads);
    if (values.sinkMass >= t.sinkWarn) h.sink = warn(cross ? Finding::SinkCross : Finding::SinkSelf);
    if (cross && values.diagonality < t.diagonalityWarn) {
        // Sharp attention off the diagonal is a reordering, unless it is parked on a sink.
        const bool reordered = values.entropy < t.sharpEntropy && !h.sink.raised();
        h.diagonality = warn(reordered ? Finding::Reordered : Finding::Unaligned);
    }
    if (cross && static_cast<int>(values.uncovered.size()) >= std::max(1, t.coverageWarnCount))
        h.coverage = warn(Finding::Uncovered);
    if (cross && values.spreadJudged && values.rowSpread < t.rowSpreadWarn) h.sameRows = warn(Finding::SameRows);
    return h;
}

std::vector<std::string> queryTokensFor(const Translation& t, MapKind kind) {
    return kind == MapKind::Encoder ? t.sourceTokens : t.outputTokens;
}

std::vector<std::string> keyTokensFor(const Translation& t, MapKind kind) {
    if (kind == MapKind::Decoder) {
        std::vector<std::string> keys{"<s>"};
        if (!t.outputTokens.empty()) keys.insert(keys.end(), t.outputTokens.begin(), t.outputTokens.end() - 1);
        return keys;
    }
    return t.sourceTokens;
}

ModelDiagnostics diagnoseTranslation(const Translation& translation, const DiagnosticThresholds& thresholds) {
    ModelDiagnostics out;
    for (const MapKind kind : kMapKinds) {
        const auto found = translation.attention.find(kind);
        if (found == translation.attention.end()) continue;
        const std::vector<std::string> keys = keyTokensFor(translation, kind);
        MapDiagnostics summary;
        AttentionMap meanMap;
        int valid = 0;
        int averaged = 0;
        bool sameShape = true;
        for (std::size_t l = 0; l < found->second.size(); ++l) {
            for (std::size_t h = 0; h < found->second[l].size(); ++h) {
                const AttentionMap& map = found->second[l][h];
                if (!shapeMatches(map)) continue;
                const MapDiagnostics d = diagnoseMap(map, keys, thresholds);
                out.heads.push_back(judge(kind, static_cast<int>(l), static_cast<int>(h), d, thresholds));
                if (!d.valid) continue;
                ++valid;
                summary.entropy += d.entropy;
                summary.diagonality += d.diagonality;
                summary.sinkMass += d.sinkMass;
                summary.rowSpread += d.rowSpread;
                if (d.spreadJudged) summary.spreadJudged = true;
                if (averaged == 0) {
                    meanMap = AttentionMap{map.rows, map.cols, std::vector<float>(map.weights.size(), 0.0f)};
                } else if (map.rows != meanMap.rows || map.cols != meanMap.cols) {
                    sameShape = false;
                    continue;
                }
                // Rows scaled to sum 1 first, so each head has the same say in the mean.
                for (int r = 0; r < map.rows; ++r) {
                    double total = 0.0;
                    for (int c = 0; c < map.cols; ++c) total += mass(map.at(r, c));
                    if (!(total > 0.0) || !std::isfinite(total)) continue;
                    for (int c = 0; c < map.cols; ++c)
                        meanMap.weights[static_cast<std::size_t>(r) * map.cols + c] +=
                            static_cast<float>(mass(map.at(r, c)) / total);
                }
                ++averaged;
            }
        }
        if (valid == 0) continue;
        // Coverage from the mean map of the heads; the three means from the heads themselves.
        for (float& w : meanMap.weights) w /= static_cast<float>(averaged);
        MapDiagnostics kindValues = diagnoseMap(meanMap, keys, thresholds);
        if (!sameShape) {  // maps of one kind share their shape; if not, there is no common coverage
            kindValues.uncovered.clear();
            kindValues.uncoveredTokens.clear();
        }
        kindValues.valid = true;
        kindValues.entropy = summary.entropy / valid;
        kindValues.diagonality = summary.diagonality / valid;
        kindValues.sinkMass = summary.sinkMass / valid;
        kindValues.rowSpread = summary.rowSpread / valid;  // the heads' mean, as for the three above
        kindValues.spreadJudged = summary.spreadJudged;
        out.summaries.push_back(judge(kind, -1, -1, kindValues, thresholds));
    }
    return out;
}

std::vector<Finding> ModelDiagnostics::findings() const {
    std::vector<Finding> out;
    for (const auto* list : {&summaries, &heads}) {
        for (const HeadDiagnostics& h : *list) {
            addFinding(out, h.entropy);
            addFinding(out, h.diagonality);
            addFinding(out, h.sink);
            addFinding(out, h.coverage);
            addFinding(out, h.sameRows);
        }
    }
    return out;
}

const char* findingName(Finding finding) {
    switch (finding) {
    case Finding::None: return "none";
    case Finding::Dispersed: return "dispersed";
    case Finding::BroadHeads: return "broad-heads";
    case Finding::SinkCross: return "sink-cross";
    case Finding::SinkSelf: return "sink-self";
    case Finding::Reordered: return "reordered";
    case Finding::Unaligned: return "unaligned";
    case Finding::Uncovered: return "uncovered";
    case Finding::SameRows: return "same-rows";
    }
    return "none";
}

}  // namespace attnlab
