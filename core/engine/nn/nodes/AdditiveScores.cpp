#include "engine/nn/nodes/AdditiveScores.h"

#include "engine/nn/kernels/VectorKernels.h"

namespace attnlab::nn {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

class AdditiveScoresFunction : public torch::autograd::Function<AdditiveScoresFunction> {
public:
    static Tensor forward(AutogradContext* ctx, Tensor q, Tensor k, Tensor v) {
        q = q.contiguous();
        k = k.contiguous();
        v = v.contiguous();
        const int64_t B = q.size(0), T = q.size(1), S = k.size(1), A = q.size(2);
        Tensor y = torch::empty({B, T, S, A}, q.options());  // tanh(q_t + k_s), for the backward
        Tensor scores = torch::empty({B, T, S}, q.options());
        const float *qd = q.data_ptr<float>(), *kd = k.data_ptr<float>(), *vd = v.data_ptr<float>();
        float *yd = y.data_ptr<float>(), *sd = scores.data_ptr<float>();
        for (int64_t b = 0; b < B; ++b)
            for (int64_t t = 0; t < T; ++t)
                kernels::additiveScoresRow(qd + (b * T + t) * A, kd + b * S * A, vd, yd + (b * T + t) * S * A,
                                           sd + (b * T + t) * S, S, A);
        ctx->save_for_backward({v, y});
        return scores;
    }

    static variable_list backward(AutogradContext* ctx, variable_list gradOutputs) {
        const auto saved = ctx->get_saved_variables();
        const Tensor &v = saved[0], &y = saved[1];
        const Tensor g = gradOutputs[0].contiguous();
        const int64_t B = y.size(0), T = y.size(1), S = y.size(2), A = y.size(3);
        Tensor dq = torch::zeros({B, T, A}, y.options()), dk = torch::zeros({B, S, A}, y.options());
        Tensor dv = torch::zeros({A}, y.options());
        const float *gd = g.data_ptr<float>(), *vd = v.data_ptr<float>(), *yd = y.data_ptr<float>();
        float *dqd = dq.data_ptr<float>(), *dkd = dk.data_ptr<float>(), *dvd = dv.data_ptr<float>();
        for (int64_t b = 0; b < B; ++b)
            for (int64_t t = 0; t < T; ++t)
                kernels::additiveScoresBackwardRow(gd + (b * T + t) * S, vd, yd + (b * T + t) * S * A,
                                                   dqd + (b * T + t) * A, dkd + b * S * A, dvd, S, A);
        return {dq, dk, dv};
    }
};

}  // namespace

Tensor additiveScores(const Tensor& q, const Tensor& k, const Tensor& v) {
    const bool fused = q.scalar_type() == torch::kFloat && k.scalar_type() == torch::kFloat &&
                       v.scalar_type() == torch::kFloat && q.dim() == 3 && k.dim() == 3 && v.dim() == 1 &&
                       q.size(0) == k.size(0) && q.size(2) == k.size(2) && v.size(0) == q.size(2);
    if (!fused) return torch::matmul(torch::tanh(k.unsqueeze(1) + q.unsqueeze(2)), v);
    return AdditiveScoresFunction::apply(q, k, v);
}

}  // namespace attnlab::nn
