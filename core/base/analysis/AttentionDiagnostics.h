#pragma once
// Four numbers per attention head that say whether attention has learnt something useful, each
// judged ok or warn against a threshold. Plain C++: the Diagnostics view turns each raised Finding
// into a plain-language explanation and advice (they are translated there).
//
// A map has queries on rows and keys on columns (AttentionMap). Every row is first scaled to sum 1
// (local-p attention, for one, does not); negative and non-finite weights count as 0 and rows
// with no mass left are skipped. With n = cols:
//   entropy      mean over rows of H(row) / ln(n), in [0, 1]: 0 when every row looks at a single
//                key, 1 when every row spreads evenly over all keys. 0 when n == 1.
//   diagonality  mean over rows of the row's mass within w keys of the rescaled diagonal, in [0, 1].
//                Row r's diagonal key is d(r) = r (n - 1) / (rows - 1) ((n - 1) / 2 for one row), so
//                the first query meets the first key and the last query the last key even when the
//                map is not square; the band is every key c with |c - d(r)| <= w, w = max(1, n / 10)
//                (integer division). Identity: 1. An anti-diagonal of n x n keeps only the one or two
//                middle rows in the band. A uniform map scores about (2w + 1) / n: read diagonality
//                together with entropy.
//   sink mass    mean over rows of the mass on sink keys: <s>, </s>, <pad> and tokens made only of
//                punctuation (isSinkToken). Heads with nothing to do park their attention there.
//   coverage     the keys whose attention received, summed over all rows, is below
//                coverageMinimum: source words that no output step looked at. The special tokens
//                <s>, </s> and <pad> are not counted (there is nothing to translate in them).
//   row spread   mean over rows of the total variation distance (half the L1 distance) between the
//                row and the mean row, in [0, 1]: 0 when every row is the same distribution. A
//                cross-attention map whose rows barely differ means the decoder looks at the same
//                source positions at every step: it is not using attention to move through the source.
//                Judged only with 3 or more rows and 3 or more keys (0 otherwise).
// Diagonality, coverage and row spread are judged (may warn) only for cross-attention: self-attention has no
// reason to be diagonal nor to visit every token. Entropy and sink mass are judged for every kind.
#include "base/AttentionMap.h"

#include <string>
#include <vector>

namespace attnlab {

enum class DiagnosticLevel { Ok, Warn };

// What a raised flag means. None for an ok flag.
enum class Finding {
    None,
    Dispersed,   // cross-attention spread over the sentence: no word is focused on
    BroadHeads,  // self-attention that averages over the whole sequence
    SinkCross,   // the decoder parks its attention on </s> or punctuation instead of aligning
    SinkSelf,    // self-attention heads that park on </s> or punctuation ("no-op" heads)
    Reordered,   // cross-attention sharp but off the diagonal: the word order changes
    Unaligned,   // cross-attention neither diagonal nor sharp: spread around a reordering, or not aligned yet
    Uncovered,   // source tokens that (almost) no output step attended to
    SameRows,    // every output step attends alike: the decoder does not move through the source
};

struct DiagnosticThresholds {
    double entropyWarn = 0.6;       // warn when entropy >= this
    double diagonalityWarn = 0.5;   // warn when diagonality < this (cross-attention)
    double sharpEntropy = 0.35;     // below it an off-diagonal map not parked on a sink is Reordered, else Unaligned
    double sinkWarn = 0.4;          // warn when sink mass >= this
    double coverageMinimum = 0.1;   // a key receiving less in total (over all rows) is uncovered
    int coverageWarnCount = 1;      // warn when at least this many keys are uncovered (cross-attention)
    double rowSpreadWarn = 0.1;     // warn when row spread < this (cross-attention, 3+ rows and keys)
};

// The numbers of one map (see the definitions above).
struct MapDiagnostics {
    bool valid = false;  // false for an empty map or one whose rows all carry no attention
    int rows = 0;
    int cols = 0;
    int rowsUsed = 0;    // rows with attention mass
    double entropy = 0.0;
    double diagonality = 0.0;
    double sinkMass = 0.0;
    double rowSpread = 0.0;
    bool spreadJudged = false;  // 3 or more rows used and 3 or more keys
    int bandHalfWidth = 1;
    std::vector<double> received;              // per key: row-normalised attention summed over rows
    int contentKeys = 0;                       // keys that count for coverage (special tokens excluded)
    std::vector<int> uncovered;                // those keys below coverageMinimum, ascending
    std::vector<std::string> uncoveredTokens;  // their labels
    double uncoveredFraction() const {
        return contentKeys > 0 ? static_cast<double>(uncovered.size()) / contentKeys : 0.0;
    }
};

struct DiagnosticFlag {
    DiagnosticLevel level = DiagnosticLevel::Ok;
    Finding finding = Finding::None;
    bool raised() const { return level != DiagnosticLevel::Ok; }
};

// One head, or (layer == head == -1) the summary of every head and layer of a kind.
struct HeadDiagnostics {
    MapKind kind = MapKind::Cross;
    int layer = -1;
    int head = -1;
    MapDiagnostics values;
    DiagnosticFlag entropy;
    DiagnosticFlag diagonality;
    DiagnosticFlag sink;
    DiagnosticFlag coverage;
    DiagnosticFlag sameRows;
    bool isSummary() const { return layer < 0; }
    bool anyRaised() const {
        return entropy.raised() || diagonality.raised() || sink.raised() || coverage.raised() || sameRows.raised();
    }
};

struct ModelDiagnostics {
    // Per kind, in the order cross, encoder, decoder (kinds the translation has): entropy,
    // diagonality and sink mass are the means over the kind's valid heads and layers; coverage is
    // that of the mean map of those heads, so a token is uncovered only if the heads together
    // neglect it.
    std::vector<HeadDiagnostics> summaries;
    std::vector<HeadDiagnostics> heads;  // every head: kind, then layer, then head
    // The distinct findings raised, summaries first, in the order first met.
    std::vector<Finding> findings() const;
};

// Throws std::invalid_argument if weights.size() != rows * cols. keyTokens label the columns;
// missing labels count as ordinary (non-sink, content) tokens named by their index.
MapDiagnostics diagnoseMap(const AttentionMap& map, const std::vector<std::string>& keyTokens,
                           const DiagnosticThresholds& thresholds = {});

// Judges the numbers of a map of the given kind against the thresholds.
HeadDiagnostics judge(MapKind kind, int layer, int head, const MapDiagnostics& values,
                      const DiagnosticThresholds& thresholds = {});

// Every head of every kind of the translation, and a summary per kind. Maps whose weights do not
// match their shape are skipped.
ModelDiagnostics diagnoseTranslation(const Translation& translation, const DiagnosticThresholds& thresholds = {});

// Labels of a kind's rows and columns: cross = output x source, encoder = source x source,
// decoder = output x decoder input ("<s>" then the outputs but the last).
std::vector<std::string> queryTokensFor(const Translation& translation, MapKind kind);
std::vector<std::string> keyTokensFor(const Translation& translation, MapKind kind);

// <s>, </s>, <pad>, or a token whose every character is punctuation ("." "," "。" "?!").
bool isSinkToken(const std::string& token);
// <s>, </s> and <pad>: not counted for coverage.
bool isSpecialToken(const std::string& token);

// Short, stable names for logs and tests: "dispersed", "sink-cross", ...
const char* findingName(Finding finding);

}  // namespace attnlab
