#include "engine/lm/LmNet.h"

#include "engine/nn/kernels/Random.h"
#include "engine/nn/networks/TransformerSeq2Seq.h"  // sinusoidalPositions

namespace attnlab::nn {

LmBlockImpl::LmBlockImpl(const LmConfig& c) : dropout_(c.dropout), exactGelu_(c.gelu == LmGelu::Exact) {
    const bool pre = c.norm == LmNorm::Pre;
    const auto normOptions = torch::nn::LayerNormOptions({c.dModel}).eps(c.layerNormEps);
    if (pre) norm1_ = register_module("norm1", torch::nn::LayerNorm(normOptions));
    attention = register_module("attention", MultiHeadAttention(c.dModel, c.heads, c.dropout));
    if (!c.attentionOnly) {
        if (pre) norm2_ = register_module("norm2", torch::nn::LayerNorm(normOptions));
        ff1_ = register_module("ff1", torch::nn::Linear(c.dModel, c.feedForward));
        ff2_ = register_module("ff2", torch::nn::Linear(c.feedForward, c.dModel));
    }
}

torch::Tensor LmBlockImpl::forward(const torch::Tensor& x, bool causal, torch::Tensor* weights) {
    const bool training = is_training();
    const torch::Tensor in = norm1_ ? norm1_(x) : x;
    torch::Tensor y = addDropout(x, attention(in, in, torch::Tensor(), causal, weights), dropout_, training);
    if (ff1_) {
        const torch::Tensor h = norm2_ ? norm2_(y) : y;
        y = addDropout(y, ff2_(torch::gelu(ff1_(h), exactGelu_ ? "none" : "tanh")), dropout_, training);
    }
    return y;
}

LmNetImpl::LmNetImpl(const LmConfig& c) : config_(c) {
    checkConfig(c);
    tokens_ = register_module("tokens", torch::nn::Embedding(c.vocabulary, c.dModel));
    if (c.positions == LmPositions::Learned)
        positions_ = register_module("positions", torch::nn::Embedding(c.context, c.dModel));
    else
        sinusoid_ = register_buffer("sinusoid", sinusoidalPositions(c.context, c.dModel));
    for (int l = 0; l < c.layers; ++l) blocks_.push_back(register_module("block" + std::to_string(l), LmBlock(c)));
    if (c.norm == LmNorm::Pre) final_ = register_module("final_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.dModel}).eps(c.layerNormEps)));
    if (!c.tied) unembed_ = register_module("unembed", torch::nn::Linear(torch::nn::LinearOptions(c.dModel, c.vocabulary).bias(false)));
}

torch::Tensor LmNetImpl::forward(const torch::Tensor& ids, std::vector<torch::Tensor>* weights) {
    const int64_t T = ids.size(1);
    TORCH_CHECK(T <= config_.context, "a sequence of ", T, " tokens is longer than the context");
    torch::Tensor x = tokens_(ids);
    x = x + (positions_ ? positions_->weight.narrow(0, 0, T) : sinusoid_.narrow(0, 0, T)).unsqueeze(0);
    x = applyDropout(x, config_.dropout, is_training());
    const bool causal = config_.objective == LmObjective::Causal;
    if (weights) weights->clear();
    for (LmBlock& block : blocks_) {
        torch::Tensor w;
        x = block->forward(x, causal, weights ? &w : nullptr);
        if (weights) weights->push_back(w);
    }
    if (final_) x = final_(x);
    return unembed_ ? unembed_(x) : torch::matmul(x, tokens_->weight.t());
}

}  // namespace attnlab::nn
