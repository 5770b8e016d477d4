#include "engine/nn/networks/GruSeq2Seq.h"

#include <cmath>
#include <stdexcept>

#include "engine/nn/kernels/BatchMatmul.h"
#include "engine/nn/nodes/FusedAttentionDecoder.h"
#include "engine/nn/nodes/FusedGruEncoder.h"
#include "engine/nn/nodes/PackedLinear.h"
#include "engine/nn/kernels/RowLinear.h"

namespace attnlab::nn {

namespace F = torch::nn::functional;

GruSeq2Seq::GruSeq2Seq(const ModelConfig& c) : config_(c) {
    using namespace torch::nn;
    const int H = c.hidden;
    const int E = c.embedding > 0 ? c.embedding : c.hidden;
    srcEmbedding_ = register_module("src_embedding", Embedding(EmbeddingOptions(c.sourceVocab, E).padding_idx(0)));
    tgtEmbedding_ = register_module("tgt_embedding", Embedding(EmbeddingOptions(c.targetVocab, E).padding_idx(0)));
    dropout_ = register_module("dropout", Dropout(c.dropout));
    encoder_ = register_module("encoder", GRU(GRUOptions(E, H)
                                                  .num_layers(c.layers)
                                                  .batch_first(true)
                                                  .bidirectional(c.bidirectional)
                                                  .dropout(c.layers > 1 && dropsEmbeddings(c) ? c.dropout : 0.0)));
    if (c.bidirectional) {
        bridgeOutputs_ = register_module("bridge_outputs", Linear(2 * H, H));
        bridgeHidden_ = register_module("bridge_hidden", Linear(2 * H, H));
    }
    if (c.attention != AttentionKind::None)
        attention_ = register_module("attention", GruAttention(c.attention, H, c.localWindow));
    embInput_ = register_module("dec_emb_input", Linear(LinearOptions(E, 3 * H).bias(true)));
    if (c.query == QueryOrder::Before)
        ctxInput_ = register_module("dec_ctx_input", Linear(LinearOptions(H, 3 * H).bias(false)));
    else
        combine_ = register_module("dec_combine", Linear(LinearOptions(2 * H, H).bias(true)));
    for (int l = 0; l < c.layers; ++l) {
        const std::string n = std::to_string(l);
        if (l > 0) upperInput_.push_back(register_module("dec_input_" + n, Linear(LinearOptions(H, 3 * H).bias(true))));
        hiddenProj_.push_back(register_module("dec_hidden_" + n, Linear(LinearOptions(H, 3 * H).bias(true))));
    }
    output_ = register_module("output", Linear(H, c.targetVocab));
}

GruSeq2Seq::Encoded GruSeq2Seq::encode(const torch::Tensor& src, const torch::Tensor& srcLen) {
    const int64_t B = src.size(0), S = src.size(1);
    const int L = config_.layers;
    torch::Tensor emb = srcEmbedding_(src);  // [B, S, E]
    if (sourceEmbeddingHook) emb = sourceEmbeddingHook(emb);
    emb = drop(emb);
    torch::Tensor padMask = torch::arange(S, src.options()).unsqueeze(0) >= srcLen.unsqueeze(1);  // [B, S]
    torch::Tensor out, h;
    if (canEncodeFused(emb)) {
        std::tie(out, h) = encodeFused(emb, srcLen);
    } else if (fusedTrainingApplies() && L == 1) {
        std::tie(out, h) = runGruLayerFused(encoder_, emb, padMask.logical_not(), config_.bidirectional);
    } else {
        auto packed = torch::nn::utils::rnn::pack_padded_sequence(emb, srcLen, /*batch_first=*/true,
                                                                  /*enforce_sorted=*/false);
        auto [packedOut, hn] = encoder_->forward_with_packed_input(packed);
        out = std::get<0>(torch::nn::utils::rnn::pad_packed_sequence(packedOut, true, 0.0, S));
        h = hn;
    }
    // out [B, S, H * dirs], h [L * dirs, B, H]
    if (config_.bidirectional) {
        out = linear(bridgeOutputs_, out);                                       // [B, S, H]
        h = h.view({L, 2, B, config_.hidden}).permute({0, 2, 1, 3}).reshape({L, B, 2 * config_.hidden});
        h = torch::tanh(bridgeHidden_(h));                               // [L, B, H]
    }
    Encoded enc;
    if (attention_) {
        enc.keys = attention_->prepare(out, padMask, srcLen);
    } else {
        enc.keys.keys = out;
        enc.keys.padMask = padMask;
        enc.keys.lengths = srcLen.to(torch::kFloat);
    }
    enc.hidden = h.contiguous();
    enc.context = h[L - 1];  // [B, H] the fixed context of attention `none`
    return enc;
}

torch::Tensor GruSeq2Seq::attend(const Encoded& enc, const torch::Tensor& query, int64_t t, torch::Tensor* weightsOut,
                                 AttentionTrace* trace) {
    if (!attention_) return enc.context;
    torch::Tensor w = attention_->weights(query, enc.keys, t, trace);  // [B, S]
    if (weightsOut) *weightsOut = w;
    torch::Tensor wd = dropsAttention(config_) ? applyDropout(w, config_.dropout, is_training()) : w;
    // One sentence (decoding): a matrix-vector product; sgemm would pack the keys every step.
    return w.size(0) == 1 ? torch::mv(enc.keys.keys[0].t(), wd[0]).unsqueeze(0)
                          : torch::bmm(wd.unsqueeze(1), enc.keys.keys).squeeze(1);
}

torch::Tensor GruSeq2Seq::decodeStep(const Encoded& enc, const torch::Tensor& embProj, torch::Tensor& hidden,
                                     int64_t t, torch::Tensor* weightsOut, AttentionTrace* trace) {
    const int L = config_.layers;
    torch::Tensor gi = embProj;  // [B, 3H]
    if (!queryAfter()) gi = gi + rowLinear(ctxInput_, attend(enc, hidden[L - 1], t, weightsOut, trace));
    std::vector<torch::Tensor> next;
    next.reserve(L);
    for (int l = 0; l < L; ++l) {
        torch::Tensor h = hidden[l];
        if (l > 0) gi = rowLinear(upperInput_[l - 1], drop(next.back()));
        torch::Tensor gh = rowLinear(hiddenProj_[l], h);  // [B, 3H]
        auto gis = gi.chunk(3, 1);
        auto ghs = gh.chunk(3, 1);
        torch::Tensor r = torch::sigmoid(gis[0] + ghs[0]);
        torch::Tensor z = torch::sigmoid(gis[1] + ghs[1]);
        torch::Tensor n = torch::tanh(gis[2] + r * ghs[2]);
        next.push_back(n + z * (h - n));  // (1 - z) * n + z * h
    }
    hidden = L == 1 ? next[0].unsqueeze(0) : torch::stack(next, 0);
    if (!queryAfter()) return next.back();
    torch::Tensor context = attend(enc, next.back(), t, weightsOut, trace);
    return torch::tanh(rowLinear(combine_, torch::cat({next.back(), context}, 1)));
}

torch::Tensor GruSeq2Seq::forward(const torch::Tensor& src, const torch::Tensor& srcLen, const torch::Tensor& tgtIn,
                                  Captured* capture, double teacherForcing) {
    Encoded enc = encode(src, srcLen);
    const int64_t T = tgtIn.size(1);
    // The embedding half of layer 0's input projection, for every step at once.
    torch::Tensor embProjAll = linear(embInput_, drop(tgtEmbedding_(tgtIn)));  // [B, T, 3H]
    if (fusedDecoderApplies(teacherForcing))
        return queryAfter() ? forwardAfterFused(enc, embProjAll, capture) : forwardFused(enc, embProjAll, capture);
    const bool sampleInputs = is_training() && teacherForcing < 1.0;
    torch::Tensor hidden = enc.hidden;
    std::vector<torch::Tensor> tops, weights;
    tops.reserve(T);
    torch::Tensor predicted;
    for (int64_t t = 0; t < T; ++t) {
        torch::Tensor embProj;
        if (t > 0 && sampleInputs && torch::rand({1}, currentGenerator()).item<double>() >= teacherForcing)
            embProj = embInput_(drop(tgtEmbedding_(predicted)));
        else
            embProj = embProjAll.select(1, t);
        torch::Tensor w;
        torch::Tensor top = decodeStep(enc, embProj, hidden, t, capture ? &w : nullptr);
        tops.push_back(top);
        if (capture && w.defined()) weights.push_back(w);
        if (sampleInputs) {
            torch::NoGradGuard noGrad;
            predicted = output_(top).argmax(1);
        }
    }
    torch::Tensor logits = linear(output_, torch::stack(tops, 1));  // [B, T, V]
    if (capture && !weights.empty())
        (*capture)[MapKind::Cross] = torch::stack(weights, 1).unsqueeze(1).unsqueeze(1);  // [B, 1, 1, T, S]
    return logits;
}

bool GruSeq2Seq::fusedTrainingApplies() const {
    return is_training() && torch::GradMode::is_enabled() && fusedTrainingEnabled();
}

bool GruSeq2Seq::fusedDecoderApplies(double teacherForcing) const {
    if (!fusedTrainingApplies() || teacherForcing < 1.0 || config_.layers != 1) return false;
    if (queryAfter()) return true;  // any attention: it runs after the recurrence (forwardAfterFused)
    if (differentiableAttention) return false;  // FusedAttentionDecoder's weights carry no gradient
    if (!attention_ || config_.dropout >= 1.0) return false;
    switch (attention_->kind()) {
    case AttentionKind::Additive:
    case AttentionKind::Dot:
    case AttentionKind::ScaledDot:
    case AttentionKind::General:
        return true;
    default:
        return false;
    }
}

torch::Tensor GruSeq2Seq::forwardFused(const Encoded& enc, const torch::Tensor& embProjAll, Captured* capture) {
    const AttentionKind kind = attention_->kind();
    FusedDecoderInputs in;
    in.embProj = embProjAll;
    in.keys = enc.keys.keys;
    in.scoreKeys = kind == AttentionKind::Dot || kind == AttentionKind::ScaledDot ? enc.keys.keys : enc.keys.projected;
    in.padMask = enc.keys.padMask;
    in.initial = enc.hidden[0];
    in.additive = kind == AttentionKind::Additive;
    if (in.additive) {
        in.queryWeight = attention_->queryWeight();
        in.scoreWeight = attention_->scoreWeight();
    }
    if (kind == AttentionKind::ScaledDot) in.scale = 1.0 / std::sqrt(static_cast<double>(config_.hidden));
    in.contextWeight = ctxInput_->weight;
    in.hiddenWeight = hiddenProj_[0]->weight;
    in.hiddenBias = hiddenProj_[0]->bias;
    in.dropout = dropsAttention(config_) ? config_.dropout : 0.0;
    FusedDecoderOutputs out = FusedAttentionDecoder::run(in);
    if (capture) (*capture)[MapKind::Cross] = out.weights.unsqueeze(1).unsqueeze(1);  // [B, 1, 1, T, S]
    return linear(output_, out.states);                                                // [B, T, V]
}

torch::Tensor GruSeq2Seq::forwardAfterFused(const Encoded& enc, const torch::Tensor& embProjAll, Captured* capture) {
    const int64_t B = embProjAll.size(0), T = embProjAll.size(1);
    // Teacher forcing: the decoder's inputs are known, so its GRU runs as one node from the
    // encoder's state; every step then attends with its new state.
    torch::Tensor valid = torch::ones({B, T}, embProjAll.options().dtype(torch::kBool));
    torch::Tensor states = FusedGruEncoder::run(embProjAll, valid, hiddenProj_[0]->weight, hiddenProj_[0]->bias,
                                                enc.hidden[0])
                               .first;  // [B, T, H]
    torch::Tensor contexts;  // [B, T, H]
    torch::Tensor weights;   // [B, T, S], undefined for `none`
    const bool dropsWeights = dropsAttention(config_) && config_.dropout > 0.0f;
    if (attention_ && attention_->hasWeightsAll() && !dropsWeights) {
        // Every step's attention at once: a few batched products instead of T rounds of them.
        weights = attention_->weightsAll(states, enc.keys);
        contexts = batchMatmul(weights, enc.keys.keys);
    } else {
        // Step by step: local windows move with t, and dropout on the weights draws its masks
        // step by step as decodeStep does (same numbers, same random draws).
        std::vector<torch::Tensor> perStep, perStepWeights;
        perStep.reserve(T);
        for (int64_t t = 0; t < T; ++t) {
            torch::Tensor w;
            perStep.push_back(attend(enc, states.select(1, t), t, &w));
            if (w.defined()) perStepWeights.push_back(w);
        }
        contexts = torch::stack(perStep, 1);
        if (!perStepWeights.empty()) weights = torch::stack(perStepWeights, 1);
    }
    torch::Tensor combined = torch::tanh(linear(combine_, torch::cat({states, contexts}, 2)));  // [B, T, H]
    if (capture && weights.defined())
        (*capture)[MapKind::Cross] = weights.unsqueeze(1).unsqueeze(1);  // [B, 1, 1, T, S]
    return linear(output_, combined);                                          // [B, T, V]
}

std::unique_ptr<DecoderState> GruSeq2Seq::start(const torch::Tensor& src, const torch::Tensor& srcLen,
                                                Captured*) {  // no encoder self-attention to capture
    auto state = std::make_unique<GruState>();
    state->enc = encode(src, srcLen);
    state->hidden = state->enc.hidden;
    return state;
}

torch::Tensor GruSeq2Seq::step(DecoderState& base, const torch::Tensor& prevTokens, StepCapture* capture) {
    auto& s = static_cast<GruState&>(base);
    if (canStepFused(prevTokens)) return stepFused(s, prevTokens, capture);
    torch::Tensor embProj = rowLinear(embInput_, drop(tgtEmbedding_(prevTokens)));
    torch::Tensor w;
    torch::Tensor top = decodeStep(s.enc, embProj, s.hidden, s.t, capture ? &w : nullptr);
    if (capture && w.defined()) (*capture)[MapKind::Cross] = w.view({w.size(0), 1, 1, w.size(1)});  // [B, 1, 1, S]
    ++s.t;
    return torch::log_softmax(rowLinear(output_, top), 1);
}

void GruSeq2Seq::reorder(DecoderState& base, const torch::Tensor& index) {
    auto& s = static_cast<GruState&>(base);
    auto pick = [&](torch::Tensor& x, int64_t dim) {
        if (x.defined()) x = x.index_select(dim, index);
    };
    pick(s.enc.keys.keys, 0);
    pick(s.enc.keys.projected, 0);
    pick(s.enc.keys.padMask, 0);
    pick(s.enc.keys.lengths, 0);
    pick(s.enc.context, 0);
    pick(s.hidden, 1);
}

AttentionTrace GruSeq2Seq::traceStep(const torch::Tensor& src, const torch::Tensor& srcLen, const torch::Tensor& tgtIn,
                                     int64_t t, torch::Tensor* weightsOut, torch::Tensor* contextOut) {
    if (!attention_) throw std::invalid_argument("attention 'none' has no attention step to trace");
    if (t < 0 || t >= tgtIn.size(1)) throw std::out_of_range("no such output step");
    Encoded enc = encode(src, srcLen);
    torch::Tensor hidden = enc.hidden;
    AttentionTrace trace;
    for (int64_t i = 0; i <= t; ++i) {
        torch::Tensor embProj = embInput_(tgtEmbedding_(tgtIn.select(1, i)));
        torch::Tensor w;
        decodeStep(enc, embProj, hidden, i, &w, i == t ? &trace : nullptr);
        if (i == t) {
            if (weightsOut) *weightsOut = w;
            if (contextOut) *contextOut = torch::bmm(w.unsqueeze(1), enc.keys.keys).squeeze(1);  // without dropout
        }
    }
    return trace;
}

}  // namespace attnlab::nn
