#include "ModelConfig.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

#include <nlohmann/json.hpp>

#include "base/InputError.h"

namespace attnlab {

namespace {

using Json = nlohmann::ordered_json;

const std::pair<Architecture, const char*> kArchitectures[] = {
    {Architecture::Gru, "gru"},
    {Architecture::Transformer, "transformer"},
};

const std::pair<AttentionKind, const char*> kAttentionKinds[] = {
    {AttentionKind::None, "none"},         {AttentionKind::Dot, "dot"},
    {AttentionKind::General, "general"},   {AttentionKind::ScaledDot, "scaled-dot"},
    {AttentionKind::Additive, "additive"}, {AttentionKind::LocalM, "local-m"},
    {AttentionKind::LocalP, "local-p"},
};

const std::pair<QueryOrder, const char*> kQueryOrders[] = {
    {QueryOrder::Before, "before"},
    {QueryOrder::After, "after"},
};

const std::pair<DropoutPlacement, const char*> kDropoutPlacements[] = {
    {DropoutPlacement::Embeddings, "embeddings"},
    {DropoutPlacement::Attention, "attention"},
    {DropoutPlacement::Both, "both"},
};

const std::pair<AttentionPattern, const char*> kAttentionPatterns[] = {
    {AttentionPattern::Full, "full"},       {AttentionPattern::Local, "local"},
    {AttentionPattern::Strided, "strided"}, {AttentionPattern::Chunked, "chunked"},
    {AttentionPattern::Linear, "linear"},
};

const std::pair<PositionalKind, const char*> kPositionalKinds[] = {
    {PositionalKind::Sinusoidal, "sinusoidal"},
    {PositionalKind::Learned, "learned"},
    {PositionalKind::None, "none"},
};

// The shortest decimal that reads back as the float: 0.1f prints as "0.1".
std::string shortestText(float f) {
    char buffer[64];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, f);
    return std::string(buffer, result.ptr);
}

// Stored as the double nearest that decimal, so the JSON says 0.1, not 0.10000000149011612.
double shortestDecimal(float f) { return std::strtod(shortestText(f).c_str(), nullptr); }

// Values echoed in messages stay on one line.
std::string printable(const std::string& s) {
    std::string out = s.substr(0, 40);
    for (char& ch : out)
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = '?';
    return s.size() > 40 ? out + "..." : out;
}

template <typename Enum, std::size_t N>
std::string nameOf(const std::pair<Enum, const char*> (&table)[N], Enum value) {
    for (const auto& [v, name] : table)
        if (v == value) return name;
    return {};
}

template <typename Enum, std::size_t N>
Enum parseEnum(const std::pair<Enum, const char*> (&table)[N], const std::string& s, const char* what) {
    std::string accepted;
    for (const auto& [v, name] : table) {
        if (s == name) return v;
        accepted += (accepted.empty() ? "" : ", ") + std::string(name);
    }
    throw ConfigError("unknown " + std::string(what) + " '" + printable(s) + "' (expected one of: " + accepted + ")");
}

[[noreturn]] void malformed(const std::string& reason) { throw ConfigError("model config: " + reason); }

const Json& member(const Json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end()) malformed(std::string("missing key '") + key + "'");
    return *it;
}

std::int64_t integerMember(const Json& j, const char* key, std::int64_t min, std::int64_t max) {
    const Json& v = member(j, key);
    if (!v.is_number_integer()) malformed(std::string("'") + key + "' must be an integer");
    const bool tooLarge = v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(max);
    if (tooLarge || v.get<std::int64_t>() < min || v.get<std::int64_t>() > max)
        malformed(std::string("'") + key + "' is out of range");
    return v.get<std::int64_t>();
}

