#pragma once
// Additive (Bahdanau) attention's scores v · tanh(q_t + k_s) for every query and key of a batch as
// one autograd node: one pass over the [B, T, S, A] pre-activations forward and one backward, where
// LibTorch's broadcast add, tanh, product with v and their backward each made a pass of their own
// over that tensor (2 MB for a batch of 32 sentences of 11 words at A = 128). Float tensors take the
// fused path; double precision goes through LibTorch's operations.
#include <torch/torch.h>

namespace attnlab::nn {

// q [B, T, A] (the projected queries), k [B, S, A] (the projected keys), v [A] -> scores [B, T, S].
torch::Tensor additiveScores(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v);

}  // namespace attnlab::nn
