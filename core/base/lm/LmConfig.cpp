#include "LmConfig.h"

#include <charconv>
#include <cstdlib>
#include <optional>
#include <nlohmann/json.hpp>

#include "base/InputError.h"
#include "base/io/JsonFields.h"

namespace attnlab {

namespace {

using Json = nlohmann::json;
constexpr const char* kLmConfig = "language model";

constexpr int kMaxLayers = 24, kMaxHeads = 64, kMinModel = 8, kMaxModel = 2048, kMaxFeedForward = 16384;
constexpr float kMaxDropout = 0.95f;
// The 4 specials (<pad>, <bos>, <unk>, <mask>: LmTokens.h) and at least one token.
constexpr std::int64_t kMinVocabulary = 5, kMaxVocabulary = 1'000'000;

// The shortest decimal that reads back as the float: 0.1f prints as "0.1" (in messages and the JSON).
std::string shortestText(float f) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, f);
    return std::string(buffer, result.ptr);
}
double shortestDecimal(float f) { return std::strtod(shortestText(f).c_str(), nullptr); }

constexpr json_fields::TwoNames<LmNorm> kNorm{"norm", LmNorm::Pre, "pre", LmNorm::None, "none"};
constexpr json_fields::TwoNames<LmPositions> kPositions{"positions", LmPositions::Learned, "learned", LmPositions::Sinusoidal,
                                           "sinusoidal"};
constexpr json_fields::TwoNames<LmGelu> kGelu{"gelu", LmGelu::Tanh, "tanh", LmGelu::Exact, "exact"};
constexpr float kDefaultLayerNormEps = 1e-5f, kMaxLayerNormEps = 0.1f;
constexpr json_fields::TwoNames<LmObjective> kObjective{"objective", LmObjective::Causal, "causal", LmObjective::Masked, "masked"};

// The first problem with a setting the front ends can name (Setting.h), or none.
std::optional<SettingProblem> settingProblem(const LmConfig& c) {
    const auto outside = outOfRange;
    for (const auto& problem :
         {outside(Setting::Layers, c.layers, 1, kMaxLayers), outside(Setting::Heads, c.heads, 1, kMaxHeads),
          outside(Setting::Hidden, c.dModel, kMinModel, kMaxModel),
          outside(Setting::FeedForward, c.feedForward, c.attentionOnly ? 0 : 1, kMaxFeedForward),
          outside(Setting::Context, c.context, kLmMinContext, kLmMaxContext)})
        if (problem) return problem;
    if (!(c.dropout >= 0.0f && c.dropout <= kMaxDropout)) {  // also refuses NaN
        SettingProblem p;
        p.setting = Setting::Dropout;
        p.value = shortestText(c.dropout);
        p.low = "0";
        p.high = shortestText(kMaxDropout);
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
    return std::nullopt;
}

}  // namespace

// Post is BERT's (a Hugging Face folder's), not a choice of --norm: parseLmNorm takes pre and none
// only, and a checkpoint's JSON names it "post_ln".
std::string toString(LmNorm n) { return n == LmNorm::Post ? "post_ln" : kNorm.name(n); }
LmNorm parseLmNorm(const std::string& s) { return kNorm.parse(s); }
std::string toString(LmPositions p) { return kPositions.name(p); }
LmPositions parseLmPositions(const std::string& s) { return kPositions.parse(s); }
std::string toString(LmObjective o) { return kObjective.name(o); }
LmObjective parseLmObjective(const std::string& s) { return kObjective.parse(s); }
std::string toString(LmGelu g) { return kGelu.name(g); }
LmGelu parseLmGelu(const std::string& s) { return kGelu.parse(s); }

LmConfig lmGpt2Form() {
    LmConfig c;
    c.attentionOnly = false;
    c.norm = LmNorm::Pre;
    c.tied = true;
    c.feedForward = 4 * c.dModel;
    return c;
}

std::string validate(const LmConfig& c) {
    if (!kNorm.known(c.norm) && c.norm != LmNorm::Post) return "unknown norm";
    if (c.mlmHead && !c.tied) return "the MLM head needs the tied unembedding";
    if (!kPositions.known(c.positions)) return "unknown positions";
    if (!kObjective.known(c.objective)) return "unknown objective";
    if (!kGelu.known(c.gelu)) return "unknown gelu";
    if (!(c.layerNormEps > 0.0f && c.layerNormEps <= kMaxLayerNormEps))  // also refuses NaN
        return "layer_norm_eps " + shortestText(c.layerNormEps) + " is not above 0 and at most " + shortestText(kMaxLayerNormEps);
    if (const auto problem = settingProblem(c)) return describe(*problem, settingName);
    if (c.vocabulary != 0 && (c.vocabulary < kMinVocabulary || c.vocabulary > kMaxVocabulary))
        return "vocabulary size " + std::to_string(c.vocabulary) + " is not in " + std::to_string(kMinVocabulary) +
               ".." + std::to_string(kMaxVocabulary);
    return {};
}

