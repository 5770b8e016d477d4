#pragma once
// Engine-internal: the core of multi-head scaled dot-product attention,
//   W = softmax(Q Kᵀ / √d_k, masked),  heads = dropout(W) V,
// as ONE autograd node with a hand-written backward, every head's two products a
// direct sgemm on the projections' own memory.
//
// Through autograd this is ~10 operations forward and ~15 backward, two of them
// batched matmuls over B x H tiny matrices (10 x 32 at the toy corpus' lengths).
// LibTorch 1.13's CPU bmm (no MKL) loops over the batch with three Tensor::select
// calls and a checked addmm per matrix: ~290 us for a [128, 10, 32] x [128, 32, 10]
// product whose arithmetic takes a few; sgemm on raw pointers takes ~50-80 us. The
// Transformer's training step makes 36 such products per batch.
//
// Inputs are the projections in their [B, T, D] layout (row stride may exceed D, e.g.
// chunks of one fused QKV projection); head h of batch b is columns h·d_k..(h+1)·d_k,
// passed to sgemm with the row stride as its leading dimension, so no head split or
// merge is ever copied. The output heads come back as [B, Tq, D], ready for the output
// projection.
//
// The dropout mask is drawn exactly as applyDropout(W) draws it (one fillDropoutMask
// over a [B, H, Tq, Tk] tensor), so this node computes the same numbers as the
// operation-by-operation path (MultiHeadAttention with a trace), which the tests check.
// A row whose keys are all masked gets weights 0 (the composite path gives NaN).
#include <torch/torch.h>

namespace attnlab::nn {

// True when fusedHeadAttention can take these inputs: float32 on the CPU, last
// dimension contiguous.
bool canFuseHeadAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v);

// q [B, Tq, D], k and v [B, Tk, D]; keyPadMask [B or 1, Tk] bool (true = padding) or
// undefined; causal masks key j > query i. Returns {heads [B, Tq, D] (head h in columns
// h·d_k..), weights [B, H, Tq, Tk] (before dropout; not differentiable)}.
std::pair<torch::Tensor, torch::Tensor> fusedHeadAttention(const torch::Tensor& q, const torch::Tensor& k,
                                                           const torch::Tensor& v, const torch::Tensor& keyPadMask,
                                                           bool causal, int heads, double dropout, bool training);

}  // namespace attnlab::nn
