#include "Batching.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "base/InputError.h"
#include "base/SeededRandom.h"
#include "base/Vocabulary.h"

namespace attnlab {

namespace {


}  // namespace

Split splitTrainValidation(std::size_t n, double validationFraction, std::uint64_t seed) {
    if (!(validationFraction >= 0.0 && validationFraction <= 1.0))
        throw ConfigError("validation fraction must be between 0 and 1, got " + std::to_string(validationFraction));
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::mt19937_64 rng(seed);
    for (std::size_t i = n; i > 1; --i) {  // Fisher-Yates
        const std::size_t j = static_cast<std::size_t>(uniformBelow(rng, i));
        std::swap(order[i - 1], order[j]);
    }

    std::size_t validation = static_cast<std::size_t>(std::llround(static_cast<double>(n) * validationFraction));
    if (validationFraction > 0.0 && n >= 2) validation = std::max<std::size_t>(validation, 1);
    if (n >= 1) validation = std::min(validation, n - 1);  // never an empty training set

    Split split;
    split.validation.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(validation));
    split.train.assign(order.begin() + static_cast<std::ptrdiff_t>(validation), order.end());
    return split;
}

std::vector<Batch> makeBatches(const std::vector<EncodedPair>& pairs, const std::vector<std::size_t>& order,
                               std::size_t batchSize) {
    if (batchSize == 0) throw ConfigError("batch size must be at least 1");
    for (std::size_t index : order) {
        if (index >= pairs.size())
            throw std::out_of_range("makeBatches: index " + std::to_string(index) + " out of range (" +
                                    std::to_string(pairs.size()) + " pairs)");
    }

    std::vector<Batch> batches;
    batches.reserve((order.size() + batchSize - 1) / batchSize);
    for (std::size_t start = 0; start < order.size(); start += batchSize) {
        const std::size_t end = std::min(order.size(), start + batchSize);
        Batch b;
        b.indices.assign(order.begin() + static_cast<std::ptrdiff_t>(start),
                         order.begin() + static_cast<std::ptrdiff_t>(end));
        // Packed sequences need descending source lengths; stable keeps equal lengths in the given order.
        std::stable_sort(b.indices.begin(), b.indices.end(), [&](std::size_t x, std::size_t y) {
            return pairs[x].source.size() > pairs[y].source.size();
        });
        b.size = static_cast<std::int64_t>(b.indices.size());
        for (std::size_t index : b.indices) {
            b.sourceLen = std::max(b.sourceLen, static_cast<std::int64_t>(pairs[index].source.size()));
            b.targetLen = std::max(b.targetLen, static_cast<std::int64_t>(pairs[index].target.size()));
        }
        b.source.assign(static_cast<std::size_t>(b.size * b.sourceLen), Vocabulary::kPad);
        b.target.assign(static_cast<std::size_t>(b.size * b.targetLen), Vocabulary::kPad);
        for (std::size_t row = 0; row < b.indices.size(); ++row) {
            const EncodedPair& p = pairs[b.indices[row]];
            std::copy(p.source.begin(), p.source.end(),
                      b.source.begin() + static_cast<std::ptrdiff_t>(row * static_cast<std::size_t>(b.sourceLen)));
            std::copy(p.target.begin(), p.target.end(),
                      b.target.begin() + static_cast<std::ptrdiff_t>(row * static_cast<std::size_t>(b.targetLen)));
            b.sourceLengths.push_back(static_cast<std::int64_t>(p.source.size()));
            b.targetLengths.push_back(static_cast<std::int64_t>(p.target.size()));
        }
        batches.push_back(std::move(b));
    }
    return batches;
}

}  // namespace attnlab
