// GruSeq2Seq::stepFused: one decoding step (either query order, every layer) for each row,
// as raw loops and direct sgemv calls.
//
// Through LibTorch a step of the one-layer GRU with additive attention is ~40 small
// operations (chunks, narrows, gates, the attention's broadcast and tanh), a few
// microseconds of dispatch each over vectors of 128 numbers. The arithmetic here is
// decodeStep()'s, operation for operation; tests/core/test_decoding checks the tokens,
// scores and attention maps of every attention kind against forward() over the whole
// prefix. Local attention (windows, predicted centres) keeps the LibTorch path.
#include <cmath>
#include <string>
#include <vector>

#include "engine/nn/kernels/DecodeKernels.h"
#include "engine/nn/networks/GruSeq2Seq.h"

namespace attnlab::nn {

using torch::Tensor;
using decode::linear;

namespace {

inline float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

}  // namespace

bool GruSeq2Seq::canEncodeFused(const Tensor& emb) const {
    return !is_training() && !torch::GradMode::is_enabled() && emb.scalar_type() == torch::kFloat &&
           emb.device().is_cpu();
}

std::pair<Tensor, Tensor> GruSeq2Seq::encodeFused(const Tensor& emb, const Tensor& srcLen) {
    const int64_t B = emb.size(0), S = emb.size(1), H = config_.hidden, L = config_.layers;
    const int dirs = config_.bidirectional ? 2 : 1;
    const Tensor lengths = srcLen.to(torch::kLong).contiguous();
    auto params = encoder_->named_parameters(/*recurse=*/false);
    Tensor input = emb.contiguous();
    Tensor finals = torch::empty({L * dirs, B, H}, emb.options());
    std::vector<float> gh(3 * H), state(H);
    for (int64_t l = 0; l < L; ++l) {
        Tensor output = torch::zeros({B, S, dirs * H}, emb.options());  // padding stays 0, as pad_packed_sequence
        for (int d = 0; d < dirs; ++d) {
            const std::string suffix = "_l" + std::to_string(l) + (d ? "_reverse" : "");
            const Tensor& hiddenWeight = params["weight_hh" + suffix];
            const float* hiddenBias = params["bias_hh" + suffix].data_ptr<float>();
            // The input half for every position at once: one sgemm.
            const Tensor inputGates = torch::addmm(params["bias_ih" + suffix], input.reshape({B * S, input.size(2)}),
                                                   params["weight_ih" + suffix].t())
                                          .contiguous();  // [B·S, 3H]
            for (int64_t b = 0; b < B; ++b) {
                const int64_t len = std::min<int64_t>(lengths.data_ptr<int64_t>()[b], S);
                std::fill(state.begin(), state.end(), 0.0f);
                for (int64_t step = 0; step < len; ++step) {
                    const int64_t t = d ? len - 1 - step : step;
                    const float* gi = inputGates.data_ptr<float>() + (b * S + t) * 3 * H;
                    std::copy_n(hiddenBias, 3 * H, gh.data());
                    cblas_sgemv(CblasRowMajor, CblasNoTrans, static_cast<int>(3 * H), static_cast<int>(H), 1.0f,
                                hiddenWeight.data_ptr<float>(), static_cast<int>(H), state.data(), 1, 1.0f, gh.data(),
                                1);
                    float* out = output.data_ptr<float>() + (b * S + t) * dirs * H + d * H;
                    for (int64_t c = 0; c < H; ++c) {
                        const float r = sigmoid(gi[c] + gh[c]);
                        const float z = sigmoid(gi[H + c] + gh[H + c]);
                        const float n = std::tanh(gi[2 * H + c] + r * gh[2 * H + c]);
                        state[c] = n + z * (state[c] - n);
                        out[c] = state[c];
                    }
                }
                std::copy_n(state.data(), H, finals.data_ptr<float>() + ((l * dirs + d) * B + b) * H);
            }
        }
        input = output;
    }
    return {input, finals};
}

bool GruSeq2Seq::canStepFused(const Tensor& prevTokens) const {
    if (is_training() || torch::GradMode::is_enabled() || !prevTokens.device().is_cpu() ||
        output_->weight.scalar_type() != torch::kFloat)
        return false;
    return !attention_ || (attention_->kind() != AttentionKind::LocalM && attention_->kind() != AttentionKind::LocalP);
}

Tensor GruSeq2Seq::stepFused(GruState& s, const Tensor& prevTokens, StepCapture* capture) {
    const Tensor tokens = prevTokens.to(torch::kLong).contiguous();
    const int64_t B = tokens.numel(), H = config_.hidden, L = config_.layers, V = output_->weight.size(0);
    const int64_t E = tgtEmbedding_->weight.size(1);
    const AttentionKeys& k = s.enc.keys;
    const Tensor keys = k.keys.contiguous();  // [B, S, H]
    const int64_t S = keys.size(1);
    const AttentionKind kind = attention_ ? attention_->kind() : AttentionKind::None;
    const Tensor projected = k.projected.defined() ? k.projected.contiguous() : Tensor();
    const Tensor pad = attention_ && k.padded ? k.padMask.to(torch::kBool).contiguous() : Tensor();
    const Tensor fixedContext = attention_ ? Tensor() : s.enc.context.contiguous();  // [B, H]
    const Tensor hidden = s.hidden.contiguous();                                      // [L, B, H]
    const float scale = kind == AttentionKind::ScaledDot ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(H)))
                                                         : 1.0f;

    Tensor nextHidden = torch::empty({L, B, H}, hidden.options());
    Tensor logp = torch::empty({B, V}, hidden.options());
    Tensor weights = attention_ ? torch::empty({B, S}, hidden.options()) : Tensor();
    std::vector<float> gi(3 * H), gh(3 * H), query(H), context(H);
    Tensor energies = kind == AttentionKind::Additive ? torch::empty({S, H}, hidden.options()) : Tensor();
    const float* embeddings = tgtEmbedding_->weight.data_ptr<float>();
    const float* v = kind == AttentionKind::Additive ? attention_->scoreWeight().data_ptr<float>() : nullptr;
    std::vector<float> combined(queryAfter() ? H : 0), pair(queryAfter() ? 2 * H : 0);
    for (int64_t b = 0; b < B; ++b) {
        // Attention over the encoder states for `query` [H]: the weights into row b of
        // `weights`, then the context.
        auto attendRow = [&](const float* queryState) {
            if (!attention_) {
                std::copy_n(fixedContext.data_ptr<float>() + b * H, H, context.data());
                return;
            }
            float* w = weights.data_ptr<float>() + b * S;
            const float* kb = keys.data_ptr<float>() + b * S * H;
            if (kind == AttentionKind::Additive) {
                // score_j = v · tanh(U h_j + b + W s); the tanh over [S, H] as one vectorised
                // LibTorch call (libm's tanhf one element at a time took a third of the step).
                const float* pb = projected.data_ptr<float>() + b * S * H;
                cblas_sgemv(CblasRowMajor, CblasNoTrans, static_cast<int>(H), static_cast<int>(H), 1.0f,
                            attention_->queryWeight().data_ptr<float>(), static_cast<int>(H), queryState, 1, 0.0f,
                            query.data(), 1);
                float* e = energies.data_ptr<float>();
                for (int64_t j = 0; j < S; ++j)
                    for (int64_t c = 0; c < H; ++c) e[j * H + c] = pb[j * H + c] + query[c];
                energies.tanh_();
                cblas_sgemv(CblasRowMajor, CblasNoTrans, static_cast<int>(S), static_cast<int>(H), 1.0f, e,
                            static_cast<int>(H), v, 1, 0.0f, w, 1);
            } else {
                // dot / scaled-dot: s · h_j; general: s · (W h_j)
                const float* against = kind == AttentionKind::General ? projected.data_ptr<float>() + b * S * H : kb;
                cblas_sgemv(CblasRowMajor, CblasNoTrans, static_cast<int>(S), static_cast<int>(H), scale, against,
                            static_cast<int>(H), queryState, 1, 0.0f, w, 1);
            }
            decode::maskedSoftmax(w, S, pad.defined() ? pad.data_ptr<bool>() + b * S : nullptr);
            // context = Σ_j w_j h_j
            cblas_sgemv(CblasRowMajor, CblasTrans, static_cast<int>(S), static_cast<int>(H), 1.0f, kb,
                        static_cast<int>(H), w, 1, 0.0f, context.data(), 1);
        };

        // Before: the query is s_{t-1}, and the context enters layer 0's input.
        if (!queryAfter()) attendRow(hidden.data_ptr<float>() + ((L - 1) * B + b) * H);

        // Layer 0's input: the embedding's projection (b_ih included), plus the context's (before).
        const int64_t token = tokens.data_ptr<int64_t>()[b];
        linear(embInput_, embeddings + token * E, gi.data());
        if (!queryAfter()) linear(ctxInput_, context.data(), gi.data(), /*accumulate=*/true);
        const float* below = nullptr;
        for (int64_t l = 0; l < L; ++l) {
            const float* h = hidden.data_ptr<float>() + (l * B + b) * H;
            float* out = nextHidden.data_ptr<float>() + (l * B + b) * H;
            if (l > 0) linear(upperInput_[static_cast<size_t>(l - 1)], below, gi.data());
            linear(hiddenProj_[static_cast<size_t>(l)], h, gh.data());
            for (int64_t c = 0; c < H; ++c) {
                const float r = sigmoid(gi[c] + gh[c]);
                const float z = sigmoid(gi[H + c] + gh[H + c]);
                const float n = std::tanh(gi[2 * H + c] + r * gh[2 * H + c]);
                out[c] = n + z * (h[c] - n);
            }
            below = out;
        }

        // After: the query is the new s_t; the output layer reads tanh(W_c [s_t; c_t]).
        if (queryAfter()) {
            attendRow(below);
            std::copy_n(below, H, pair.data());
            std::copy_n(context.data(), H, pair.data() + H);
            linear(combine_, pair.data(), combined.data());
            for (int64_t c = 0; c < H; ++c) combined[c] = std::tanh(combined[c]);
            below = combined.data();
        }

        // log_softmax(W_o s_t + b_o)
        float* row = logp.data_ptr<float>() + b * V;
        linear(output_, below, row);
        const float max = *std::max_element(row, row + V);
        double sum = 0.0;
        for (int64_t i = 0; i < V; ++i) sum += std::exp(static_cast<double>(row[i] - max));
        const float logSum = max + static_cast<float>(std::log(sum));
        for (int64_t i = 0; i < V; ++i) row[i] -= logSum;
    }
    s.hidden = nextHidden;
    ++s.t;
    if (capture && weights.defined()) (*capture)[MapKind::Cross] = weights.view({B, 1, 1, S});  // [B, 1, 1, S]
    return logp;
}

}  // namespace attnlab::nn
