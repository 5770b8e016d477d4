// Attention diagnostics on constructed maps, each number computed by hand in the comments.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "base/analysis/AttentionDiagnostics.h"

using namespace attnlab;
using Catch::Matchers::WithinAbs;

namespace {

using Tokens = std::vector<std::string>;

AttentionMap identity(int n) {
    AttentionMap m{n, n, std::vector<float>(static_cast<std::size_t>(n) * n, 0.0f)};
    for (int i = 0; i < n; ++i) m.weights[static_cast<std::size_t>(i) * n + i] = 1.0f;
    return m;
}

AttentionMap antiDiagonal(int n) {
    AttentionMap m{n, n, std::vector<float>(static_cast<std::size_t>(n) * n, 0.0f)};
    for (int i = 0; i < n; ++i) m.weights[static_cast<std::size_t>(i) * n + (n - 1 - i)] = 1.0f;
    return m;
}

AttentionMap uniform(int rows, int cols) {
    return AttentionMap{rows, cols, std::vector<float>(static_cast<std::size_t>(rows) * cols, 1.0f / cols)};
}

Tokens letters(int n) {
    Tokens t;
    for (int i = 0; i < n; ++i) t.push_back(std::string(1, static_cast<char>('a' + i)));
    return t;
}

TEST_CASE("an identity map has entropy 0, diagonality 1 and raises nothing", "[diagnostics]") {
    const MapDiagnostics d = diagnoseMap(identity(4), letters(4));
    REQUIRE(d.valid);
    CHECK(d.rowsUsed == 4);
    CHECK_THAT(d.entropy, WithinAbs(0.0, 1e-12));
    CHECK_THAT(d.diagonality, WithinAbs(1.0, 1e-12));
    CHECK_THAT(d.sinkMass, WithinAbs(0.0, 1e-12));
    CHECK(d.bandHalfWidth == 1);
    CHECK(d.contentKeys == 4);
    CHECK(d.uncovered.empty());
    for (double r : d.received) CHECK_THAT(r, WithinAbs(1.0, 1e-12));
    const HeadDiagnostics h = judge(MapKind::Cross, 0, 0, d);
    CHECK_FALSE(h.anyRaised());
}

TEST_CASE("a uniform map has entropy 1 and is flagged as dispersed", "[diagnostics]") {
    // 3 x 4, every weight 1/4. w = 1; d(r) = r * 3 / 2 = 0, 1.5, 3: the bands are {0,1}, {1,2},
    // {2,3}, two keys each -> diagonality 2/4 = 0.5. </s> holds 1/4 of every row -> sink 0.25.
    // Each key receives 3 * 1/4 = 0.75 in total: all covered.
    const MapDiagnostics d = diagnoseMap(uniform(3, 4), {"a", "b", "c", "</s>"});
    CHECK_THAT(d.entropy, WithinAbs(1.0, 1e-9));
    CHECK_THAT(d.diagonality, WithinAbs(0.5, 1e-9));
    CHECK_THAT(d.sinkMass, WithinAbs(0.25, 1e-9));
    CHECK(d.contentKeys == 3);  // </s> does not count for coverage
    CHECK(d.uncovered.empty());
    CHECK_THAT(d.received[3], WithinAbs(0.75, 1e-6));
    const HeadDiagnostics h = judge(MapKind::Cross, 0, 0, d);
    CHECK(h.entropy.level == DiagnosticLevel::Warn);
    CHECK(h.entropy.finding == Finding::Dispersed);
    CHECK_FALSE(h.diagonality.raised());  // 0.5 is not below 0.5
    CHECK_FALSE(h.sink.raised());
    CHECK_FALSE(h.coverage.raised());
    // The same numbers for an encoder head are "broad", not "dispersed".
    CHECK(judge(MapKind::Encoder, 0, 0, d).entropy.finding == Finding::BroadHeads);
}

TEST_CASE("row spread: 0 when every row is the same, flagged for cross-attention only", "[diagnostics]") {
    // Identity 3 x 3: the mean row is (1/3, 1/3, 1/3); each row's distance to it is
    // 0.5 * (2/3 + 1/3 + 1/3) = 2/3.
    const MapDiagnostics id = diagnoseMap(identity(3), letters(3));
    REQUIRE(id.spreadJudged);
    CHECK_THAT(id.rowSpread, WithinAbs(2.0 / 3.0, 1e-12));
    CHECK_FALSE(judge(MapKind::Cross, 0, 0, id).sameRows.raised());
    // Every row the same sharp distribution (all on the first word): spread 0, "same map" for
    // cross-attention, not judged for self-attention.
    const AttentionMap same{4, 3, {1, 0, 0, 1, 0, 0, 2, 0, 0, 1, 0, 0}};  // rows scaled to sum 1 first
    const MapDiagnostics d = diagnoseMap(same, letters(3));
    CHECK_THAT(d.rowSpread, WithinAbs(0.0, 1e-12));
    const HeadDiagnostics h = judge(MapKind::Cross, 0, 0, d);
    CHECK(h.sameRows.raised());
    CHECK(h.sameRows.finding == Finding::SameRows);
    CHECK_FALSE(h.entropy.raised());  // sharp, and still the same at every step
    CHECK_FALSE(judge(MapKind::Encoder, 0, 0, d).sameRows.raised());
    // Rows that differ a little: (0.9, 0.1, 0), (0.8, 0.2, 0), (0.85, 0.15, 0). The mean row is
    // (0.85, 0.15, 0); the rows are 0.05, 0.05 and 0 from it -> 1/30, below 0.1.
    const AttentionMap close{3, 3, {0.9f, 0.1f, 0, 0.8f, 0.2f, 0, 0.85f, 0.15f, 0}};
    const MapDiagnostics c = diagnoseMap(close, letters(3));
    CHECK_THAT(c.rowSpread, WithinAbs((0.05 + 0.05 + 0.0) / 3.0, 1e-6));
    CHECK(judge(MapKind::Cross, 0, 0, c).sameRows.raised());
    // Two rows or two keys are too few to judge.
    CHECK_FALSE(diagnoseMap(identity(2), letters(2)).spreadJudged);
    CHECK_FALSE(diagnoseMap(uniform(4, 2), letters(2)).spreadJudged);
    CHECK(std::string(findingName(Finding::SameRows)) == "same-rows");
}

TEST_CASE("entropy is normalised by log(cols) per row, rows scaled to sum 1", "[diagnostics]") {
    // Rows (0.5, 0.5) -> ln2/ln2 = 1; (1, 0) -> 0; (0.25, 0.75) -> -(0.25 ln 0.25 + 0.75 ln 0.75) / ln 2
    // = 0.811278; the last row is given as (0.5, 1.5), which scales to (0.25, 0.75).
    const AttentionMap m{3, 2, {0.5f, 0.5f, 1.0f, 0.0f, 0.5f, 1.5f}};
    const MapDiagnostics d = diagnoseMap(m, {"x", "y"});
    const double third = -(0.25 * std::log(0.25) + 0.75 * std::log(0.75)) / std::log(2.0);
    CHECK_THAT(third, WithinAbs(0.811278, 1e-6));
    CHECK_THAT(d.entropy, WithinAbs((1.0 + 0.0 + third) / 3.0, 1e-9));
    CHECK_THAT(d.received[1], WithinAbs(0.5 + 0.0 + 0.75, 1e-9));
}

TEST_CASE("all mass on </s> gives sink 1, flagged, and leaves the words uncovered", "[diagnostics]") {
    AttentionMap m{3, 4, std::vector<float>(12, 0.0f)};
    for (int r = 0; r < 3; ++r) m.weights[static_cast<std::size_t>(r) * 4 + 3] = 1.0f;
    const Tokens keys{"tom", "chases", "jerry", "</s>"};
    const MapDiagnostics d = diagnoseMap(m, keys);
    CHECK_THAT(d.sinkMass, WithinAbs(1.0, 1e-12));
    CHECK_THAT(d.entropy, WithinAbs(0.0, 1e-12));
    // Bands {0,1}, {1,2}, {2,3}: only the last row's </s> is inside -> 1/3.
    CHECK_THAT(d.diagonality, WithinAbs(1.0 / 3.0, 1e-12));
    CHECK(d.uncovered == std::vector<int>{0, 1, 2});
    CHECK(d.uncoveredTokens == Tokens{"tom", "chases", "jerry"});
    CHECK_THAT(d.uncoveredFraction(), WithinAbs(1.0, 1e-12));
    const HeadDiagnostics h = judge(MapKind::Cross, 0, 0, d);
    CHECK(h.sink.level == DiagnosticLevel::Warn);
    CHECK(h.sink.finding == Finding::SinkCross);
    // Sharp but parked on </s>: not a reordering, no alignment at all.
    CHECK(h.diagonality.finding == Finding::Unaligned);
    CHECK(h.coverage.finding == Finding::Uncovered);
    CHECK(judge(MapKind::Decoder, 0, 0, d).sink.finding == Finding::SinkSelf);
}

TEST_CASE("an anti-diagonal map has low diagonality and reads as a reordering", "[diagnostics]") {
    // n = 6, w = 1: row r looks at 5 - r, inside the band when |5 - 2r| <= 1, i.e. r = 2, 3 -> 2/6.
    const MapDiagnostics six = diagnoseMap(antiDiagonal(6), letters(6));
    CHECK_THAT(six.diagonality, WithinAbs(2.0 / 6.0, 1e-12));
    CHECK_THAT(six.entropy, WithinAbs(0.0, 1e-12));
    const HeadDiagnostics h = judge(MapKind::Cross, 0, 0, six);
    CHECK(h.diagonality.level == DiagnosticLevel::Warn);
    CHECK(h.diagonality.finding == Finding::Reordered);
    CHECK_FALSE(h.entropy.raised());
    // n = 5: only the middle row (|4 - 2r| <= 1 -> r = 2) -> 1/5.
    CHECK_THAT(diagnoseMap(antiDiagonal(5), letters(5)).diagonality, WithinAbs(0.2, 1e-12));
    // Self-attention is not judged on diagonality.
    CHECK_FALSE(judge(MapKind::Encoder, 0, 0, six).diagonality.raised());
}

TEST_CASE("a diffuse off-diagonal map reads as unaligned", "[diagnostics]") {
    // Rows put 0.7 on the anti-diagonal key and spread 0.3 over the other five: entropy
    // -(0.7 ln 0.7 + 5 * 0.06 ln 0.06) / ln 6 = 0.6104 >= 0.35 -> Unaligned rather than Reordered.
    AttentionMap m{6, 6, std::vector<float>(36, 0.06f)};
    for (int i = 0; i < 6; ++i) m.weights[static_cast<std::size_t>(i) * 6 + (5 - i)] = 0.7f;
    const MapDiagnostics d = diagnoseMap(m, letters(6));
    const double h = -(0.7 * std::log(0.7) + 5 * 0.06 * std::log(0.06)) / std::log(6.0);
    CHECK_THAT(d.entropy, WithinAbs(h, 1e-6));
    CHECK_THAT(h, WithinAbs(0.6104, 1e-4));
    // w = 1, d(r) = r. Row 0: keys {0,1} -> 0.12 (its 0.7 is on key 5); row 1: keys
    // {0,1,2} -> 0.18; row 2: {1,2,3} holds the 0.7 -> 0.82; rows 3..5 mirror 2..0.
    CHECK_THAT(d.diagonality, WithinAbs((0.12 + 0.18 + 0.82) * 2 / 6.0, 1e-6));
    CHECK(judge(MapKind::Cross, 0, 0, d).diagonality.finding == Finding::Unaligned);
}

TEST_CASE("a never-attended column is reported with its token", "[diagnostics]") {
    // "the" receives 0.02 from each of 3 rows = 0.06 < 0.1.
    const AttentionMap m{3, 4, {0.02f, 0.90f, 0.08f, 0.00f,   //
                                0.02f, 0.08f, 0.90f, 0.00f,   //
                                0.02f, 0.00f, 0.08f, 0.90f}};
    const MapDiagnostics d = diagnoseMap(m, {"the", "cat", "sleeps", "</s>"});
    CHECK_THAT(d.received[0], WithinAbs(0.06, 1e-6));
    CHECK(d.uncovered == std::vector<int>{0});
    CHECK(d.uncoveredTokens == Tokens{"the"});
    CHECK(d.contentKeys == 3);
    CHECK_THAT(d.uncoveredFraction(), WithinAbs(1.0 / 3.0, 1e-12));
    const HeadDiagnostics h = judge(MapKind::Cross, 0, 0, d);
    CHECK(h.coverage.level == DiagnosticLevel::Warn);
    CHECK(h.coverage.finding == Finding::Uncovered);
    // A stricter rule (two uncovered tokens needed) keeps it quiet; self-attention is never judged on it.
    DiagnosticThresholds lenient;
    lenient.coverageWarnCount = 2;
    CHECK_FALSE(judge(MapKind::Cross, 0, 0, d, lenient).coverage.raised());
    CHECK_FALSE(judge(MapKind::Encoder, 0, 0, d).coverage.raised());
    // Missing labels are content tokens named by index: key 3 now counts, and is covered (0.9).
    const MapDiagnostics unlabelled = diagnoseMap(m, {});
    CHECK(unlabelled.uncoveredTokens == Tokens{"#0"});
    CHECK(unlabelled.contentKeys == 4);
}

TEST_CASE("rectangular maps rescale the diagonal", "[diagnostics]") {
    // 2 x 5: d(0) = 0, d(1) = 4; first row on the first key, last row on the last key -> 1.
    const AttentionMap corners{2, 5, {1, 0, 0, 0, 0, 0, 0, 0, 0, 1}};
    CHECK_THAT(diagnoseMap(corners, letters(5)).diagonality, WithinAbs(1.0, 1e-12));
    // 3 x 6: d = 0, 2.5, 5 with w = 1; bands {0,1}, {2,3}, {4,5}.
    //   (0.5, 0.5, 0, 0, 0, 0) -> 1; (0, 0.5, 0.3, 0.2, 0, 0) -> 0.5; (0, 0, 0, 0, 0.4, 0.6) -> 1.
    const AttentionMap wide{3, 6, {0.5f, 0.5f, 0, 0, 0, 0, 0, 0.5f, 0.3f, 0.2f, 0, 0, 0, 0, 0, 0, 0.4f, 0.6f}};
    const MapDiagnostics d = diagnoseMap(wide, letters(6));
    CHECK_THAT(d.diagonality, WithinAbs(2.5 / 3.0, 1e-6));
    CHECK(d.rows == 3);
    CHECK(d.cols == 6);
    // 5 x 2 (tall): every key is within w = 1 of any diagonal point -> 1, whatever the weights.
    const AttentionMap tall{5, 2, {1, 0, 1, 0, 1, 0, 1, 0, 1, 0}};
    CHECK_THAT(diagnoseMap(tall, letters(2)).diagonality, WithinAbs(1.0, 1e-12));
    // 25 keys widen the band to w = 2.
    CHECK(diagnoseMap(uniform(2, 25), letters(25)).bandHalfWidth == 2);
    // One key: nothing to choose, entropy 0.
    CHECK_THAT(diagnoseMap(AttentionMap{3, 1, {1, 1, 1}}, {"a"}).entropy, WithinAbs(0.0, 1e-12));
}

TEST_CASE("empty rows are skipped and bad shapes are refused", "[diagnostics]") {
    const AttentionMap m{2, 2, {0.0f, 0.0f, 1.0f, 0.0f}};
    const MapDiagnostics d = diagnoseMap(m, letters(2));
    CHECK(d.rowsUsed == 1);
    CHECK_THAT(d.entropy, WithinAbs(0.0, 1e-12));
    CHECK_FALSE(diagnoseMap(AttentionMap{2, 2, {0, 0, 0, 0}}, letters(2)).valid);
    CHECK_FALSE(judge(MapKind::Cross, 0, 0, diagnoseMap(AttentionMap{0, 0, {}}, {})).anyRaised());
    // NaN and negative weights carry no mass.
    const AttentionMap odd{1, 3, {std::nanf(""), -1.0f, 2.0f}};
    CHECK_THAT(diagnoseMap(odd, letters(3)).entropy, WithinAbs(0.0, 1e-12));
    CHECK_THROWS_AS(diagnoseMap(AttentionMap{2, 3, {1, 2, 3}}, {}), std::invalid_argument);
}

TEST_CASE("sink tokens are the specials and pure punctuation", "[diagnostics]") {
    for (const char* t : {"<s>", "</s>", "<pad>", ".", ",", "?!", "\xE3\x80\x82" /* 。 */, "\xEF\xBC\x8C" /* ， */})
        CHECK(isSinkToken(t));
    for (const char* t : {"<unk>", "cat", "a.", "", "\xE7\x8C\xAB" /* 猫 */, "3"}) CHECK_FALSE(isSinkToken(t));
    CHECK(isSpecialToken("</s>"));
    CHECK_FALSE(isSpecialToken("."));
    // A period is a sink but still a token to cover.
    const MapDiagnostics d = diagnoseMap(AttentionMap{2, 2, {0.5f, 0.5f, 0.5f, 0.5f}}, {"cat", "."});
    CHECK_THAT(d.sinkMass, WithinAbs(0.5, 1e-9));
    CHECK(d.contentKeys == 2);
}

TEST_CASE("a translation is diagnosed per head and per kind", "[diagnostics]") {
    Translation t;
    t.sourceTokens = {"tom", "runs", "</s>"};
    t.outputTokens = {"x", "y"};
    // Cross-attention, one layer, two heads: head 0 looks only at "tom", head 1 only at "runs".
    const AttentionMap onTom{2, 3, {1, 0, 0, 1, 0, 0}};
    const AttentionMap onRuns{2, 3, {0, 1, 0, 0, 1, 0}};
    t.attention[MapKind::Cross] = {{onTom, onRuns}};
    // Decoder self-attention, keys <s> x: row 0 can only see <s>; row 1 splits 0.5 / 0.5.
    t.attention[MapKind::Decoder] = {{AttentionMap{2, 2, {1, 0, 0.5f, 0.5f}}}};
    CHECK(keyTokensFor(t, MapKind::Decoder) == Tokens{"<s>", "x"});
    CHECK(queryTokensFor(t, MapKind::Decoder) == Tokens{"x", "y"});
    CHECK(keyTokensFor(t, MapKind::Cross) == t.sourceTokens);
    CHECK(queryTokensFor(t, MapKind::Encoder) == t.sourceTokens);

    const ModelDiagnostics m = diagnoseTranslation(t);
    REQUIRE(m.heads.size() == 3);
    CHECK(m.heads[0].kind == MapKind::Cross);
    CHECK(m.heads[1].head == 1);
    CHECK(m.heads[2].kind == MapKind::Decoder);
    // Each cross head alone leaves the other word uncovered ...
    CHECK(m.heads[0].values.uncoveredTokens == Tokens{"runs"});
    CHECK(m.heads[1].values.uncoveredTokens == Tokens{"tom"});
    CHECK(m.heads[0].coverage.raised());
    // ... but together they cover both: the summary uses the mean map (each word receives 2 * 0.5 = 1).
    REQUIRE(m.summaries.size() == 2);
    const HeadDiagnostics& cross = m.summaries[0];
    CHECK(cross.isSummary());
    CHECK(cross.kind == MapKind::Cross);
    CHECK(cross.values.uncovered.empty());
    CHECK_THAT(cross.values.received[0], WithinAbs(1.0, 1e-6));
    CHECK_FALSE(cross.coverage.raised());
    // Head diagonalities: d = 0, 2 with w = 1: head 0 -> rows {0,1} keep "tom" in row 0 only -> 0.5;
    // head 1 -> "runs" (key 1) is in both bands -> 1. Mean 0.75. Entropies 0, mean 0.
    CHECK_THAT(m.heads[0].values.diagonality, WithinAbs(0.5, 1e-12));
    CHECK_THAT(m.heads[1].values.diagonality, WithinAbs(1.0, 1e-12));
    CHECK_THAT(cross.values.diagonality, WithinAbs(0.75, 1e-12));
    CHECK_THAT(cross.values.entropy, WithinAbs(0.0, 1e-12));
    // Decoder: sink mass (1 + 0.5) / 2 = 0.75 on <s> -> flagged as a self-attention sink; entropy (0 + 1) / 2.
    const HeadDiagnostics& decoder = m.summaries[1];
    CHECK(decoder.kind == MapKind::Decoder);
    CHECK_THAT(decoder.values.sinkMass, WithinAbs(0.75, 1e-9));
    CHECK_THAT(decoder.values.entropy, WithinAbs(0.5, 1e-9));
    CHECK(decoder.sink.finding == Finding::SinkSelf);
    // Findings: summaries first (cross raises nothing, decoder a sink), then head 0's "uncovered".
    CHECK(m.findings() == std::vector<Finding>{Finding::SinkSelf, Finding::Uncovered});
    CHECK(std::string(findingName(Finding::SinkSelf)) == "sink-self");
}

TEST_CASE("a translation without attention or with broken maps has no diagnostics", "[diagnostics]") {
    Translation none;
    none.sourceTokens = {"a", "</s>"};
    none.outputTokens = {"b"};
    CHECK(diagnoseTranslation(none).summaries.empty());
    Translation broken = none;
    broken.attention[MapKind::Cross] = {{AttentionMap{1, 2, {1.0f}}}};  // 1 weight for 1 x 2: skipped
    const ModelDiagnostics m = diagnoseTranslation(broken);
    CHECK(m.heads.empty());
    CHECK(m.summaries.empty());
    CHECK(m.findings().empty());
}

}  // namespace
