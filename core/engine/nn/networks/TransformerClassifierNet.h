#pragma once
// Engine-internal: the Transformer text classifier. A learned [CLS] vector, then the words'
// embeddings * sqrt(d); sinusoidal positions (0 for [CLS]); `layers` post-norm encoder layers (the
// translation Transformer's, nn/networks/TransformerSeq2Seq.h, with the config's attention pattern) with padding masked; a linear layer on
// [CLS]'s final state. Every layer's attention is captured; the rollout (Abnar & Zuidema 2020:
// heads averaged, the identity added for the residual, rows renormalised, the layers multiplied)
// gives [CLS]'s row over the words.
#include "engine/nn/networks/GruClassifierNet.h"
#include "engine/nn/networks/TransformerSeq2Seq.h"

namespace attnlab::nn {

class TransformerClassifierNetImpl : public ClassifierNet {
public:
    explicit TransformerClassifierNetImpl(const ClassifierConfig& config);
    torch::Tensor embed(const torch::Tensor& ids) override;
    ClassifierOutput forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& lengths,
                                     const torch::Tensor& pooling = {}) override;
    // Off: no attention maps and no rollout in any mode (the logits only), for measurements at
    // lengths where a dense [T, T] map per layer would not fit (the long-range experiment).
    void setCaptureMaps(bool on) { captureMaps_ = on; }
    // Layer `layer`'s self-attention (head gates: engine/HeadStudy.h); std::out_of_range beyond.
    MultiHeadAttention& attention(std::size_t layer) { return layers_.at(layer)->selfAttention; }
    std::size_t layerCount() const { return layers_.size(); }

private:
    bool captureMaps_ = true;
    ClassifierConfig config_;
    torch::nn::Embedding embedding_{nullptr};
    torch::Tensor cls_;        // [d]
    torch::Tensor positions_;  // [maxLength + 1, d], a buffer
    std::vector<EncoderLayer> layers_;
    torch::nn::Linear output_{nullptr};
};

// Attention rollout of per-layer weights [B, H, T, T]: prod over layers of
// renorm(0.5 * mean_h(W) + 0.5 * I), first layer rightmost. -> [B, T, T]
torch::Tensor attentionRollout(const std::vector<torch::Tensor>& layers);

}  // namespace attnlab::nn
