#include "engine/nn/kernels/BatchMatmul.h"

#include <cblas.h>

namespace attnlab::nn {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

// One operand's matrices as sgemm reads them: row-major (transposed = false, rows `ld` apart) or
// column-major (transposed = true), item b at data + b · batchStride.
struct Operand {
    Tensor tensor;  // keeps the memory alive
    const float* data = nullptr;
    std::int64_t batchStride = 0;
    int ld = 0;
    bool transposed = false;
};

// The operand with a unit stride in one of its matrix dimensions (a copy when it has neither).
Operand operand(Tensor x) {
    if (x.stride(2) != 1 && x.stride(1) != 1) x = x.contiguous();
    Operand o;
    o.tensor = x;
    o.data = x.data_ptr<float>();
    o.batchStride = x.stride(0);
    o.transposed = x.stride(2) != 1;
    const std::int64_t ld = o.transposed ? x.stride(2) : x.stride(1);
    const std::int64_t minimum = o.transposed ? x.size(1) : x.size(2);
    o.ld = static_cast<int>(std::max<std::int64_t>({ld, minimum, 1}));
    return o;
}

// out[b] = op(a[b]) · op(b[b]) for every item: [B, n, k] x [B, k, m] -> a new [B, n, m].
Tensor product(const Operand& a, const Operand& b, std::int64_t batch, std::int64_t n, std::int64_t k, std::int64_t m,
               const torch::TensorOptions& options) {
    Tensor out = torch::empty({batch, n, m}, options);
    if (n == 0 || m == 0) return out;
    if (k == 0) return out.zero_();
    float* c = out.data_ptr<float>();
    for (std::int64_t i = 0; i < batch; ++i)
        cblas_sgemm(CblasRowMajor, a.transposed ? CblasTrans : CblasNoTrans, b.transposed ? CblasTrans : CblasNoTrans,
                    static_cast<int>(n), static_cast<int>(m), static_cast<int>(k), 1.0f, a.data + i * a.batchStride, a.ld,
                    b.data + i * b.batchStride, b.ld, 0.0f, c + i * n * m, static_cast<int>(m));
    return out;
}

Tensor product(const Tensor& a, const Tensor& b) {
    return product(operand(a), operand(b), a.size(0), a.size(1), a.size(2), b.size(2), a.options());
}

class BatchMatmulFunction : public torch::autograd::Function<BatchMatmulFunction> {
public:
    static Tensor forward(AutogradContext* ctx, const Tensor& a, const Tensor& b) {
        ctx->save_for_backward({a, b});
        return product(a, b);
    }

    static variable_list backward(AutogradContext* ctx, variable_list gradOutputs) {
        const auto saved = ctx->get_saved_variables();
        const Tensor &a = saved[0], &b = saved[1];
        const Tensor g = gradOutputs[0];
        Tensor gradA, gradB;
        if (ctx->needs_input_grad(0)) gradA = product(g, b.transpose(1, 2));  // dA = dC · Bᵀ
        if (ctx->needs_input_grad(1)) gradB = product(a.transpose(1, 2), g);  // dB = Aᵀ · dC
        return {gradA, gradB};
    }
};

}  // namespace

Tensor batchMatmul(const Tensor& a, const Tensor& b) {
    const bool direct = a.dim() == 3 && b.dim() == 3 && a.scalar_type() == torch::kFloat &&
                        b.scalar_type() == torch::kFloat && a.device().is_cpu() && b.device().is_cpu() &&
                        a.size(0) == b.size(0) && a.size(2) == b.size(1);
    if (!direct) return torch::bmm(a, b);
    if (c10::InferenceMode::is_enabled() || !(a.requires_grad() || b.requires_grad())) return product(a, b);
    return BatchMatmulFunction::apply(a, b);
}

}  // namespace attnlab::nn
