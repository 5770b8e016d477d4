#include "engine/nn/networks/ForecastNet.h"

#include <cmath>
#include <stdexcept>

#include "engine/nn/nodes/PackedLinear.h"

namespace attnlab::nn {

ForecastNetImpl::ForecastNetImpl(const ForecastConfig& c, int period) : config_(c) {
    const int d = c.dModel;
    input_ = register_module("input", torch::nn::Linear(forecastInputWidth(c), d));
    decoderInput_ = register_module("decoder_input", torch::nn::Linear(forecastInputWidth(c), d));
    // The encoder reads the C history points; chunk 0 resolves against the context (ForecastConfig.h).
    const PatternSpec pattern = patternSpec(c.pattern, c.window, c.chunk, c.context);
    for (int l = 0; l < c.encoderLayers; ++l)
        encoderLayers_.push_back(register_module("encoder_" + std::to_string(l),
                                                 EncoderLayer(d, c.heads, c.feedForward, c.dropout, pattern)));
    for (int l = 0; l < c.decoderLayers; ++l)
        decoderLayers_.push_back(register_module("decoder_" + std::to_string(l),
                                                 DecoderLayer(d, c.heads, c.feedForward, c.dropout)));
    head_ = register_module("head", torch::nn::Linear(d, 1));
    positions_ = sinusoidalPositions(c.context + c.horizon, d);
    setPeriod(period);
}

void ForecastNetImpl::setPeriod(int period) {
    period_ = period > 0 ? period : 0;
    const int64_t T = config_.context + config_.horizon;
    time_ = torch::zeros({T, 2});
    if (period_ > 0) {
        torch::Tensor angle = torch::arange(T, torch::kDouble) * (2.0 * 3.14159265358979323846 / period_);
        time_.select(1, 0).copy_(torch::sin(angle));
        time_.select(1, 1).copy_(torch::cos(angle));
    }
}

torch::Tensor ForecastNetImpl::inputs(const torch::Tensor& history) const {
    const int64_t B = history.size(0), C = config_.context, H = config_.horizon;
    if (history.dim() != 2 || history.size(1) != C)
        throw std::invalid_argument("the history must be [B, " + std::to_string(C) + "]");
    torch::Tensor z = torch::cat({history, history.select(1, C - 1).unsqueeze(1).expand({B, H})}, 1);  // [B, C + H]
    torch::Tensor x = z.unsqueeze(2);
    if (config_.timeFeatures)
        x = torch::cat({x, time_.to(x.scalar_type()).unsqueeze(0).expand({B, C + H, 2})}, 2);
    return x;
}

ForecastOutput ForecastNetImpl::forward(const torch::Tensor& history, bool maps) {
    using torch::indexing::None;
    using torch::indexing::Slice;
    const int64_t C = config_.context;
    const torch::Tensor in = inputs(history);                                  // [B, C + H, w]
    const torch::Tensor pe = positions_.to(history.scalar_type()).unsqueeze(0);  // [1, C + H, d]
    torch::Tensor x = linear(input_, in.index({Slice(), Slice(0, C)})) + pe.index({Slice(), Slice(0, C)});
    torch::Tensor y = linear(decoderInput_, in.index({Slice(), Slice(C, None)})) + pe.index({Slice(), Slice(C, None)});
    x = applyDropout(x, config_.dropout, is_training());
    y = applyDropout(y, config_.dropout, is_training());
    // Training reads only the prediction: the maps (a dense one per layer for a pattern other than
    // full) are made only when asked for.
    ForecastOutput out;
    const torch::Tensor noMask;
    for (auto& layer : encoderLayers_) {
        torch::Tensor w;
        x = layer->forward(x, noMask, maps ? &w : nullptr);
        if (maps) out.encoder.push_back(w);
    }
    for (auto& layer : decoderLayers_) {
        torch::Tensor sw, cw;
        y = layer->forward(y, noMask, x, noMask, maps ? &sw : nullptr, maps ? &cw : nullptr);
        if (maps) {
            out.decoder.push_back(sw);
            out.cross.push_back(cw);
        }
    }
    out.prediction = head_(y).squeeze(2);  // [B, H]
    return out;
}

}  // namespace attnlab::nn
