#pragma once
// Sizes derived from a ModelConfig by arithmetic alone, so that a hostile checkpoint
// or an oversized configuration is refused before any tensor is allocated.
#include <cstdint>

#include "ModelConfig.h"

namespace attnlab {

// Exactly the number of trainable parameters the engine builds for this config.
std::int64_t parameterCount(const ModelConfig& c);

// A generous estimate of the memory one training run needs, in bytes: weights,
// gradients and Adam's two moments, plus activations kept for the backward pass of
// one batch of `batchSize` pairs of up to `maxTokens` tokens.
std::int64_t estimateTrainingBytes(const ModelConfig& c, std::int64_t batchSize, std::int64_t maxTokens);

}  // namespace attnlab
