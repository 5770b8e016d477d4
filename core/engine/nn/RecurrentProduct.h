#pragma once
// Engine-internal: the product a recurrence makes at every step with one weight matrix, forward
// (out = bias + x · Wᵀ, the hidden-side gates) or backward (out += x · W, the gradient reaching the
// previous state). For float weights the matrix is packed once per recurrence and each step runs
// SmallGemm.h's kernel (BLAS would pack it again at every step); other types take addmm.
#include <torch/torch.h>

#include "SmallGemm.h"

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

    // out = bias + x · op(W) (bias undefined: 0), or with `accumulate` out += x · op(W). x and out are
    // rows with unit column stride (a step's slice of a contiguous buffer).
    void operator()(torch::Tensor& out, const torch::Tensor& x, const torch::Tensor& bias, bool accumulate) const {
        if (packed_ && x.stride(1) == 1 && out.stride(1) == 1 && (!bias.defined() || bias.is_contiguous())) {
            gemm::multiply(x.size(0), x.data_ptr<float>(), x.stride(0), matrix_, out.data_ptr<float>(), out.stride(0),
                           accumulate, !accumulate && bias.defined() ? bias.data_ptr<float>() : nullptr);
            return;
        }
        const torch::Tensor w = byTranspose_ ? weight_.t() : weight_;
        if (accumulate)
            out.addmm_(x, w);
        else if (bias.defined())
            at::addmm_out(out, bias, x, w);
        else
            at::mm_out(out, x, w);
    }

private:
    torch::Tensor weight_;
    bool byTranspose_;
    bool packed_ = false;
    gemm::PackedMatrix matrix_;
};

}  // namespace attnlab::nn
