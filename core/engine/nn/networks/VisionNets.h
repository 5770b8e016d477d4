#pragma once
// Engine-internal: the vision networks of base/VisionConfig.h.
#include <torch/torch.h>

#include "engine/nn/networks/MultiHeadAttention.h"
#include "base/vision/VisionConfig.h"

namespace attnlab::nn {

// x + MHA(LN(x)), then x + FF(LN(x)) with GELU: the pre-norm layer of the ViT (and of PyTorch's
// TransformerEncoderLayer with norm_first=True).
class PreNormEncoderLayerImpl : public torch::nn::Module {
public:
    PreNormEncoderLayerImpl(int d, int heads, int ff, double dropout, PatternSpec pattern = {});
    // x [B, T, D]; with weights set, stores the self-attention [B, H, T, T].
    torch::Tensor forward(const torch::Tensor& x, torch::Tensor* weights);
    MultiHeadAttention& attention() { return attention_; }

private:
    torch::nn::LayerNorm norm1_{nullptr}, norm2_{nullptr};
    MultiHeadAttention attention_{nullptr};
    torch::nn::Linear ff1_{nullptr}, ff2_{nullptr};
    double dropout_;
};
TORCH_MODULE(PreNormEncoderLayer);

struct VitOutput {
    torch::Tensor logits;                 // [B, classes]
    std::vector<torch::Tensor> attention;  // per layer [B, H, 1 + N, 1 + N]
};

class VitNetImpl : public torch::nn::Module {
public:
    explicit VitNetImpl(const VitConfig& config);
    // images [B, C, S, S] in 0..1.
    VitOutput forward(const torch::Tensor& images);
    // Layer `layer`'s self-attention (head gates: engine/HeadStudy.h); std::out_of_range beyond.
    MultiHeadAttention& attention(std::size_t layer) { return layers_.at(layer)->attention(); }
    std::size_t layerCount() const { return layers_.size(); }

private:
    VitConfig config_;
    torch::nn::Linear patchEmbedding_{nullptr};
    torch::Tensor cls_, positions_;  // [D], [1 + N, D] (a parameter, or a buffer when sinusoidal)
    std::vector<PreNormEncoderLayer> layers_;
    torch::nn::LayerNorm norm_{nullptr};
    torch::nn::Linear head_{nullptr};
};
TORCH_MODULE(VitNet);

struct CaptionStep {
    torch::Tensor logits;  // [B, V]
    torch::Tensor state;   // [B, H], or [B, H + F] (the state and the context it read) when the current state asks
    torch::Tensor alpha;   // [B, N]; sums to 1, or to 1 - beta with the sentinel
    torch::Tensor beta;    // [B] the sentinel's weight ("not looking"); undefined without it
    torch::Tensor context; // [B, F] what the word read of the image
};

class CaptionerNetImpl : public torch::nn::Module {
public:
    explicit CaptionerNetImpl(const CaptionerConfig& config);
    // images [B, C, S, S] -> the grid's features [B, N, F] (cell embeddings added).
    torch::Tensor encode(const torch::Tensor& images);
    // What attention needs of the features once per image: additive W_f f (+ b), or f itself.
    torch::Tensor keys(const torch::Tensor& features);
    torch::Tensor initialState(const torch::Tensor& features);  // [B, H], or [B, H + F] (the context zero)
    // One word: the previous word (ids [B]) and state -> the next word's logits, the new state and
    // the weights over the cells that made it.
    CaptionStep step(const torch::Tensor& previous, const torch::Tensor& state, const torch::Tensor& features,
                     const torch::Tensor& keys);
    // Teacher forcing: inputs [B, T] (<s> w1 .. w_{T-1}) -> logits [B, T, V], alphas [B, T, N].
    std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& images, const torch::Tensor& inputs);

private:
    CaptionStep attend(const torch::Tensor& query, const torch::Tensor& features, const torch::Tensor& keys);

    CaptionerConfig config_;
    torch::nn::Conv2d conv1_{nullptr}, conv2_{nullptr}, conv3_{nullptr};
    torch::Tensor cells_;  // [N, F]
    torch::nn::Linear init_{nullptr};
    torch::nn::Embedding embedding_{nullptr};
    torch::nn::Linear featureKey_{nullptr}, stateKey_{nullptr}, score_{nullptr};  // additive
    torch::nn::Linear query_{nullptr};                                            // dot
    torch::nn::Linear sentinelGate_{nullptr}, sentinelValue_{nullptr}, sentinelKey_{nullptr};
    torch::nn::Linear gate_{nullptr};
    torch::nn::GRUCell gru_{nullptr};
    torch::nn::Linear output_{nullptr};
};
TORCH_MODULE(CaptionerNet);

}  // namespace attnlab::nn
