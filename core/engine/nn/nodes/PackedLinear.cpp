#include "engine/nn/nodes/PackedLinear.h"

#include "engine/nn/kernels/SmallGemm.h"

namespace attnlab::nn {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

Tensor rowsOf(const Tensor& x) {
    Tensor rows = x.reshape({-1, x.size(-1)});
    if (rows.stride(1) != 1 || (rows.size(0) > 1 && rows.stride(0) < rows.size(1))) rows = rows.contiguous();
    return rows;
}

Tensor rowsTimes(const Tensor& rows, const Tensor& weight, bool byTranspose, const Tensor& bias) {
    const Tensor w = weight.contiguous();
    const std::int64_t K = byTranspose ? w.size(1) : w.size(0), N = byTranspose ? w.size(0) : w.size(1);
    TORCH_CHECK(rows.size(1) == K, "linear: input has ", rows.size(1), " features, the weight ", K);
    const Tensor b = bias.defined() ? bias.contiguous() : Tensor();
    gemm::PackedMatrix packed;
    packed.pack(w.data_ptr<float>(), w.size(1), byTranspose, K, N);
    Tensor out = torch::empty({rows.size(0), N}, rows.options());
    gemm::multiply(rows.size(0), rows.data_ptr<float>(), rows.stride(0), packed, out.data_ptr<float>(), N, false,
                   b.defined() ? b.data_ptr<float>() : nullptr);
    return out;
}

Tensor transposedTimes(const Tensor& dy, const Tensor& rows) {
    const std::int64_t M = rows.size(0), K = rows.size(1), N = dy.size(1);
    gemm::PackedMatrix packed;
    packed.pack(rows.data_ptr<float>(), rows.stride(0), /*transposed=*/false, M, K);
    Tensor out = torch::empty({N, K}, dy.options());
    gemm::multiply(N, dy.data_ptr<float>(), 1, N, packed, out.data_ptr<float>(), K, false);  // dy read as dyᵀ
    return out;
}

namespace {

// x [..., d] with its last dimension replaced by n.
std::vector<std::int64_t> withLast(const Tensor& x, std::int64_t n) {
    std::vector<std::int64_t> shape = x.sizes().vec();
    shape.back() = n;
    return shape;
}

class PackedLinearFunction : public torch::autograd::Function<PackedLinearFunction> {
public:
    static variable_list forward(AutogradContext* ctx, Tensor x, Tensor weight, c10::optional<Tensor> bias) {
        const Tensor b = bias && bias->defined() ? *bias : Tensor();
        const Tensor y = rowsTimes(rowsOf(x), weight, /*byTranspose=*/true, b);
        ctx->save_for_backward({x, weight});  // inputs: rows and w are views or copies of them
        ctx->saved_data["bias"] = b.defined();
        return {y.view(withLast(x, weight.size(0)))};
    }

    static variable_list backward(AutogradContext* ctx, variable_list gradOutputs) {
        const auto saved = ctx->get_saved_variables();
        const Tensor rows = rowsOf(saved[0]), &w = saved[1];
        const Tensor dy = gradOutputs[0].reshape({rows.size(0), w.size(0)}).contiguous();
        Tensor dx, dw, db;
        if (ctx->needs_input_grad(0))  // dx [M, in] = dy [M, out] · W [out, in]
            dx = rowsTimes(dy, w, /*byTranspose=*/false).view(withLast(gradOutputs[0], w.size(1)));
        if (ctx->needs_input_grad(1)) dw = transposedTimes(dy, rows);  // dW [out, in] = dyᵀ · x
        if (ctx->saved_data["bias"].toBool() && ctx->needs_input_grad(2)) db = dy.sum(0);
        return {dx, dw, db};
    }
};

bool packable(const Tensor& t) { return t.scalar_type() == torch::kFloat && t.device().is_cpu(); }

bool onVectorKernel(const Tensor& a, const Tensor& b) {
    static const bool vectorKernel = gemm::hasVectorKernel();
    return vectorKernel && packable(a) && packable(b) && a.dim() == 2 && b.dim() == 2;
}

}  // namespace

Tensor product(const Tensor& rows, const Tensor& weight, bool byTranspose) {
    if (!onVectorKernel(rows, weight)) return torch::mm(rows, byTranspose ? weight.t() : weight);
    return rowsTimes(rowsOf(rows), weight, byTranspose);
}

Tensor weightGradient(const Tensor& dy, const Tensor& rows) {
    if (!onVectorKernel(dy, rows)) return torch::mm(dy.t(), rows);
    return transposedTimes(dy.contiguous(), rowsOf(rows));
}

Tensor packedLinear(const Tensor& x, const Tensor& weight, const Tensor& bias) {
    c10::optional<Tensor> b;
    if (bias.defined()) b = bias;
    return PackedLinearFunction::apply(x, weight, b)[0];
}

Tensor linear(const Tensor& x, const Tensor& weight, const Tensor& bias) {
    static const bool vectorKernel = gemm::hasVectorKernel();
    const std::int64_t rows = x.dim() > 0 && x.size(-1) > 0 ? x.numel() / x.size(-1) : 0;
    if (vectorKernel && torch::GradMode::is_enabled() && !c10::InferenceMode::is_enabled() && rows >= kMinimumRows &&
        packable(x) && packable(weight) && (!bias.defined() || packable(bias)) && weight.dim() == 2)
        return packedLinear(x, weight, bias);
    return torch::linear(x, weight, bias);
}

}  // namespace attnlab::nn
