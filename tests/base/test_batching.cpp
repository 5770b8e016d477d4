#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <vector>

#include "base/translation/Batching.h"
#include "base/InputError.h"
#include "base/Vocabulary.h"

namespace {

using attnlab::Batch;
using attnlab::EncodedPair;
using attnlab::Vocabulary;
using Ids = std::vector<std::int64_t>;

std::set<std::size_t> asSet(const std::vector<std::size_t>& v) { return {v.begin(), v.end()}; }

TEST_CASE("The split covers every pair exactly once with the requested sizes", "[batching]") {
    auto split = attnlab::splitTrainValidation(100, 0.1, 42);
    CHECK(split.validation.size() == 10);
    CHECK(split.train.size() == 90);
    std::set<std::size_t> train = asSet(split.train), validation = asSet(split.validation);
    CHECK(train.size() == 90);  // no duplicates
    CHECK(validation.size() == 10);
    for (std::size_t i : validation) CHECK(train.count(i) == 0);
    std::set<std::size_t> all = train;
    all.insert(validation.begin(), validation.end());
    CHECK(all.size() == 100);
    CHECK(*all.rbegin() == 99);
}

TEST_CASE("The split is a function of the seed", "[batching]") {
    auto a = attnlab::splitTrainValidation(1000, 0.2, 7);
    auto b = attnlab::splitTrainValidation(1000, 0.2, 7);
    auto c = attnlab::splitTrainValidation(1000, 0.2, 8);
    CHECK(a.train == b.train);
    CHECK(a.validation == b.validation);
    CHECK(asSet(a.validation) != asSet(c.validation));
    // Shuffled, not the first 200 lines of the file.
    std::vector<std::size_t> firstLines(200);
    for (std::size_t i = 0; i < 200; ++i) firstLines[i] = i;
    CHECK(asSet(a.validation) != asSet(firstLines));
}

TEST_CASE("Small and edge-case splits keep training non-empty", "[batching]") {
    CHECK(attnlab::splitTrainValidation(0, 0.1, 1).train.empty());
    auto one = attnlab::splitTrainValidation(1, 0.5, 1);
    CHECK(one.train.size() == 1);
    CHECK(one.validation.empty());
    auto two = attnlab::splitTrainValidation(2, 0.01, 1);  // rounds to 0 but a fraction > 0 asks for some
    CHECK(two.validation.size() == 1);
    CHECK(two.train.size() == 1);
    auto all = attnlab::splitTrainValidation(10, 1.0, 1);
    CHECK(all.train.size() == 1);
    CHECK(all.validation.size() == 9);
    auto none = attnlab::splitTrainValidation(10, 0.0, 1);
    CHECK(none.train.size() == 10);
    CHECK(none.validation.empty());
    CHECK_THROWS_AS(attnlab::splitTrainValidation(10, -0.1, 1), attnlab::ConfigError);
    CHECK_THROWS_AS(attnlab::splitTrainValidation(10, 1.5, 1), attnlab::ConfigError);
}

std::vector<EncodedPair> samplePairs() {
    // Lengths (source, target): (2,3) (4,1) (1,2) (4,4) (3,2)
    return {
        {{10, 2}, {20, 21, 2}},
        {{11, 12, 13, 2}, {2}},
        {{2}, {22, 2}},
        {{14, 15, 16, 2}, {23, 24, 25, 2}},
        {{17, 18, 2}, {26, 2}},
    };
}

TEST_CASE("Batches have the right shapes, padding and lengths", "[batching]") {
    auto pairs = samplePairs();
    auto batches = attnlab::makeBatches(pairs, {0, 1, 2, 3, 4}, 3);
    REQUIRE(batches.size() == 2);

    const Batch& b = batches[0];
    CHECK(b.size == 3);
    CHECK(b.sourceLen == 4);
    CHECK(b.targetLen == 3);
    REQUIRE(b.source.size() == 12);
    REQUIRE(b.target.size() == 9);
    // Sorted by source length: pair 1 (4), pair 0 (2), pair 2 (1).
    CHECK(b.indices == std::vector<std::size_t>{1, 0, 2});
    CHECK(b.sourceLengths == Ids{4, 2, 1});
    CHECK(b.targetLengths == Ids{1, 3, 2});
    const std::int64_t P = Vocabulary::kPad;
    CHECK(b.source == Ids{11, 12, 13, 2, /**/ 10, 2, P, P, /**/ 2, P, P, P});
    CHECK(b.target == Ids{2, P, P, /**/ 20, 21, 2, /**/ 22, 2, P});

    const Batch& last = batches[1];
    CHECK(last.size == 2);
    CHECK(last.indices == std::vector<std::size_t>{3, 4});
    CHECK(last.sourceLen == 4);
    CHECK(last.targetLen == 4);
    CHECK(last.source == Ids{14, 15, 16, 2, /**/ 17, 18, 2, P});
    CHECK(last.target == Ids{23, 24, 25, 2, /**/ 26, 2, P, P});
}

TEST_CASE("Batches follow the given order and sort stably inside each batch", "[batching]") {
    auto pairs = samplePairs();
    // Pairs 1 and 3 have the same source length; stable sort keeps 3 before 1 as given.
    auto batches = attnlab::makeBatches(pairs, {2, 3, 1, 0}, 4);
    REQUIRE(batches.size() == 1);
    CHECK(batches[0].indices == std::vector<std::size_t>{3, 1, 0, 2});
    CHECK(std::is_sorted(batches[0].sourceLengths.rbegin(), batches[0].sourceLengths.rend()));

    auto subset = attnlab::makeBatches(pairs, {4}, 8);
    REQUIRE(subset.size() == 1);
    CHECK(subset[0].indices == std::vector<std::size_t>{4});
    CHECK(subset[0].source == Ids{17, 18, 2});
}

TEST_CASE("makeBatches rejects a zero batch size and indices out of range", "[batching]") {
    auto pairs = samplePairs();
    CHECK(attnlab::makeBatches(pairs, {}, 4).empty());
    CHECK_THROWS_AS(attnlab::makeBatches(pairs, {0, 1}, 0), attnlab::ConfigError);
    CHECK_THROWS_AS(attnlab::makeBatches(pairs, {0, 5}, 2), std::out_of_range);
}

}  // namespace
