#include "engine/nn/nodes/FusedAttentionDecoder.h"

#include <atomic>
#include <limits>

#include "engine/nn/kernels/FusedGruKernels.h"
#include "engine/nn/nodes/PackedLinear.h"
#include "engine/nn/kernels/RecurrentProduct.h"
#include "engine/nn/kernels/VectorKernels.h"
#include "engine/nn/kernels/Random.h"

namespace attnlab::nn {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

std::atomic<bool> fusedEnabled{true};

// W_ctx c_t = W_ctx Σ_s a_d[s] keys[s] = Σ_s a_d[s] (W_ctx keys[s]): with the keys
// projected once per batch (kw = keys W_ctx^T, [B, S, 3H]) each step needs a weighted
// sum instead of a matmul, and its backward a dot product per source position; the
// gradients of W_ctx and of the keys then come from dkw in one matmul each.

// Masked softmax of each row of score [B, S] (times scale) into a; ad = a * drop.
template <typename T>
void maskedSoftmax(const T* score, const bool* pad, const T* drop, T* a, T* ad, int64_t B, int64_t S, T scale) {
    for (int64_t b = 0; b < B; ++b) {
        const T* x = score + b * S;
        const bool* m = pad + b * S;
        T* y = a + b * S;
        T top = -std::numeric_limits<T>::infinity();
        for (int64_t s = 0; s < S; ++s)
            if (!m[s]) top = std::max(top, x[s] * scale);
        T sum = 0;
        for (int64_t s = 0; s < S; ++s) {
            y[s] = m[s] ? T(0) : std::exp(x[s] * scale - top);
            sum += y[s];
        }
        const T inv = sum > 0 ? T(1) / sum : T(0);
        for (int64_t s = 0; s < S; ++s) y[s] *= inv;
        if (drop)
            for (int64_t s = 0; s < S; ++s) ad[b * S + s] = y[s] * drop[b * S + s];
    }
}

// e[b, s, :] = Uh[b, s, :] + q[b, :] (before the tanh); q has row stride ldq.
template <typename T>
void addQuery(const T* __restrict uh, const T* __restrict q, int64_t ldq, T* __restrict e, int64_t B, int64_t S,
              int64_t H) {
    for (int64_t b = 0; b < B; ++b)
        for (int64_t s = 0; s < S; ++s) {
            const T* u = uh + (b * S + s) * H;
            const T* x = q + b * ldq;
            T* o = e + (b * S + s) * H;
            for (int64_t h = 0; h < H; ++h) o[h] = u[h] + x[h];
        }
}

// score[b, s] = K[b, s, :] · query[b, :]
template <typename T>
void dotScores(const T* k, const T* query, T* score, int64_t B, int64_t S, int64_t H) {
    for (int64_t b = 0; b < B; ++b)
        for (int64_t s = 0; s < S; ++s) score[b * S + s] = kernels::dot(k + (b * S + s) * H, query + b * H, H);
}

// gi[b, :] = emb[b, :] + Σ_s ad[b, s] kw[b, s, :]   (kw, emb, gi rows of width W = 3H)
template <typename T>
void contextInput(const T* __restrict ad, const T* __restrict kw, const T* __restrict emb, T* __restrict gi,
                  int64_t B, int64_t S, int64_t W) {
    for (int64_t b = 0; b < B; ++b) {
        T* o = gi + b * W;
        const T* x = emb + b * W;
        for (int64_t h = 0; h < W; ++h) o[h] = x[h];
        for (int64_t s = 0; s < S; ++s) {
            const T g = ad[b * S + s];
            if (g == T(0)) continue;  // padding or dropped
            const T* k = kw + (b * S + s) * W;
            for (int64_t h = 0; h < W; ++h) o[h] += g * k[h];
        }
    }
}

// Backward of gi += Σ_s ad kw and of the masked softmax, for one step:
// dkw[b, s] += ad[b, s] dgi[b]; da = drop * (kw · dgi); dscore = scale * a * (da - Σ a da).
template <typename T>
void attentionBackward(const T* __restrict dgi, const T* __restrict kw, const T* __restrict a,
                       const T* __restrict ad, const T* __restrict drop, T* __restrict dkw, T* __restrict dscore,
                       int64_t B, int64_t S, int64_t W, T scale) {
    for (int64_t b = 0; b < B; ++b) {
        const int64_t o = b * S;
        const T* dg = dgi + b * W;
        T total = 0;
        for (int64_t s = 0; s < S; ++s) {
            dscore[o + s] = 0;
            if (a[o + s] == T(0)) continue;  // padding: no weight, no gradient
            const T* k = kw + (o + s) * W;
            T* dk = dkw + (o + s) * W;
            const T g = ad[o + s];
            if (g != T(0))
                for (int64_t h = 0; h < W; ++h) dk[h] += g * dg[h];
            if (drop && drop[o + s] == T(0)) continue;
            const T da = kernels::dot(k, dg, W) * (drop ? drop[o + s] : T(1));
            dscore[o + s] = da;
            total += a[o + s] * da;
        }
        for (int64_t s = 0; s < S; ++s) dscore[o + s] = scale * a[o + s] * (dscore[o + s] - total);
    }
}

// Additive score backward for one step, e = tanh(U h + b + q) [B, S, H]:
// dUh += dscore v (1 - e²), dq = Σ_s of that (row stride ldq), dv += Σ dscore e.
template <typename T>
void additiveBackward(const T* __restrict dscore, const T* __restrict e, const T* __restrict v, T* __restrict dUh,
                      T* __restrict dq, int64_t ldq, T* __restrict dv, int64_t B, int64_t S, int64_t H) {
    for (int64_t b = 0; b < B; ++b) {
        T* q = dq + b * ldq;
        for (int64_t h = 0; h < H; ++h) q[h] = 0;
        for (int64_t s = 0; s < S; ++s) {
            const T g = dscore[b * S + s];
            if (g == T(0)) continue;  // padding (weight 0) contributes nothing
            const T* x = e + (b * S + s) * H;
            T* u = dUh + (b * S + s) * H;
            for (int64_t h = 0; h < H; ++h) {
                const T dp = g * v[h] * (T(1) - x[h] * x[h]);
                dv[h] += g * x[h];
                u[h] += dp;
                q[h] += dp;
            }
        }
    }
}

// Dot score backward, the query side: carry += Σ_s dscore K (dscore already scaled).
template <typename T>
void dotBackward(const T* __restrict dscore, const T* __restrict k, T* __restrict carry, int64_t B, int64_t S,
                 int64_t H) {
    for (int64_t b = 0; b < B; ++b) {
        T* c = carry + b * H;
        for (int64_t s = 0; s < S; ++s) {
            const T g = dscore[b * S + s];
            if (g == T(0)) continue;
            const T* x = k + (b * S + s) * H;
            for (int64_t h = 0; h < H; ++h) c[h] += g * x[h];
        }
    }
}

// What forward keeps for backward, indexed by step.
struct Buffers {
    Tensor hs;    // [T + 1, B, H] s_0 .. s_T
    Tensor qg;    // [T, B, G] [W_q s | W_hh s + b_hh]
    Tensor e;     // [T, B, S, H] tanh(U h + b + W_q s) (additive)
    Tensor a;     // [T, B, S] attention weights
    Tensor drop;  // [T, B, S] dropout mask scaled by 1 / (1 - p), or undefined
    Tensor ad;    // [T, B, S] a * drop (a itself without dropout)
    Tensor rz;    // [T, B, 2H] r, z
    Tensor n;     // [T, B, H] candidate
};

template <typename T>
void decodeForward(Buffers& m, const Tensor& emb, const Tensor& kw, const Tensor& scoreKeys, const Tensor& pad,
                   const Tensor& weight, const Tensor& bias, const Tensor& v, bool additive, T scale,
                   double dropout) {
    const int64_t T_ = m.qg.size(0), B = m.qg.size(1), G = m.qg.size(2), S = pad.size(1), H = m.hs.size(2);
    const int64_t Hq = G - 3 * H;
    Tensor score = torch::empty({B, S}, m.hs.options());
    Tensor scoreFlat = score.view({B * S});
    Tensor gi = torch::empty({B, 3 * H}, m.hs.options());  // embProj_t + W_ctx c_t
    const T* embData = emb.data_ptr<T>();
    const T* kwData = kw.data_ptr<T>();
    const T* scoreKeyData = scoreKeys.data_ptr<T>();
    const bool* padData = pad.data_ptr<bool>();
    T* giData = gi.data_ptr<T>();
    T* scoreData = score.data_ptr<T>();
    T* hsData = m.hs.data_ptr<T>();
    T* qgData = m.qg.data_ptr<T>();
    T* aData = m.a.data_ptr<T>();
    T* adData = m.ad.data_ptr<T>();
    T* rzData = m.rz.data_ptr<T>();
    T* nData = m.n.data_ptr<T>();
    const T* biasData = bias.data_ptr<T>();
    const RecurrentProduct hidden(weight, /*byTranspose=*/true);  // [W_q s | W_hh s + b_hh]
    for (int64_t t = 0; t < T_; ++t) {
        const T* prev = hsData + t * B * H;
        T* qg = qgData + t * B * G;
        hidden(B, prev, H, qg, G, biasData, false);
        if (additive) {
            Tensor et = m.e[t];
            addQuery<T>(scoreKeyData, qg, G, et.data_ptr<T>(), B, S, H);
            kernels::tanhInPlace(et.data_ptr<T>(), et.numel());
            at::mv_out(scoreFlat, et.view({B * S, H}), v);
        } else {
            dotScores<T>(scoreKeyData, prev, scoreData, B, S, H);
        }
        const T* drop = nullptr;
        if (dropout > 0) {
            // The same draws, in the same order, as applyDropout on each step's [B, S] weights.
            Tensor dropt = m.drop[t];
            fillDropoutMask(dropt, dropout);
            drop = dropt.data_ptr<T>();
        }
        T* a = aData + t * B * S;
        T* ad = adData + t * B * S;
        maskedSoftmax<T>(scoreData, padData, drop, a, ad, B, S, additive ? T(1) : scale);
        contextInput<T>(ad, kwData, embData + t * B * 3 * H, giData, B, S, 3 * H);
        T* rz = rzData + t * B * 2 * H;
        T* n = nData + t * B * H;
        kernels::addGates<T>(giData, 3 * H, qg + Hq, G, rz, B, H);
        kernels::sigmoidInPlace(rzData + t * B * 2 * H, B * 2 * H);
        kernels::candidate<T>(giData + 2 * H, 3 * H, rz, qg + Hq + 2 * H, G, n, B, H);
        kernels::tanhInPlace(nData + t * B * H, B * H);
        kernels::update<T>(rz, n, prev, hsData + (t + 1) * B * H, nullptr, 0, nullptr, 0, B, H);
    }
}

struct Gradients {
    Tensor carry;   // [B, H] gradient reaching s_t from later steps; at the end, that of s_0
    Tensor dqg;     // [T, B, G] [dq | dgh]
    Tensor dgi;     // [T, B, 3H] (also the gradient of embProj)
    Tensor dkw;     // [B, S, 3H]
    Tensor dscore;  // [T, B, S]
    Tensor dUh;     // [B, S, H] (additive)
    Tensor dv;      // [H] (additive)
};

template <typename T>
void decodeBackward(Gradients& g, const Buffers& m, const Tensor& dOut, const Tensor& kw, const Tensor& scoreKeys,
                    const Tensor& weight, const Tensor& v, bool additive, T scale) {
    const int64_t T_ = m.qg.size(0), B = m.qg.size(1), G = m.qg.size(2), S = m.a.size(2), H = m.hs.size(2);
    const int64_t Hq = G - 3 * H;
    const T* kwData = kw.data_ptr<T>();
    const T* scoreKeyData = scoreKeys.data_ptr<T>();
    const T* dOutData = dOut.data_ptr<T>();
    const T* hsData = m.hs.data_ptr<T>();
    const T* qgData = m.qg.data_ptr<T>();
    const T* eData = additive ? m.e.data_ptr<T>() : nullptr;
    const T* aData = m.a.data_ptr<T>();
    const T* adData = m.ad.data_ptr<T>();
    const T* dropData = m.drop.defined() ? m.drop.data_ptr<T>() : nullptr;
    const T* rzData = m.rz.data_ptr<T>();
    const T* nData = m.n.data_ptr<T>();
    const T* vData = additive ? v.data_ptr<T>() : nullptr;
    T* carry = g.carry.data_ptr<T>();
    T* dqgData = g.dqg.data_ptr<T>();
    T* dgiData = g.dgi.data_ptr<T>();
    T* dkwData = g.dkw.data_ptr<T>();
    T* dscoreData = g.dscore.data_ptr<T>();
    T* dUhData = additive ? g.dUh.data_ptr<T>() : nullptr;
    T* dvData = additive ? g.dv.data_ptr<T>() : nullptr;
    const RecurrentProduct back(weight, /*byTranspose=*/false);
    for (int64_t t = T_ - 1; t >= 0; --t) {
        const T* qg = qgData + t * B * G;
        T* dqg = dqgData + t * B * G;
        T* dgi = dgiData + t * B * 3 * H;
        T* dscore = dscoreData + t * B * S;
        kernels::updateBackward<T>(carry, dOutData + t * B * H, H, nullptr, 0, rzData + t * B * 2 * H,
                                   nData + t * B * H, qg + Hq + 2 * H, G, hsData + t * B * H, dgi, dqg + Hq, G, B,
                                   H);
        attentionBackward<T>(dgi, kwData, aData + t * B * S, adData + t * B * S,
                             dropData ? dropData + t * B * S : nullptr, dkwData, dscore, B, S, 3 * H,
                             additive ? T(1) : scale);
        if (additive)
            additiveBackward<T>(dscore, eData + t * B * S * H, vData, dUhData, dqg, G, dvData, B, S, H);
        else
            dotBackward<T>(dscore, scoreKeyData, carry, B, S, H);
        back(B, dqg, G, carry, H, nullptr, true);
    }
}

}  // namespace

