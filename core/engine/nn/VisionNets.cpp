#include "VisionNets.h"

#include <cmath>

#include "Random.h"
#include "TransformerClassifierNet.h"  // attentionRollout
#include "TransformerSeq2Seq.h"        // sinusoidalPositions

namespace attnlab::nn {

PreNormEncoderLayerImpl::PreNormEncoderLayerImpl(int d, int heads, int ff, double dropout, PatternSpec pattern)
    : dropout_(dropout) {
    norm1_ = register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
    attention_ = register_module("attention", MultiHeadAttention(d, heads, dropout, pattern));
    norm2_ = register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
    ff1_ = register_module("ff1", torch::nn::Linear(d, ff));
    ff2_ = register_module("ff2", torch::nn::Linear(ff, d));
}

torch::Tensor PreNormEncoderLayerImpl::forward(const torch::Tensor& x, torch::Tensor* weights) {
    const bool training = is_training();
    torch::Tensor h = norm1_(x);
    torch::Tensor y = addDropout(x, attention_->forward(h, h, torch::Tensor(), false, weights), dropout_, training);
    torch::Tensor f = ff2_(applyDropout(torch::gelu(ff1_(norm2_(y))), dropout_, training));
    return addDropout(y, f, dropout_, training);
}

VitNetImpl::VitNetImpl(const VitConfig& c) : config_(c) {
    const int d = c.hidden, n = gridSide(c) * gridSide(c);
    patchEmbedding_ = register_module("patch_embedding", torch::nn::Linear(c.channels * c.patch * c.patch, d));
    cls_ = register_parameter("cls", torch::randn({d}) * 0.02);
    if (c.positions == PatchPositions::Learned)
        positions_ = register_parameter("positions", torch::randn({n + 1, d}) * 0.02);
    else
        positions_ = register_buffer("positions", sinusoidalPositions(n + 1, d));
    // Not causal; [CLS] (position 0) sees, and is seen by, only what the pattern allows.
    const PatternSpec pattern = patternSpec(c.pattern, c.window, c.chunk, n + 1);
    for (int l = 0; l < c.layers; ++l)
        layers_.push_back(register_module("layer_" + std::to_string(l),
                                          PreNormEncoderLayer(d, c.heads, feedForwardSize(c), c.dropout, pattern)));
    norm_ = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
    head_ = register_module("head", torch::nn::Linear(d, c.classes));
}

VitOutput VitNetImpl::forward(const torch::Tensor& images) {
    const int64_t B = images.size(0), P = config_.patch, g = gridSide(config_);
    // [B, C, S, S] -> [B, g, g, C, P, P] -> [B, g*g, C*P*P]: patches row-major, each flattened channel-first.
    torch::Tensor patches = images.unfold(2, P, P).unfold(3, P, P).permute({0, 2, 3, 1, 4, 5}).reshape({B, g * g, -1});
    torch::Tensor x = patchEmbedding_(patches);
    x = torch::cat({cls_.view({1, 1, -1}).expand({B, 1, config_.hidden}), x}, 1) + positions_.unsqueeze(0);
    x = applyDropout(x, config_.dropout, is_training());
    // As the classifier's: in training a pattern other than full makes no display maps.
    const bool maps = !is_training() || config_.pattern == AttentionPattern::Full;
    VitOutput out;
    for (auto& layer : layers_) {
        torch::Tensor w;
        x = layer->forward(x, maps ? &w : nullptr);
        if (maps) out.attention.push_back(w);
    }
    out.logits = head_(norm_(x.select(1, 0)));
    return out;
}

CaptionerNetImpl::CaptionerNetImpl(const CaptionerConfig& c) : config_(c) {
    auto conv = [](int in, int out) { return torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).padding(1)); };
    conv1_ = register_module("conv1", conv(c.channels, 32));
    conv2_ = register_module("conv2", conv(32, 64));
    conv3_ = register_module("conv3", conv(64, c.features));
    const int n = gridSide(c) * gridSide(c);
    cells_ = register_parameter("cells", torch::randn({n, c.features}) * 0.1);
    init_ = register_module("init", torch::nn::Linear(c.features, c.hidden));
    embedding_ = register_module("embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(c.vocabulary, c.embedding).padding_idx(0)));
    if (c.attention == CaptionAttention::Additive) {
        featureKey_ = register_module("feature_key", torch::nn::Linear(c.features, c.attentionSize));
        stateKey_ = register_module("state_key", torch::nn::Linear(torch::nn::LinearOptions(c.hidden, c.attentionSize).bias(false)));
        score_ = register_module("score", torch::nn::Linear(torch::nn::LinearOptions(c.attentionSize, 1).bias(false)));
    } else {
        query_ = register_module("query", torch::nn::Linear(torch::nn::LinearOptions(c.hidden, c.features).bias(false)));
    }
    gru_ = register_module("gru", torch::nn::GRUCell(c.embedding + c.features, c.hidden));
    output_ = register_module("output", torch::nn::Linear(c.hidden + c.features, c.vocabulary));
}

torch::Tensor CaptionerNetImpl::encode(const torch::Tensor& images) {
    namespace F = torch::nn::functional;
    torch::Tensor x = F::max_pool2d(torch::relu(conv1_(images)), F::MaxPool2dFuncOptions(2));
    x = F::max_pool2d(torch::relu(conv2_(x)), F::MaxPool2dFuncOptions(2));
    x = F::max_pool2d(torch::relu(conv3_(x)), F::MaxPool2dFuncOptions(2));  // [B, F, g, g]
    return x.flatten(2).transpose(1, 2) + cells_.unsqueeze(0);              // [B, N, F], cells row-major
}

torch::Tensor CaptionerNetImpl::keys(const torch::Tensor& features) {
    return config_.attention == CaptionAttention::Additive ? featureKey_(features) : features;
}

torch::Tensor CaptionerNetImpl::initialState(const torch::Tensor& features) { return torch::tanh(init_(features.mean(1))); }

CaptionStep CaptionerNetImpl::step(const torch::Tensor& previous, const torch::Tensor& state, const torch::Tensor& features,
                                   const torch::Tensor& keys) {
    torch::Tensor scores;
    if (config_.attention == CaptionAttention::Additive)
        scores = score_(torch::tanh(keys + stateKey_(state).unsqueeze(1))).squeeze(2);  // [B, N]
    else
        scores = torch::bmm(keys, query_(state).unsqueeze(2)).squeeze(2) / std::sqrt(static_cast<double>(config_.features));
    CaptionStep s;
    s.alpha = torch::softmax(scores, 1);
    torch::Tensor context = torch::bmm(s.alpha.unsqueeze(1), features).squeeze(1);  // [B, F]
    torch::Tensor input = applyDropout(torch::cat({embedding_(previous), context}, 1), config_.dropout, is_training());
    s.state = gru_(input, state);
    s.logits = output_(applyDropout(torch::cat({s.state, context}, 1), config_.dropout, is_training()));
    return s;
}

std::pair<torch::Tensor, torch::Tensor> CaptionerNetImpl::forward(const torch::Tensor& images, const torch::Tensor& inputs) {
    const torch::Tensor features = encode(images), k = keys(features);
    torch::Tensor state = initialState(features);
    std::vector<torch::Tensor> logits, alphas;
    for (int64_t t = 0; t < inputs.size(1); ++t) {
        CaptionStep s = step(inputs.select(1, t), state, features, k);
        state = s.state;
        logits.push_back(s.logits);
        alphas.push_back(s.alpha);
    }
    return {torch::stack(logits, 1), torch::stack(alphas, 1)};
}

}  // namespace attnlab::nn
