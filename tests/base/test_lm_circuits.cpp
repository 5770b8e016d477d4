#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "base/InputError.h"
#include "base/lm/LmCircuits.h"
#include "base/lm/LmTokens.h"

using namespace attnlab;
using Ids = std::vector<int>;
using Pattern = std::vector<float>;

namespace {

// A T x T pattern where query i puts all its attention on key keyOf(i).
template <typename KeyOf>
Pattern oneHot(std::size_t t, KeyOf keyOf) {
    Pattern p(t * t, 0.0f);
    for (std::size_t i = 0; i < t; ++i) p[i * t + keyOf(i)] = 1.0f;
    return p;
}

// Causal attention spread evenly: query i gives 1 / (i + 1) to each key 0..i.
Pattern uniformCausal(std::size_t t) {
    Pattern p(t * t, 0.0f);
    for (std::size_t i = 0; i < t; ++i)
        for (std::size_t k = 0; k <= i; ++k) p[i * t + k] = 1.0f / static_cast<float>(i + 1);
    return p;
}

}  // namespace

TEST_CASE("Head detector: a previous-token head scores 1 as previous-token and 0 as induction", "[lm]") {
    // <bos> a b c a b c: the induction keys (after the earlier copy) are never the previous token.
    const Ids tokens{kLmBos, 10, 11, 12, 10, 11, 12};
    const Pattern previous = oneHot(tokens.size(), [](std::size_t i) { return i == 0 ? 0 : i - 1; });
    CHECK(previousTokenScore(tokens, previous) == Approx(1.0));
    CHECK(inductionScore(tokens, previous) == Approx(0.0).margin(1e-12));
    CHECK(duplicateTokenScore(tokens, previous) == Approx(0.0).margin(1e-12));
}

TEST_CASE("Head detector: a perfect induction head on a repeated sequence scores 1", "[lm]") {
    const int length = 6;
    const Ids tokens = lmRepeatedSequence(50, length, 3);
    REQUIRE(tokens.size() == 1 + 2 * length);
    // In the second copy, query i attends to the token after the earlier copy of its token
    // (i - length + 1); the first copy, with nothing to copy from, rests on <bos> (excluded).
    const auto induction = [&](std::size_t i) { return i > static_cast<std::size_t>(length) ? i - length + 1 : 0; };
    const Pattern pattern = oneHot(tokens.size(), induction);
    CHECK(inductionScore(tokens, pattern) == Approx(1.0));
    CHECK(previousTokenScore(tokens, pattern) == Approx(0.0).margin(1e-12));
    // A duplicate-token head (attending to the earlier copy itself) on the same tokens.
    const Pattern duplicate =
        oneHot(tokens.size(), [&](std::size_t i) { return i > static_cast<std::size_t>(length) ? i - length : 0; });
    CHECK(duplicateTokenScore(tokens, duplicate) == Approx(1.0));
}

TEST_CASE("Head detector: uniform attention gives the fractions worked out by hand", "[lm]") {
    // <bos> a b a, uniform causal attention: row i gives 1/(i+1) to keys 0..i.
    const Ids tokens{kLmBos, 7, 8, 7};
    const Pattern p = uniformCausal(4);
    // BOS column and diagonal zeroed: row 0 and row 1 keep nothing, row 2 keeps (2,1) = 1/3, row 3
    // keeps (3,1) = (3,2) = 1/4: 5/6 in all.
    //   previous token  (2,1) + (3,2) = 1/3 + 1/4 = 7/12  -> 7/10
    //   duplicate       (3,1) = 1/4                      -> 3/10
    //   induction       (3, 1+1) = 1/4                   -> 3/10
    CHECK(previousTokenScore(tokens, p) == Approx(0.7));
    CHECK(duplicateTokenScore(tokens, p) == Approx(0.3));
    CHECK(inductionScore(tokens, p) == Approx(0.3));
    // Nothing excluded (TransformerLens's defaults): the whole matrix sums to 4.
    //   previous (1,0) + (2,1) + (3,2) = 1/2 + 1/3 + 1/4 = 13/12 -> 13/48; duplicate and induction 1/4 -> 1/16.
    const LmDetectorOptions none{false, false};
    CHECK(previousTokenScore(tokens, p, none) == Approx(13.0 / 48.0));
    CHECK(duplicateTokenScore(tokens, p, none) == Approx(1.0 / 16.0));
    CHECK(inductionScore(tokens, p, none) == Approx(1.0 / 16.0));
    // Only the BOS column excluded: rows 1..3 keep 1/2 + 2/3 + 3/4 = 23/12; previous (2,1)+(3,2) = 7/12.
    const LmDetectorOptions bosOnly{true, false};
    CHECK(previousTokenScore(tokens, p, bosOnly) == Approx(7.0 / 23.0));
}

