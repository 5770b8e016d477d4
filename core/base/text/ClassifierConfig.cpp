#include "ClassifierConfig.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <nlohmann/json.hpp>

#include "base/InputError.h"
#include "base/io/JsonFields.h"

namespace attnlab {

namespace {

using Json = nlohmann::json;

struct PoolingName {
    Pooling pooling;
    const char* name;
};
constexpr PoolingName kPoolings[] = {{Pooling::Additive, "additive"}, {Pooling::Dot, "dot"},
                                     {Pooling::ScaledDot, "scaled-dot"}, {Pooling::None, "none"},
                                     {Pooling::Mean, "mean"}};

constexpr const char* kClassifierConfig = "classifier";

}  // namespace

std::string toString(Pooling p) {
    for (const auto& n : kPoolings)
        if (n.pooling == p) return n.name;
    return "additive";
}

Pooling parsePooling(const std::string& s) {
    for (const auto& n : kPoolings)
        if (s == n.name) return n.pooling;
    throw ConfigError("unknown pooling '" + s + "' (expected one of: additive, dot, scaled-dot, none, mean)");
}

std::string toString(TextUnits u) { return u == TextUnits::Characters ? "characters" : "words"; }

TextUnits parseTextUnits(const std::string& s) {
    if (s == "words") return TextUnits::Words;
    if (s == "characters") return TextUnits::Characters;
    throw ConfigError("unknown text units '" + s + "' (expected one of: words, characters)");
}

std::vector<std::string> classifierTokens(const std::string& text, TextUnits units, const TokenizerOptions& options) {
    std::vector<std::string> words = Tokenizer(options).tokenize(text);
    if (units == TextUnits::Words) return words;
    std::vector<std::string> characters;
    for (std::size_t w = 0; w < words.size(); ++w) {
        if (w > 0) characters.emplace_back(kWordBoundary);
        for (std::size_t pos = 0; pos < words[w].size();) {
            const std::size_t start = pos;
            decodeUtf8(words[w], pos);  // the tokenizer's output is valid UTF-8
            characters.push_back(words[w].substr(start, pos - start));
        }
    }
    return characters;
}

std::string toString(ClassifierArchitecture a) { return a == ClassifierArchitecture::Transformer ? "transformer" : "gru"; }

bool classifierAttends(const ClassifierConfig& c) {
    return c.architecture == ClassifierArchitecture::Transformer || poolingAttends(c.pooling);
}

bool poolingAttends(Pooling p) { return p == Pooling::Additive || p == Pooling::Dot || p == Pooling::ScaledDot; }

int patternChunk(const ClassifierConfig& c) {
    if (c.chunk > 0) return c.chunk;
    return std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(std::max(1, c.maxLength + 1))))));
}

namespace {
// The pattern's settings, as translation's checkConfig words them (the CLI names the flag).
std::optional<SettingProblem> patternProblem(const ClassifierConfig& c) {
    if (c.architecture != ClassifierArchitecture::Transformer) return std::nullopt;
    return attentionPatternProblem(c.window, c.chunk);
}
}  // namespace

int stateSize(const ClassifierConfig& c) { return c.bidirectional ? 2 * c.hidden : c.hidden; }

std::string validate(const ClassifierConfig& c) {
    if (c.hidden < 1 || c.hidden > 4096) return "hidden size " + std::to_string(c.hidden) + " is not in 1..4096";
    if (c.embedding < 0 || c.embedding > 4096) return "embedding size " + std::to_string(c.embedding) + " is not in 0..4096";
    if (c.attentionSize < 0 || c.attentionSize > 4096)
        return "attention size " + std::to_string(c.attentionSize) + " is not in 0..4096";
    if (c.architecture == ClassifierArchitecture::Transformer) {
        if (c.layers < 1 || c.layers > 16) return "layers " + std::to_string(c.layers) + " is not in 1..16";
        if (c.heads < 1 || c.heads > 64) return "heads " + std::to_string(c.heads) + " is not in 1..64";
        if (c.hidden % c.heads != 0)
            return "number of heads " + std::to_string(c.heads) + " does not divide hidden size " + std::to_string(c.hidden);
        if (c.feedForward < 1 || c.feedForward > 16384) return "feed-forward size is not in 1..16384";
        if (c.maxLength > 4096) return "maximum length " + std::to_string(c.maxLength) + " is not in 2..4096";
        if (toString(c.pattern).empty()) return "unknown attention pattern";
        if (const auto problem = patternProblem(c)) return describe(*problem, settingName);
    }
    if (c.hops < 1 || c.hops > 32) return "hops " + std::to_string(c.hops) + " is not in 1..32";
    if (!poolingAttends(c.pooling) && c.hops != 1) return "pooling '" + toString(c.pooling) + "' has one hop";
    if (!(c.penalty >= 0.0f && c.penalty <= 100.0f)) return "penalty is not in 0..100";
    if (!(c.dropout >= 0.0f && c.dropout < 1.0f)) return "dropout is not in [0, 1)";
    if (c.maxLength < 2 || c.maxLength > 8192) return "maximum length " + std::to_string(c.maxLength) + " is not in 2..8192";
    if (c.vocabulary < 5 || c.vocabulary > 10'000'000) return "vocabulary size " + std::to_string(c.vocabulary) + " is not in 5..10000000";
    if (c.classes < 2 || c.classes > 1000) return "number of classes " + std::to_string(c.classes) + " is not in 2..1000";
    return {};
}

void checkConfig(const ClassifierConfig& c) {
    if (const auto problem = patternProblem(c)) throw ConfigError(*problem);  // Transformer only
    const std::string why = validate(c);
    if (!why.empty()) throw ConfigError(why);
}

