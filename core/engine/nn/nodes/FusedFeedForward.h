#pragma once
// Engine-internal: a Transformer layer's feed-forward block in training,
//   y = dropout(act(x W1ᵀ + b1)) W2ᵀ + b2,   act ReLU (the translation Transformer, the forecaster,
//                                            the text classifier) or GELU (the ViT),
// as ONE autograd node. Through autograd it is two linear layers, the activation, the mask's fill
// and its product, forward and backward: ten LibTorch operations, four elementwise passes over the
// [rows, d_ff] hidden layer each way, and LibTorch 1.13 runs GELU through oneDNN (6.6% of a ViT
// step here). Here the products run on SmallGemm.h's kernels and the activation with its mask is
// one pass each way (VectorKernels.h: activationForward / activationBackward).
//
// The dropout mask is drawn as applyDropout draws it (one fillDropoutMask over the [.., d_ff]
// hidden layer), so this node computes the numbers of linear → act → applyDropout → linear, to the
// order of float additions and GELU's erf (a polynomial within 1e-6): tests/core/test_fused_attention.
#include <torch/torch.h>

namespace attnlab::nn {

enum class FeedForwardActivation { Relu, Gelu };

// True when the node applies: float32 on the CPU, grad mode on, a vector kernel on this CPU
// (SmallGemm.h), at least kMinimumRows rows (PackedLinear.h).
bool canFuseFeedForward(const torch::Tensor& x);

// x [..., D]; first [F, D] and second [D, F] linear layers. Falls back to the operations one by one
// where canFuseFeedForward(x) is false.
torch::Tensor feedForward(const torch::Tensor& x, torch::nn::Linear& first, torch::nn::Linear& second,
                          FeedForwardActivation activation, double dropout, bool training);

}  // namespace attnlab::nn
