#pragma once
// Engine-internal (LibTorch): a batch of documents as the language model reads them, shared by its
// trainer and its head study.
#include <torch/torch.h>

#include <random>
#include <utility>
#include <vector>

#include "base/lm/LmTokens.h"

namespace attnlab {

// Inputs and targets [B, T]: causal, <bos> + the document's first T - 1 tokens predicting its first T
// (T at most `context`; padding <pad>, not predicted); masked, <bos> + the document with 15% of its
// tokens (at least one, drawn from `rng`) replaced by <mask>, the hidden ones the targets (elsewhere
// <pad>). The specials' ids are the model's tokenizer's (Gpt2's <|endoftext|> is <bos> and <pad>; it
// has no <mask>: the model refuses the masked objective).
std::pair<torch::Tensor, torch::Tensor> lmBatch(const std::vector<const std::vector<int>*>& docs, int context,
                                                bool masked, std::mt19937_64& rng, const LmSpecialIds& specials);

}  // namespace attnlab