void checkConfig(const LmConfig& c) {
    if (const auto problem = settingProblem(c)) throw ConfigError(*problem);
    const std::string why = validate(c);
    if (!why.empty()) throw ConfigError(why);
}

std::string toJson(const LmConfig& c) {
    Json j{{"task", "lm"},
                {"architecture", "gpt"},
                {"layers", c.layers},
                {"heads", c.heads},
                {"d_model", c.dModel},
                {"feed_forward", c.feedForward},
                {"context", c.context},
                {"dropout", shortestDecimal(c.dropout)},
                {"attention_only", c.attentionOnly},
                {"norm", toString(c.norm)},
                {"tied", c.tied},
                {"positions", toString(c.positions)},
                {"objective", toString(c.objective)},
                {"vocabulary", c.vocabulary}};
    if (c.gelu != LmGelu::Tanh) j["gelu"] = toString(c.gelu);
    if (c.layerNormEps != kDefaultLayerNormEps) j["layer_norm_eps"] = shortestDecimal(c.layerNormEps);
    if (c.tokenTypes) j["token_types"] = true;
    if (c.mlmHead) j["mlm_head"] = true;
    return j.dump();
}

LmConfig lmConfigFromJson(const std::string& json) {
    const Json j = json_fields::parseConfig(json, kLmConfig, kLmTask);
    const json_fields::Reader r{j, kLmConfig};
    const Json& architecture = r.member("architecture");
    if (!architecture.is_string() || architecture.get<std::string>() != "gpt")
        r.malformed("'architecture' is not \"gpt\"");
    LmConfig c;
    c.layers = static_cast<int>(r.integer("layers", 1, kMaxLayers));
    c.heads = static_cast<int>(r.integer("heads", 1, kMaxHeads));
    c.dModel = static_cast<int>(r.integer("d_model", kMinModel, kMaxModel));
    c.feedForward = static_cast<int>(r.integer("feed_forward", 0, kMaxFeedForward));
    c.context = static_cast<int>(r.integer("context", kLmMinContext, kLmMaxContext));
    c.dropout = r.real("dropout");
    c.attentionOnly = r.boolean("attention_only");
    if (const auto norm = j.find("norm"); norm != j.end() && *norm == "post_ln")
        c.norm = LmNorm::Post;
    else
        c.norm = r.choice("norm", parseLmNorm);
    c.tied = r.boolean("tied");
    c.positions = r.choice("positions", parseLmPositions);
    c.objective = r.choice("objective", parseLmObjective);
    c.vocabulary = r.integer("vocabulary", 0, kMaxVocabulary);
    if (j.contains("gelu")) c.gelu = r.choice("gelu", parseLmGelu);
    if (j.contains("layer_norm_eps")) c.layerNormEps = r.real("layer_norm_eps");
    if (j.contains("token_types")) c.tokenTypes = r.boolean("token_types");
    if (j.contains("mlm_head")) c.mlmHead = r.boolean("mlm_head");
    const std::string why = validate(c);
    if (!why.empty()) r.malformed(why);
    return c;
}

// The table in LmConfig.h, term by term.
std::int64_t parameterCount(const LmConfig& c) {
    const std::int64_t d = c.dModel, f = c.feedForward, v = c.vocabulary, t = c.context;
    const bool pre = c.norm == LmNorm::Pre || c.norm == LmNorm::Post, mlp = !c.attentionOnly;
    const std::int64_t norm = 2 * d;
    std::int64_t layer = 4 * (d * d + d);
    if (pre) layer += norm;
    if (mlp) layer += (d * f + f) + (f * d + d) + (pre ? norm : 0);
    const std::int64_t positions = c.positions == LmPositions::Learned ? t * d : 0;
    const std::int64_t unembedding = c.tied ? 0 : d * v;
    const std::int64_t bert = (c.tokenTypes ? d : 0) + (c.mlmHead ? d * d + d + norm + v : 0);
    return v * d + positions + c.layers * layer + (pre ? norm : 0) + unembedding + bert;
}

}  // namespace attnlab
