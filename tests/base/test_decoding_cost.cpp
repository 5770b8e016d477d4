// The key/value cache's saving (core/base/translation/DecodingCost.h) against multiply-adds counted
// by hand, product by product, for a 2-layer decoder.
#include <catch2/catch.hpp>

#include "base/translation/DecodingCost.h"

using namespace attnlab;

namespace {

// d 8, f 16, V 10, S 5, two layers.
DecoderShape twoLayers() {
    DecoderShape s;
    s.layers = 2;
    s.dModel = 8;
    s.feedForward = 16;
    s.vocabulary = 10;
    s.sourceLength = 5;
    return s;
}

}  // namespace

TEST_CASE("the cache's multiply-adds per step match a hand count for a 2-layer decoder", "[kv-cache]") {
    const DecoderShape shape = twoLayers();
    // Step 0: one position, nothing cached yet; both ways do the same work. Per layer: q, k, v
    // 3 x 64 = 192; one score and one weighted value, 8 + 8 = 16; output projection 64;
    // cross q 64, 5 scores 40, weighted sum 40, output 64; feed-forward 8x16 + 16x8 = 256: 736.
    // Two layers 1472, the vocabulary projection 8 x 10 = 80: 1552.
    CHECK(decodingStepCost(shape, 0).withCache == 1552);
    CHECK(decodingStepCost(shape, 0).withoutCache == 1552);
    // Step 2 with the cache: the new position only, attending 3 keys. Per layer 192 + (24 + 24) + 64 +
    // 64 + 40 + 40 + 64 + 256 = 768; two layers 1536; + 80 = 1616.
    CHECK(decodingStepCost(shape, 2).withCache == 1616);
    // Step 2 without: all 3 positions in both layers. Per layer q, k, v 3 x 192 = 576; causal scores
    // 1 + 2 + 3 = 6 dot products of 8 = 48, weighted sums 48; output 3 x 64 = 192; cross q 192,
    // scores 3 x 40 = 120, sums 120, output 192; feed-forward 3 x 256 = 768: 2256. Two layers 4512;
    // + 80 (only the newest position is projected to the vocabulary) = 4592.
    CHECK(decodingStepCost(shape, 2).withoutCache == 4592);
    // A sentence of 3 steps: the steps summed.
    const StepCost total = decodingCost(shape, 3);
    CHECK(total.withCache == 1552 + decodingStepCost(shape, 1).withCache + 1616);
    CHECK(total.withoutCache == 1552 + decodingStepCost(shape, 1).withoutCache + 4592);
    // Step 1 by hand: with the cache 2 x (736 + 16) + 80 = 1584; without, per layer 2 x 720 + causal
    // (1 + 2) x 8 x 2 = 48: 1488, two layers 2976, + 80 = 3056.
    CHECK(decodingStepCost(shape, 1).withCache == 1584);
    CHECK(decodingStepCost(shape, 1).withoutCache == 3056);
    // The memory's keys and values, once per sentence: 2 layers x 2 x 5 x 64 = 1280.
    CHECK(memoryKeysValues(shape) == 1280);
}

TEST_CASE("without the cache a step's cost grows with the prefix, with it only through the scores", "[kv-cache]") {
    const DecoderShape shape = twoLayers();
    for (int t = 1; t < 40; ++t) {
        const StepCost a = decodingStepCost(shape, t - 1), b = decodingStepCost(shape, t);
        // With the cache one more key and value per layer: 2 d more per layer.
        CHECK(b.withCache - a.withCache == 2 * 2 * 8);
        CHECK(b.withoutCache > a.withoutCache + 1400);  // another whole position per layer, at least
        CHECK(b.withoutCache > b.withCache);
    }
}
