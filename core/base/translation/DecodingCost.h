#pragma once
// What a Transformer decoder's key/value cache saves, counted (torch-free): the multiply-adds of
// one decoding step with the cache and without it, for the decoding lab's cache view.
//
// Counted: the matrix products alone (a [1, a] x [a, b] product is a * b multiply-adds); biases,
// softmax, scaling, layer norms and residual additions are left out. With the cache, step t
// (0-based; the new query is decoder position t and attends t + 1 keys) computes, per layer, the
// new position's query, key and value (3 d^2), its t + 1 scores and the weighted sum of t + 1
// values (2 (t + 1) d), the output projection (d^2), the cross-attention's query and output
// projections (2 d^2), its S scores and weighted sum (2 S d) and the feed-forward block (2 d f).
// Without the cache every one of the t + 1 positions is recomputed in every layer (a layer's keys
// come from the layer below, so no position can be skipped): (t + 1) times the per-position
// products, plus causal self-attention over the prefix, position i attending i + 1 keys
// (2 d (t + 1)(t + 2) / 2 in all). Both then project the newest position to the vocabulary (d V).
// The memory's cross-attention keys and values (2 S d^2 per layer) are computed once per sentence
// either way: `memoryKeysValues`.
#include <cstdint>

namespace attnlab {

struct DecoderShape {
    int layers = 0;       // decoder layers
    int dModel = 0;       // d
    int feedForward = 0;  // f (the feed-forward block's inner width)
    int vocabulary = 0;   // V (target vocabulary, the output projection)
    int sourceLength = 0;  // S (source tokens including </s>)
};

struct StepCost {
    std::int64_t withCache = 0;
    std::int64_t withoutCache = 0;
};

// Step t's multiply-adds (t >= 0).
StepCost decodingStepCost(const DecoderShape& shape, int step);
// Steps 0 .. steps-1 summed.
StepCost decodingCost(const DecoderShape& shape, int steps);
// The cross-attention keys and values of the encoder's memory, once per sentence: 2 S d^2 per layer.
std::int64_t memoryKeysValues(const DecoderShape& shape);

}  // namespace attnlab