std::string toJson(const ClassifierConfig& c) {
    return Json{{"task", "classify"},
                {"architecture", toString(c.architecture)},
                {"layers", c.layers},
                {"heads", c.heads},
                {"feed_forward", c.feedForward},
                {"attention_pattern", toString(c.pattern)},
                {"local_window", c.window},
                {"attention_chunk", c.chunk},
                {"pooling", toString(c.pooling)},
                {"hops", c.hops},
                {"penalty", c.penalty},
                {"hidden", c.hidden},
                {"embedding", c.embedding},
                {"attention_size", c.attentionSize},
                {"bidirectional", c.bidirectional},
                {"dropout", c.dropout},
                {"units", toString(c.units)},
                {"max_length", c.maxLength},
                {"vocabulary", c.vocabulary},
                {"classes", c.classes}}
        .dump();
}

ClassifierConfig classifierConfigFromJson(const std::string& json) {
    const Json j = json_fields::parseConfig(json, kClassifierConfig, "classify");
    const json_fields::Reader r{j, kClassifierConfig};
    const Json& arch = r.member("architecture");
    if (!arch.is_string() || (arch.get<std::string>() != "gru" && arch.get<std::string>() != "transformer"))
        json_fields::malformed(kClassifierConfig, "'architecture' must be \"gru\" or \"transformer\"");
    ClassifierConfig c;
    c.architecture = arch.get<std::string>() == "transformer" ? ClassifierArchitecture::Transformer
                                                               : ClassifierArchitecture::Gru;
    if (c.architecture == ClassifierArchitecture::Transformer) {
        c.layers = static_cast<int>(r.integer("layers", 1, 16));
        c.heads = static_cast<int>(r.integer("heads", 1, 64));
        c.feedForward = static_cast<int>(r.integer("feed_forward", 1, 16384));
        // Checkpoints from before attention patterns attend in full.
        if (auto pattern = j.find("attention_pattern"); pattern != j.end()) {
            if (!pattern->is_string()) json_fields::malformed(kClassifierConfig, "'attention_pattern' must be a string");
            try {
                c.pattern = parseAttentionPattern(pattern->get<std::string>());
            } catch (const ConfigError& e) {
                json_fields::malformed(kClassifierConfig, e.what());
            }
        }
        if (j.contains("local_window")) c.window = static_cast<int>(r.integer("local_window", 1, 100));
        if (j.contains("attention_chunk")) c.chunk = static_cast<int>(r.integer("attention_chunk", 0, 8192));
    }
    const Json& pooling = r.member("pooling");
    if (!pooling.is_string()) json_fields::malformed(kClassifierConfig, "'pooling' must be a string");
    try {
        c.pooling = parsePooling(pooling.get<std::string>());
    } catch (const ConfigError& e) {
        json_fields::malformed(kClassifierConfig, e.what());
    }
    c.hops = static_cast<int>(r.integer("hops", 1, 32));
    c.penalty = r.real("penalty");
    c.hidden = static_cast<int>(r.integer("hidden", 1, 4096));
    c.embedding = static_cast<int>(r.integer("embedding", 0, 4096));
    c.attentionSize = static_cast<int>(r.integer("attention_size", 0, 4096));
    const Json& bidirectional = r.member("bidirectional");
    if (!bidirectional.is_boolean()) json_fields::malformed(kClassifierConfig, "'bidirectional' must be true or false");
    c.bidirectional = bidirectional.get<bool>();
    c.dropout = r.real("dropout");
    if (auto units = j.find("units"); units != j.end()) {
        if (!units->is_string()) json_fields::malformed(kClassifierConfig, "'units' must be a string");
        try {
            c.units = parseTextUnits(units->get<std::string>());
        } catch (const ConfigError& e) {
            json_fields::malformed(kClassifierConfig, e.what());
        }
    }
    c.maxLength = static_cast<int>(r.integer("max_length", 2, 8192));
    c.vocabulary = r.integer("vocabulary", 5, 10'000'000);
    c.classes = static_cast<int>(r.integer("classes", 2, 1000));
    const std::string why = validate(c);
    if (!why.empty()) json_fields::malformed(kClassifierConfig, why);
    return c;
}

std::int64_t parameterCount(const ClassifierConfig& c) {
    if (c.architecture == ClassifierArchitecture::Transformer) {
        const std::int64_t d = c.hidden, ff = c.feedForward;
        const std::int64_t layer = 4 * (d * d + d) + (d * ff + ff) + (ff * d + d) + 2 * (2 * d);  // attention, ff, 2 norms
        return c.vocabulary * d + d /* [CLS] */ + c.layers * layer + d * c.classes + c.classes;
    }
    const std::int64_t E = c.embedding > 0 ? c.embedding : c.hidden, H = c.hidden, D = stateSize(c);
    const std::int64_t A = c.attentionSize > 0 ? c.attentionSize : c.hidden, dirs = c.bidirectional ? 2 : 1;
    std::int64_t n = c.vocabulary * E;                      // embedding
    n += dirs * (3 * H * E + 3 * H * H + 2 * 3 * H);        // GRU weights and biases per direction
    if (c.pooling == Pooling::Additive) n += A * D + A + c.hops * A;  // W, b, v
    if (c.pooling == Pooling::Dot || c.pooling == Pooling::ScaledDot) n += c.hops * D;  // queries
    const std::int64_t pooled = poolingAttends(c.pooling) ? c.hops * D : D;
    n += pooled * c.classes + c.classes;                    // output layer
    return n;
}

}  // namespace attnlab
