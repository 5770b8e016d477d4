#include "engine/nn/networks/TransformerSeq2Seq.h"

#include <stdexcept>

#include "engine/nn/nodes/FusedFeedForward.h"
#include "engine/nn/nodes/PackedLinear.h"
#include "engine/nn/kernels/RowLinear.h"

namespace attnlab::nn {

torch::Tensor sinusoidalPositions(int64_t positions, int64_t d) {
    torch::Tensor pe = torch::zeros({positions, d});
    torch::Tensor pos = torch::arange(positions, torch::kFloat).unsqueeze(1);                   // [P, 1]
    torch::Tensor div = torch::exp(torch::arange(0, d, 2, torch::kFloat) * (-std::log(10000.0) / d));  // [ceil(d/2)]
    using torch::indexing::None;
    using torch::indexing::Slice;
    pe.index_put_({Slice(), Slice(0, None, 2)}, torch::sin(pos * div));
    pe.index_put_({Slice(), Slice(1, None, 2)}, torch::cos(pos * div.index({Slice(0, d / 2)})));
    return pe;
}

EncoderLayerImpl::EncoderLayerImpl(int d, int heads, int ff, double dropout, PatternSpec pattern) {
    selfAttention = register_module("self_attn", MultiHeadAttention(d, heads, dropout, pattern));
    ff1_ = register_module("ff1", torch::nn::Linear(d, ff));
    ff2_ = register_module("ff2", torch::nn::Linear(ff, d));
    norm1_ = register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
    norm2_ = register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
    dropout_ = register_module("dropout", torch::nn::Dropout(dropout));
}

torch::Tensor EncoderLayerImpl::forward(const torch::Tensor& x, const torch::Tensor& padMask,
                                        torch::Tensor* selfWeights, HeadTrace* selfTrace) {
    torch::Tensor h = norm1_(addDrop(x, selfAttention(x, x, padMask, false, selfWeights, selfTrace)));
    return norm2_(addDrop(h, feedForward(h, ff1_, ff2_, FeedForwardActivation::Relu, dropout_->options.p(),
                                         dropout_->is_training())));
}

DecoderLayerImpl::DecoderLayerImpl(int d, int heads, int ff, double dropout, PatternSpec pattern) {
    selfAttention = register_module("self_attn", MultiHeadAttention(d, heads, dropout, pattern));
    crossAttention = register_module("cross_attn", MultiHeadAttention(d, heads, dropout));
    ff1_ = register_module("ff1", torch::nn::Linear(d, ff));
    ff2_ = register_module("ff2", torch::nn::Linear(ff, d));
    norm1_ = register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
    norm2_ = register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
    norm3_ = register_module("norm3", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
    dropout_ = register_module("dropout", torch::nn::Dropout(dropout));
}

torch::Tensor DecoderLayerImpl::forward(const torch::Tensor& y, const torch::Tensor& tgtPadMask,
                                        const torch::Tensor& memory, const torch::Tensor& srcPadMask,
                                        torch::Tensor* selfWeights, torch::Tensor* crossWeights,
                                        HeadTrace* selfTrace, HeadTrace* crossTrace) {
    torch::Tensor h = norm1_(addDrop(y, selfAttention(y, y, tgtPadMask, true, selfWeights, selfTrace)));
    h = norm2_(addDrop(h, crossAttention(h, memory, srcPadMask, false, crossWeights, crossTrace)));
    return norm3_(addDrop(h, feedForward(h, ff1_, ff2_, FeedForwardActivation::Relu, dropout_->options.p(),
                                         dropout_->is_training())));
}

torch::Tensor DecoderLayerImpl::step(const torch::Tensor& y, torch::Tensor& selfKeys, torch::Tensor& selfValues,
                                     const torch::Tensor& tgtPadMask, const torch::Tensor& crossKeys,
                                     const torch::Tensor& crossValues, const torch::Tensor& srcPadMask,
                                     torch::Tensor* selfWeights, torch::Tensor* crossWeights) {
    // Gated heads (ablation) take the plain step below, which applies the gates.
    if (!is_training() && canStepFused(y) && selfAttention->pattern().pattern == AttentionPattern::Full &&
        !selfAttention->gated() && !crossAttention->gated())
        return stepFused(y, selfKeys, selfValues, tgtPadMask, crossKeys, crossValues, srcPadMask, selfWeights,
                         crossWeights);
    selfAttention->appendKeysValues(y, selfKeys, selfValues);
    torch::Tensor h = norm1_(y + drop(selfAttention->forwardStep(y, selfKeys, selfValues, tgtPadMask, selfWeights)));
    h = norm2_(h + drop(crossAttention->forwardStep(h, crossKeys, crossValues, srcPadMask, crossWeights)));
    return norm3_(h + drop(rowLinear(ff2_, drop(torch::relu(rowLinear(ff1_, h))))));
}

// Decoding keeps every layer's self-attention keys and values of the prefix (each step
// adds one position instead of recomputing the prefix) and the cross-attention keys and
// values of the memory, computed once.
struct TransformerSeq2Seq::TransformerState : DecoderState {
    // Batch 1 while every row decodes the same sentence (beam search): broadcast, never
    // copied on reorder. srcPadMask is undefined when the source has no padding.
    torch::Tensor srcPadMask;                  // [B or 1, S]
    std::vector<torch::Tensor> crossKeys, crossValues;  // per layer [B or 1, H, S, dk]
    std::vector<torch::Tensor> selfKeys, selfValues;    // per layer [B, H, t, dk]
    torch::Tensor prefix;                      // [B, t] decoder inputs so far
    bool prefixHasPadding = false;             // forward masks padding inputs as keys; so do the steps
};

TransformerSeq2Seq::TransformerSeq2Seq(const ModelConfig& c) : config_(c) {
    using namespace torch::nn;
    const int d = c.hidden;
    srcEmbedding_ = register_module("src_embedding", Embedding(EmbeddingOptions(c.sourceVocab, d).padding_idx(0)));
    tgtEmbedding_ = register_module("tgt_embedding", Embedding(EmbeddingOptions(c.targetVocab, d).padding_idx(0)));
    // Token embeddings start at N(0, 1/d), so that the sqrt(d) of embed() gives them unit variance,
    // the scale of the positions (Vaswani et al. 2017, section 3.4). LibTorch's default N(0, 1)
    // times sqrt(d) buried the positions under embeddings 8x (d = 64) to 11x (d = 128) larger:
    // the model learnt no order (copy: 3% exact after 10 epochs, against 99% at this scale).
    {
        torch::NoGradGuard noGrad;
        for (Embedding* table : {&srcEmbedding_, &tgtEmbedding_}) {
            (*table)->weight.normal_(0.0, 1.0 / std::sqrt(static_cast<double>(d)));
            (*table)->weight[0].zero_();
        }
    }
    dropout_ = register_module("dropout", Dropout(c.dropout));
    const PatternSpec pattern = patternSpec(c);
    for (int l = 0; l < c.layers; ++l) {
        encoderLayers_.push_back(register_module("encoder_" + std::to_string(l),
                                                 EncoderLayer(d, c.heads, c.feedForward, c.dropout, pattern)));
        decoderLayers_.push_back(register_module("decoder_" + std::to_string(l),
                                                 DecoderLayer(d, c.heads, c.feedForward, c.dropout, pattern)));
    }
    output_ = register_module("output", Linear(d, c.targetVocab));
    // Sinusoidal: deterministic from the config, so not saved in checkpoints. Learned: a parameter
    // (saved as "positions"). None: zeros, so every position embeds alike.
    if (c.positional == PositionalKind::Learned)
        positions_ = register_parameter("positions", torch::randn({c.maxLength, d}) * 0.02);
    else if (c.positional == PositionalKind::None)
        positions_ = torch::zeros({c.maxLength, d});
    else
        positions_ = sinusoidalPositions(c.maxLength, d);
}

torch::Tensor TransformerSeq2Seq::embed(torch::nn::Embedding& table, const torch::Tensor& tokens, bool source) {
    const int64_t T = tokens.size(1);
    if (T > positions_.size(0))
        throw std::length_error("sequence of " + std::to_string(T) + " tokens exceeds the model's maximum length " +
                                std::to_string(positions_.size(0)));
    using torch::indexing::Slice;
    torch::Tensor e = table(tokens) * std::sqrt(static_cast<double>(config_.hidden));
    if (source && sourceEmbeddingHook) e = sourceEmbeddingHook(e);
    return drop(e + positions_.index({Slice(0, T)}));
}

torch::Tensor TransformerSeq2Seq::encode(const torch::Tensor& src, const torch::Tensor& padMask,
                                         std::vector<torch::Tensor>* weights, const TracePoint* tracing) {
    torch::Tensor x = embed(srcEmbedding_, src, true);  // [B, S, D]
    for (std::size_t l = 0; l < encoderLayers_.size(); ++l) {
        torch::Tensor w;
        x = encoderLayers_[l]->forward(x, padMask, weights ? &w : nullptr,
                                       tracing ? tracing->at(MapKind::Encoder, l) : nullptr);
        if (weights) weights->push_back(w);
    }
    return x;
}

torch::Tensor TransformerSeq2Seq::decode(const torch::Tensor& tgtIn, const torch::Tensor& memory,
                                         const torch::Tensor& srcPadMask, std::vector<torch::Tensor>* selfWeights,
                                         std::vector<torch::Tensor>* crossWeights, const TracePoint* tracing) {
    torch::Tensor y = embed(tgtEmbedding_, tgtIn);  // [B, T, D]
    torch::Tensor tgtPadMask = tgtIn.eq(0);
    for (std::size_t l = 0; l < decoderLayers_.size(); ++l) {
        torch::Tensor sw, cw;
        y = decoderLayers_[l]->forward(y, tgtPadMask, memory, srcPadMask, selfWeights ? &sw : nullptr,
                                       crossWeights ? &cw : nullptr, tracing ? tracing->at(MapKind::Decoder, l) : nullptr,
                                       tracing ? tracing->at(MapKind::Cross, l) : nullptr);
        if (selfWeights) selfWeights->push_back(sw);
        if (crossWeights) crossWeights->push_back(cw);
    }
    return linear(output_, y);  // [B, T, V]
}

torch::Tensor TransformerSeq2Seq::forward(const torch::Tensor& src, const torch::Tensor& srcLen,
                                          const torch::Tensor& tgtIn, Captured* capture, double) {
    for (auto& layer : decoderLayers_) layer->crossAttention->setDifferentiableWeights(differentiableAttention);
    torch::Tensor srcPadMask = src.eq(0);
    std::vector<torch::Tensor> enc, self, cross;
    torch::Tensor memory = encode(src, srcPadMask, capture ? &enc : nullptr);
    torch::Tensor logits = decode(tgtIn, memory, srcPadMask, capture ? &self : nullptr, capture ? &cross : nullptr);
    if (capture) {  // each [B, heads, Tq, Tk] per layer -> [B, layers, heads, Tq, Tk]
        (*capture)[MapKind::Encoder] = torch::stack(enc, 1);
        (*capture)[MapKind::Decoder] = torch::stack(self, 1);
        (*capture)[MapKind::Cross] = torch::stack(cross, 1);
    }
    return logits;
}

std::unique_ptr<DecoderState> TransformerSeq2Seq::start(const torch::Tensor& src, const torch::Tensor&,
                                                        Captured* capture) {
    auto state = std::make_unique<TransformerState>();
    torch::Tensor srcPadMask = src.eq(0);
    std::vector<torch::Tensor> enc;
    torch::Tensor memory = encode(src, srcPadMask, capture ? &enc : nullptr);
    if (capture) (*capture)[MapKind::Encoder] = torch::stack(enc, 1);  // [B, L, H, S, S]
    if (srcPadMask.any().item<bool>()) state->srcPadMask = srcPadMask;
    for (auto& layer : decoderLayers_) {
        auto [k, v] = layer->crossAttention->keysValues(memory);
        state->crossKeys.push_back(k);
        state->crossValues.push_back(v);
    }
    state->selfKeys.resize(decoderLayers_.size());
    state->selfValues.resize(decoderLayers_.size());
    state->prefix = torch::empty({src.size(0), 0}, torch::kLong);
    return state;
}

torch::Tensor TransformerSeq2Seq::step(DecoderState& base, const torch::Tensor& prevTokens, StepCapture* capture) {
    auto& s = static_cast<TransformerState&>(base);
    const int64_t t = s.prefix.size(1);  // position of the new input
    if (t >= positions_.size(0))
        throw std::length_error("sequence of " + std::to_string(t + 1) + " tokens exceeds the model's maximum length " +
                                std::to_string(positions_.size(0)));
    torch::Tensor tokens = prevTokens.contiguous();
    s.prefix = torch::cat({s.prefix, tokens.unsqueeze(1)}, 1);
    const int64_t* ids = tokens.data_ptr<int64_t>();
    for (int64_t i = 0; i < tokens.numel(); ++i) s.prefixHasPadding = s.prefixHasPadding || ids[i] == 0;
    torch::Tensor tgtPadMask = s.prefixHasPadding ? s.prefix.eq(0) : torch::Tensor();

    torch::Tensor y = drop(tgtEmbedding_(tokens.unsqueeze(1)) * std::sqrt(static_cast<double>(config_.hidden)) +
                               positions_.narrow(0, t, 1));  // [B, 1, D], as embed() at position t
    std::vector<torch::Tensor> self, cross;
    for (std::size_t l = 0; l < decoderLayers_.size(); ++l) {
        torch::Tensor sw, cw;
        y = decoderLayers_[l]->step(y, s.selfKeys[l], s.selfValues[l], tgtPadMask, s.crossKeys[l], s.crossValues[l],
                                    s.srcPadMask, capture ? &sw : nullptr, capture ? &cw : nullptr);
        if (capture) {
            self.push_back(sw.squeeze(2));  // [B, H, Tk]
            cross.push_back(cw.squeeze(2));
        }
    }
    if (capture) {
        (*capture)[MapKind::Decoder] = torch::stack(self, 1);  // [B, L, H, t + 1]
        (*capture)[MapKind::Cross] = torch::stack(cross, 1);   // [B, L, H, S]
    }
    return torch::log_softmax(rowLinear(output_, y.squeeze(1)), 1);
}

HeadTrace TransformerSeq2Seq::traceAttention(const torch::Tensor& src, const torch::Tensor& tgtIn,
                                             MapKind kind, int64_t layer) {
    if (layer < 0 || layer >= config_.layers) throw std::out_of_range("no such layer");
    HeadTrace trace;
    const TracePoint point{kind, layer, &trace};
    torch::Tensor srcPadMask = src.eq(0);
    torch::Tensor memory = encode(src, srcPadMask, nullptr, &point);
    if (kind != MapKind::Encoder) decode(tgtIn, memory, srcPadMask, nullptr, nullptr, &point);
    return trace;
}

MultiHeadAttention& TransformerSeq2Seq::attentionModule(MapKind kind, std::size_t layer) {
    if (layer >= encoderLayers_.size()) throw std::out_of_range("no such layer");
    switch (kind) {
    case MapKind::Encoder: return encoderLayers_[layer]->selfAttention;
    case MapKind::Decoder: return decoderLayers_[layer]->selfAttention;
    case MapKind::Cross: break;
    }
    return decoderLayers_[layer]->crossAttention;
}

torch::Tensor TransformerSeq2Seq::encoderLayerOutput(const torch::Tensor& src, int64_t layer) {
    if (layer < 0 || layer >= static_cast<int64_t>(encoderLayers_.size())) throw std::out_of_range("no such layer");
    torch::Tensor padMask = src.eq(0);
    torch::Tensor x = embed(srcEmbedding_, src, true);  // [B, S, D]
    for (int64_t l = 0; l <= layer; ++l) x = encoderLayers_[static_cast<std::size_t>(l)]->forward(x, padMask, nullptr);
    return x;
}

void TransformerSeq2Seq::clearHeadGates() {
    for (MapKind kind : kMapKinds)
        for (std::size_t l = 0; l < encoderLayers_.size(); ++l) attentionModule(kind, l)->setHeadGate({});
}

std::vector<std::pair<torch::Tensor, torch::Tensor>> TransformerSeq2Seq::selfAttentionCache(
    const DecoderState& base) const {
    const auto& s = static_cast<const TransformerState&>(base);
    std::vector<std::pair<torch::Tensor, torch::Tensor>> cache;
    for (std::size_t l = 0; l < s.selfKeys.size(); ++l)
        if (s.selfKeys[l].defined()) cache.emplace_back(s.selfKeys[l], s.selfValues[l]);
    return cache;
}

void TransformerSeq2Seq::reorder(DecoderState& base, const torch::Tensor& index) {
    auto& s = static_cast<TransformerState&>(base);
    auto pick = [&](torch::Tensor& x) {
        if (x.defined() && x.size(0) > 1) x = x.index_select(0, index);
    };
    pick(s.srcPadMask);
    for (auto* group : {&s.crossKeys, &s.crossValues})
        for (auto& x : *group) pick(x);
    for (auto* group : {&s.selfKeys, &s.selfValues})
        for (auto& x : *group)
            if (x.defined()) x = x.index_select(0, index);
    s.prefix = s.prefix.index_select(0, index);
}

}  // namespace attnlab::nn
