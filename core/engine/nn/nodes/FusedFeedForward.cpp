#include "engine/nn/nodes/FusedFeedForward.h"

#include "engine/nn/nodes/PackedLinear.h"
#include "engine/nn/kernels/Random.h"
#include "engine/nn/kernels/SmallGemm.h"
#include "engine/nn/kernels/VectorKernels.h"

namespace attnlab::nn {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

float* data(const Tensor& t) { return t.data_ptr<float>(); }

class FeedForwardFunction : public torch::autograd::Function<FeedForwardFunction> {
public:
    static variable_list forward(AutogradContext* ctx, Tensor x, Tensor w1, Tensor b1, Tensor w2, Tensor b2, bool gelu,
                                 double dropout, bool training) {
        const Tensor rows = rowsOf(x);
        const std::int64_t M = rows.size(0), D = rows.size(1), F = w1.size(0);
        TORCH_CHECK(w1.size(1) == D && w2.size(0) == D && w2.size(1) == F, "feedForward: inconsistent shapes");
        const Tensor h = rowsTimes(rows, w1, /*byTranspose=*/true, b1);  // [M, F]
        Tensor mask;
        if (training && dropout > 0) {  // as applyDropout draws it: one mask over the hidden layer
            mask = torch::empty({M, F}, rows.options());
            fillDropoutMask(mask, dropout);
        }
        Tensor hidden = torch::empty({M, F}, rows.options());  // act(h) · mask
        kernels::activationForward(data(h), mask.defined() ? data(mask) : nullptr, data(hidden), M * F, gelu);
        const Tensor y = rowsTimes(hidden, w2, /*byTranspose=*/true, b2);  // [M, D]
        ctx->save_for_backward({x, w1, w2});
        auto& saved = ctx->saved_data;
        saved["h"] = h;
        saved["mask"] = mask;
        saved["hidden"] = hidden;
        saved["gelu"] = gelu;
        return {y.view(x.sizes())};
    }

    static variable_list backward(AutogradContext* ctx, variable_list gradOutputs) {
        const auto inputs = ctx->get_saved_variables();
        const Tensor rows = rowsOf(inputs[0]), &first = inputs[1], &second = inputs[2];
        auto& saved = ctx->saved_data;
        const Tensor h = saved["h"].toTensor(), hidden = saved["hidden"].toTensor();
        const Tensor mask = saved["mask"].isTensor() ? saved["mask"].toTensor() : Tensor();
        const bool gelu = saved["gelu"].toBool();
        const Tensor dy = gradOutputs[0].reshape({rows.size(0), rows.size(1)}).contiguous();
        Tensor dx, dw1, db1, dw2, db2;
        if (ctx->needs_input_grad(3)) dw2 = transposedTimes(dy, hidden);  // dW2 [D, F] = dyᵀ · hidden
        if (ctx->needs_input_grad(4)) db2 = dy.sum(0);
        Tensor dh = rowsTimes(dy, second, /*byTranspose=*/false);  // dy · W2, then through the mask and act
        kernels::activationBackward(data(dh), data(h), mask.defined() ? data(mask) : nullptr, dh.numel(), gelu);
        if (ctx->needs_input_grad(1)) dw1 = transposedTimes(dh, rows);  // dW1 [F, D] = dhᵀ · x
        if (ctx->needs_input_grad(2)) db1 = dh.sum(0);
        if (ctx->needs_input_grad(0))  // dx [M, D] = dh · W1
            dx = rowsTimes(dh, first, /*byTranspose=*/false).view(gradOutputs[0].sizes());
        return {dx, dw1, db1, dw2, db2, Tensor(), Tensor(), Tensor()};
    }
};

}  // namespace

bool canFuseFeedForward(const Tensor& x) {
    static const bool vectorKernel = gemm::hasVectorKernel();
    const std::int64_t rows = x.dim() > 0 && x.size(-1) > 0 ? x.numel() / x.size(-1) : 0;
    return vectorKernel && x.scalar_type() == torch::kFloat && x.device().is_cpu() && torch::GradMode::is_enabled() &&
           !c10::InferenceMode::is_enabled() && rows >= kMinimumRows;
}

Tensor feedForward(const Tensor& x, torch::nn::Linear& first, torch::nn::Linear& second,
                   FeedForwardActivation activation, double dropout, bool training) {
    const bool gelu = activation == FeedForwardActivation::Gelu;
    if (canFuseFeedForward(x) && first->bias.defined() && second->bias.defined() && dropout < 1.0 &&
        first->weight.scalar_type() == torch::kFloat)
        return FeedForwardFunction::apply(x, first->weight, first->bias, second->weight, second->bias, gelu, dropout,
                                          training)[0];
    const Tensor h = linear(first, x);
    return linear(second, applyDropout(gelu ? torch::gelu(h) : torch::relu(h), dropout, training));
}

}  // namespace attnlab::nn
