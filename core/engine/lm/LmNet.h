#pragma once
// Engine-internal: the language model's network (LibTorch; only engine .cpp files include it). A
// decoder-only Transformer in the form LmConfig says (core/base/lm/LmConfig.h): token embeddings
// plus positions (a learned table or the sinusoidal one), `layers` blocks of self-attention, causal
// for the causal objective and in both directions for the masked one, each with an MLP (GELU, the
// tanh form as GPT-2's gelu_new or the exact one, as the config says) unless attention-only, LayerNorm before each sublayer and at the end
// when the norm is "pre" (GPT-2's form), or BERT's post-LayerNorm (on the embeddings and after each
// residual sum) when "post", with a segment-0 vector (tokenTypes) and the MLM head (mlmHead), and the unembedding, tied to the token embedding (no bias)
// or a Linear of its own. Its parameters are exactly parameterCount(config).
#include <torch/torch.h>

#include <vector>

#include "base/lm/LmConfig.h"
#include "engine/nn/networks/MultiHeadAttention.h"

namespace attnlab::nn {

class LmBlockImpl : public torch::nn::Module {
public:
    // randomInit false: the parameters are allocated but not initialised (a loader sets them all).
    LmBlockImpl(const LmConfig& c, bool randomInit = true);
    // x [B, T, D]; weights, when given, receives the attention [B, H, T, T].
    torch::Tensor forward(const torch::Tensor& x, bool causal, torch::Tensor* weights);
    MultiHeadAttention attention{nullptr};

private:
    double dropout_;
    bool exactGelu_;  // LmConfig::gelu
    bool post_;       // LmNorm::Post: LN(x + f(x))
    torch::nn::LayerNorm norm1_{nullptr}, norm2_{nullptr};
    torch::nn::Linear ff1_{nullptr}, ff2_{nullptr};
};
TORCH_MODULE(LmBlock);

class LmNetImpl : public torch::nn::Module {
public:
    // randomInit false: every parameter allocated but left uninitialised, for a loader that sets them
    // all (initialising GPT-2 small's 124M parameters only to overwrite them took ~0.5 s).
    explicit LmNetImpl(const LmConfig& c, bool randomInit = true);
    // ids [B, T] (T <= context) -> logits [B, T, V]; with weights set, one [B, H, T, T] per layer.
    torch::Tensor forward(const torch::Tensor& ids, std::vector<torch::Tensor>* weights = nullptr);
    // forward in two halves: the last layer's output after the final norm [B, T, D], then the logits
    // of any rows of it [..., D] -> [..., V] (a reading needs only the positions it predicts from: the
    // unembedding of every position was ~40% of GPT-2 small's 128-token forward).
    torch::Tensor hidden(const torch::Tensor& ids, std::vector<torch::Tensor>* weights = nullptr);
    torch::Tensor logits(const torch::Tensor& hidden);
    const LmConfig& config() const { return config_; }
    std::vector<LmBlock>& blocks() { return blocks_; }
    // For the head study (detail/HeadStudyRunner.h): the layers and each one's attention.
    std::size_t layerCount() const { return blocks_.size(); }
    MultiHeadAttention& attention(std::size_t layer) { return blocks_[layer]->attention; }

private:
    LmConfig config_;
    torch::nn::Embedding tokens_{nullptr};
    torch::nn::Embedding positions_{nullptr};  // learned
    torch::Tensor sinusoid_;                   // [context, D], a buffer (sinusoidal)
    std::vector<LmBlock> blocks_;
    torch::nn::LayerNorm final_{nullptr};
    torch::nn::Linear unembed_{nullptr};       // untied
    torch::nn::LayerNorm embedNorm_{nullptr};  // Post (BERT): on the embeddings
    torch::Tensor tokenType_;                  // tokenTypes: segment 0's vector [D]
    torch::nn::Linear mlmDense_{nullptr};      // mlmHead: dense, GELU, LayerNorm, then the tied
    torch::nn::LayerNorm mlmNorm_{nullptr};    // unembedding plus mlmBias_ [V]
    torch::Tensor mlmBias_;
};
TORCH_MODULE(LmNet);

}  // namespace attnlab::nn
