#include "PackedLinear.h"

#include <cstring>

#include "SmallGemm.h"

namespace attnlab::nn {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

Tensor rowsOf(const Tensor& x) {
    Tensor rows = x.reshape({-1, x.size(-1)});
    if (rows.stride(1) != 1 || (rows.size(0) > 1 && rows.stride(0) < rows.size(1))) rows = rows.contiguous();
    return rows;
}

namespace {

class PackedLinearFunction : public torch::autograd::Function<PackedLinearFunction> {
public:
    static variable_list forward(AutogradContext* ctx, Tensor x, Tensor weight, c10::optional<Tensor> bias) {
        const Tensor rows = rowsOf(x);
        const Tensor w = weight.contiguous();
        const std::int64_t M = rows.size(0), in = w.size(1), out = w.size(0);
        TORCH_CHECK(rows.size(1) == in, "linear: input has ", rows.size(1), " features, the weight ", in);
        const Tensor b = bias && bias->defined() ? bias->contiguous() : Tensor();
        Tensor y = torch::empty({M, out}, rows.options());
        gemm::PackedMatrix packed;
        packed.pack(w.data_ptr<float>(), in, /*transposed=*/true, in, out);  // Wᵀ [in, out]
        gemm::multiply(M, rows.data_ptr<float>(), rows.stride(0), packed, y.data_ptr<float>(), out, false,
                       b.defined() ? b.data_ptr<float>() : nullptr);
        ctx->save_for_backward({x, weight});  // inputs: rows and w are views or copies of them
        ctx->saved_data["bias"] = b.defined();
        std::vector<std::int64_t> shape = x.sizes().vec();
        shape.back() = out;
        return {y.view(shape)};
    }

    static variable_list backward(AutogradContext* ctx, variable_list gradOutputs) {
        const auto saved = ctx->get_saved_variables();
        const Tensor rows = rowsOf(saved[0]), w = saved[1].contiguous();
        const std::int64_t M = rows.size(0), in = w.size(1), out = w.size(0);
        const Tensor dy = gradOutputs[0].reshape({M, out}).contiguous();
        Tensor dx, dw, db;
        if (ctx->needs_input_grad(0)) {  // dx [M, in] = dy [M, out] · W [out, in]
            gemm::PackedMatrix packed;
            packed.pack(w.data_ptr<float>(), in, /*transposed=*/false, out, in);
            dx = torch::empty({M, in}, dy.options());
            gemm::multiply(M, dy.data_ptr<float>(), out, packed, dx.data_ptr<float>(), in, false);
            std::vector<std::int64_t> shape = gradOutputs[0].sizes().vec();
            shape.back() = in;
            dx = dx.view(shape);
        }
        if (ctx->needs_input_grad(1)) {  // dW [out, in] = dyᵀ [out, M] · x [M, in]
            gemm::PackedMatrix packed;
            packed.pack(rows.data_ptr<float>(), rows.stride(0), /*transposed=*/false, M, in);
            dw = torch::empty({out, in}, dy.options());
            gemm::multiply(out, dy.data_ptr<float>(), 1, out, packed, dw.data_ptr<float>(), in, false);
        }
        if (ctx->saved_data["bias"].toBool() && ctx->needs_input_grad(2)) db = dy.sum(0);
        return {dx, dw, db};
    }
};

bool packable(const Tensor& t) { return t.scalar_type() == torch::kFloat && t.device().is_cpu(); }

}  // namespace

Tensor packedLinear(const Tensor& x, const Tensor& weight, const Tensor& bias) {
    c10::optional<Tensor> b;
    if (bias.defined()) b = bias;
    return PackedLinearFunction::apply(x, weight, b)[0];
}

Tensor linear(const Tensor& x, const Tensor& weight, const Tensor& bias) {
    static const bool vectorKernel = std::strcmp(gemm::kernelName(), "baseline") != 0;
    const std::int64_t rows = x.dim() > 0 && x.size(-1) > 0 ? x.numel() / x.size(-1) : 0;
    if (vectorKernel && torch::GradMode::is_enabled() && !c10::InferenceMode::is_enabled() && rows >= kMinimumRows &&
        packable(x) && packable(weight) && (!bias.defined() || packable(bias)) && weight.dim() == 2)
        return packedLinear(x, weight, bias);
    return torch::linear(x, weight, bias);
}

}  // namespace attnlab::nn