int intMember(const Json& j, const char* key) {
    return static_cast<int>(integerMember(j, key, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

std::string stringMember(const Json& j, const char* key) {
    const Json& v = member(j, key);
    if (!v.is_string()) malformed(std::string("'") + key + "' must be a string");
    return v.get<std::string>();
}

// A named choice (architecture, attention, ...) parsed by parse; an unknown name is malformed.
// fallback, where given, stands for a key that files written before it existed lack.
template <typename Parse>
auto choiceMember(const Json& j, const char* key, Parse parse, const char* fallback = nullptr) {
    const std::string name = fallback && !j.contains(key) ? std::string(fallback) : stringMember(j, key);
    try {
        return parse(name);
    } catch (const ConfigError& e) {
        malformed(e.what());
    }
}

}  // namespace

std::string toString(Architecture a) { return nameOf(kArchitectures, a); }
std::string toString(AttentionKind k) { return nameOf(kAttentionKinds, k); }
std::string toString(QueryOrder q) { return nameOf(kQueryOrders, q); }
std::string toString(DropoutPlacement p) { return nameOf(kDropoutPlacements, p); }
std::string toString(AttentionPattern p) { return nameOf(kAttentionPatterns, p); }
std::string toString(PositionalKind p) { return nameOf(kPositionalKinds, p); }

Architecture parseArchitecture(const std::string& s) { return parseEnum(kArchitectures, s, "architecture"); }
AttentionKind parseAttentionKind(const std::string& s) { return parseEnum(kAttentionKinds, s, "attention"); }
QueryOrder parseQueryOrder(const std::string& s) { return parseEnum(kQueryOrders, s, "query order"); }
DropoutPlacement parseDropoutPlacement(const std::string& s) {
    return parseEnum(kDropoutPlacements, s, "dropout placement");
}

AttentionPattern parseAttentionPattern(const std::string& s) {
    return parseEnum(kAttentionPatterns, s, "attention pattern");
}

PositionalKind parsePositionalKind(const std::string& s) {
    return parseEnum(kPositionalKinds, s, "positional encoding");
}

int patternChunk(const ModelConfig& c) {
    if (c.chunk > 0) return c.chunk;
    return std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(std::max(1, c.maxLength))))));
}

ModelConfig defaultModelConfig(Architecture architecture) {
    ModelConfig c;
    c.architecture = architecture;
    if (architecture == Architecture::Transformer) c.layers = 2;
    return c;
}

bool dropsEmbeddings(const ModelConfig& c) { return c.dropoutOn != DropoutPlacement::Attention; }
bool dropsAttention(const ModelConfig& c) { return c.dropoutOn != DropoutPlacement::Embeddings; }

std::optional<SettingProblem> attentionPatternProblem(int window, int chunk) {
    if (auto problem = outOfRange(Setting::LocalWindow, window, 1, 100)) return problem;
    return outOfRange(Setting::AttentionChunk, chunk, 0, 8192);
}