bool fusedTrainingEnabled() { return fusedEnabled.load(); }
void setFusedTrainingEnabled(bool enabled) { fusedEnabled.store(enabled); }

FusedDecoderOutputs FusedAttentionDecoder::run(const FusedDecoderInputs& in) {
    c10::optional<Tensor> query, score;
    if (in.additive) {
        query = in.queryWeight;
        score = in.scoreWeight;
    }
    variable_list out = apply(in.embProj, in.keys, in.scoreKeys, in.initial, query, score, in.contextWeight,
                              in.hiddenWeight, in.hiddenBias, in.padMask, in.additive, in.scale, in.dropout);
    return {out[0], out[1]};
}

variable_list FusedAttentionDecoder::forward(AutogradContext* ctx, Tensor embProj, Tensor keys, Tensor scoreKeys,
                                             Tensor initial, c10::optional<Tensor> queryWeight,
                                             c10::optional<Tensor> scoreWeight, Tensor contextWeight,
                                             Tensor hiddenWeight, Tensor hiddenBias, Tensor padMask, bool additive,
                                             double scale, double dropout) {
    const int64_t B = embProj.size(0), T = embProj.size(1), H = initial.size(1), S = keys.size(1);
    const int64_t Hq = additive ? H : 0;  // the query projection shares a matmul with W_hh
    const int64_t G = Hq + 3 * H;
    TORCH_CHECK(embProj.size(2) == 3 * H && keys.size(2) == H && scoreKeys.sizes() == keys.sizes() &&
                    padMask.size(0) == B && padMask.size(1) == S,
                "FusedAttentionDecoder: inconsistent shapes");
    TORCH_CHECK(!additive || (queryWeight && scoreWeight), "FusedAttentionDecoder: additive needs W_q and v");
    const auto opts = embProj.options();

    Tensor emb = embProj.transpose(0, 1).contiguous();  // [T, B, 3H]
    keys = keys.contiguous();
    scoreKeys = scoreKeys.contiguous();
    Tensor pad = padMask.to(torch::kBool).contiguous();
    Tensor kw = product(keys.view({B * S, H}), contextWeight, /*byTranspose=*/true).view({B, S, 3 * H});
    Tensor weight = additive ? torch::cat({*queryWeight, hiddenWeight}, 0) : hiddenWeight;  // [G, H]
    Tensor bias = additive ? torch::cat({torch::zeros({H}, opts), hiddenBias}) : hiddenBias.contiguous();
    Tensor v = additive ? scoreWeight->reshape({H}).contiguous() : Tensor();

    Buffers m;
    m.hs = torch::empty({T + 1, B, H}, opts);
    m.hs[0].copy_(initial);
    m.qg = torch::empty({T, B, G}, opts);
    if (additive) m.e = torch::empty({T, B, S, H}, opts);
    m.a = torch::empty({T, B, S}, opts);
    m.drop = dropout > 0 ? torch::empty({T, B, S}, opts) : Tensor();
    m.ad = dropout > 0 ? torch::empty({T, B, S}, opts) : m.a;
    m.rz = torch::empty({T, B, 2 * H}, opts);
    m.n = torch::empty({T, B, H}, opts);
    AT_DISPATCH_FLOATING_TYPES(opts.dtype().toScalarType(), "FusedAttentionDecoder::forward", [&] {
        decodeForward<scalar_t>(m, emb, kw, scoreKeys, pad, weight, bias, v, additive,
                                static_cast<scalar_t>(scale), dropout);
    });

    Tensor states = m.hs.narrow(0, 1, T).transpose(0, 1).contiguous();  // [B, T, H]
    Tensor weights = m.a.transpose(0, 1).contiguous();                   // [B, T, S]
    ctx->mark_non_differentiable({weights});
    ctx->save_for_backward({keys, scoreKeys, contextWeight});
    auto& d = ctx->saved_data;
    d["kw"] = kw;
    d["weight"] = weight;
    d["hs"] = m.hs;
    d["qg"] = m.qg;
    d["a"] = m.a;
    d["ad"] = m.ad;
    d["rz"] = m.rz;
    d["n"] = m.n;
    if (additive) {
        d["e"] = m.e;
        d["v"] = v;
    }
    if (dropout > 0) d["drop"] = m.drop;
    d["additive"] = additive;
    d["scale"] = scale;
    return {states, weights};
}

