#include "LmTokens.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "base/InputError.h"
#include "base/Tokenizer.h"  // decodeUtf8, findInvalidUtf8
#include "base/io/JsonFields.h"

namespace attnlab {

namespace {

using Json = nlohmann::json;
constexpr const char* kTokenizerConfig = "language model tokenizer";
const char* const kSpecialNames[] = {"<pad>", "<bos>", "<unk>", "<mask>"};
static_assert(sizeof kSpecialNames / sizeof kSpecialNames[0] == kLmFirstToken, "one name per special");

bool isWordSeparator(char c) { return c == ' ' || c == '\t' || c == '\n'; }

// The length of the code point at `pos` (1..4), or 0 for an invalid byte there.
std::size_t codePointLength(const std::string& text, std::size_t pos) {
    if (static_cast<unsigned char>(text[pos]) < 0x80) return 1;
    std::size_t next = pos;
    decodeUtf8(text, next);
    return next == pos + 1 ? 0 : next - pos;  // every valid sequence starting at a byte >= 0x80 is 2-4 bytes
}

// Why `token` cannot be a token of `kind`, or empty.
std::string tokenProblem(LmTokenKind kind, const std::string& token) {
    if (token.empty()) return "an empty token";
    if (kind == LmTokenKind::Chars) {
        if (codePointLength(token, 0) != token.size()) return "'" + token + "' is not one character";
        return {};
    }
    if (std::any_of(token.begin(), token.end(), isWordSeparator))
        return "the word '" + token + "' holds a space, tab or line break";
    if (findInvalidUtf8(token) != std::string::npos) return "a word that is not UTF-8";
    return {};
}

}  // namespace

std::string toString(LmTokenKind k) { return k == LmTokenKind::Words ? "words" : "chars"; }

LmTokenKind parseLmTokenKind(const std::string& s) {
    if (s == "chars") return LmTokenKind::Chars;
    if (s == "words") return LmTokenKind::Words;
    throw ConfigError("unknown token kind '" + s + "' (expected one of: chars, words)");
}

LmTokenizer::LmTokenizer() : tokens_(std::begin(kSpecialNames), std::end(kSpecialNames)) {}

LmTokenizer::LmTokenizer(LmTokenKind kind, std::vector<std::string> tokens) : LmTokenizer() {
    if (kind != LmTokenKind::Chars && kind != LmTokenKind::Words) throw ConfigError("unknown token kind");
    kind_ = kind;
    tokens_.reserve(kLmFirstToken + tokens.size());
    index_.reserve(tokens.size());
    for (std::string& t : tokens) {
        if (const std::string why = tokenProblem(kind, t); !why.empty()) throw ConfigError("token list: " + why);
        const int id = static_cast<int>(tokens_.size());
        if (!index_.emplace(t, id).second) throw ConfigError("token list: '" + t + "' appears twice");
        tokens_.push_back(std::move(t));
    }
}

void LmTokenizer::split(LmTokenKind kind, const std::string& text,
                        const std::function<void(const char*, std::size_t)>& onPiece) {
    const std::size_t n = text.size();
    if (kind == LmTokenKind::Chars) {
        for (std::size_t pos = 0; pos < n;) {
            const std::size_t length = std::max<std::size_t>(1, codePointLength(text, pos));
            onPiece(text.data() + pos, length);
            pos += length;
        }
        return;
    }
    for (std::size_t pos = 0; pos < n;) {
        while (pos < n && isWordSeparator(text[pos])) ++pos;
        const std::size_t start = pos;
        while (pos < n && !isWordSeparator(text[pos])) ++pos;
        if (pos > start) onPiece(text.data() + start, pos - start);
    }
}

LmTokenizer LmTokenizer::fromText(LmTokenKind kind, const std::vector<std::string>& texts, const std::string& name,
                                  std::size_t maxVocabulary) {
    struct Seen {
        std::int64_t count = 0;
        std::size_t first = 0;  // order of first appearance
    };
    std::unordered_map<std::string, Seen> seen;
    std::string piece;
    for (const std::string& text : texts) {
        if (const std::size_t bad = findInvalidUtf8(text); bad != std::string::npos)
            throw InputError(name, 0, "not UTF-8 (byte " + std::to_string(bad + 1) + ")");
        split(kind, text, [&](const char* p, std::size_t length) {
            piece.assign(p, length);
            auto [it, added] = seen.try_emplace(piece);
            if (added) it->second.first = seen.size() - 1;
            ++it->second.count;
        });
    }
    if (seen.size() > maxVocabulary)
        throw InputError(name, 0,
                         "the vocabulary has " + std::to_string(seen.size()) + " distinct " +
                             (kind == LmTokenKind::Words ? "words" : "characters") + ", over the limit of " +
                             std::to_string(maxVocabulary) +
                             (kind == LmTokenKind::Words ? " (use --tokens chars)" : ""));
    std::vector<std::pair<const std::string*, Seen>> order;
    order.reserve(seen.size());
    for (const auto& [token, s] : seen) order.emplace_back(&token, s);
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        return a.second.count != b.second.count ? a.second.count > b.second.count : a.second.first < b.second.first;
    });
    std::vector<std::string> tokens;
    tokens.reserve(order.size());
    for (const auto& entry : order) tokens.push_back(*entry.first);
    return LmTokenizer(kind, std::move(tokens));
}