TEST_CASE("Head detector: the induction pattern may fall on the diagonal, which the exclusion zeroes", "[lm]") {
    // <bos> a a: for query 2 the token after the earlier a (key 1) is key 2, the query itself.
    const Ids tokens{kLmBos, 5, 5};
    const Pattern p = uniformCausal(3);
    const LmDetectorOptions none{false, false};
    // Total 3; induction (2,2) = 1/3 -> 1/9; duplicate (2,1) = 1/3 -> 1/9; previous 1/2 + 1/3 -> 5/18.
    CHECK(inductionScore(tokens, p, none) == Approx(1.0 / 9.0));
    CHECK(duplicateTokenScore(tokens, p, none) == Approx(1.0 / 9.0));
    CHECK(previousTokenScore(tokens, p, none) == Approx(5.0 / 18.0));
    // Excluded as by default, only (2,1) = 1/3 is left: it is the duplicate and the previous token.
    CHECK(inductionScore(tokens, p) == Approx(0.0).margin(1e-12));
    CHECK(duplicateTokenScore(tokens, p) == Approx(1.0));
    CHECK(previousTokenScore(tokens, p) == Approx(1.0));
}

TEST_CASE("Head detector: nothing left after the exclusions scores 0; a wrong size throws", "[lm]") {
    CHECK(inductionScore({kLmBos, 4}, uniformCausal(2)) == 0.0);
    CHECK(previousTokenScore({kLmBos}, {1.0f}) == 0.0);
    CHECK(previousTokenScore({}, {}) == 0.0);
    CHECK_THROWS_AS(inductionScore({1, 2, 3}, Pattern(8, 0.0f)), std::invalid_argument);
}

TEST_CASE("scoreHeads: every layer's and head's three scores", "[lm]") {
    const Ids tokens{kLmBos, 10, 11, 12, 10, 11, 12};
    const std::size_t t = tokens.size();
    const Pattern previous = oneHot(t, [](std::size_t i) { return i == 0 ? 0 : i - 1; });
    const Pattern induction = oneHot(t, [](std::size_t i) { return i >= 4 ? i - 2 : 0; });
    const Pattern uniform = uniformCausal(t);
    const LmHeadScores s = scoreHeads(tokens, {{previous, uniform}, {uniform, induction, previous}});
    REQUIRE(s.previousToken.size() == 2);
    REQUIRE(s.duplicateToken.size() == 2);
    REQUIRE(s.induction.size() == 2);
    REQUIRE(s.previousToken[0].size() == 2);
    REQUIRE(s.induction[1].size() == 3);
    CHECK(s.previousToken[0][0] == Approx(1.0));
    CHECK(s.previousToken[1][2] == Approx(1.0));
    CHECK(s.induction[1][1] == Approx(1.0));
    CHECK(s.induction[0][0] == Approx(0.0).margin(1e-12));
    CHECK(s.previousToken[0][1] == Approx(previousTokenScore(tokens, uniform)));
    CHECK(s.duplicateToken[1][0] == Approx(duplicateTokenScore(tokens, uniform)));
    CHECK(s.induction[1][0] == Approx(inductionScore(tokens, uniform)));
    CHECK_THROWS_AS(scoreHeads(tokens, {{previous, Pattern(3)}}), std::invalid_argument);
    CHECK(scoreHeads(tokens, {}).induction.empty());
}

TEST_CASE("lmRepeatedSequence: <bos>, a random sequence, the same again", "[lm]") {
    const Ids a = lmRepeatedSequence(100, 25, 1);
    REQUIRE(a.size() == 51);
    CHECK(a[0] == kLmBos);
    for (std::size_t i = 1; i <= 25; ++i) {
        CHECK(a[i] == a[i + 25]);
        CHECK(a[i] >= kLmFirstToken);
        CHECK(a[i] < 100);
    }
    CHECK(lmRepeatedSequence(100, 25, 1) == a);
    CHECK(lmRepeatedSequence(100, 25, 2) != a);
    // One ordinary token: the sequence is all of it.
    CHECK(lmRepeatedSequence(5, 2, 9) == Ids{kLmBos, 4, 4, 4, 4});
    CHECK_THROWS_AS(lmRepeatedSequence(4, 2, 1), ConfigError);
    CHECK_THROWS_AS(lmRepeatedSequence(100, 0, 1), ConfigError);
}

TEST_CASE("inContextLearningScore: late loss minus early loss, scaled to the context", "[lm]") {
    // n = 10: early [1, 2), late [8, 10).
    std::vector<double> loss{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    CHECK(inContextLearningScore(loss) == Approx(8.5 - 1.0));
    // n = 64: early [6, 12) (mean 8.5), late [51, 64) (mean 57); a falling loss gives a negative score.
    std::vector<double> falling(64);
    for (std::size_t i = 0; i < falling.size(); ++i) falling[i] = -static_cast<double>(i);
    CHECK(inContextLearningScore(falling) == Approx(-57.0 + 8.5));
    CHECK(inContextLearningScore(std::vector<double>(512, 2.5)) == Approx(0.0));
    // Small contexts still have both windows: n = 4 is position 3 minus position 0; n = 2, 1 minus 0.
    CHECK(inContextLearningScore({5, 9, 9, 2}) == Approx(-3.0));
    CHECK(inContextLearningScore({5, 2}) == Approx(-3.0));
    CHECK(std::isnan(inContextLearningScore({1.0})));
    CHECK(std::isnan(inContextLearningScore({})));
}
