#include "LmTokens.h"

#include <algorithm>
#include <climits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <queue>
#include <string_view>
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

// Bpe's pre-tokenization classes (LmTokens.h): ASCII letters and every byte >= 0x80, ASCII digits,
// ASCII white space, and the other ASCII bytes.
enum class ByteClass { Letter, Digit, Space, Other };

ByteClass byteClass(unsigned char c) {
    if (c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return ByteClass::Letter;
    if (c >= '0' && c <= '9') return ByteClass::Digit;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r') return ByteClass::Space;
    return ByteClass::Other;
}

// The length of the Bpe piece at `pos` (< text.size()), by the rules of LmTokens.h.
std::size_t bpePieceLength(const std::string& text, std::size_t pos) {
    const std::size_t n = text.size();
    const auto at = [&](std::size_t i) { return byteClass(static_cast<unsigned char>(text[i])); };
    // 1. Contractions.
    if (text[pos] == '\'' && pos + 1 < n) {
        const char c = text[pos + 1];
        if (c == 's' || c == 't' || c == 'm' || c == 'd') return 2;
        if (pos + 2 < n) {
            const char d = text[pos + 2];
            if ((c == 'r' && d == 'e') || (c == 'v' && d == 'e') || (c == 'l' && d == 'l')) return 3;
        }
    }
    // 2-4. An optional space, then a run of one class.
    const std::size_t start = text[pos] == ' ' && pos + 1 < n && at(pos + 1) != ByteClass::Space ? pos + 1 : pos;
    const ByteClass run = at(start);
    if (run != ByteClass::Space) {
        std::size_t end = start + 1;
        while (end < n && at(end) == run) ++end;
        return end - pos;
    }
    // 5-6. White space.
    std::size_t end = pos + 1;
    while (end < n && at(end) == ByteClass::Space) ++end;
    if (end == n || end - pos == 1) return end - pos;
    return end - pos - 1;
}

std::array<char32_t, 256> makeBytesToUnicode() {
    // encoder.py: bs = the printable bytes, cs = bs; every other byte b, in order, is 256 + n.
    std::array<char32_t, 256> table{};
    const auto printable = [](int b) { return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE; };
    char32_t next = 256;
    for (int b = 0; b < 256; ++b) table[static_cast<std::size_t>(b)] = printable(b) ? static_cast<char32_t>(b) : next++;
    return table;
}

std::uint64_t pairKey(int left, int right) {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32 | static_cast<std::uint32_t>(right);
}

// Whether a1 + a2 < b1 + b2, bytes compared unsigned, without building the strings.
bool concatenationLess(const std::string& a1, const std::string& a2, const std::string& b1, const std::string& b2) {
    const std::size_t na = a1.size() + a2.size(), nb = b1.size() + b2.size();
    for (std::size_t i = 0; i < na && i < nb; ++i) {
        const auto a = static_cast<unsigned char>(i < a1.size() ? a1[i] : a2[i - a1.size()]);
        const auto b = static_cast<unsigned char>(i < b1.size() ? b1[i] : b2[i - b1.size()]);
        if (a != b) return a < b;
    }
    return na < nb;
}

}  // namespace

struct LmTokenizer::BpeCache {
    static constexpr std::size_t kMaxPieces = 1 << 17;  // then it starts over
    std::mutex mutex;
    std::unordered_map<std::string, std::vector<int>> ids;
};

std::string toString(LmTokenKind k) {
    switch (k) {
        case LmTokenKind::Words: return "words";
        case LmTokenKind::Bpe: return "bpe";
        case LmTokenKind::Chars: break;
    }
    return "chars";
}

LmTokenKind parseLmTokenKind(const std::string& s) {
    if (s == "chars") return LmTokenKind::Chars;
    if (s == "words") return LmTokenKind::Words;
    if (s == "bpe") return LmTokenKind::Bpe;
    throw ConfigError("unknown token kind '" + s + "' (expected one of: chars, words, bpe)");
}

const std::array<char32_t, 256>& lmBytesToUnicode() {
    static const std::array<char32_t, 256> table = makeBytesToUnicode();
    return table;
}

std::string lmBpeTokenText(const std::string& bytes) {
    std::string text;
    text.reserve(bytes.size() * 2);
    for (const char c : bytes) appendUtf8(text, lmBytesToUnicode()[static_cast<unsigned char>(c)]);
    return text;
}

LmTokenizer::LmTokenizer() : tokens_(std::begin(kSpecialNames), std::end(kSpecialNames)) {}

