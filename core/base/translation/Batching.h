#pragma once
// Train/validation split and padded batches of token ids (plain vectors; the engine
// turns them into tensors).
#include <cstdint>
#include <vector>

namespace attnlab {

struct EncodedPair {
    std::vector<std::int64_t> source;  // ids, ends with </s>
    std::vector<std::int64_t> target;  // ids, ends with </s>
};

struct Batch {
    std::int64_t size = 0;       // number of pairs
    std::int64_t sourceLen = 0;  // padded length
    std::int64_t targetLen = 0;
    std::vector<std::int64_t> source;         // [size * sourceLen], row-major, kPad padded
    std::vector<std::int64_t> target;         // [size * targetLen]
    std::vector<std::int64_t> sourceLengths;  // [size]
    std::vector<std::int64_t> targetLengths;  // [size]
    std::vector<std::size_t> indices;         // which pairs (into the list given)
};

struct Split {
    std::vector<std::size_t> train;
    std::vector<std::size_t> validation;
};

// Seeded shuffle, then the first round(n * validationFraction) go to validation
// (at least 1 when n >= 2 and fraction > 0; train is never empty when n >= 1).
Split splitTrainValidation(std::size_t n, double validationFraction, std::uint64_t seed);

// Groups `order` into batches of at most batchSize pairs, padding with kPad.
// Pairs are sorted by source length (descending) inside each batch, which packed
// sequences need.
std::vector<Batch> makeBatches(const std::vector<EncodedPair>& pairs,
                               const std::vector<std::size_t>& order, std::size_t batchSize);

}  // namespace attnlab
