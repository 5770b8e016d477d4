#pragma once
// Engine-internal: the GRU text classifier's network. embedding -> dropout -> one GRU layer
// (bidirectional by default; fused, nn/FusedGruEncoder.h) -> pooling -> linear. The
// explanation methods run it from the embeddings (forwardEmbedded), so that gradients and
// integrated gradients reach each word's embedding.
#include <torch/torch.h>

#include "base/ClassifierConfig.h"

namespace attnlab::nn {

struct ClassifierOutput {
    torch::Tensor logits;     // [B, C]
    torch::Tensor attention;  // [B, R, S], rows summing to 1 over each text's length; undefined without attention
};

class GruClassifierNetImpl : public torch::nn::Module {
public:
    explicit GruClassifierNetImpl(const ClassifierConfig& config);
    // ids [B, S] (0 = padding), lengths [B] (each >= 1).
    ClassifierOutput forward(const torch::Tensor& ids, const torch::Tensor& lengths);
    torch::Tensor embed(const torch::Tensor& ids);  // [B, S, E], no dropout
    // From embeddings [B, S, E] (dropout is applied here in training mode). A defined `pooling`
    // [B, R, S] replaces the attention the model would compute (the permutation test).
    ClassifierOutput forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& lengths,
                                     const torch::Tensor& pooling = {});
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
TORCH_MODULE(GruClassifierNet);

}  // namespace attnlab::nn
