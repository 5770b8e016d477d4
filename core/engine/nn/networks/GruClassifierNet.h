#pragma once
// Engine-internal: the text classifiers' networks. The GRU: embedding -> dropout -> one GRU layer
// (bidirectional by default; fused, nn/nodes/FusedGruEncoder.h) -> pooling -> linear. The Transformer
// (nn/networks/TransformerClassifierNet.h): [CLS] + words -> encoder layers -> linear on [CLS]. The
// explanation methods run them from the words' embeddings (forwardEmbedded), so that gradients
// and integrated gradients reach each word's embedding.
#include <torch/torch.h>

#include <memory>
#include <vector>

#include "base/text/ClassifierConfig.h"

namespace attnlab::nn {

struct ClassifierOutput {
    torch::Tensor logits;     // [B, C]
    // GRU: the pooling [B, R, S], rows summing to 1 over each text's length; Transformer: the
    // rollout of the [CLS] row over the words [B, 1, S], renormalised. Undefined without attention.
    torch::Tensor attention;
    std::vector<torch::Tensor> encoder;  // Transformer: each layer's self-attention [B, H, 1 + S, 1 + S]
};

// What both classifier networks offer the model, the trainer and the explanation methods.
class ClassifierNet : public torch::nn::Module {
public:
    // ids [B, S] (0 = padding), lengths [B] (each >= 1).
    ClassifierOutput forward(const torch::Tensor& ids, const torch::Tensor& lengths) {
        return forwardEmbedded(embed(ids), lengths);
    }
    virtual torch::Tensor embed(const torch::Tensor& ids) = 0;  // [B, S, E] of the words, no dropout
    // From the words' embeddings [B, S, E] (dropout applies in training mode). A defined `pooling`
    // [B, R, S] replaces the GRU's attention pooling (the permutation test).
    virtual ClassifierOutput forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& lengths,
                                             const torch::Tensor& pooling = {}) = 0;
};

std::shared_ptr<ClassifierNet> makeClassifierNetwork(const ClassifierConfig& config);

class GruClassifierNetImpl : public ClassifierNet {
public:
    explicit GruClassifierNetImpl(const ClassifierConfig& config);
    torch::Tensor embed(const torch::Tensor& ids) override;
    ClassifierOutput forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& lengths,
                                     const torch::Tensor& pooling = {}) override;
    // Lin et al. (2017): ||A A^T - I||_F^2, mean over the batch.
    static torch::Tensor redundancyPenalty(const torch::Tensor& attention);
    const ClassifierConfig& config() const { return config_; }

private:
    ClassifierConfig config_;
    torch::nn::Embedding embedding_{nullptr};
    torch::nn::GRU gru_{nullptr};
    torch::nn::Linear poolW_{nullptr};   // additive: [A, D] with bias
    torch::nn::Linear poolV_{nullptr};   // additive: [R, A]
    torch::Tensor queries_;              // dot / scaled-dot: [R, D]
    torch::nn::Linear output_{nullptr};
};

}  // namespace attnlab::nn
