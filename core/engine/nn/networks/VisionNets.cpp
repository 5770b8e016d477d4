#include "engine/nn/networks/VisionNets.h"

#include <cmath>

#include "engine/nn/nodes/AdditiveScores.h"
#include "engine/nn/kernels/BatchMatmul.h"
#include "engine/nn/nodes/FusedFeedForward.h"
#include "engine/nn/nodes/FusedGruCell.h"
#include "engine/nn/nodes/PackedLinear.h"
#include "engine/nn/kernels/Random.h"
#include "engine/nn/networks/TransformerClassifierNet.h"  // attentionRollout
#include "engine/nn/networks/TransformerSeq2Seq.h"        // sinusoidalPositions

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
    torch::Tensor f = feedForward(norm2_(y), ff1_, ff2_, FeedForwardActivation::Gelu, dropout_, training);
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
    torch::Tensor x = linear(patchEmbedding_, patches);
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
    out.logits = linear(head_, norm_(x.select(1, 0)));
    return out;
}

CaptionerNetImpl::CaptionerNetImpl(const CaptionerConfig& c) : config_(c) {
    auto conv = [](int in, int out) { return torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).padding(1)); };
    conv1_ = register_module("conv1", conv(c.channels, 32));
    conv2_ = register_module("conv2", conv(32, 64));
    conv3_ = register_module("conv3", conv(64, c.features));
    const int n = gridSide(c) * gridSide(c);
    cells_ = register_parameter("cells", torch::randn({n, c.features}) * 0.1);
    if (c.initialState == CaptionInitialState::Mean) init_ = register_module("init", torch::nn::Linear(c.features, c.hidden));
    embedding_ = register_module("embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(c.vocabulary, c.embedding).padding_idx(0)));
    if (c.attention == CaptionAttention::Additive) {
        featureKey_ = register_module("feature_key", torch::nn::Linear(c.features, c.attentionSize));
        stateKey_ = register_module("state_key", torch::nn::Linear(torch::nn::LinearOptions(c.hidden, c.attentionSize).bias(false)));
        score_ = register_module("score", torch::nn::Linear(torch::nn::LinearOptions(c.attentionSize, 1).bias(false)));
        if (c.sentinel) {
            sentinelGate_ = register_module("sentinel_gate", torch::nn::Linear(c.hidden, c.features));
            sentinelValue_ = register_module("sentinel_value", torch::nn::Linear(c.hidden, c.features));
            sentinelKey_ = register_module("sentinel_key", torch::nn::Linear(c.features, c.attentionSize));
        }
    } else {
        query_ = register_module("query", torch::nn::Linear(torch::nn::LinearOptions(c.hidden, c.features).bias(false)));
    }
    if (c.gate) gate_ = register_module("gate", torch::nn::Linear(c.hidden, 1));
    const bool fed = c.query == CaptionQuery::Previous || c.inputFeeding;  // the context is part of the GRU's input
    gru_ = register_module("gru", torch::nn::GRUCell(c.embedding + (fed ? c.features : 0), c.hidden));
    output_ = register_module("output", torch::nn::Linear(c.hidden + c.features, c.vocabulary));
}

torch::Tensor CaptionerNetImpl::encode(const torch::Tensor& images) {
    namespace F = torch::nn::functional;
    const int64_t batch = images.size(0), g = gridSide(config_);
    torch::Tensor x = images;
    if (config_.encoder == CaptionEncoder::Cell)  // [B, C, S, S] -> [B g g, C, 8, 8], cells row-major
        x = images.unfold(2, 8, 8).unfold(3, 8, 8).permute({0, 2, 3, 1, 4, 5}).reshape({batch * g * g, images.size(1), 8, 8});
    x = x.contiguous(at::MemoryFormat::ChannelsLast);
    x = F::max_pool2d(torch::relu(conv1_(x)), F::MaxPool2dFuncOptions(2));
    x = F::max_pool2d(torch::relu(conv2_(x)), F::MaxPool2dFuncOptions(2));
    x = F::max_pool2d(torch::relu(conv3_(x)), F::MaxPool2dFuncOptions(2));  // [B, F, g, g] or [B g g, F, 1, 1]
    if (config_.encoder == CaptionEncoder::Cell)
        x = x.reshape({batch, g * g, config_.features});
    else
        x = x.flatten(2).transpose(1, 2);
    return x + cells_.unsqueeze(0);  // [B, N, F], cells row-major
}

torch::Tensor CaptionerNetImpl::keys(const torch::Tensor& features) {
    return config_.attention == CaptionAttention::Additive ? featureKey_(features) : features;
}

