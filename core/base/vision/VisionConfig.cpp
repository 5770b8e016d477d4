#include "VisionConfig.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <nlohmann/json.hpp>

#include "base/InputError.h"
#include "base/io/JsonFields.h"

namespace attnlab {

namespace {

using Json = nlohmann::json;

using json_fields::malformed;
using json_fields::Reader;

std::string range(const char* what, int value, int low, int high) {
    if (value >= low && value <= high) return {};
    return std::string(what) + " " + std::to_string(value) + " is not in " + std::to_string(low) + ".." + std::to_string(high);
}

}  // namespace

constexpr json_fields::TwoNames<PatchPositions> kPositions{"positions", PatchPositions::Learned, "learned", PatchPositions::Sinusoidal,
                                              "sinusoidal"};
constexpr json_fields::TwoNames<CaptionAttention> kAttention{"attention", CaptionAttention::Additive, "additive", CaptionAttention::Dot, "dot"};
constexpr json_fields::TwoNames<CaptionQuery> kQuery{"query", CaptionQuery::Previous, "previous", CaptionQuery::Current, "current"};
constexpr json_fields::TwoNames<CaptionEncoder> kEncoder{"encoder", CaptionEncoder::Image, "image", CaptionEncoder::Cell, "cell"};
constexpr json_fields::TwoNames<CaptionInitialState> kInitialState{"initial state", CaptionInitialState::Mean, "mean",
                                                      CaptionInitialState::Zero, "zero"};

std::string toString(PatchPositions p) { return kPositions.name(p); }
PatchPositions parsePatchPositions(const std::string& s) { return kPositions.parse(s); }
std::string toString(CaptionAttention a) { return kAttention.name(a); }
CaptionAttention parseCaptionAttention(const std::string& s) { return kAttention.parse(s); }
std::string toString(CaptionQuery q) { return kQuery.name(q); }
CaptionQuery parseCaptionQuery(const std::string& s) { return kQuery.parse(s); }
std::string toString(CaptionEncoder e) { return kEncoder.name(e); }
CaptionEncoder parseCaptionEncoder(const std::string& s) { return kEncoder.parse(s); }
std::string toString(CaptionInitialState s) { return kInitialState.name(s); }
CaptionInitialState parseCaptionInitialState(const std::string& s) { return kInitialState.parse(s); }

int gridSide(const VitConfig& c) { return c.patch > 0 ? c.imageSize / c.patch : 0; }
int feedForwardSize(const VitConfig& c) { return c.feedForward > 0 ? c.feedForward : 4 * c.hidden; }
int gridSide(const CaptionerConfig& c) { return c.imageSize / 8; }
int patternChunk(const VitConfig& c) {
    if (c.chunk > 0) return c.chunk;
    const double tokens = 1.0 + static_cast<double>(gridSide(c)) * gridSide(c);
    return std::max(1, static_cast<int>(std::ceil(std::sqrt(tokens))));
}

namespace {
// The pattern's settings, as translation's checkConfig words them (the CLI names the flag).
std::optional<SettingProblem> patternProblem(const VitConfig& c) {
    return attentionPatternProblem(c.window, c.chunk);
}
}  // namespace

std::string validate(const VitConfig& c) {
    if (c.channels != 1 && c.channels != 3) return "channels must be 1 (grey) or 3 (RGB)";
    if (auto why = range("image size", c.imageSize, 4, 512); !why.empty()) return why;
    if (auto why = range("patch size", c.patch, 1, c.imageSize); !why.empty()) return why;
    if (c.imageSize % c.patch != 0)
        return "patch size " + std::to_string(c.patch) + " does not divide image size " + std::to_string(c.imageSize);
    if (gridSide(c) * gridSide(c) > 4096) return "more than 4096 patches: use a larger patch";
    if (auto why = range("hidden size", c.hidden, 1, 2048); !why.empty()) return why;
    if (auto why = range("heads", c.heads, 1, 64); !why.empty()) return why;
    if (c.hidden % c.heads != 0)
        return "number of heads " + std::to_string(c.heads) + " does not divide hidden size " + std::to_string(c.hidden);
    if (auto why = range("layers", c.layers, 1, 24); !why.empty()) return why;
    if (auto why = range("feed-forward size", c.feedForward, 0, 16384); !why.empty()) return why;
    if (!(c.dropout >= 0.0f && c.dropout < 1.0f)) return "dropout is not in [0, 1)";
    if (toString(c.pattern).empty()) return "unknown attention pattern";
    if (const auto problem = patternProblem(c)) return describe(*problem, settingName);
    if (auto why = range("number of classes", c.classes, 2, 1000); !why.empty()) return why;
    return {};
}

std::string validate(const CaptionerConfig& c) {
    if (c.channels != 1 && c.channels != 3) return "channels must be 1 (grey) or 3 (RGB)";
    if (auto why = range("image size", c.imageSize, 16, 512); !why.empty()) return why;
    if (c.imageSize % 8 != 0) return "image size " + std::to_string(c.imageSize) + " is not a multiple of 8";
    if (auto why = range("feature size", c.features, 1, 1024); !why.empty()) return why;
    if (auto why = range("hidden size", c.hidden, 1, 2048); !why.empty()) return why;
    if (auto why = range("embedding size", c.embedding, 1, 2048); !why.empty()) return why;
    if (auto why = range("attention size", c.attentionSize, 1, 2048); !why.empty()) return why;
    if (!(c.doublyStochastic >= 0.0f && c.doublyStochastic <= 100.0f)) return "doubly stochastic lambda is not in 0..100";
    if (c.sentinel && c.attention != CaptionAttention::Additive) return "the visual sentinel needs additive attention";
    if (!(c.dropout >= 0.0f && c.dropout < 1.0f)) return "dropout is not in [0, 1)";
    if (auto why = range("maximum length", c.maxLength, 2, 128); !why.empty()) return why;
    if (c.vocabulary < 5 || c.vocabulary > 1'000'000) return "vocabulary size " + std::to_string(c.vocabulary) + " is not in 5..1000000";
    return {};
}

void checkConfig(const VitConfig& c) {
    if (const auto problem = patternProblem(c)) throw ConfigError(*problem);
    if (auto why = validate(c); !why.empty()) throw ConfigError(why);
}
void checkConfig(const CaptionerConfig& c) {
    if (auto why = validate(c); !why.empty()) throw ConfigError(why);
}

std::string toJson(const VitConfig& c) {
    return Json{{"task", "image-classify"}, {"architecture", "vit"},   {"channels", c.channels},
                {"image_size", c.imageSize}, {"patch", c.patch},       {"hidden", c.hidden},
                {"heads", c.heads},          {"layers", c.layers},     {"feed_forward", c.feedForward},
                {"dropout", c.dropout},      {"positions", toString(c.positions)},
                {"attention_pattern", toString(c.pattern)}, {"local_window", c.window},
                {"attention_chunk", c.chunk}, {"classes", c.classes}}
        .dump();
}

std::string toJson(const CaptionerConfig& c) {
    return Json{{"task", "caption"},           {"architecture", "cnn-gru"},  {"channels", c.channels},
                {"image_size", c.imageSize},   {"features", c.features},     {"hidden", c.hidden},
                {"embedding", c.embedding},    {"attention_size", c.attentionSize},
                {"attention", toString(c.attention)}, {"query", toString(c.query)}, {"encoder", toString(c.encoder)},
                {"initial_state", toString(c.initialState)}, {"sentinel", c.sentinel}, {"gate", c.gate},
                {"input_feeding", c.inputFeeding},            {"doubly_stochastic", c.doublyStochastic},
                {"dropout", c.dropout},        {"max_length", c.maxLength},  {"vocabulary", c.vocabulary}}
        .dump();
}

VitConfig vitConfigFromJson(const std::string& json) {
    const char* kind = "vision Transformer";
    const Json j = json_fields::parseConfig(json, kind, "image-classify");
    const Reader r{j, kind};
    VitConfig c;
    c.channels = r.integer("channels", 1, 3);
    c.imageSize = r.integer("image_size", 1, 512);
    c.patch = r.integer("patch", 1, 512);
    c.hidden = r.integer("hidden", 1, 2048);
    c.heads = r.integer("heads", 1, 64);
    c.layers = r.integer("layers", 1, 24);
    c.feedForward = r.integer("feed_forward", 0, 16384);
    c.dropout = r.real("dropout");
    c.positions = r.choice("positions", parsePatchPositions);
    // Checkpoints from before attention patterns attend in full.
    if (j.contains("attention_pattern")) c.pattern = r.choice("attention_pattern", parseAttentionPattern);
    if (j.contains("local_window")) c.window = r.integer("local_window", 1, 100);
    if (j.contains("attention_chunk")) c.chunk = r.integer("attention_chunk", 0, 8192);
    c.classes = r.integer("classes", 2, 1000);
    if (auto why = validate(c); !why.empty()) malformed(kind, why);
    return c;
}

CaptionerConfig captionerConfigFromJson(const std::string& json) {
    const char* kind = "captioner";
    const Json j = json_fields::parseConfig(json, kind, "caption");
    const Reader r{j, kind};
    CaptionerConfig c;
    c.channels = r.integer("channels", 1, 3);
    c.imageSize = r.integer("image_size", 1, 512);
    c.features = r.integer("features", 1, 1024);
    c.hidden = r.integer("hidden", 1, 2048);
    c.embedding = r.integer("embedding", 1, 2048);
    c.attentionSize = r.integer("attention_size", 1, 2048);
    c.attention = r.choice("attention", parseCaptionAttention);
    // Checkpoints from before these choices: the previous state asks, the whole-image encoder, the
    // mean state, no sentinel, no gate.
    c.query = j.contains("query") ? r.choice("query", parseCaptionQuery) : CaptionQuery::Previous;
    if (j.contains("encoder")) c.encoder = r.choice("encoder", parseCaptionEncoder);
    if (j.contains("initial_state")) c.initialState = r.choice("initial_state", parseCaptionInitialState);
    if (j.contains("sentinel")) c.sentinel = r.boolean("sentinel");
    if (j.contains("gate")) c.gate = r.boolean("gate");
    c.inputFeeding = j.contains("input_feeding") ? r.boolean("input_feeding") : true;  // before the choice: fed
    c.doublyStochastic = r.real("doubly_stochastic");
    c.dropout = r.real("dropout");
    c.maxLength = r.integer("max_length", 2, 128);
    c.vocabulary = r.integer("vocabulary", 5, 1'000'000);
    if (auto why = validate(c); !why.empty()) malformed(kind, why);
    return c;
}

std::int64_t parameterCount(const VitConfig& c) {
    const std::int64_t d = c.hidden, ff = feedForwardSize(c), n = static_cast<std::int64_t>(gridSide(c)) * gridSide(c);
    const std::int64_t patchInput = static_cast<std::int64_t>(c.channels) * c.patch * c.patch;
    const std::int64_t layer = 2 * d /* norm1 */ + 4 * (d * d + d) + 2 * d /* norm2 */ + (d * ff + ff) + (ff * d + d);
    const std::int64_t positions = c.positions == PatchPositions::Learned ? (n + 1) * d : 0;
    return patchInput * d + d + d /* [CLS] */ + positions + c.layers * layer + 2 * d /* final norm */ +
           d * c.classes + c.classes;
}

std::int64_t parameterCount(const CaptionerConfig& c) {
    const std::int64_t F = c.features, H = c.hidden, E = c.embedding, A = c.attentionSize, V = c.vocabulary;
    const std::int64_t conv1 = c.channels * 9 * 32 + 32, conv2 = 32 * 9 * 64 + 64, conv3 = 64 * 9 * F + F;
    const std::int64_t cells = static_cast<std::int64_t>(gridSide(c)) * gridSide(c);
    std::int64_t attention = c.attention == CaptionAttention::Additive ? (F * A + A) + (H * A) + A : H * F;
    if (c.sentinel) attention += 2 * (H * F + F) /* gate, value */ + (F * A + A) /* key */;
    if (c.gate) attention += H + 1;
    const bool fed = c.query == CaptionQuery::Previous || c.inputFeeding;  // the context enters the GRU
    const std::int64_t gru = 3 * H * (E + (fed ? F : 0)) + 3 * H * H + 2 * 3 * H;
    const std::int64_t initial = c.initialState == CaptionInitialState::Mean ? F * H + H : 0;
    return conv1 + conv2 + conv3 + cells * F /* cell embeddings */ + initial /* initial state */ + V * E +
           attention + gru + (H + F) * V + V /* output */;
}

}  // namespace attnlab
