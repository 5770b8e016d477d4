#pragma once
// A forecaster's configuration: a plain value type, serialized into its checkpoint.
// The model is a Transformer encoder-decoder over a context window of C points and a horizon of H
// points: values embedded by a linear layer (plus optional time features), sinusoidal positions; the
// encoder reads the C history values; the decoder reads H query slots (the last history value and
// the position of each forecast step), attends causally to itself and fully to the encoder, and a
// linear head gives one value per step. Torch-free.
#include <cstdint>
#include <string>

#include "base/translation/ModelConfig.h"  // AttentionPattern

namespace attnlab {

enum class ForecastLoss { Mse, Mae };
std::string toString(ForecastLoss l);           // "mse", "mae"
ForecastLoss parseForecastLoss(const std::string& s);  // throws ConfigError naming the accepted values

struct ForecastConfig {
    int context = 96;       // C: history points the encoder reads
    int horizon = 12;       // H: points forecast at once
    int dModel = 64;
    int heads = 4;
    int encoderLayers = 2;
    int decoderLayers = 1;
    int feedForward = 128;
    float dropout = 0.0f;
    ForecastLoss loss = ForecastLoss::Mse;
    bool timeFeatures = true;   // add (sin, cos) of the position within `period` to each value's input
                                // (on by default: docs/forecasting.md, "Model and training", measured it)
    int period = 0;             // the period the time features and MASE use; 0 = estimated from the training part
    // Encoder self-attention pattern (translation's, base/translation/ModelConfig.h); cross-attention is full.
    AttentionPattern pattern = AttentionPattern::Full;
    int window = 8;
    int chunk = 0;  // 0 = ceil(sqrt(context))
};

// Empty if valid; otherwise a one-line reason naming the setting (context 2..4096, horizon 1..512,
// heads dividing dModel, ...).
std::string validate(const ForecastConfig& c);
void checkConfig(const ForecastConfig& c);  // throws ConfigError
std::string toJson(const ForecastConfig& c);
// Throws ConfigError for malformed JSON, a missing member or an invalid config.
ForecastConfig forecastConfigFromJson(const std::string& json);
// Weights and biases of the network described at the top: the two input Linears (w -> dModel),
// per encoder layer attention 4 (d d + d) + 2 LayerNorms + FFN (d f + f + f d + d), per decoder
// layer 2 attentions + 3 LayerNorms + FFN, the head Linear(d -> 1); no position table, no final
// LayerNorm (ForecastConfig.cpp spells it out). The engine's network must hold exactly this many.
std::int64_t parameterCount(const ForecastConfig& c);
// The width of a value's input: 1, plus 2 for the time features (sin, cos).
int forecastInputWidth(const ForecastConfig& c);
// The chunk size (chunked) or stride (strided) in effect: chunk, or ceil(sqrt(context)).
int patternChunk(const ForecastConfig& c);
// Settings and their Setting (for flagOf / SettingNames): context Context 2..4096, horizon Horizon
// 1..512, dModel Hidden 1..4096, heads Heads 1..64 dividing dModel, encoderLayers Layers 1..16,
// decoderLayers DecoderLayers 1..16, feedForward FeedForward 1..16384, dropout Dropout [0, 1),
// period ForecastPeriod 0..context, window LocalWindow 1..100, chunk AttentionChunk 0..8192.

}  // namespace attnlab
