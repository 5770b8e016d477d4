#include "engine/nn/networks/TransformerClassifierNet.h"

#include <cmath>

#include "engine/nn/nodes/PackedLinear.h"

namespace attnlab::nn {

std::shared_ptr<ClassifierNet> makeClassifierNetwork(const ClassifierConfig& config) {
    if (config.architecture == ClassifierArchitecture::Transformer)
        return std::make_shared<TransformerClassifierNetImpl>(config);
    return std::make_shared<GruClassifierNetImpl>(config);
}

TransformerClassifierNetImpl::TransformerClassifierNetImpl(const ClassifierConfig& c) : config_(c) {
    const int d = c.hidden;
    embedding_ = register_module("embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(c.vocabulary, d).padding_idx(0)));
    // Word embeddings start at N(0, 1/d), so that embed()'s sqrt(d) gives them unit variance, the
    // scale of the positions (Vaswani et al. 2017, section 3.4), as in TransformerSeq2Seq; with
    // LibTorch's default N(0, 1) the words were sqrt(d) times the positions.
    {
        torch::NoGradGuard noGrad;
        embedding_->weight.normal_(0.0, 1.0 / std::sqrt(static_cast<double>(d)));
        embedding_->weight[0].zero_();
    }
    cls_ = register_parameter("cls", torch::randn({d}) * 0.02);
    positions_ = register_buffer("positions", sinusoidalPositions(c.maxLength + 1, d));
    // Not causal; [CLS] (position 0) sees, and is seen by, only what the pattern allows.
    const PatternSpec pattern = patternSpec(c.pattern, c.window, c.chunk, c.maxLength + 1);
    for (int l = 0; l < c.layers; ++l)
        layers_.push_back(register_module("encoder_" + std::to_string(l),
                                          EncoderLayer(d, c.heads, c.feedForward, c.dropout, pattern)));
    output_ = register_module("output", torch::nn::Linear(d, c.classes));
}

torch::Tensor TransformerClassifierNetImpl::embed(const torch::Tensor& ids) {
    return embedding_(ids) * std::sqrt(static_cast<double>(config_.hidden));
}

ClassifierOutput TransformerClassifierNetImpl::forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& lengths,
                                                               const torch::Tensor& /*pooling: GRU only*/) {
    using torch::indexing::Slice;
    const int64_t B = embedded.size(0), S = embedded.size(1);
    torch::Tensor x = torch::cat({cls_.to(embedded.scalar_type()).view({1, 1, -1}).expand({B, 1, config_.hidden}), embedded}, 1);
    x = applyDropout(x + positions_.index({Slice(0, S + 1)}).to(x.scalar_type()), config_.dropout, is_training());
    // [CLS] is never padding; word j (at 1 + j) is padding past each text's length.
    torch::Tensor padMask = torch::cat({torch::zeros({B, 1}, torch::kBool),
                                        torch::arange(S, lengths.options()).unsqueeze(0) >= lengths.unsqueeze(1)}, 1);
    // Training reads only the logits; a pattern other than full would build a dense map per layer
    // for nothing (its display map), so the maps and the rollout are made in eval mode, or for full
    // attention, whose weights come with the softmax at no cost.
    const bool maps = captureMaps_ && (!is_training() || config_.pattern == AttentionPattern::Full);
    ClassifierOutput out;
    for (auto& layer : layers_) {
        torch::Tensor w;
        x = layer->forward(x, padMask, maps ? &w : nullptr);
        if (maps) out.encoder.push_back(w);
    }
    out.logits = linear(output_, x.select(1, 0));
    if (!maps) return out;
    torch::Tensor rows = attentionRollout(out.encoder).select(1, 0).index({Slice(), Slice(1, torch::indexing::None)});  // [B, S]
    out.attention = (rows / rows.sum(1, true).clamp_min(1e-12)).unsqueeze(1);
    return out;
}

torch::Tensor attentionRollout(const std::vector<torch::Tensor>& layers) {
    torch::Tensor rollout;
    for (const auto& w : layers) {
        torch::Tensor a = w.mean(1);  // [B, T, T]
        a = 0.5 * a + 0.5 * torch::eye(a.size(1), a.options()).unsqueeze(0);
        a = a / a.sum(2, true);
        rollout = rollout.defined() ? torch::bmm(a, rollout) : a;
    }
    return rollout;
}

}  // namespace attnlab::nn