LmTokenizer::LmTokenizer(LmTokenKind kind, std::vector<std::string> tokens) : LmTokenizer() {
    if (kind == LmTokenKind::Bpe) throw ConfigError("a bpe tokenizer's tokens are made from its merges");
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
    if (kind == LmTokenKind::Bpe) {
        for (std::size_t pos = 0; pos < n;) {
            const std::size_t length = bpePieceLength(text, pos);
            onPiece(text.data() + pos, length);
            pos += length;
        }
        return;
    }
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

LmTokenizer LmTokenizer::bpeBase() {
    LmTokenizer t;
    t.kind_ = LmTokenKind::Bpe;
    t.bytes_ = t.tokens_;
    t.tokens_.reserve(kLmFirstToken + kLmBpeBytes);
    t.bytes_.reserve(kLmFirstToken + kLmBpeBytes);
    for (int b = 0; b < kLmBpeBytes; ++b) {
        const std::string byte(1, static_cast<char>(b));
        t.index_.emplace(lmBpeTokenText(byte), static_cast<int>(t.tokens_.size()));
        t.tokens_.push_back(lmBpeTokenText(byte));
        t.bytes_.push_back(byte);
    }
    t.cache_ = std::make_shared<BpeCache>();
    return t;
}

int LmTokenizer::addMerge(int left, int right) {
    const std::size_t l = static_cast<std::size_t>(left), r = static_cast<std::size_t>(right);
    std::string text = tokens_[l] + tokens_[r];
    int merged = static_cast<int>(tokens_.size());
    if (const auto [it, added] = index_.emplace(text, merged); !added) {
        merged = it->second;
    } else {
        tokens_.push_back(std::move(text));
        bytes_.push_back(bytes_[l] + bytes_[r]);
    }
    ranks_.emplace(pairKey(left, right), std::make_pair(static_cast<int>(merges_.size()), merged));
    merges_.emplace_back(left, right);
    return merged;
}

LmTokenizer LmTokenizer::fromMerges(const std::vector<std::pair<std::string, std::string>>& merges) {
    LmTokenizer t = bpeBase();
    t.merges_.reserve(merges.size());
    for (std::size_t m = 0; m < merges.size(); ++m) {
        const std::string where = "merge " + std::to_string(m + 1) + ": ";
        const int left = t.id(merges[m].first), right = t.id(merges[m].second);
        if (left == kLmUnk) throw ConfigError(where + "'" + merges[m].first + "' is not a token");
        if (right == kLmUnk) throw ConfigError(where + "'" + merges[m].second + "' is not a token");
        if (t.ranks_.count(pairKey(left, right)) > 0)
            throw ConfigError(where + "'" + merges[m].first + " " + merges[m].second + "' appears twice");
        t.addMerge(left, right);
    }
    return t;
}

std::vector<int> LmTokenizer::bpePiece(const char* piece, std::size_t length) const {
    std::vector<int> symbols(length);
    for (std::size_t i = 0; i < length; ++i) symbols[i] = kLmFirstToken + static_cast<unsigned char>(piece[i]);
    std::vector<int> merged;
    while (symbols.size() > 1) {
        int best = INT_MAX, left = 0, right = 0, into = 0;
        for (std::size_t i = 0; i + 1 < symbols.size(); ++i) {
            const auto it = ranks_.find(pairKey(symbols[i], symbols[i + 1]));
            if (it != ranks_.end() && it->second.first < best) {
                best = it->second.first;
                left = symbols[i];
                right = symbols[i + 1];
                into = it->second.second;
            }
        }
        if (best == INT_MAX) break;
        merged.clear();
        for (std::size_t i = 0; i < symbols.size(); ++i) {
            if (i + 1 < symbols.size() && symbols[i] == left && symbols[i + 1] == right) {
                merged.push_back(into);
                ++i;
            } else {
                merged.push_back(symbols[i]);
            }
        }
        symbols.swap(merged);
    }
    return symbols;
}

namespace {

// The merges of BPE learned from counted pieces (LmTokens.h), on a tokenizer that has the bytes.
class BpeLearner {
public:
    BpeLearner(const std::unordered_map<std::string_view, std::int64_t>& pieces, const std::vector<std::string>& bytes)
        : bytes_(bytes) {
        words_.reserve(pieces.size());
        for (const auto& [piece, count] : pieces) {
            if (piece.size() < 2) continue;  // no pair
            Word w;
            w.count = count;
            w.symbols.reserve(piece.size());
            for (const char c : piece) w.symbols.push_back(kLmFirstToken + static_cast<unsigned char>(c));
            words_.push_back(std::move(w));
        }
        for (std::size_t w = 0; w < words_.size(); ++w) {
            const std::vector<int>& s = words_[w].symbols;
            for (std::size_t i = 0; i + 1 < s.size(); ++i) {
                const std::uint64_t k = pairKey(s[i], s[i + 1]);
                counts_[k] += words_[w].count;
                std::vector<int>& list = where_[k];
                if (list.empty() || list.back() != static_cast<int>(w)) list.push_back(static_cast<int>(w));
            }
        }
        for (const auto& [key, count] : counts_) heap_.push(entry(key, count));
        stamp_.assign(words_.size(), -1);
    }

    // The next merge (left and right ids), or false when no pair occurs twice.
    bool best(int& left, int& right) {
        while (!heap_.empty()) {
            const Entry top = heap_.top();
            heap_.pop();
            const auto it = counts_.find(pairKey(top.left, top.right));
            const std::int64_t now = it == counts_.end() ? 0 : it->second;
            if (now == top.count) {
                if (now < 2) return false;
                left = top.left;
                right = top.right;
                return true;
            }
            if (now > 0) heap_.push({now, top.left, top.right, &bytes_});
        }
        return false;
    }

    // Merges the pair into `merged` in every piece that holds it (the bytes list has merged's already).
    void merge(int left, int right, int merged) {
        const std::uint64_t key = pairKey(left, right);
        const auto found = where_.find(key);
        if (found == where_.end()) return;
        const std::vector<int> words = std::move(found->second);
        where_.erase(found);
        ++step_;
        std::vector<std::uint64_t> touched;
        std::vector<int> next;
        for (const int w : words) {
            if (stamp_[static_cast<std::size_t>(w)] == step_) continue;
            stamp_[static_cast<std::size_t>(w)] = step_;
            Word& word = words_[static_cast<std::size_t>(w)];
            std::vector<int>& s = word.symbols;
            bool holds = false;
            for (std::size_t i = 0; i + 1 < s.size() && !holds; ++i) holds = s[i] == left && s[i + 1] == right;
            if (!holds) continue;
            // Only the pairs next to a merge change: the old ones touching a merged position go,
            // the new ones touching a new token come; the others are the same pairs in both.
            next.clear();
            site_.assign(s.size(), 0);
            fresh_.clear();
            for (std::size_t i = 0; i < s.size(); ++i) {
                if (i + 1 < s.size() && s[i] == left && s[i + 1] == right) {
                    site_[i] = site_[i + 1] = 1;
                    next.push_back(merged);
                    fresh_.push_back(1);
                    ++i;
                } else {
                    next.push_back(s[i]);
                    fresh_.push_back(0);
                }
            }
            for (std::size_t i = 0; i + 1 < s.size(); ++i)
                if (site_[i] || site_[i + 1]) counts_[pairKey(s[i], s[i + 1])] -= word.count;
            s.swap(next);
            for (std::size_t i = 0; i + 1 < s.size(); ++i) {
                if (!fresh_[i] && !fresh_[i + 1]) continue;
                const std::uint64_t k = pairKey(s[i], s[i + 1]);
                counts_[k] += word.count;
                touched.push_back(k);
                std::vector<int>& list = where_[k];
                if (list.empty() || list.back() != w) list.push_back(w);
            }
        }
        counts_.erase(key);
        std::sort(touched.begin(), touched.end());
        touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
        for (const std::uint64_t k : touched) heap_.push(entry(k, counts_[k]));
    }

private:
    struct Word {
        std::vector<int> symbols;
        std::int64_t count = 0;
    };
    struct Entry {
        std::int64_t count;
        int left, right;
        const std::vector<std::string>* bytes;
    };
    // The heap's order: the top is the most frequent pair, ties to the smaller merged bytes, then
    // to the shorter left part.
    struct Lower {
        bool operator()(const Entry& a, const Entry& b) const {
            if (a.count != b.count) return a.count < b.count;
            const std::vector<std::string>& t = *a.bytes;
            const auto al = static_cast<std::size_t>(a.left), ar = static_cast<std::size_t>(a.right);
            const auto bl = static_cast<std::size_t>(b.left), br = static_cast<std::size_t>(b.right);
            if (concatenationLess(t[al], t[ar], t[bl], t[br])) return false;
            if (concatenationLess(t[bl], t[br], t[al], t[ar])) return true;
            return t[al].size() > t[bl].size();
        }
    };

    Entry entry(std::uint64_t key, std::int64_t count) const {
        return {count, static_cast<int>(key >> 32), static_cast<int>(key & 0xFFFFFFFFu), &bytes_};
    }

    const std::vector<std::string>& bytes_;
    std::vector<Word> words_;
    std::unordered_map<std::uint64_t, std::int64_t> counts_;   // pair -> occurrences, weighted
    std::unordered_map<std::uint64_t, std::vector<int>> where_;  // pair -> the words that may hold it
    std::priority_queue<Entry, std::vector<Entry>, Lower> heap_;  // pairs, some with stale counts
    std::vector<int> stamp_;                                     // the last step that merged in a word
    std::vector<char> site_, fresh_;  // merge's scratch: old positions merged, new positions made
    int step_ = 0;
};

}  // namespace

LmTokenizer LmTokenizer::fromText(LmTokenKind kind, const std::vector<std::string>& texts, const std::string& name,
                                  std::size_t maxVocabulary, int merges) {
    if (kind == LmTokenKind::Bpe) {
        if (maxVocabulary < static_cast<std::size_t>(kLmBpeBytes))
            throw ConfigError("the vocabulary limit of " + std::to_string(maxVocabulary) +
                              " cannot hold the 256 byte tokens of a bpe tokenizer");
        if (merges < 0) throw ConfigError("the number of bpe merges must not be negative");
        std::unordered_map<std::string_view, std::int64_t> pieces;
        for (const std::string& text : texts) {
            if (const std::size_t bad = findInvalidUtf8(text); bad != std::string::npos)
                throw InputError(name, 0, "not UTF-8 (byte " + std::to_string(bad + 1) + ")");
            split(kind, text, [&](const char* p, std::size_t length) { ++pieces[std::string_view(p, length)]; });
        }
        LmTokenizer t = bpeBase();
        BpeLearner learner(pieces, t.bytes_);
        std::unordered_map<std::string_view, std::int64_t>().swap(pieces);  // the learner has them
        int left = 0, right = 0;
        for (int m = 0; m < merges && t.size() - kLmFirstToken < maxVocabulary && learner.best(left, right); ++m)
            learner.merge(left, right, t.addMerge(left, right));
        return t;
    }
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
    if (kind_ == LmTokenKind::Bpe) {
        std::vector<int> ids;
        split(kind_, text, [&](const char* p, std::size_t length) {
            piece.assign(p, length);
            bool known = false;
            {
                const std::lock_guard<std::mutex> lock(cache_->mutex);
                if (const auto it = cache_->ids.find(piece); it != cache_->ids.end()) {
                    ids = it->second;
                    known = true;
                }
            }
            if (!known) {
                ids = bpePiece(p, length);
                const std::lock_guard<std::mutex> lock(cache_->mutex);
                if (cache_->ids.size() >= BpeCache::kMaxPieces) cache_->ids.clear();
                cache_->ids.emplace(piece, ids);
            }
            for (const int id : ids) onId(id);
        });
        return;
    }
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
    if (kind_ == LmTokenKind::Bpe) {
        for (const int id : ids)
            text += id < 0 || static_cast<std::size_t>(id) >= bytes_.size() ? bytes_[kLmUnk]
                                                                              : bytes_[static_cast<std::size_t>(id)];
        return text;
    }
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

std::string LmTokenizer::toJson() const {
    Json j{{"kind", toString(kind_)}, {"tokens", tokens_}};
    if (kind_ == LmTokenKind::Bpe) {
        Json merges = Json::array();
        for (const auto& [left, right] : merges_) merges.push_back({token(left), token(right)});
        j["merges"] = std::move(merges);
    }
    return j.dump();
}

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
    if (kind == LmTokenKind::Bpe) {
        const Json& mergeList = r.member("merges");
        if (!mergeList.is_array()) r.malformed("'merges' must be a list");
        std::vector<std::pair<std::string, std::string>> merges;
        merges.reserve(mergeList.size());
        for (const Json& m : mergeList) {
            if (!m.is_array() || m.size() != 2 || !m[0].is_string() || !m[1].is_string())
                r.malformed("'merges' must hold pairs of strings");
            merges.emplace_back(m[0].get<std::string>(), m[1].get<std::string>());
        }
        LmTokenizer t;
        try {
            t = fromMerges(merges);
        } catch (const ConfigError& e) {
            r.malformed(e.what());
        }
        if (!std::equal(t.tokens_.begin() + kLmFirstToken, t.tokens_.end(), tokens.begin(), tokens.end()))
            r.malformed("'tokens' are not the ones the merges make");
        return t;
    }
    try {
        return LmTokenizer(kind, std::move(tokens));
    } catch (const ConfigError& e) {
        r.malformed(e.what());
    }
}

}  // namespace attnlab
