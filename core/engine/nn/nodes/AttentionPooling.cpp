#include "engine/nn/nodes/AttentionPooling.h"

#include "engine/nn/nodes/PackedLinear.h"
#include "engine/nn/kernels/VectorKernels.h"

namespace attnlab::nn {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

class AdditivePoolingFunction : public torch::autograd::Function<AdditivePoolingFunction> {
public:
    static variable_list forward(AutogradContext* ctx, Tensor states, Tensor valid, Tensor weight, Tensor bias,
                                 Tensor queries) {
        states = states.contiguous();
        queries = queries.contiguous();
        const std::int64_t B = states.size(0), S = states.size(1), D = states.size(2), R = queries.size(0);
        const std::int64_t A = weight.size(0);
        const Tensor rows = states.view({B * S, D});
        Tensor u = rowsTimes(rows, weight, /*byTranspose=*/true, bias);  // [B S, A]
        kernels::tanhInPlace(u.data_ptr<float>(), u.numel());
        const Tensor pad = valid.logical_not().contiguous();  // [B, S]
        Tensor attention = torch::empty({B, R, S}, states.options());
        Tensor pooled = torch::zeros({B, R, D}, states.options());
        const float *ud = u.data_ptr<float>(), *qd = queries.data_ptr<float>(), *sd = states.data_ptr<float>();
        const bool* padd = pad.data_ptr<bool>();
        float *ad = attention.data_ptr<float>(), *pd = pooled.data_ptr<float>();
        for (std::int64_t b = 0; b < B; ++b) {
            float* rowsOfB = ad + b * R * S;
            for (std::int64_t r = 0; r < R; ++r)
                for (std::int64_t s = 0; s < S; ++s) rowsOfB[r * S + s] = kernels::dot(ud + (b * S + s) * A, qd + r * A, A);
            kernels::softmaxRows(rowsOfB, R, S, padd + b * S, /*causal=*/false);
            for (std::int64_t r = 0; r < R; ++r) {
                float* out = pd + (b * R + r) * D;
                for (std::int64_t s = 0; s < S; ++s) {
                    const float w = rowsOfB[r * S + s];
                    if (w == 0.0f) continue;
                    const float* x = sd + (b * S + s) * D;
                    for (std::int64_t d = 0; d < D; ++d) out[d] += w * x[d];
                }
            }
        }
        ctx->save_for_backward({states, weight, queries, u, attention});
        return {pooled, attention};
    }

    static variable_list backward(AutogradContext* ctx, variable_list gradOutputs) {
        const auto saved = ctx->get_saved_variables();
        const Tensor &states = saved[0], &weight = saved[1], &queries = saved[2], &u = saved[3], &attention = saved[4];
        const std::int64_t B = states.size(0), S = states.size(1), D = states.size(2), R = queries.size(0);
        const std::int64_t A = weight.size(0);
        // dAttention = given (the penalty's) + the pooling's: gP[b, r] · states[b, s].
        Tensor dScores = gradOutputs[1].defined() ? gradOutputs[1].contiguous().clone()
                                                  : torch::zeros({B, R, S}, states.options());
        Tensor dStates = torch::zeros({B, S, D}, states.options());
        const float *sd = states.data_ptr<float>(), *ad = attention.data_ptr<float>();
        float *gd = dScores.data_ptr<float>(), *dsd = dStates.data_ptr<float>();
        if (gradOutputs[0].defined()) {
            const Tensor gP = gradOutputs[0].contiguous();  // [B, R, D]
            const float* gpd = gP.data_ptr<float>();
            for (std::int64_t b = 0; b < B; ++b)
                for (std::int64_t r = 0; r < R; ++r) {
                    const float* g = gpd + (b * R + r) * D;
                    for (std::int64_t s = 0; s < S; ++s) {
                        const float* x = sd + (b * S + s) * D;
                        gd[(b * R + r) * S + s] += kernels::dot(g, x, D);
                        const float w = ad[(b * R + r) * S + s];
                        if (w == 0.0f) continue;
                        float* dx = dsd + (b * S + s) * D;
                        for (std::int64_t d = 0; d < D; ++d) dx[d] += w * g[d];
                    }
                }
        }
        kernels::softmaxBackwardRows(gd, ad, nullptr, B * R, S);  // now the scores' gradient
        // dU[b s] = Σ_r dScores[b, r, s] V[r]; dV[r] = Σ_{b, s} dScores[b, r, s] u[b s]; through tanh.
        Tensor dU = torch::zeros({B * S, A}, states.options());
        Tensor dQueries = torch::zeros({R, A}, states.options());
        const float *ud = u.data_ptr<float>(), *qd = queries.data_ptr<float>();
        float *dud = dU.data_ptr<float>(), *dqd = dQueries.data_ptr<float>();
        for (std::int64_t b = 0; b < B; ++b)
            for (std::int64_t s = 0; s < S; ++s) {
                float* du = dud + (b * S + s) * A;
                const float* uu = ud + (b * S + s) * A;
                for (std::int64_t r = 0; r < R; ++r) {
                    const float g = gd[(b * R + r) * S + s];
                    if (g == 0.0f) continue;
                    const float* q = qd + r * A;
                    float* dq = dqd + r * A;
                    for (std::int64_t a = 0; a < A; ++a) {
                        du[a] += g * q[a];
                        dq[a] += g * uu[a];
                    }
                }
                for (std::int64_t a = 0; a < A; ++a) du[a] *= 1.0f - uu[a] * uu[a];
            }
        const Tensor rows = states.view({B * S, D});
        dStates.view({B * S, D}).add_(rowsTimes(dU, weight, /*byTranspose=*/false));
        Tensor dWeight = transposedTimes(dU, rows);
        Tensor dBias = dU.sum(0);
        return {dStates, Tensor(), dWeight, dBias, dQueries};
    }
};

}  // namespace

bool additivePoolingFusable(const Tensor& states, const Tensor& weight, const Tensor& bias, const Tensor& queries) {
    const auto isFloat = [](const Tensor& t) {
        return t.defined() && t.scalar_type() == torch::kFloat && t.device().is_cpu();
    };
    return isFloat(states) && isFloat(weight) && isFloat(bias) && isFloat(queries) && states.dim() == 3 &&
           weight.dim() == 2 && bias.dim() == 1 && queries.dim() == 2 && weight.size(1) == states.size(2) &&
           bias.size(0) == weight.size(0) && queries.size(1) == weight.size(0);
}

std::pair<Tensor, Tensor> additivePooling(const Tensor& states, const Tensor& valid, const Tensor& weight,
                                          const Tensor& bias, const Tensor& queries) {
    const variable_list out = AdditivePoolingFunction::apply(states, valid, weight, bias, queries);
    return {out[0], out[1]};
}

}  // namespace attnlab::nn