variable_list FusedAttentionDecoder::backward(AutogradContext* ctx, variable_list gradOutputs) {
    variable_list saved = ctx->get_saved_variables();
    const Tensor& keys = saved[0];
    const Tensor& scoreKeys = saved[1];
    const Tensor& contextWeight = saved[2];
    auto& d = ctx->saved_data;
    const bool additive = d["additive"].toBool();
    const double scale = d["scale"].toDouble();
    const Tensor kw = d["kw"].toTensor(), weight = d["weight"].toTensor();
    Buffers m;
    m.hs = d["hs"].toTensor();
    m.qg = d["qg"].toTensor();
    m.a = d["a"].toTensor();
    m.ad = d["ad"].toTensor();
    m.rz = d["rz"].toTensor();
    m.n = d["n"].toTensor();
    if (additive) m.e = d["e"].toTensor();
    if (d.count("drop")) m.drop = d["drop"].toTensor();
    const Tensor v = additive ? d["v"].toTensor() : Tensor();

    const int64_t T = m.hs.size(0) - 1, B = m.hs.size(1), H = m.hs.size(2), S = keys.size(1);
    const int64_t Hq = additive ? H : 0, G = Hq + 3 * H;
    const auto opts = m.hs.options();

    Tensor dOut = gradOutputs[0].transpose(0, 1).contiguous();  // [T, B, H]
    Gradients g;
    g.carry = torch::zeros({B, H}, opts);
    g.dqg = torch::empty({T, B, G}, opts);
    g.dgi = torch::empty({T, B, 3 * H}, opts);
    g.dkw = torch::zeros({B, S, 3 * H}, opts);
    g.dscore = torch::empty({T, B, S}, opts);
    if (additive) {
        g.dUh = torch::zeros({B, S, H}, opts);
        g.dv = torch::zeros({H}, opts);
    }
    AT_DISPATCH_FLOATING_TYPES(opts.dtype().toScalarType(), "FusedAttentionDecoder::backward", [&] {
        decodeBackward<scalar_t>(g, m, dOut, kw, scoreKeys, weight, v, additive, static_cast<scalar_t>(scale));
    });

    // Every weight gradient in one matmul over all steps.
    Tensor dqgFlat = g.dqg.view({T * B, G});
    Tensor dWeight = weightGradient(dqgFlat, m.hs.narrow(0, 0, T).reshape({T * B, H}));  // [G, H]
    Tensor dHiddenBias = dqgFlat.narrow(1, Hq, 3 * H).sum(0);
    Tensor dkwFlat = g.dkw.view({B * S, 3 * H});
    Tensor dContextWeight = weightGradient(dkwFlat, keys.reshape({B * S, H}));  // [3H, H]
    Tensor dKeys = product(dkwFlat, contextWeight, /*byTranspose=*/false).view({B, S, H});
    Tensor dScoreKeys, dQueryWeight, dScoreWeight;
    if (additive) {
        dScoreKeys = g.dUh;
        dQueryWeight = dWeight.narrow(0, 0, H);
        dScoreWeight = g.dv.view({1, H});
    } else {
        dScoreKeys = torch::bmm(g.dscore.permute({1, 2, 0}).contiguous(),
                                m.hs.narrow(0, 0, T).transpose(0, 1).contiguous());
    }
    return {g.dgi.transpose(0, 1),
            dKeys,
            dScoreKeys,
            g.carry,
            dQueryWeight,
            dScoreWeight,
            dContextWeight,
            dWeight.narrow(0, Hq, 3 * H),
            dHiddenBias,
            Tensor(),
            Tensor(),
            Tensor(),
            Tensor()};
}

}  // namespace attnlab::nn
