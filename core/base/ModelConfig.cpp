#include "ModelConfig.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

#include <nlohmann/json.hpp>

#include "InputError.h"

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

std::string outOfRange(const char* flag, long long min, long long max, long long value) {
    return std::string(flag) + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
           ", got " + std::to_string(value);
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

}  // namespace

std::string toString(Architecture a) { return nameOf(kArchitectures, a); }
std::string toString(AttentionKind k) { return nameOf(kAttentionKinds, k); }

Architecture parseArchitecture(const std::string& s) { return parseEnum(kArchitectures, s, "architecture"); }
AttentionKind parseAttentionKind(const std::string& s) { return parseEnum(kAttentionKinds, s, "attention"); }

std::string validate(const ModelConfig& c) {
    constexpr std::int64_t kMinVocab = 5;  // <pad> <s> </s> <unk> and at least one word
    constexpr std::int64_t kMaxVocab = 1000000;
    if (toString(c.architecture).empty()) return "unknown architecture";
    if (toString(c.attention).empty()) return "unknown attention";
    if (c.hidden < 1 || c.hidden > 4096) return outOfRange("--hidden", 1, 4096, c.hidden);
    if (c.embedding < 0 || c.embedding > 4096) return outOfRange("--embedding", 0, 4096, c.embedding);
    if (c.layers < 1 || c.layers > 16) return outOfRange("--layers", 1, 16, c.layers);
    if (c.heads < 1 || c.heads > 64) return outOfRange("--heads", 1, 64, c.heads);
    if (c.feedForward < 1 || c.feedForward > 16384) return outOfRange("--ff", 1, 16384, c.feedForward);
    if (!(c.dropout >= 0.0f && c.dropout < 1.0f))  // also refuses NaN
        return "--dropout must be at least 0 and below 1, got " + shortestText(c.dropout);
    if (c.localWindow < 1 || c.localWindow > 100) return outOfRange("--window", 1, 100, c.localWindow);
    if (c.maxLength < 2 || c.maxLength > 8192) return outOfRange("--max-len", 2, 8192, c.maxLength);
    if (c.architecture == Architecture::Transformer && c.hidden % c.heads != 0)
        return "--heads " + std::to_string(c.heads) + " does not divide --hidden " + std::to_string(c.hidden);
    if (c.sourceVocab < kMinVocab || c.sourceVocab > kMaxVocab)
        return "source vocabulary size must be between 5 (4 special tokens and a word) and " +
               std::to_string(kMaxVocab) + ", got " + std::to_string(c.sourceVocab);
    if (c.targetVocab < kMinVocab || c.targetVocab > kMaxVocab)
        return "target vocabulary size must be between 5 (4 special tokens and a word) and " +
               std::to_string(kMaxVocab) + ", got " + std::to_string(c.targetVocab);
    return {};
}

std::string toJson(const ModelConfig& c) {
    Json j = {
        {"architecture", toString(c.architecture)},
        {"attention", toString(c.attention)},
        {"hidden", c.hidden},
        {"embedding", c.embedding},
        {"layers", c.layers},
        {"bidirectional", c.bidirectional},
        {"heads", c.heads},
        {"feed_forward", c.feedForward},
        {"dropout", shortestDecimal(c.dropout)},
        {"local_window", c.localWindow},
        {"max_length", c.maxLength},
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
    try {
        c.architecture = parseArchitecture(stringMember(j, "architecture"));
        c.attention = parseAttentionKind(stringMember(j, "attention"));
    } catch (const ConfigError& e) {
        malformed(e.what());
    }
    c.hidden = intMember(j, "hidden");
    c.embedding = intMember(j, "embedding");
    c.layers = intMember(j, "layers");
    const Json& bidirectional = member(j, "bidirectional");
    if (!bidirectional.is_boolean()) malformed("'bidirectional' must be true or false");
    c.bidirectional = bidirectional.get<bool>();
    c.heads = intMember(j, "heads");
    c.feedForward = intMember(j, "feed_forward");
    const Json& dropout = member(j, "dropout");
    if (!dropout.is_number()) malformed("'dropout' must be a number");
    const double dropoutValue = dropout.get<double>();
    if (std::fabs(dropoutValue) > std::numeric_limits<float>::max()) malformed("'dropout' is out of range");
    c.dropout = static_cast<float>(dropoutValue);
    c.localWindow = intMember(j, "local_window");
    c.maxLength = intMember(j, "max_length");
    constexpr auto kInt64Max = std::numeric_limits<std::int64_t>::max();
    c.sourceVocab = integerMember(j, "source_vocab", std::numeric_limits<std::int64_t>::min(), kInt64Max);
    c.targetVocab = integerMember(j, "target_vocab", std::numeric_limits<std::int64_t>::min(), kInt64Max);

    if (std::string reason = validate(c); !reason.empty()) throw ConfigError(reason);
    return c;
}

}  // namespace attnlab
