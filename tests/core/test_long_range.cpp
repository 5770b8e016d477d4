// The long-range experiment: one row per pattern and length, accuracies in [0, 1], peak memory
// measured and growing with N (full attention's as N^2), the memory budget enforced before and
// while a length runs; and the needle texts it reads at lengths past the old limit of 200.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "base/InputError.h"
#include "base/text/ClassifyDatasets.h"
#include "engine/LongRangeExperiment.h"

using namespace attnlab;

namespace {

LongRangeOptions tiny() {
    LongRangeOptions o;
    o.lengths = {16, 64};
    o.extend = false;
    o.warmupSteps = 2;
    o.warmupLength = 8;
    o.steps = 2;
    o.batch = 2;
    o.texts = 4;
    o.hidden = 8;
    o.feedForward = 16;
    o.window = 2;
    return o;
}

const LongRangeRow* find(const LongRangeResult& r, const std::string& pattern, int length) {
    for (const auto& row : r.rows)
        if (row.pattern == pattern && row.length == length) return &row;
    return nullptr;
}

TEST_CASE("long-range: a row per pattern and length with accuracy, time and peak memory", "[experiments]") {
    const LongRangeOptions o = tiny();
    int reported = 0;
    const LongRangeResult r = runLongRangeExperiment(o, {}, nullptr, [&](const LongRangeRow&) { ++reported; });
    REQUIRE(r.rows.size() == o.patterns.size() * o.lengths.size());
    CHECK(reported == static_cast<int>(r.rows.size()));
    for (const auto& row : r.rows) {
        INFO(row.pattern << " at " << row.length);
        CHECK(row.ran);
        CHECK(row.accuracy >= 0.0);
        CHECK(row.accuracy <= 1.0);
        CHECK(row.peakBytes > 0);
        CHECK(row.secondsPerStep > 0);
        CHECK(row.steps == o.steps);
    }
    // Four times the length: full attention's scores (B x H x N x N) grow sixteen-fold and dominate.
    const double full16 = find(r, "full", 16)->peakBytes, full64 = find(r, "full", 64)->peakBytes;
    CHECK(full64 > 4.0 * full16);
    for (const char* p : {"local", "linear"}) CHECK(find(r, p, 64)->peakBytes > find(r, p, 16)->peakBytes);
    // The second length is predicted from the first before it runs.
    CHECK(find(r, "full", 64)->predictedBytes > 0);
    REQUIRE(r.longest.size() == o.patterns.size());
    for (const auto& [pattern, n] : r.longest) CHECK(n == 64);
    CHECK(patternComplexity("full") == "O(N^2)");
    CHECK(patternComplexity("chunked") == "O(N sqrt N)");
    CHECK(patternComplexity("linear") == "O(N)");
}

TEST_CASE("long-range: N doubles until the budget, which is never exceeded", "[experiments]") {
    LongRangeOptions o = tiny();
    o.patterns = {"full", "linear"};
    o.lengths = {64};
    o.extend = true;
    o.extendSteps = 1;
    o.maxLength = 4096;
    o.memoryBudget = 24.0 * 1024 * 1024;
    const LongRangeResult r = runLongRangeExperiment(o);
    int fullLongest = 0, linearLongest = 0;
    for (const auto& [pattern, n] : r.longest) (pattern == "full" ? fullLongest : linearLongest) = n;
    // full at 1024: the scores alone are 2 x 2 x 1024^2 floats = 16 MB, and a step holds several.
    CHECK(fullLongest >= 128);
    CHECK(fullLongest < 1024);
    CHECK(linearLongest > fullLongest);
    for (const auto& row : r.rows) {
        INFO(row.pattern << " at " << row.length);
        if (row.ran) CHECK(row.peakBytes <= o.memoryBudget);
    }
    // Each pattern's list ends with the length that did not fit (or the cap).
    const LongRangeRow* last = nullptr;
    for (const auto& row : r.rows)
        if (row.pattern == "full") last = &row;
    REQUIRE(last);
    CHECK_FALSE(last->ran);
    CHECK(last->overBudget);
}

TEST_CASE("long-range: an allocation past the budget ends the length, not the process", "[experiments]") {
    LongRangeOptions o = tiny();
    o.patterns = {"full"};
    o.lengths = {2048};  // nothing measured before it, so no prediction: the allocator refuses
    o.warmupSteps = 0;
    o.memoryBudget = 16.0 * 1024 * 1024;
    const LongRangeResult r = runLongRangeExperiment(o);
    REQUIRE(r.rows.size() == 1);
    CHECK_FALSE(r.rows[0].ran);
    CHECK(r.rows[0].overBudget);
    CHECK(r.longest.at(0).second == 0);
}

TEST_CASE("long-range: bad options are refused", "[experiments]") {
    LongRangeOptions o = tiny();
    o.patterns = {"sparse"};
    CHECK_THROWS_AS(runLongRangeExperiment(o), ConfigError);
    o = tiny();
    o.lengths = {4};
    CHECK_THROWS_AS(runLongRangeExperiment(o), ConfigError);
    o = tiny();
    o.memoryBudget = 1024;
    CHECK_THROWS_AS(runLongRangeExperiment(o), ConfigError);
    o = tiny();
    o.memoryBudget = 1e15;  // more than this machine has
    CHECK_THROWS_AS(runLongRangeExperiment(o), ConfigError);
}

TEST_CASE("needle texts go past 200 words, one keyword each", "[experiments]") {
    const ClassificationCorpus c = makeClassificationDataset("needle", 4, 1, 5000);
    for (const auto& e : c.examples) {
        CHECK(std::count(e.text.begin(), e.text.end(), ' ') == 4999);
        CHECK(e.rationale.size() == 1);
    }
}

}  // namespace
