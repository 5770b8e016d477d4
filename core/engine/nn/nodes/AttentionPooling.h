#pragma once
// Engine-internal: the text classifier's additive attention pooling (Lin et al.'s structured
// self-attention, one query per hop) as one autograd node, for training in float32:
//   scores = tanh(states Wᵀ + b) Vᵀ          [B, S, R]
//   attention = softmax over the valid positions of each row's scores, per hop   [B, R, S]
//   pooled = attention · states             [B, R, D]
// with its backward written out (the attention's gradient too, which the hops' redundancy penalty
// uses). Operation by operation it was ~16 LibTorch nodes forward and backward for a few thousand
// multiply-adds: each part of a batch paid their dispatch whatever its rows.
#include <torch/torch.h>

#include <utility>

namespace attnlab::nn {

// True when additivePooling() takes these operands (float32 CPU tensors of matching shapes).
bool additivePoolingFusable(const torch::Tensor& states, const torch::Tensor& weight, const torch::Tensor& bias,
                            const torch::Tensor& queries);

// states [B, S, D]; valid [B, S] (bool, at least one position per row); weight [A, D], bias [A],
// queries [R, A]. Returns {pooled [B, R, D], attention [B, R, S]}, both differentiable.
std::pair<torch::Tensor, torch::Tensor> additivePooling(const torch::Tensor& states, const torch::Tensor& valid,
                                                        const torch::Tensor& weight, const torch::Tensor& bias,
                                                        const torch::Tensor& queries);

}  // namespace attnlab::nn
