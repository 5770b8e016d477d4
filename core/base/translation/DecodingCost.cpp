#include "base/translation/DecodingCost.h"

namespace attnlab {

StepCost decodingStepCost(const DecoderShape& shape, int step) {
    const std::int64_t d = shape.dModel, f = shape.feedForward, S = shape.sourceLength, n = step + 1;
    // The products one position needs in one layer, apart from its self-attention scores and sum.
    const std::int64_t perPosition = 3 * d * d + d * d  // self-attention: q, k, v; output projection
                                     + 2 * d * d        // cross-attention: q; output projection
                                     + 2 * S * d        // cross-attention: scores, weighted sum
                                     + 2 * d * f;       // feed-forward
    const std::int64_t output = d * shape.vocabulary;
    StepCost cost;
    cost.withCache = shape.layers * (perPosition + 2 * n * d) + output;
    cost.withoutCache = shape.layers * (n * perPosition + d * n * (n + 1)) + output;
    return cost;
}

StepCost decodingCost(const DecoderShape& shape, int steps) {
    StepCost total;
    for (int t = 0; t < steps; ++t) {
        const StepCost c = decodingStepCost(shape, t);
        total.withCache += c.withCache;
        total.withoutCache += c.withoutCache;
    }
    return total;
}

std::int64_t memoryKeysValues(const DecoderShape& shape) {
    return static_cast<std::int64_t>(shape.layers) * 2 * shape.sourceLength * shape.dModel * shape.dModel;
}

}  // namespace attnlab
