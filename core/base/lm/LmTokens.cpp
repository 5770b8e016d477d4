#include "LmTokens.h"
#include "base/lm/LmWordPiece.h"

#include <algorithm>
#include <climits>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <queue>
#include <string_view>
#include <utility>

#include "base/InputError.h"
#include "base/Tokenizer.h"  // decodeUtf8, findInvalidUtf8
#include "base/io/FileUtil.h"
#include "base/io/JsonFields.h"
#include "base/lm/LmGpt2Split.h"

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
    if (const std::size_t c = lmContractionLength(text, pos)) return c;
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

std::shared_ptr<LmTokenizer::BpeCache> LmTokenizer::makeCache() { return std::make_shared<BpeCache>(); }

std::string toString(LmTokenKind k) {
    switch (k) {
        case LmTokenKind::Words: return "words";
        case LmTokenKind::Bpe: return "bpe";
        case LmTokenKind::Gpt2: return "gpt2";
        case LmTokenKind::WordPiece: return "wordpiece";
        case LmTokenKind::Chars: break;
    }
    return "chars";
}

LmTokenKind parseLmTokenKind(const std::string& s) {
    if (s == "chars") return LmTokenKind::Chars;
    if (s == "words") return LmTokenKind::Words;
    if (s == "bpe") return LmTokenKind::Bpe;
    if (s == "gpt2") return LmTokenKind::Gpt2;
    throw ConfigError("unknown token kind '" + s + "' (expected one of: chars, words, bpe, gpt2)");
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
    if (kind == LmTokenKind::Gpt2) throw ConfigError("a gpt2 tokenizer is read from GPT-2's vocab.json and merges.txt");
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
    if (kind == LmTokenKind::Bpe || kind == LmTokenKind::Gpt2) {
        const auto pieceLength = kind == LmTokenKind::Bpe ? bpePieceLength : lmGpt2PieceLength;
        for (std::size_t pos = 0; pos < n;) {
            const std::size_t length = pieceLength(text, pos);
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
        t.byteIds_[static_cast<std::size_t>(b)] = static_cast<int>(t.tokens_.size());
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
    ranks_.emplace(lmMergeKey(left, right), std::make_pair(static_cast<int>(merges_.size()), merged));
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
        if (t.ranks_.count(lmMergeKey(left, right)) > 0)
            throw ConfigError(where + "'" + merges[m].first + " " + merges[m].second + "' appears twice");
        t.addMerge(left, right);
    }
    return t;
}

std::vector<int> LmTokenizer::bpePiece(const char* piece, std::size_t length) const {
    // GPT-2's bpe(): the adjacent pair of the lowest rank is merged everywhere, left to right, until
    // no pair has a rank. Each pair's (rank, merged id) is looked up once: after a merge only the
    // pairs that touch a merged token are new, the others move left with their tokens.
    std::vector<int> symbols(length);
    for (std::size_t i = 0; i < length; ++i) symbols[i] = byteIds_[static_cast<unsigned char>(piece[i])];
    if (length < 2) return symbols;
    const auto lookUp = [this](int left, int right) {
        const auto it = ranks_.find(lmMergeKey(left, right));
        return it == ranks_.end() ? std::make_pair(INT_MAX, 0) : it->second;
    };
    std::vector<std::pair<int, int>> pairs(length - 1);  // (rank, merged id) of symbols i, i + 1
    for (std::size_t i = 0; i + 1 < length; ++i) pairs[i] = lookUp(symbols[i], symbols[i + 1]);
    std::vector<std::size_t> from(length);  // a kept symbol's position before the merge
    std::vector<char> fresh(length);        // whether a symbol was just merged
    while (symbols.size() > 1) {
        int best = INT_MAX;
        for (const auto& pair : pairs) best = std::min(best, pair.first);
        if (best == INT_MAX) break;
        std::size_t n = 0;
        for (std::size_t i = 0; i < symbols.size(); ++n) {
            from[n] = i;
            if (i + 1 < symbols.size() && pairs[i].first == best) {  // ranks are one per pair
                symbols[n] = pairs[i].second;
                fresh[n] = 1;
                i += 2;
            } else {
                symbols[n] = symbols[i];
                fresh[n] = 0;
                i += 1;
            }
        }
        symbols.resize(n);
        for (std::size_t k = 0; k + 1 < n; ++k)  // from[k] >= k: pairs[from[k]] is not overwritten yet
            pairs[k] = fresh[k] || fresh[k + 1] ? lookUp(symbols[k], symbols[k + 1]) : pairs[from[k]];
        pairs.resize(n - 1);
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
                const std::uint64_t k = lmMergeKey(s[i], s[i + 1]);
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
            const auto it = counts_.find(lmMergeKey(top.left, top.right));
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
        const std::uint64_t key = lmMergeKey(left, right);
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
                if (site_[i] || site_[i + 1]) counts_[lmMergeKey(s[i], s[i + 1])] -= word.count;
            s.swap(next);
            for (std::size_t i = 0; i + 1 < s.size(); ++i) {
                if (!fresh_[i] && !fresh_[i + 1]) continue;
                const std::uint64_t k = lmMergeKey(s[i], s[i + 1]);
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
    if (kind == LmTokenKind::Gpt2)
        throw ConfigError("a gpt2 tokenizer is not learned from a text: it is read from GPT-2's vocab.json and merges.txt");
    if (kind == LmTokenKind::WordPiece)
        throw ConfigError("a wordpiece tokenizer is not learned from a text: it is read from a BERT folder's vocab.txt");
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

LmTokenizer LmTokenizer::fromWordPiece(const LmWordPiece& wordPiece) {
    LmTokenizer t;
    t.kind_ = LmTokenKind::WordPiece;
    t.tokens_.clear();
    t.index_.clear();
    for (int i = 0; i < wordPiece.size(); ++i) {
        t.tokens_.push_back(wordPiece.token(i));
        t.index_[t.tokens_.back()] = i;  // a token given twice: its last id, as BertTokenizer
    }
    t.specials_ = {wordPiece.pad() >= 0 ? wordPiece.pad() : kLmNoToken, wordPiece.cls(), wordPiece.unk(),
                   wordPiece.mask() >= 0 ? wordPiece.mask() : kLmNoToken};
    t.wordPiece_ = std::make_shared<const LmWordPiece>(wordPiece);
    return t;
}

int LmTokenizer::separator() const { return wordPiece_ ? wordPiece_->sep() : kLmNoToken; }

void LmTokenizer::encodeEach(const std::string& text, const std::function<void(int)>& onId) const {
    if (wordPiece_) {
        for (const int id : wordPiece_->ids(text)) onId(id);
        return;
    }
    std::string piece;
    if (kind_ == LmTokenKind::Bpe || kind_ == LmTokenKind::Gpt2) {
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
    if (wordPiece_) return wordPiece_->decode(ids);
    std::string text;
    if (kind_ == LmTokenKind::Bpe || kind_ == LmTokenKind::Gpt2) {
        static const std::string unknown = kSpecialNames[kLmUnk];
        for (const int id : ids)
            text += id < 0 || static_cast<std::size_t>(id) >= bytes_.size() ? unknown : bytes_[static_cast<std::size_t>(id)];
        return text;
    }
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i > 0 && kind_ == LmTokenKind::Words) text += ' ';
        text += token(ids[i]);
    }
    return text;
}

const std::string& LmTokenizer::token(int id) const {
    static const std::string unknown = kSpecialNames[kLmUnk];
    if (id < 0 || static_cast<std::size_t>(id) >= tokens_.size()) return unknown;
    return tokens_[static_cast<std::size_t>(id)];
}

int LmTokenizer::id(const std::string& token) const {
    const auto it = index_.find(token);
    return it == index_.end() ? specials_.unk : it->second;
}

bool LmTokenizer::isSpecial(int id) const {
    return id >= 0 && (id == specials_.pad || id == specials_.bos || id == specials_.unk || id == specials_.mask);
}

std::size_t LmTokenizer::ordinaryCount() const {
    if (kind_ == LmTokenKind::WordPiece) return tokens_.size();  // every id (the specials among them)
    if (kind_ != LmTokenKind::Gpt2) return tokens_.size() - kLmFirstToken;
    return tokens_.size() - 1;  // all but <|endoftext|>, both pad and bos
}

int LmTokenizer::ordinaryToken(std::size_t k) const {
    if (kind_ == LmTokenKind::WordPiece) return static_cast<int>(k);
    if (kind_ != LmTokenKind::Gpt2) return kLmFirstToken + static_cast<int>(k);
    const int id = static_cast<int>(k);
    return id < specials_.bos ? id : id + 1;
}

std::string LmTokenizer::toJson() const {
    Json j{{"kind", toString(kind_)}, {"tokens", tokens_}};
    if (kind_ == LmTokenKind::Gpt2) {
        std::string merges;
        for (const auto& [left, right] : merges_) {
            merges += token(left);
            merges += ' ';
            merges += token(right);
            merges += '\n';
        }
        j["merges"] = std::move(merges);
    } else if (kind_ == LmTokenKind::Bpe) {
        Json merges = Json::array();
        for (const auto& [left, right] : merges_) merges.push_back({token(left), token(right)});
        j["merges"] = std::move(merges);
    } else if (wordPiece_) {
        const LmWordPieceOptions& o = wordPiece_->options();
        j["lower_case"] = o.lowerCase;
        j["strip_accents"] = o.stripAccents ? Json(*o.stripAccents) : Json();
        j["chinese_chars"] = o.chineseChars;
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
    if (const auto kindMember = j.find("kind"); kindMember != j.end() && *kindMember == "wordpiece") {
        const Json& list = r.member("tokens");
        if (!list.is_array()) r.malformed("'tokens' must be a list");
        std::vector<std::string> vocab;
        for (const Json& t : list) {
            if (!t.is_string()) r.malformed("'tokens' must hold strings");
            vocab.push_back(t.get<std::string>());
        }
        LmWordPieceOptions options;
        options.lowerCase = j.value("lower_case", true);
        if (j.contains("strip_accents") && j["strip_accents"].is_boolean()) options.stripAccents = j["strip_accents"].get<bool>();
        options.chineseChars = j.value("chinese_chars", true);
        try {
            return fromWordPiece(LmWordPiece(std::move(vocab), options));
        } catch (const std::exception& e) {
            r.malformed(e.what());
        }
    }
    const LmTokenKind kind = r.choice("kind", parseLmTokenKind);
    const Json& list = r.member("tokens");
    if (!list.is_array()) r.malformed("'tokens' must be a list");
    if (kind == LmTokenKind::Gpt2) {
        std::vector<std::string> tokens;
        tokens.reserve(list.size());
        for (const Json& t : list) {
            if (!t.is_string()) r.malformed("'tokens' must hold strings");
            tokens.push_back(t.get<std::string>());
        }
        const Json& mergeText = r.member("merges");
        if (!mergeText.is_string()) r.malformed("'merges' must be a string of lines");
        std::vector<std::pair<std::string, std::string>> merges;
        const std::string& text = mergeText.get_ref<const std::string&>();
        for (std::size_t start = 0; start < text.size();) {
            const std::size_t end = std::min(text.find('\n', start), text.size());
            const std::string_view line(text.data() + start, end - start);
            const std::size_t space = line.find(' ');
            if (space == std::string_view::npos)
                r.malformed("merge " + std::to_string(merges.size() + 1) + ": not two tokens and a space");
            merges.emplace_back(std::string(line.substr(0, space)), std::string(line.substr(space + 1)));
            start = end + 1;
        }
        Gpt2Problem problem;
        LmTokenizer t = buildGpt2(std::move(tokens), merges, problem);
        if (!problem.why.empty())
            r.malformed(problem.merge == std::string::npos ? problem.why
                                                           : "merge " + std::to_string(problem.merge + 1) + ": " + problem.why);
        return t;
    }
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
