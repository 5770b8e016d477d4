#pragma once
// Engine-internal: the product a recurrence makes at every step with one weight matrix, forward
// (out = bias + x · Wᵀ, the hidden-side gates) or backward (out += x · W, the gradient reaching the
// previous state). For float weights the matrix is packed once per recurrence and each step runs
// SmallGemm.h's kernel (BLAS would pack it again at every step); other types take addmm.
#include <torch/torch.h>

#include <type_traits>

#include "engine/nn/kernels/SmallGemm.h"

namespace attnlab::nn {

class RecurrentProduct {
public:
    // weight [N, K] row-major. byTranspose: steps compute x [M, K] · weightᵀ; otherwise x [M, N] · weight.
    RecurrentProduct(const torch::Tensor& weight, bool byTranspose)
        : weight_(weight.contiguous()), byTranspose_(byTranspose) {
        packed_ = weight_.scalar_type() == torch::kFloat;
        if (packed_) {
            const std::int64_t rows = weight_.size(0), cols = weight_.size(1);
            matrix_.pack(weight_.data_ptr<float>(), cols, byTranspose, byTranspose ? cols : rows, byTranspose ? rows : cols);
        }
    }

    // out = bias + x · op(W) (bias null: 0), or with `accumulate` out += x · op(W), for `rows` rows of
    // x and out, ldx and ldo elements apart (a step's slice of a contiguous buffer). Raw pointers:
    // a step makes no tensor.
    template <typename T>
    void operator()(std::int64_t rows, const T* x, std::int64_t ldx, T* out, std::int64_t ldo,
                    const std::common_type_t<T>* bias, bool accumulate) const {  // bias: not deduced (nullptr)
        if constexpr (std::is_same_v<T, float>) {
            if (packed_) {
                gemm::multiply(rows, x, ldx, matrix_, out, ldo, accumulate, accumulate ? nullptr : bias);
                return;
            }
        }
        // Other types (the tests' double precision): addmm on views of the same memory.
        const auto options = weight_.options();
        const std::int64_t K = byTranspose_ ? weight_.size(1) : weight_.size(0);
        const std::int64_t N = byTranspose_ ? weight_.size(0) : weight_.size(1);
        const torch::Tensor xs = torch::from_blob(const_cast<T*>(x), {rows, K}, {ldx, 1}, options);
        torch::Tensor os = torch::from_blob(out, {rows, N}, {ldo, 1}, options);
        const torch::Tensor w = byTranspose_ ? weight_.t() : weight_;
        if (accumulate)
            os.addmm_(xs, w);
        else if (bias)
            at::addmm_out(os, torch::from_blob(const_cast<T*>(bias), {N}, options), xs, w);
        else
            at::mm_out(os, xs, w);
    }

private:
    torch::Tensor weight_;
    bool byTranspose_;
    bool packed_ = false;
    gemm::PackedMatrix matrix_;
};

}  // namespace attnlab::nn
