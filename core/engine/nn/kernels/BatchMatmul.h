#pragma once
// torch::bmm's product and gradients with each batch item's matrix product one sgemm call on the
// operands' own memory. LibTorch 1.13's CPU bmm without MKL makes three Tensor::select calls and a
// checked addmm per item: a batch of 32 small products (a captioner's step, a GRU's contexts) spent
// most of its time there. Float tensors whose matrices have a unit stride in one dimension take the
// direct path; any other operand goes through torch::bmm.
#include <torch/torch.h>

namespace attnlab::nn {

// [B, n, k] x [B, k, m] -> [B, n, m], differentiable in both operands.
torch::Tensor batchMatmul(const torch::Tensor& a, const torch::Tensor& b);

}  // namespace attnlab::nn
