#pragma once
// Engine-internal: a linear layer for training, y = x Wᵀ + b, as one autograd node whose three
// products (y, and backward dx = dy W and dW = dyᵀ x) run on SmallGemm.h's kernels: on AVX-512
// they reach ~200 GFLOP/s here where OpenBLAS's AVX2 kernels reach ~100 (and with AVX2 they match
// it). Evaluation and decoding keep LibTorch's linear (their products have few rows, or none of the
// step's time), and so does anything but float32 on the CPU.
#include <torch/torch.h>

namespace attnlab::nn {

// x [..., in] · weightᵀ [in, out] + bias [out] (bias may be undefined): the packed node in training
// (grad mode on, float32, at least kMinimumRows rows, a vector kernel on this CPU), torch::linear
// otherwise. Both compute the same numbers up to the order of float additions.
torch::Tensor linear(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias);
inline torch::Tensor linear(torch::nn::Linear& layer, const torch::Tensor& x) {
    return linear(x, layer->weight, layer->bias);
}

// The packed node itself, whatever the mode (float32 on the CPU; for the tests).
torch::Tensor packedLinear(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias);

// Below this many rows the per-call packing of the weights costs more than BLAS's own.
constexpr std::int64_t kMinimumRows = 16;

// x [..., n] as rows [M, n] with unit column stride, as the packed kernels read them (a view where
// the layout allows, a copy otherwise).
torch::Tensor rowsOf(const torch::Tensor& x);

// The packed nodes' products, float32. rows [M, K] (unit column stride) times a weight: rows · Wᵀ
// (+ bias [N], may be undefined) for W [N, K] with `byTranspose`, rows · W for W [K, N] without;
// a new [M, N].
torch::Tensor rowsTimes(const torch::Tensor& rows, const torch::Tensor& weight, bool byTranspose,
                        const torch::Tensor& bias = {});

// dyᵀ · rows for dy [M, N] (contiguous) and rows [M, K]: a weight's gradient, a new [N, K].
torch::Tensor transposedTimes(const torch::Tensor& dy, const torch::Tensor& rows);

// The fused nodes' products over all of a sequence's steps at once: rows [M, K] · Wᵀ (W [N, K]) with
// `byTranspose`, rows · W (W [K, N]) without, and a weight's gradient dyᵀ · rows (dy [M, N], rows
// [M, K]). On the packed kernels for float32 when this CPU has a vector kernel (the recurrences'
// weight gradients took ~10% of the classifier's batch in OpenBLAS, about half as fast), torch::mm
// otherwise (the tests' double precision).
torch::Tensor product(const torch::Tensor& rows, const torch::Tensor& weight, bool byTranspose);
torch::Tensor weightGradient(const torch::Tensor& dy, const torch::Tensor& rows);

}  // namespace attnlab::nn
