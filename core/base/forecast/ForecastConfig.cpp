#include "ForecastConfig.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <nlohmann/json.hpp>

#include "base/InputError.h"
#include "base/io/JsonFields.h"
#include "base/forecast/Series.h"  // kMaxForecastContext, kMaxForecastHorizon

namespace attnlab {

namespace {

using Json = nlohmann::json;
constexpr const char* kForecastConfig = "forecast";

// The shortest decimal that reads back as the float: 0.1f prints as "0.1" (in messages and the JSON).
std::string shortestText(float f) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, f);
    return std::string(buffer, result.ptr);
}
double shortestDecimal(float f) { return std::strtod(shortestText(f).c_str(), nullptr); }

std::optional<SettingProblem> settingProblem(const ForecastConfig& c) {
    const auto outside = outOfRange;
    for (const auto& problem :
         {outside(Setting::Context, c.context, 2, kMaxForecastContext), outside(Setting::Horizon, c.horizon, 1, kMaxForecastHorizon),
          outside(Setting::Hidden, c.dModel, 1, 4096), outside(Setting::Heads, c.heads, 1, 64),
          outside(Setting::Layers, c.encoderLayers, 1, 16), outside(Setting::DecoderLayers, c.decoderLayers, 1, 16),
          outside(Setting::FeedForward, c.feedForward, 1, 16384)})
        if (problem) return problem;
    if (!(c.dropout >= 0.0f && c.dropout < 1.0f)) {  // also refuses NaN
        SettingProblem p;
        p.setting = Setting::Dropout;
        p.value = shortestText(c.dropout);
        p.low = "0";
        p.high = "1";
        p.highOpen = true;
        return p;
    }
    if (c.dModel % c.heads != 0) {
        SettingProblem p;
        p.setting = Setting::Heads;
        p.kind = SettingProblem::Kind::MustDivide;
        p.value = std::to_string(c.heads);
        p.other = Setting::Hidden;
        p.otherValue = std::to_string(c.dModel);
        return p;
    }
    if (auto problem = outside(Setting::ForecastPeriod, c.period, 0, c.context)) return problem;
    return attentionPatternProblem(c.window, c.chunk);
}

}  // namespace

std::string toString(ForecastLoss l) { return l == ForecastLoss::Mae ? "mae" : "mse"; }

ForecastLoss parseForecastLoss(const std::string& s) {
    if (s == "mse") return ForecastLoss::Mse;
    if (s == "mae") return ForecastLoss::Mae;
    throw ConfigError("unknown loss '" + s + "' (expected one of: mse, mae)");
}

int patternChunk(const ForecastConfig& c) {
    if (c.chunk > 0) return c.chunk;
    return std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(std::max(1, c.context))))));
}

int forecastInputWidth(const ForecastConfig& c) { return 1 + (c.timeFeatures ? 2 : 0); }

std::string validate(const ForecastConfig& c) {
    if (toString(c.pattern).empty()) return "unknown attention pattern";
    if (c.loss != ForecastLoss::Mse && c.loss != ForecastLoss::Mae) return "unknown loss";
    if (const auto problem = settingProblem(c)) return describe(*problem, settingName);
    return {};
}

void checkConfig(const ForecastConfig& c) {
    if (const auto problem = settingProblem(c)) throw ConfigError(*problem);
    const std::string why = validate(c);
    if (!why.empty()) throw ConfigError(why);
}

std::string toJson(const ForecastConfig& c) {
    return Json{{"task", "forecast"},
                {"context", c.context},
                {"horizon", c.horizon},
                {"d_model", c.dModel},
                {"heads", c.heads},
                {"encoder_layers", c.encoderLayers},
                {"decoder_layers", c.decoderLayers},
                {"feed_forward", c.feedForward},
                {"dropout", shortestDecimal(c.dropout)},
                {"loss", toString(c.loss)},
                {"time_features", c.timeFeatures},
                {"period", c.period},
                {"attention_pattern", toString(c.pattern)},
                {"local_window", c.window},
                {"attention_chunk", c.chunk}}
        .dump();
}

ForecastConfig forecastConfigFromJson(const std::string& json) {
    const Json j = json_fields::parseConfig(json, kForecastConfig, "forecast");
    const json_fields::Reader r{j, kForecastConfig};
    ForecastConfig c;
    c.context = r.integer("context", 2, kMaxForecastContext);
    c.horizon = r.integer("horizon", 1, kMaxForecastHorizon);
    c.dModel = r.integer("d_model", 1, 4096);
    c.heads = r.integer("heads", 1, 64);
    c.encoderLayers = r.integer("encoder_layers", 1, 16);
    c.decoderLayers = r.integer("decoder_layers", 1, 16);
    c.feedForward = r.integer("feed_forward", 1, 16384);
    c.dropout = r.real("dropout");
    c.loss = r.choice("loss", parseForecastLoss);
    c.timeFeatures = r.boolean("time_features");
    c.period = r.integer("period", 0, kMaxForecastContext);
    c.pattern = r.choice("attention_pattern", parseAttentionPattern);
    c.window = r.integer("local_window", 1, 100);
    c.chunk = r.integer("attention_chunk", 0, 8192);
    const std::string why = validate(c);
    if (!why.empty()) json_fields::malformed(kForecastConfig, why);
    return c;
}

// What the forecaster's network holds (every Linear with its bias; LayerNorms with weight and bias;
// d = dModel, f = feedForward, w = forecastInputWidth(c) = 1 + (timeFeatures ? 2 : 0)):
//   value embedding     Linear(w -> d)                       w d + d
//   decoder input       Linear(w -> d)                       w d + d
//   each encoder layer  self-attention Wq, Wk, Wv, Wo         4 (d d + d)
//                       2 LayerNorms                          2 (2 d)
//                       feed-forward Linear(d -> f), (f -> d) d f + f + f d + d
//   each decoder layer  self- and cross-attention             2 * 4 (d d + d)
//                       3 LayerNorms                          3 (2 d)
//                       feed-forward as the encoder's         d f + f + f d + d
//   output head         Linear(d -> 1)                        d + 1
// Nothing else: positions are sinusoidal (no table), no final LayerNorm after either stack, the
// attention patterns have no weights of their own.
std::int64_t parameterCount(const ForecastConfig& c) {
    const std::int64_t d = c.dModel, f = c.feedForward, w = forecastInputWidth(c);
    const std::int64_t attention = 4 * (d * d + d);
    const std::int64_t norm = 2 * d;
    const std::int64_t feedForward = d * f + f + f * d + d;
    const std::int64_t encoderLayer = attention + 2 * norm + feedForward;
    const std::int64_t decoderLayer = 2 * attention + 3 * norm + feedForward;
    return 2 * (w * d + d) + c.encoderLayers * encoderLayer + c.decoderLayers * decoderLayer + (d + 1);
}

}  // namespace attnlab
