#pragma once
// Engine-internal: the forecaster's Transformer encoder-decoder (base/forecast/ForecastConfig.h).
//
//   input      x_t = [z_t, sin(2 pi t / P), cos(2 pi t / P)] (the time features only with
//              config.timeFeatures; t is the position in the window, 0 .. C + H - 1, P the period,
//              the features are 0 when P is 0); z the standardised value
//   encoder    e_c = W_in x_c + b_in + PE[c] for the C history points, then `encoderLayers` post-norm
//              encoder layers (the translation Transformer's EncoderLayer, nn/networks/TransformerSeq2Seq.h)
//              whose self-attention follows config.pattern / window / chunk as the classifier's does
//   decoder    q_h = W_dec [z_{C-1}, time features of C + h] + b_dec + PE[C + h] for the H steps (an
//              input layer of its own: the last history value and the step's position, which
//              continues after the context), then `decoderLayers` post-norm decoder layers
//              (DecoderLayer: causal self-attention over the steps, full cross-attention over the
//              encoder)
//   head       yhat_h = w_out . s_h + b_out, one standardised value per step
//
// Weights: two input layers of (1 or 3) x d + d, the layers' (as translation's), head d + 1: exactly
// base's parameterCount(ForecastConfig).
#include "engine/nn/networks/TransformerSeq2Seq.h"
#include "base/forecast/ForecastConfig.h"

namespace attnlab::nn {

struct ForecastOutput {
    torch::Tensor prediction;            // [B, H], standardised
    std::vector<torch::Tensor> encoder;  // per layer [B, heads, C, C] (when asked)
    std::vector<torch::Tensor> decoder;  // per layer [B, heads, H, H] (when asked)
    std::vector<torch::Tensor> cross;    // per layer [B, heads, H, C] (when asked)
};

class ForecastNetImpl : public torch::nn::Module {
public:
    // period: the time features' P (0 = no period: features 0); ignored without timeFeatures.
    ForecastNetImpl(const ForecastConfig& config, int period);
    // history [B, C] standardised values. With maps, every layer's attention is captured.
    ForecastOutput forward(const torch::Tensor& history, bool maps);
    // The input rows the network embeds, [B, C + H, 1 or 3] (history then the decoder's slots), for tests.
    torch::Tensor inputs(const torch::Tensor& history) const;
    void setPeriod(int period);
    int period() const { return period_; }
    // The attention of `kind` in `layer` (encoder self-attention over the encoder's layers; decoder
    // self- and cross-attention over the decoder's), for head gates (engine/HeadStudy.h);
    // std::out_of_range beyond.
    MultiHeadAttention& attentionModule(MapKind kind, std::size_t layer) {
        if (kind == MapKind::Encoder) return encoderLayers_.at(layer)->selfAttention;
        if (kind == MapKind::Decoder) return decoderLayers_.at(layer)->selfAttention;
        return decoderLayers_.at(layer)->crossAttention;
    }

private:
    ForecastConfig config_;
    int period_ = 0;
    torch::nn::Linear input_{nullptr}, decoderInput_{nullptr};
    std::vector<EncoderLayer> encoderLayers_;
    std::vector<DecoderLayer> decoderLayers_;
    torch::nn::Linear head_{nullptr};
    torch::Tensor positions_;  // [C + H, d]: deterministic from the config, not saved
    torch::Tensor time_;       // [C + H, 2]: the time features (zeros without a period)
};
TORCH_MODULE(ForecastNet);

}  // namespace attnlab::nn
