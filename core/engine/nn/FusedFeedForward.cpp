#include "FusedFeedForward.h"

#include <cstring>

#include "PackedLinear.h"
#include "Random.h"
#include "SmallGemm.h"
#include "VectorKernels.h"

namespace attnlab::nn {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

float* data(const Tensor& t) { return t.data_ptr<float>(); }

// C [rows, N] = A · W where W [K, N] is row-major (transposed: W [N, K], the product A · Wᵀ); A's
// element (m, k) at a[m lda + k ldk].
void product(std::int64_t rows, const float* a, std::int64_t lda, std::int64_t ldk, const Tensor& w, bool transposed,
             float* c, const float* bias = nullptr) {
    const std::int64_t K = transposed ? w.size(1) : w.size(0), N = transposed ? w.size(0) : w.size(1);
    gemm::PackedMatrix packed;
    packed.pack(data(w), w.size(1), transposed, K, N);
    gemm::multiply(rows, a, lda, ldk, packed, c, N, false, bias);
}

class FeedForwardFunction : public torch::autograd::Function<FeedForwardFunction> {
public:
    static variable_list forward(AutogradContext* ctx, Tensor x, Tensor w1, Tensor b1, Tensor w2, Tensor b2, bool gelu,
                                 double dropout, bool training) {
        const Tensor rows = rowsOf(x);
        const Tensor first = w1.contiguous(), second = w2.contiguous();
        const Tensor bias1 = b1.contiguous(), bias2 = b2.contiguous();
        const std::int64_t M = rows.size(0), D = rows.size(1), F = first.size(0);
        TORCH_CHECK(first.size(1) == D && second.size(0) == D && second.size(1) == F,
                    "feedForward: inconsistent shapes");
        Tensor h = torch::empty({M, F}, rows.options());
        product(M, data(rows), rows.stride(0), 1, first, true, data(h), data(bias1));
        Tensor mask;
        if (training && dropout > 0) {  // as applyDropout draws it: one mask over the hidden layer
            mask = torch::empty({M, F}, rows.options());
            fillDropoutMask(mask, dropout);
        }
        Tensor hidden = torch::empty({M, F}, rows.options());  // act(h) · mask
        kernels::activationForward(data(h), mask.defined() ? data(mask) : nullptr, data(hidden), M * F, gelu);
        Tensor y = torch::empty({M, D}, rows.options());
        product(M, data(hidden), F, 1, second, true, data(y), data(bias2));
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
        const Tensor rows = rowsOf(inputs[0]), first = inputs[1].contiguous(), second = inputs[2].contiguous();
        auto& saved = ctx->saved_data;
        const Tensor h = saved["h"].toTensor(), hidden = saved["hidden"].toTensor();
        const Tensor mask = saved["mask"].isTensor() ? saved["mask"].toTensor() : Tensor();
        const bool gelu = saved["gelu"].toBool();
        const std::int64_t M = rows.size(0), D = rows.size(1), F = first.size(0);
        const Tensor dy = gradOutputs[0].reshape({M, D}).contiguous();
        Tensor dx, dw1, db1, dw2, db2;
        if (ctx->needs_input_grad(3)) {  // dW2 [D, F] = dyᵀ · hidden
            dw2 = torch::empty({D, F}, dy.options());
            gemm::PackedMatrix packed;
            packed.pack(data(hidden), F, false, M, F);
            gemm::multiply(D, data(dy), 1, D, packed, data(dw2), F, false);
        }
        if (ctx->needs_input_grad(4)) db2 = dy.sum(0);
        Tensor dh = torch::empty({M, F}, dy.options());  // dy · W2, then through the mask and act
        product(M, data(dy), D, 1, second, false, data(dh));
        kernels::activationBackward(data(dh), data(h), mask.defined() ? data(mask) : nullptr, M * F, gelu);
        if (ctx->needs_input_grad(1)) {  // dW1 [F, D] = dhᵀ · x
            dw1 = torch::empty({F, D}, dy.options());
            gemm::PackedMatrix packed;
            packed.pack(data(rows), rows.stride(0), false, M, D);
            gemm::multiply(F, data(dh), 1, F, packed, data(dw1), D, false);
        }
        if (ctx->needs_input_grad(2)) db1 = dh.sum(0);
        if (ctx->needs_input_grad(0)) {  // dx [M, D] = dh · W1
            dx = torch::empty({M, D}, dy.options());
            product(M, data(dh), F, 1, first, false, data(dx));
            dx = dx.view(gradOutputs[0].sizes());
        }
        return {dx, dw1, db1, dw2, db2, Tensor(), Tensor(), Tensor()};
    }
};

}  // namespace

bool canFuseFeedForward(const Tensor& x) {
    static const bool vectorKernel = std::strcmp(gemm::kernelName(), "baseline") != 0;
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