torch::Tensor CaptionerNetImpl::initialState(const torch::Tensor& features) {
    torch::Tensor h = config_.initialState == CaptionInitialState::Zero
                          ? torch::zeros({features.size(0), config_.hidden}, features.options())
                          : torch::tanh(init_(features.mean(1)));
    if (config_.query == CaptionQuery::Current) h = torch::cat({h, torch::zeros({features.size(0), config_.features}, features.options())}, 1);
    return h;
}

// The weights over the cells (and the sentinel's) that `query` asks for, and the context read.
CaptionStep CaptionerNetImpl::attend(const torch::Tensor& query, const torch::Tensor& features, const torch::Tensor& keys) {
    torch::Tensor scores;
    if (config_.attention == CaptionAttention::Additive)
        scores = additiveScores(stateKey_(query).unsqueeze(1), keys, score_->weight.view({-1})).squeeze(1);  // [B, N]
    else
        scores = batchMatmul(keys, query_(query).unsqueeze(2)).squeeze(2) / std::sqrt(static_cast<double>(config_.features));
    CaptionStep s;
    if (config_.sentinel) {
        // The sentinel is one more key, drawn from the state, in the same softmax as the cells.
        const torch::Tensor value = torch::sigmoid(sentinelGate_(query)) * torch::tanh(sentinelValue_(query));  // [B, F]
        const torch::Tensor sentinelScore = score_(torch::tanh(sentinelKey_(value) + stateKey_(query)));        // [B, 1]
        const torch::Tensor weights = torch::softmax(torch::cat({scores, sentinelScore}, 1), 1);               // [B, N+1]
        const int64_t n = scores.size(1);
        s.alpha = weights.narrow(1, 0, n);
        s.beta = weights.select(1, n);
        s.context = batchMatmul(s.alpha.unsqueeze(1), features).squeeze(1) + s.beta.unsqueeze(1) * value;
    } else {
        s.alpha = torch::softmax(scores, 1);
        s.context = batchMatmul(s.alpha.unsqueeze(1), features).squeeze(1);  // [B, F]
    }
    if (config_.gate) s.context = torch::sigmoid(gate_(query)) * s.context;
    return s;
}

CaptionStep CaptionerNetImpl::step(const torch::Tensor& previous, const torch::Tensor& state, const torch::Tensor& features,
                                   const torch::Tensor& keys) {
    const bool training = is_training();
    if (config_.query == CaptionQuery::Current) {
        // Read the previous word and the previous context, then ask with the new state.
        const torch::Tensor h = state.narrow(1, 0, config_.hidden), before = state.narrow(1, config_.hidden, config_.features);
        const torch::Tensor read = config_.inputFeeding ? torch::cat({embedding_(previous), before}, 1) : embedding_(previous);
        const torch::Tensor input = applyDropout(read, config_.dropout, training);
        const torch::Tensor next = gru_(input, h);
        CaptionStep s = attend(next, features, keys);
        s.logits = output_(applyDropout(torch::cat({next, s.context}, 1), config_.dropout, training));
        s.state = torch::cat({next, s.context}, 1);
        return s;
    }
    CaptionStep s = attend(state, features, keys);
    const torch::Tensor input = applyDropout(torch::cat({embedding_(previous), s.context}, 1), config_.dropout, training);
    s.state = gru_(input, state);
    s.logits = output_(applyDropout(torch::cat({s.state, s.context}, 1), config_.dropout, training));
    return s;
}

std::pair<torch::Tensor, torch::Tensor> CaptionerNetImpl::forward(const torch::Tensor& images, const torch::Tensor& inputs) {
    const torch::Tensor features = encode(images), k = keys(features);
    torch::Tensor state = initialState(features);
    if (config_.query == CaptionQuery::Current) {
        // step()'s numbers with the known inputs' embeddings looked up at once, the GRU cell as one
        // autograd node (fusedGruCell), and the output layer (with its dropout) run once over every
        // step's [state; context] after the loop: the recurrence needs neither.
        const bool training = is_training();
        const torch::Tensor embedded = embedding_(inputs);  // [B, T, E]
        torch::Tensor h = state.narrow(1, 0, config_.hidden), before = state.narrow(1, config_.hidden, config_.features);
        std::vector<torch::Tensor> states, contexts, alphas;
        for (int64_t t = 0; t < inputs.size(1); ++t) {
            const torch::Tensor read = config_.inputFeeding ? torch::cat({embedded.select(1, t), before}, 1) : embedded.select(1, t);
            h = fusedGruCell(applyDropout(read, config_.dropout, training), h, gru_);
            CaptionStep s = attend(h, features, k);
            states.push_back(h);
            contexts.push_back(s.context);
            alphas.push_back(s.alpha);
            before = s.context;
        }
        const torch::Tensor read = torch::cat({torch::stack(states, 1), torch::stack(contexts, 1)}, 2);  // [B, T, H + F]
        return {linear(output_, applyDropout(read, config_.dropout, training)), torch::stack(alphas, 1)};
    }
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