void LmTokenizer::encodeEach(const std::string& text, const std::function<void(int)>& onId) const {
    std::string piece;
    split(kind_, text, [&](const char* p, std::size_t length) {
        piece.assign(p, length);
        const auto it = index_.find(piece);
        onId(it == index_.end() ? kLmUnk : it->second);
    });
}

std::vector<int> LmTokenizer::encode(const std::string& text) const {
    std::vector<int> ids;
    encodeEach(text, [&](int id) { ids.push_back(id); });
    return ids;
}

std::string LmTokenizer::decode(const std::vector<int>& ids) const {
    std::string text;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i > 0 && kind_ == LmTokenKind::Words) text += ' ';
        text += token(ids[i]);
    }
    return text;
}

const std::string& LmTokenizer::token(int id) const {
    if (id < 0 || static_cast<std::size_t>(id) >= tokens_.size()) return tokens_[kLmUnk];
    return tokens_[static_cast<std::size_t>(id)];
}

int LmTokenizer::id(const std::string& token) const {
    const auto it = index_.find(token);
    return it == index_.end() ? kLmUnk : it->second;
}

std::string LmTokenizer::toJson() const { return Json{{"kind", toString(kind_)}, {"tokens", tokens_}}.dump(); }

LmTokenizer LmTokenizer::fromJson(const std::string& json) {
    Json j;
    try {
        j = Json::parse(json);
    } catch (const Json::exception&) {
        json_fields::malformed(kTokenizerConfig, "invalid JSON");
    }
    if (!j.is_object()) json_fields::malformed(kTokenizerConfig, "not a JSON object");
    const json_fields::Reader r{j, kTokenizerConfig};
    const LmTokenKind kind = r.choice("kind", parseLmTokenKind);
    const Json& list = r.member("tokens");
    if (!list.is_array()) r.malformed("'tokens' must be a list");
    if (list.size() < static_cast<std::size_t>(kLmFirstToken)) r.malformed("'tokens' lacks the four specials");
    std::vector<std::string> tokens;
    tokens.reserve(list.size() - kLmFirstToken);
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (!list[i].is_string()) r.malformed("'tokens' must hold strings");
        if (i < static_cast<std::size_t>(kLmFirstToken)) {
            if (list[i].get<std::string>() != kSpecialNames[i])
                r.malformed("'tokens' must start with <pad>, <bos>, <unk>, <mask>");
            continue;
        }
        tokens.push_back(list[i].get<std::string>());
    }
    try {
        return LmTokenizer(kind, std::move(tokens));
    } catch (const ConfigError& e) {
        r.malformed(e.what());
    }
}

}  // namespace attnlab