std::optional<SettingProblem> settingProblem(const ModelConfig& c) {
    constexpr std::int64_t kMinVocab = 5;  // <pad> <s> </s> <unk> and at least one word
    constexpr std::int64_t kMaxVocab = 1000000;
    const auto outside = outOfRange;
    for (const auto& problem : {outside(Setting::Hidden, c.hidden, 1, 4096), outside(Setting::Embedding, c.embedding, 0, 4096),
                                outside(Setting::Layers, c.layers, 1, 16), outside(Setting::Heads, c.heads, 1, 64),
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
    if (auto problem = outside(Setting::LocalWindow, c.localWindow, 1, 100)) return problem;
    if (auto problem = outside(Setting::MaxLength, c.maxLength, 2, 8192)) return problem;
    if (auto problem = attentionPatternProblem(c.localWindow, c.chunk)) return problem;  // the chunk
    if (c.architecture == Architecture::Transformer && c.hidden % c.heads != 0) {
        SettingProblem p;
        p.setting = Setting::Heads;
        p.kind = SettingProblem::Kind::MustDivide;
        p.value = std::to_string(c.heads);
        p.other = Setting::Hidden;
        p.otherValue = std::to_string(c.hidden);
        return p;
    }
    for (const auto& problem : {outside(Setting::SourceVocabulary, c.sourceVocab, kMinVocab, kMaxVocab),
                                outside(Setting::TargetVocabulary, c.targetVocab, kMinVocab, kMaxVocab)})
        if (problem) return problem;
    return std::nullopt;
}

std::string validate(const ModelConfig& c) {
    if (toString(c.architecture).empty()) return "unknown architecture";
    if (toString(c.attention).empty()) return "unknown attention";
    if (toString(c.query).empty()) return "unknown query order";
    if (toString(c.dropoutOn).empty()) return "unknown dropout placement";
    if (toString(c.pattern).empty()) return "unknown attention pattern";
    if (toString(c.positional).empty()) return "unknown positional encoding";
    if (const auto problem = settingProblem(c)) return describe(*problem, settingName);
    return {};
}

void checkConfig(const ModelConfig& c) {
    if (toString(c.architecture).empty() || toString(c.attention).empty() || toString(c.query).empty() ||
        toString(c.dropoutOn).empty() || toString(c.pattern).empty() || toString(c.positional).empty())
        throw ConfigError(validate(c));
    if (const auto problem = settingProblem(c)) throw ConfigError(*problem);
}

std::string toJson(const ModelConfig& c) {
    Json j = {
        {"architecture", toString(c.architecture)},
        {"attention", toString(c.attention)},
        {"hidden", c.hidden},
        {"embedding", c.embedding},
        {"layers", c.layers},
        {"bidirectional", c.bidirectional},
        {"query", toString(c.query)},
        {"heads", c.heads},
        {"feed_forward", c.feedForward},
        {"dropout", shortestDecimal(c.dropout)},
        {"dropout_on", toString(c.dropoutOn)},
        {"local_window", c.localWindow},
        {"attention_pattern", toString(c.pattern)},
        {"attention_chunk", c.chunk},
        {"max_length", c.maxLength},
        {"positional", toString(c.positional)},
        {"source_vocab", c.sourceVocab},
        {"target_vocab", c.targetVocab},
    };
    return j.dump();
}

ModelConfig modelConfigFromJson(const std::string& json) {
    Json j;
    try {
        j = Json::parse(json);
    } catch (const Json::parse_error& e) {
        malformed("invalid JSON (at byte " + std::to_string(e.byte) + ")");
    } catch (const Json::exception&) {  // e.g. a number too large for a double
        malformed("invalid JSON");
    }
    if (!j.is_object()) malformed("not a JSON object");

    ModelConfig c;
    c.architecture = choiceMember(j, "architecture", parseArchitecture);
    c.attention = choiceMember(j, "attention", parseAttentionKind);
    c.hidden = intMember(j, "hidden");
    c.embedding = intMember(j, "embedding");
    c.layers = intMember(j, "layers");
    const Json& bidirectional = member(j, "bidirectional");
    if (!bidirectional.is_boolean()) malformed("'bidirectional' must be true or false");
    c.bidirectional = bidirectional.get<bool>();
    // Checkpoints from before these choices existed query before and drop out on both.
    c.query = choiceMember(j, "query", parseQueryOrder, "before");
    c.dropoutOn = choiceMember(j, "dropout_on", parseDropoutPlacement, "both");
    c.heads = intMember(j, "heads");
    c.feedForward = intMember(j, "feed_forward");
    const Json& dropout = member(j, "dropout");
    if (!dropout.is_number()) malformed("'dropout' must be a number");
    const double dropoutValue = dropout.get<double>();
    if (std::fabs(dropoutValue) > std::numeric_limits<float>::max()) malformed("'dropout' is out of range");
    c.dropout = static_cast<float>(dropoutValue);
    c.localWindow = intMember(j, "local_window");
    // Checkpoints from before attention patterns attend in full.
    c.pattern = choiceMember(j, "attention_pattern", parseAttentionPattern, "full");
    c.chunk = j.contains("attention_chunk") ? intMember(j, "attention_chunk") : 0;
    c.maxLength = intMember(j, "max_length");
    // Checkpoints from before the choice add the sinusoidal table.
    c.positional = choiceMember(j, "positional", parsePositionalKind, "sinusoidal");
    constexpr auto kInt64Max = std::numeric_limits<std::int64_t>::max();
    c.sourceVocab = integerMember(j, "source_vocab", std::numeric_limits<std::int64_t>::min(), kInt64Max);
    c.targetVocab = integerMember(j, "target_vocab", std::numeric_limits<std::int64_t>::min(), kInt64Max);

    checkConfig(c);
    return c;
}

}  // namespace attnlab
