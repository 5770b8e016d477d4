#include "engine/lm/LmNet.h"

#include "engine/nn/kernels/Random.h"
#include "engine/nn/networks/TransformerSeq2Seq.h"  // sinusoidalPositions

namespace attnlab::nn {

namespace {

// A Linear in -> out whose parameters are allocated but not initialised: built 1 x 1 (its random
// init then costs nothing) and given its size.
torch::Tensor lmNetUninitialised(std::vector<int64_t> sizes) { return torch::empty(sizes); }

torch::nn::Linear lmNetBareLinear(int64_t in, int64_t out, bool bias) {
    torch::nn::Linear layer(torch::nn::LinearOptions(1, 1).bias(bias));
    torch::NoGradGuard noGrad;
    layer->weight.set_(lmNetUninitialised({out, in}));
    if (bias) layer->bias.set_(lmNetUninitialised({out}));
    layer->options.in_features(in).out_features(out);
    return layer;
}

torch::nn::Linear lmNetLinear(int64_t in, int64_t out, bool bias, bool randomInit) {
    return randomInit ? torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(bias)) : lmNetBareLinear(in, out, bias);
}

torch::nn::Embedding lmNetEmbedding(int64_t count, int64_t width, bool randomInit) {
    auto options = torch::nn::EmbeddingOptions(count, width);
    if (!randomInit) options._weight(lmNetUninitialised({count, width}));
    return torch::nn::Embedding(options);
}

}  // namespace

LmBlockImpl::LmBlockImpl(const LmConfig& c, bool randomInit)
    : dropout_(c.dropout), exactGelu_(c.gelu == LmGelu::Exact), post_(c.norm == LmNorm::Post) {
    const bool pre = c.norm == LmNorm::Pre || post_;
    const auto normOptions = torch::nn::LayerNormOptions({c.dModel}).eps(c.layerNormEps);
    if (pre) norm1_ = register_module("norm1", torch::nn::LayerNorm(normOptions));
    attention = register_module("attention", MultiHeadAttention(c.dModel, c.heads, c.dropout, PatternSpec{}, randomInit));
    if (!c.attentionOnly) {
        if (pre) norm2_ = register_module("norm2", torch::nn::LayerNorm(normOptions));
        ff1_ = register_module("ff1", lmNetLinear(c.dModel, c.feedForward, true, randomInit));
        ff2_ = register_module("ff2", lmNetLinear(c.feedForward, c.dModel, true, randomInit));
    }
}

torch::Tensor LmBlockImpl::forward(const torch::Tensor& x, bool causal, torch::Tensor* weights) {
    const bool training = is_training();
    if (post_) {  // BERT: x = LN(x + attention(x)); x = LN(x + FFN(x))
        torch::Tensor y = norm1_(addDropout(x, attention(x, x, torch::Tensor(), causal, weights), dropout_, training));
        if (ff1_) y = norm2_(addDropout(y, ff2_(torch::gelu(ff1_(y), exactGelu_ ? "none" : "tanh")), dropout_, training));
        return y;
    }
    const torch::Tensor in = norm1_ ? norm1_(x) : x;
    torch::Tensor y = addDropout(x, attention(in, in, torch::Tensor(), causal, weights), dropout_, training);
    if (ff1_) {
        const torch::Tensor h = norm2_ ? norm2_(y) : y;
        y = addDropout(y, ff2_(torch::gelu(ff1_(h), exactGelu_ ? "none" : "tanh")), dropout_, training);
    }
    return y;
}

LmNetImpl::LmNetImpl(const LmConfig& c, bool randomInit) : config_(c) {
    checkConfig(c);
    tokens_ = register_module("tokens", lmNetEmbedding(c.vocabulary, c.dModel, randomInit));
    if (c.positions == LmPositions::Learned)
        positions_ = register_module("positions", lmNetEmbedding(c.context, c.dModel, randomInit));
    else
        sinusoid_ = register_buffer("sinusoid", sinusoidalPositions(c.context, c.dModel));
    const auto normOptions = torch::nn::LayerNormOptions({c.dModel}).eps(c.layerNormEps);
    if (c.tokenTypes)
        tokenType_ = register_parameter("token_type", randomInit ? torch::zeros({c.dModel}) : lmNetUninitialised({c.dModel}));
    if (c.norm == LmNorm::Post) embedNorm_ = register_module("embed_norm", torch::nn::LayerNorm(normOptions));
    for (int l = 0; l < c.layers; ++l) blocks_.push_back(register_module("block" + std::to_string(l), LmBlock(c, randomInit)));
    if (c.norm == LmNorm::Pre) final_ = register_module("final_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.dModel}).eps(c.layerNormEps)));
    if (!c.tied) unembed_ = register_module("unembed", lmNetLinear(c.dModel, c.vocabulary, false, randomInit));
    if (c.mlmHead) {
        mlmDense_ = register_module("mlm_dense", lmNetLinear(c.dModel, c.dModel, true, randomInit));
        mlmNorm_ = register_module("mlm_norm", torch::nn::LayerNorm(normOptions));
        mlmBias_ = register_parameter("mlm_bias", torch::zeros({c.vocabulary}));
    }
}

torch::Tensor LmNetImpl::forward(const torch::Tensor& ids, std::vector<torch::Tensor>* weights) {
    return logits(hidden(ids, weights));
}

torch::Tensor LmNetImpl::logits(const torch::Tensor& hidden) {
    if (mlmDense_) {
        const torch::Tensor h = mlmNorm_(torch::gelu(mlmDense_(hidden), config_.gelu == LmGelu::Exact ? "none" : "tanh"));
        return torch::matmul(h, tokens_->weight.t()) + mlmBias_;
    }
    return unembed_ ? unembed_(hidden) : torch::matmul(hidden, tokens_->weight.t());
}

torch::Tensor LmNetImpl::hidden(const torch::Tensor& ids, std::vector<torch::Tensor>* weights) {
    const int64_t T = ids.size(1);
    TORCH_CHECK(T <= config_.context, "a sequence of ", T, " tokens is longer than the context");
    torch::Tensor x = tokens_(ids);
    x = x + (positions_ ? positions_->weight.narrow(0, 0, T) : sinusoid_.narrow(0, 0, T)).unsqueeze(0);
    if (tokenType_.defined()) x = x + tokenType_;
    if (embedNorm_) x = embedNorm_(x);
    x = applyDropout(x, config_.dropout, is_training());
    const bool causal = config_.objective == LmObjective::Causal;
    if (weights) weights->clear();
    for (LmBlock& block : blocks_) {
        torch::Tensor w;
        x = block->forward(x, causal, weights ? &w : nullptr);
        if (weights) weights->push_back(w);
    }
    return final_ ? final_(x) : x;
}

}  // namespace attnlab::nn
