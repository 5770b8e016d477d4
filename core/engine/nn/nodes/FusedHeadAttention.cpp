#include "engine/nn/nodes/FusedHeadAttention.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/nn/kernels/DecodeKernels.h"
#include "engine/nn/kernels/Random.h"
#include "engine/nn/kernels/VectorKernels.h"

namespace attnlab::nn {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

// Row-major C[m x n] = alpha · op(A) · op(B) + beta · C with leading dimensions.
inline void gemm(bool transA, bool transB, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
                 int ldb, float beta, float* c, int ldc) {
    cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans, m, n, k, alpha,
                a, lda, b, ldb, beta, c, ldc);
}

// A [B, T, D] projection with unit stride in D: head h of batch b starts at
// data + b·batchStride + h·dk, rows rowStride apart.
struct HeadMatrix {
    float* data;
    int64_t batchStride;
    int rowStride;
    float* at(int64_t b, int64_t h, int64_t dk) const { return data + b * batchStride + h * dk; }
};

HeadMatrix headMatrix(const Tensor& x) {
    return {x.data_ptr<float>(), x.stride(0), static_cast<int>(x.stride(1))};
}

Tensor unitLastStride(const Tensor& x) { return x.stride(2) == 1 ? x : x.contiguous(); }

class HeadAttentionFunction : public torch::autograd::Function<HeadAttentionFunction> {
public:
    static variable_list forward(AutogradContext* ctx, Tensor q, Tensor k, Tensor v,
                                 const c10::optional<Tensor>& keyPadMask, bool causal,
                                 int64_t heads, double dropout, bool training) {
        q = unitLastStride(q);
        k = unitLastStride(k);
        v = unitLastStride(v);
        const int64_t B = q.size(0), Tq = q.size(1), D = q.size(2), Tk = k.size(1), dk = D / heads;
        const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dk)));
        Tensor weights = torch::empty({B, heads, Tq, Tk}, q.options());
        Tensor mask;
        if (training && dropout > 0) {
            mask = torch::empty({B, heads, Tq, Tk}, q.options());
            fillDropoutMask(mask, dropout);
        }
        Tensor pad = keyPadMask && keyPadMask->defined() ? keyPadMask->to(torch::kBool).contiguous() : Tensor();
        const bool* padData = pad.defined() ? pad.data_ptr<bool>() : nullptr;
        const int64_t padStride = pad.defined() && pad.size(0) > 1 ? Tk : 0;
        Tensor out = torch::empty({B, Tq, D}, q.options());

        const HeadMatrix Q = headMatrix(q), K = headMatrix(k), V = headMatrix(v), O = headMatrix(out);
        std::vector<float> dropped(mask.defined() ? Tq * Tk : 0);
        for (int64_t b = 0; b < B; ++b) {
            const bool* padRow = padData ? padData + b * padStride : nullptr;
            for (int64_t h = 0; h < heads; ++h) {
                float* w = weights.data_ptr<float>() + (b * heads + h) * Tq * Tk;
                gemm(false, true, Tq, Tk, dk, scale, Q.at(b, h, dk), Q.rowStride, K.at(b, h, dk), K.rowStride, 0.0f, w,
                     Tk);
                kernels::softmaxRows(w, Tq, Tk, padRow, causal);
                const float* p = w;
                if (mask.defined()) {
                    kernels::multiply(dropped.data(), w, mask.data_ptr<float>() + (b * heads + h) * Tq * Tk, Tq * Tk);
                    p = dropped.data();
                }
                gemm(false, false, Tq, dk, Tk, 1.0f, p, Tk, V.at(b, h, dk), V.rowStride, 0.0f, O.at(b, h, dk),
                     O.rowStride);
            }
        }
        ctx->save_for_backward({q, k, v, weights, mask});
        ctx->saved_data["heads"] = heads;
        ctx->mark_non_differentiable({weights});
        return {out, weights};
    }

    static variable_list backward(AutogradContext* ctx, variable_list gradOutputs) {
        auto saved = ctx->get_saved_variables();
        const Tensor &q = saved[0], &k = saved[1], &v = saved[2], &weights = saved[3], &mask = saved[4];
        const int64_t heads = ctx->saved_data["heads"].toInt();
        const int64_t B = q.size(0), Tq = q.size(1), D = q.size(2), Tk = k.size(1), dk = D / heads;
        const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dk)));
        if (!gradOutputs[0].defined())  // only the weights were used: they are not differentiable
            return {torch::zeros_like(q), torch::zeros_like(k), torch::zeros_like(v), Tensor(), Tensor(), Tensor(),
                    Tensor(), Tensor()};
        // Every head writes all rows of its columns (beta 0), so nothing needs zeroing.
        Tensor gradQ = torch::empty_like(q, at::MemoryFormat::Contiguous);
        Tensor gradK = torch::empty_like(k, at::MemoryFormat::Contiguous);
        Tensor gradV = torch::empty_like(v, at::MemoryFormat::Contiguous);
        Tensor gradOut = unitLastStride(gradOutputs[0]);

        const HeadMatrix Q = headMatrix(q), K = headMatrix(k), V = headMatrix(v), dO = headMatrix(gradOut),
                         dQ = headMatrix(gradQ), dK = headMatrix(gradK), dV = headMatrix(gradV);
        std::vector<float> dropped(mask.defined() ? Tq * Tk : 0), gradScores(Tq * Tk);
        for (int64_t b = 0; b < B; ++b) {
            for (int64_t h = 0; h < heads; ++h) {
                const float* w = weights.data_ptr<float>() + (b * heads + h) * Tq * Tk;
                const float* m = mask.defined() ? mask.data_ptr<float>() + (b * heads + h) * Tq * Tk : nullptr;
                const float* p = w;
                if (m) {
                    kernels::multiply(dropped.data(), w, m, Tq * Tk);
                    p = dropped.data();
                }
                // dV = Pᵀ dO; dP = dO Vᵀ
                gemm(true, false, Tk, dk, Tq, 1.0f, p, Tk, dO.at(b, h, dk), dO.rowStride, 0.0f, dV.at(b, h, dk),
                     dV.rowStride);
                float* g = gradScores.data();
                gemm(false, true, Tq, Tk, dk, 1.0f, dO.at(b, h, dk), dO.rowStride, V.at(b, h, dk), V.rowStride, 0.0f,
                     g, Tk);
                // Through the dropout mask, then the softmax: dS = W ∘ (dW - Σ_j dW ∘ W).
                kernels::softmaxBackwardRows(g, w, m, Tq, Tk);
                // Scores were scale · Q Kᵀ: dQ = scale · dS K, dK = scale · dSᵀ Q.
                gemm(false, false, Tq, dk, Tk, scale, g, Tk, K.at(b, h, dk), K.rowStride, 0.0f, dQ.at(b, h, dk),
                     dQ.rowStride);
                gemm(true, false, Tk, dk, Tq, scale, g, Tk, Q.at(b, h, dk), Q.rowStride, 0.0f, dK.at(b, h, dk),
                     dK.rowStride);
            }
        }
        return {gradQ, gradK, gradV, Tensor(), Tensor(), Tensor(), Tensor(), Tensor()};
    }
};

}  // namespace

bool canFuseHeadAttention(const Tensor& q, const Tensor& k, const Tensor& v) {
    for (const Tensor* t : {&q, &k, &v})
        if (t->scalar_type() != torch::kFloat || !t->device().is_cpu() || t->dim() != 3) return false;
    return true;
}

std::pair<Tensor, Tensor> fusedHeadAttention(const Tensor& q, const Tensor& k, const Tensor& v,
                                             const Tensor& keyPadMask, bool causal, int heads, double dropout,
                                             bool training) {
    // An undefined tensor cannot be a custom function's input; an empty optional can.
    c10::optional<Tensor> mask;
    if (keyPadMask.defined()) mask = keyPadMask;
    variable_list out = HeadAttentionFunction::apply(q, k, v, mask, causal, static_cast<int64_t>(heads),
                                                     dropout, training);
    return {out[0], out[1]};
}

}  // namespace attnlab::nn
