#include "base/lm/LmWordPiece.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <nlohmann/json.hpp>

#include "base/InputError.h"
#include "base/Tokenizer.h"  // decodeUtf8, appendUtf8, findInvalidUtf8
#include "base/io/FileUtil.h"

namespace attnlab {

namespace {

// The generated tables (scripts/gen_lm_bert_unicode_table.py).
struct BertFlagRange {
    char32_t first, last;
    unsigned char flags;
};
struct BertLowerEntry {
    char32_t cp, lower, second;
};
struct BertNfdEntry {
    char32_t cp;
    unsigned short offset;
    unsigned char length;
};
struct BertCccRange {
    char32_t first, last;
    unsigned char ccc;
};
struct BertCompose {
    char32_t first, second, composite;
};

const BertFlagRange kBertFlags[] = {
#define ATTNLAB_BERT_FLAGS
#include "base/lm/LmBertUnicodeTable.inc"
#undef ATTNLAB_BERT_FLAGS
};
const BertLowerEntry kBertLower[] = {
#define ATTNLAB_BERT_LOWER
#include "base/lm/LmBertUnicodeTable.inc"
#undef ATTNLAB_BERT_LOWER
};
const BertNfdEntry kBertNfd[] = {
#define ATTNLAB_BERT_NFD
#include "base/lm/LmBertUnicodeTable.inc"
#undef ATTNLAB_BERT_NFD
};
const char32_t kBertNfdPool[] = {
#define ATTNLAB_BERT_NFD_POOL
#include "base/lm/LmBertUnicodeTable.inc"
#undef ATTNLAB_BERT_NFD_POOL
};
const BertCccRange kBertCcc[] = {
#define ATTNLAB_BERT_CCC
#include "base/lm/LmBertUnicodeTable.inc"
#undef ATTNLAB_BERT_CCC
};
const BertCompose kBertCompose[] = {
#define ATTNLAB_BERT_COMPOSE
#include "base/lm/LmBertUnicodeTable.inc"
#undef ATTNLAB_BERT_COMPOSE
};

enum BertFlag : unsigned char {
    kBertMn = 1,
    kBertPunct = 2,
    kBertControl = 4,
    kBertWhite = 8,
    kBertSpace = 16,
    kBertCaseIgnorable = 32,
    kBertCased = 64,
};

unsigned char bertFlagsFromTable(char32_t cp) {
    const auto* end = std::end(kBertFlags);
    const auto* it = std::lower_bound(std::begin(kBertFlags), end, cp,
                                      [](const BertFlagRange& r, char32_t c) { return r.last < c; });
    return it == end || it->first > cp ? static_cast<unsigned char>(kBertControl) : it->flags;  // beyond U+10FFFF
}

unsigned char bertFlags(char32_t cp) {
    static const auto ascii = [] {
        std::array<unsigned char, 128> t{};
        for (char32_t c = 0; c < 128; ++c) t[c] = bertFlagsFromTable(c);
        return t;
    }();
    return cp < 128 ? ascii[cp] : bertFlagsFromTable(cp);
}

bool bertIsChinese(char32_t cp) {
    return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x20000 && cp <= 0x2A6DF) ||
           (cp >= 0x2A700 && cp <= 0x2B73F) || (cp >= 0x2B740 && cp <= 0x2B81F) || (cp >= 0x2B820 && cp <= 0x2CEAF) ||
           (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);
}

// str.lower() of one character but capital sigma (0 if it has none of its own: the character stays).
const BertLowerEntry* bertLowerOf(char32_t cp) {
    const auto* end = std::end(kBertLower);
    const auto* it = std::lower_bound(std::begin(kBertLower), end, cp,
                                      [](const BertLowerEntry& e, char32_t c) { return e.cp < c; });
    return it != end && it->cp == cp ? it : nullptr;
}

void bertAppendLower(std::u32string& out, char32_t cp) {
    if (cp < 128) {
        out += cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
    } else if (const BertLowerEntry* e = bertLowerOf(cp)) {
        out += e->lower;
        if (e->second != 0) out += e->second;
    } else {
        out += cp;
    }
}

int bertCcc(char32_t cp) {
    if (cp < 0x300) return 0;
    const auto* end = std::end(kBertCcc);
    const auto* it = std::lower_bound(std::begin(kBertCcc), end, cp,
                                      [](const BertCccRange& r, char32_t c) { return r.last < c; });
    return it == end || it->first > cp ? 0 : it->ccc;
}

constexpr char32_t kHangulS = 0xAC00, kHangulL = 0x1100, kHangulV = 0x1161, kHangulT = 0x11A7;
constexpr char32_t kHangulVCount = 21, kHangulTCount = 28, kHangulSCount = 11172;

void bertAppendNfd(std::u32string& out, char32_t cp) {
    if (cp < 0xC0) {
        out += cp;
        return;
    }
    if (cp >= kHangulS && cp < kHangulS + kHangulSCount) {
        const char32_t s = cp - kHangulS;
        out += kHangulL + s / (kHangulVCount * kHangulTCount);
        out += kHangulV + (s % (kHangulVCount * kHangulTCount)) / kHangulTCount;
        if (s % kHangulTCount != 0) out += kHangulT + s % kHangulTCount;
        return;
    }
    const auto* end = std::end(kBertNfd);
    const auto* it = std::lower_bound(std::begin(kBertNfd), end, cp,
                                      [](const BertNfdEntry& e, char32_t c) { return e.cp < c; });
    if (it != end && it->cp == cp)
        out.append(kBertNfdPool + it->offset, it->length);
    else
        out += cp;
}

char32_t bertComposePair(char32_t a, char32_t b) {
    if (a >= kHangulL && a < kHangulL + 19 && b >= kHangulV && b < kHangulV + kHangulVCount)
        return kHangulS + ((a - kHangulL) * kHangulVCount + (b - kHangulV)) * kHangulTCount;
    if (a >= kHangulS && a < kHangulS + kHangulSCount && (a - kHangulS) % kHangulTCount == 0 && b > kHangulT &&
        b < kHangulT + kHangulTCount)
        return a + (b - kHangulT);
    const auto* end = std::end(kBertCompose);
    const auto* it = std::lower_bound(std::begin(kBertCompose), end, std::make_pair(a, b),
                                      [](const BertCompose& e, const std::pair<char32_t, char32_t>& k) {
                                          return e.first != k.first ? e.first < k.first : e.second < k.second;
                                      });
    return it != end && it->first == a && it->second == b ? it->composite : 0;
}

std::u32string bertDecode(const std::string& text) {
    std::u32string out;
    out.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();) out += decodeUtf8(text, pos);
    return out;
}

std::string bertEncode(const std::u32string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char32_t c : text) appendUtf8(out, c);
    return out;
}

long bertLineOfByte(const std::string& text, std::size_t byte) {
    byte = std::min(byte, text.size());
    return 1 + static_cast<long>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(byte), '\n'));
}

nlohmann::json bertParseJson(const std::string& text, const std::string& name) {
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(name, bertLineOfByte(text, e.byte == 0 ? 0 : e.byte - 1), "not valid JSON");
    }
}

constexpr std::uint64_t kBertMaxFileBytes = 256ull << 20;

}  // namespace

std::u32string lmBertNfd(const std::u32string& s) {
    std::u32string out;
    out.reserve(s.size());
    for (const char32_t c : s) bertAppendNfd(out, c);
    // Canonical ordering: each run of non-starters sorted (stably) by combining class.
    for (std::size_t i = 0; i < out.size();) {
        if (bertCcc(out[i]) == 0) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < out.size() && bertCcc(out[j]) != 0) ++j;
        if (j - i > 1)
            std::stable_sort(out.begin() + static_cast<std::ptrdiff_t>(i), out.begin() + static_cast<std::ptrdiff_t>(j),
                             [](char32_t a, char32_t b) { return bertCcc(a) < bertCcc(b); });
        i = j;
    }
    return out;
}

std::u32string lmBertNfc(const std::u32string& s) {
    if (std::all_of(s.begin(), s.end(), [](char32_t c) { return c < 0x300; })) return s;
    const std::u32string d = lmBertNfd(s);
    std::u32string out;
    out.reserve(d.size());
    std::ptrdiff_t starter = -1;
    for (const char32_t c : d) {
        const int cc = bertCcc(c);
        if (starter >= 0) {
            const bool adjacent = static_cast<std::ptrdiff_t>(out.size()) - 1 == starter;
            const int last = adjacent ? 0 : bertCcc(out.back());
            if (adjacent || (last != 0 && last < cc)) {
                if (const char32_t composite = bertComposePair(out[static_cast<std::size_t>(starter)], c)) {
                    out[static_cast<std::size_t>(starter)] = composite;
                    continue;
                }
            }
        }
        if (cc == 0) starter = static_cast<std::ptrdiff_t>(out.size());
        out += c;
    }
    return out;
}

std::u32string lmBertLower(const std::u32string& s) {
    std::u32string out;
    out.reserve(s.size());
    const std::size_t n = s.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (s[i] != 0x3A3) {
            bertAppendLower(out, s[i]);
            continue;
        }
        // CPython's handle_capital_sigma: final when a cased character precedes (case-ignorable ones
        // skipped) and none follows.
        std::ptrdiff_t j = static_cast<std::ptrdiff_t>(i) - 1;
        while (j >= 0 && (bertFlags(s[static_cast<std::size_t>(j)]) & kBertCaseIgnorable)) --j;
        bool final = j >= 0 && (bertFlags(s[static_cast<std::size_t>(j)]) & kBertCased);
        if (final && i + 1 < n) {
            std::size_t k = i + 1;
            while (k < n && (bertFlags(s[k]) & kBertCaseIgnorable)) ++k;
            final = k == n || !(bertFlags(s[k]) & kBertCased);
        }
        out += final ? char32_t{0x3C2} : char32_t{0x3C3};
    }
    return out;
}

LmWordPiece::LmWordPiece(std::vector<std::string> vocab, LmWordPieceOptions options, const std::string& name)
    : vocab_(std::move(vocab)), options_(std::move(options)) {
    ids_.reserve(vocab_.size());
    for (std::size_t i = 0; i < vocab_.size(); ++i) {
        ids_[vocab_[i]] = static_cast<int>(i);  // a repeated token: its last id, as load_vocab
        std::size_t chars = 0;
        for (const char c : vocab_[i]) chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        maxTokenChars_ = std::max(maxTokenChars_, chars);
    }
    unk_ = id(options_.unkToken);
    cls_ = id("[CLS]");
    sep_ = id("[SEP]");
    mask_ = id("[MASK]");
    pad_ = id("[PAD]");
    for (const auto& [token, value] : {std::pair<const char*, int>{"[UNK]", unk_}, {"[CLS]", cls_}, {"[SEP]", sep_}})
        if (value < 0)
            throw InputError(name, 0, std::string("the vocabulary has no ") +
                                          (std::string(token) == "[UNK]" ? options_.unkToken : token) +
                                          " (BERT's special tokens [UNK], [CLS] and [SEP] are required)");
    specials_ = {"[PAD]", options_.unkToken, "[CLS]", "[SEP]", "[MASK]"};
    if (options_.unkToken != "[UNK]") specials_.push_back("[UNK]");
}

int LmWordPiece::id(const std::string& token) const {
    const auto it = ids_.find(token);
    return it == ids_.end() ? -1 : it->second;
}

const std::string& LmWordPiece::token(int i) const {
    static const std::string none;
    return i >= 0 && i < size() ? vocab_[static_cast<std::size_t>(i)] : none;
}

std::vector<std::string> LmWordPiece::tokens(const std::vector<int>& ids) const {
    std::vector<std::string> out;
    out.reserve(ids.size());
    for (const int i : ids) out.push_back(token(i));
    return out;
}

std::vector<LmWordPiece::Segment> LmWordPiece::segmentsWithSpecials(const std::string& text) const {
    // Special tokens are found in the text as written (leftmost, longest); the rest, when
    // lower-casing, is lowered character by character (PreTrainedTokenizer.tokenize's re.sub).
    std::vector<Segment> out;
    std::string pending;
    auto flush = [&] {
        if (pending.empty()) return;
        std::u32string s = bertDecode(pending);
        if (options_.lowerCase) {
            std::u32string low;
            low.reserve(s.size());
            for (const char32_t c : s) bertAppendLower(low, c == 0x3A3 ? char32_t{0x3C3} : c);
            s = std::move(low);
        }
        out.push_back({false, std::move(s)});
        pending.clear();
    };
    for (std::size_t pos = 0; pos < text.size();) {
        std::size_t best = 0;
        for (const std::string& s : specials_)
            if (s.size() > best && text.compare(pos, s.size(), s) == 0) best = s.size();
        if (best > 0) {
            flush();
            out.push_back({true, bertDecode(text.substr(pos, best))});
            pos += best;
        } else {
            pending += text[pos++];
        }
    }
    flush();
    return out;
}

void LmWordPiece::basicWords(const std::u32string& segment, std::vector<std::u32string>& out) const {
    std::u32string text;
    text.reserve(segment.size() + 8);
    for (const char32_t c : segment) {
        const unsigned char f = bertFlags(c);
        if (options_.cleanText) {
            if (c == 0 || c == 0xFFFD || (f & kBertControl)) continue;
            if (f & kBertWhite) {
                text += U' ';
                continue;
            }
        }
        if (options_.chineseChars && bertIsChinese(c)) {
            text += U' ';
            text += c;
            text += U' ';
        } else {
            text += c;
        }
    }
    text = lmBertNfc(text);
    const bool strip = options_.lowerCase ? options_.stripAccents.value_or(true) : options_.stripAccents.value_or(false);
    std::size_t i = 0;
    const std::size_t n = text.size();
    while (i < n) {
        while (i < n && (bertFlags(text[i]) & kBertSpace)) ++i;
        if (i == n) break;
        std::size_t j = i;
        while (j < n && !(bertFlags(text[j]) & kBertSpace)) ++j;
        std::u32string word = text.substr(i, j - i);
        i = j;
        const std::string utf8 = bertEncode(word);
        if (std::find(specials_.begin(), specials_.end(), utf8) != specials_.end()) {
            out.push_back(std::move(word));
            continue;
        }
        if (options_.lowerCase) word = lmBertLower(word);
        if (strip) {
            const std::u32string d = lmBertNfd(word);
            word.clear();
            for (const char32_t c : d)
                if (!(bertFlags(c) & kBertMn)) word += c;
        }
        // Punctuation apart; then white space again (whitespace_tokenize of the joined words).
        std::u32string current;
        auto push = [&] {
            if (!current.empty()) out.push_back(std::move(current));
            current.clear();
        };
        for (const char32_t c : word) {
            const unsigned char f = bertFlags(c);
            if (f & kBertPunct) {
                push();
                current = c;
                push();
            } else if (f & kBertSpace) {
                push();
            } else {
                current += c;
            }
        }
        push();
    }
}

void LmWordPiece::wordPieces(const std::u32string& word, std::vector<std::string>& out) const {
    if (word.size() > static_cast<std::size_t>(options_.maxInputCharsPerWord)) {
        out.push_back(options_.unkToken);
        return;
    }
    // Byte offsets of each code point in the word's UTF-8.
    std::string utf8;
    std::vector<std::size_t> at;
    at.reserve(word.size() + 1);
    for (const char32_t c : word) {
        at.push_back(utf8.size());
        appendUtf8(utf8, c);
    }
    at.push_back(utf8.size());
    const std::size_t before = out.size();
    std::string candidate;
    std::size_t start = 0;
    while (start < word.size()) {
        std::size_t end = std::min(word.size(), start + maxTokenChars_);
        bool found = false;
        for (; end > start; --end) {
            candidate.clear();
            if (start > 0) candidate = options_.continuingPrefix;
            candidate.append(utf8, at[start], at[end] - at[start]);
            if (ids_.count(candidate)) {
                found = true;
                break;
            }
        }
        if (!found) {
            out.resize(before);
            out.push_back(options_.unkToken);
            return;
        }
        out.push_back(candidate);
        start = end;
    }
}

std::vector<std::string> LmWordPiece::basicTokens(const std::string& text) const {
    std::vector<std::string> out;
    std::vector<std::u32string> words;
    for (const Segment& segment : segmentsWithSpecials(text)) {
        if (segment.special) {
            out.push_back(bertEncode(segment.text));
            continue;
        }
        words.clear();
        basicWords(segment.text, words);
        for (const auto& w : words) out.push_back(bertEncode(w));
    }
    return out;
}

std::vector<std::string> LmWordPiece::tokenize(const std::string& text) const {
    std::vector<std::string> out;
    std::vector<std::u32string> words;
    for (const Segment& segment : segmentsWithSpecials(text)) {
        if (segment.special) {
            out.push_back(bertEncode(segment.text));
            continue;
        }
        words.clear();
        basicWords(segment.text, words);
        // A word that is a special token goes to WordPiece too (BertTokenizer._tokenize: the basic
        // tokenizer's own never_split is empty), which finds it whole in the vocabulary.
        for (const auto& w : words) wordPieces(w, out);
    }
    return out;
}

std::vector<int> LmWordPiece::ids(const std::string& text) const {
    std::vector<int> out;
    for (const std::string& t : tokenize(text)) {
        const int i = id(t);
        out.push_back(i >= 0 ? i : unk_);  // convert_tokens_to_ids: unknown -> [UNK]
    }
    return out;
}

std::vector<int> LmWordPiece::encode(const std::string& text) const {
    std::vector<int> out{cls_};
    const std::vector<int> a = ids(text);
    out.insert(out.end(), a.begin(), a.end());
    out.push_back(sep_);
    return out;
}

LmWordPieceEncoding LmWordPiece::encodePair(const std::string& a, const std::string& b) const {
    LmWordPieceEncoding e;
    e.ids = encode(a);
    e.tokenTypes.assign(e.ids.size(), 0);
    const std::vector<int> second = ids(b);
    e.ids.insert(e.ids.end(), second.begin(), second.end());
    e.ids.push_back(sep_);
    e.tokenTypes.resize(e.ids.size(), 1);
    return e;
}

std::string LmWordPiece::decode(const std::vector<int>& ids, bool skipSpecial) const {
    std::string joined;
    bool first = true;
    for (const int i : ids) {
        if (skipSpecial && (i == unk_ || i == cls_ || i == sep_ || i == mask_ || i == pad_)) continue;
        if (!first) joined += ' ';
        joined += token(i);
        first = false;
    }
    // convert_tokens_to_string: " ##" removed, then strip (the joined string has no outer spaces
    // unless a token does).
    const std::string cont = " " + options_.continuingPrefix;
    std::string text;
    for (std::size_t pos = 0; pos < joined.size();) {
        if (!options_.continuingPrefix.empty() && joined.compare(pos, cont.size(), cont) == 0) {
            pos += cont.size();
        } else {
            text += joined[pos++];
        }
    }
    const std::size_t b = text.find_first_not_of(" \t\n\r\f\v");
    text = b == std::string::npos ? std::string() : text.substr(b, text.find_last_not_of(" \t\n\r\f\v") - b + 1);
    // clean_up_tokenization.
    static const std::pair<const char*, const char*> kCleanUp[] = {
        {" .", "."}, {" ?", "?"}, {" !", "!"}, {" ,", ","}, {" ' ", "'"}, {" n't", "n't"},
        {" 'm", "'m"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"}};
    for (const auto& [from, to] : kCleanUp) {
        const std::string f = from, t = to;
        std::string next;
        for (std::size_t pos = 0;;) {
            const std::size_t hit = text.find(f, pos);
            if (hit == std::string::npos) {
                next.append(text, pos, std::string::npos);
                break;
            }
            next.append(text, pos, hit - pos);
            next += t;
            pos = hit + f.size();
        }
        text = std::move(next);
    }
    return text;
}

LmWordPiece LmWordPiece::parseVocabTxt(const std::string& text, const std::string& name, LmWordPieceOptions options) {
    // Python's readlines in text mode: \n, \r\n and \r end a line; the line break is not the token's.
    std::vector<std::string> vocab;
    std::size_t pos = 0;
    long line = 0;
    while (pos < text.size()) {
        ++line;
        std::size_t end = text.find_first_of("\r\n", pos);
        if (end == std::string::npos) end = text.size();
        std::string token = text.substr(pos, end - pos);
        if (const std::size_t bad = findInvalidUtf8(token); bad != std::string::npos)
            throw InputError(name, line, "not valid UTF-8 (byte " + std::to_string(bad + 1) + " of the line)");
        vocab.push_back(std::move(token));
        pos = end;
        if (pos < text.size()) pos += text.compare(pos, 2, "\r\n") == 0 ? 2 : 1;
    }
    if (vocab.empty()) throw InputError(name, 0, "empty: a vocab.txt holds one token per line");
    return LmWordPiece(std::move(vocab), std::move(options), name);
}

void LmWordPiece::applyTokenizerConfig(const std::string& json, const std::string& name, LmWordPieceOptions& options) {
    const nlohmann::json j = bertParseJson(json, name);
    if (!j.is_object()) throw InputError(name, 0, "not a JSON object");
    auto flag = [&](const char* key) -> std::optional<bool> {
        if (!j.contains(key) || j[key].is_null()) return std::nullopt;
        if (!j[key].is_boolean()) throw InputError(name, 0, std::string(key) + " is not true or false");
        return j[key].get<bool>();
    };
    if (auto v = flag("do_lower_case")) options.lowerCase = *v;
    if (j.contains("strip_accents")) options.stripAccents = flag("strip_accents");
    if (auto v = flag("tokenize_chinese_chars")) options.chineseChars = *v;
    if (j.contains("max_input_chars_per_word") && j["max_input_chars_per_word"].is_number_integer())
        options.maxInputCharsPerWord = j["max_input_chars_per_word"].get<int>();
}

LmWordPiece LmWordPiece::parseTokenizerJson(const std::string& json, const std::string& name) {
    const nlohmann::json j = bertParseJson(json, name);
    if (!j.is_object() || !j.contains("model") || !j["model"].is_object())
        throw InputError(name, 0, "no \"model\" object (a Hugging Face tokenizer.json has one)");
    const nlohmann::json& model = j["model"];
    const std::string type = model.contains("type") && model["type"].is_string() ? model["type"].get<std::string>() : "";
    if (type != "WordPiece")
        throw InputError(name, 0, "model.type is \"" + type + "\", not \"WordPiece\" (BERT's tokenizer)");
    if (!model.contains("vocab") || !model["vocab"].is_object() || model["vocab"].empty())
        throw InputError(name, 0, "model.vocab is not an object of tokens and ids");
    LmWordPieceOptions options;
    if (model.contains("unk_token") && model["unk_token"].is_string()) options.unkToken = model["unk_token"];
    if (model.contains("continuing_subword_prefix") && model["continuing_subword_prefix"].is_string())
        options.continuingPrefix = model["continuing_subword_prefix"];
    if (model.contains("max_input_chars_per_word") && model["max_input_chars_per_word"].is_number_integer())
        options.maxInputCharsPerWord = model["max_input_chars_per_word"].get<int>();
    const nlohmann::json& vocabJson = model["vocab"];
    std::vector<std::string> vocab(vocabJson.size());
    std::vector<bool> seen(vocabJson.size(), false);
    for (const auto& [token, value] : vocabJson.items()) {
        if (!value.is_number_integer() || value.get<long long>() < 0 ||
            value.get<long long>() >= static_cast<long long>(vocab.size()))
            throw InputError(name, 0, "model.vocab[\"" + token + "\"] is not an id in 0.." +
                                          std::to_string(vocab.size() - 1));
        const auto i = static_cast<std::size_t>(value.get<long long>());
        if (seen[i]) throw InputError(name, 0, "model.vocab: id " + std::to_string(i) + " is given twice");
        seen[i] = true;
        vocab[i] = token;
    }
    if (j.contains("normalizer") && !j["normalizer"].is_null()) {
        const nlohmann::json& n = j["normalizer"];
        if (!n.is_object() || n.value("type", std::string()) != "BertNormalizer")
            throw InputError(name, 0, "normalizer is not a BertNormalizer");
        auto flag = [&](const char* key) -> std::optional<bool> {
            if (!n.contains(key) || n[key].is_null()) return std::nullopt;
            if (!n[key].is_boolean()) throw InputError(name, 0, std::string("normalizer.") + key + " is not true or false");
            return n[key].get<bool>();
        };
        if (auto v = flag("lowercase")) options.lowerCase = *v;
        options.stripAccents = flag("strip_accents");
        if (auto v = flag("handle_chinese_chars")) options.chineseChars = *v;
        if (auto v = flag("clean_text")) options.cleanText = *v;
    }
    return LmWordPiece(std::move(vocab), std::move(options), name);
}

LmWordPiece LmWordPiece::load(const std::string& directory) {
    namespace fs = std::filesystem;
    const fs::path dir(directory);
    std::error_code ec;
    const std::string vocabTxt = (dir / "vocab.txt").string(), tokenizerJson = (dir / "tokenizer.json").string(),
                      config = (dir / "tokenizer_config.json").string();
    LmWordPieceOptions options;
    if (fs::exists(config, ec)) applyTokenizerConfig(readFileLimited(config, kBertMaxFileBytes), config, options);
    if (fs::exists(vocabTxt, ec)) {
        return parseVocabTxt(readFileLimited(vocabTxt, kBertMaxFileBytes), vocabTxt, options);
    }
    if (fs::exists(tokenizerJson, ec)) {
        LmWordPiece t = parseTokenizerJson(readFileLimited(tokenizerJson, kBertMaxFileBytes), tokenizerJson);
        if (fs::exists(config, ec)) {
            LmWordPieceOptions o = t.options_;
            applyTokenizerConfig(readFileLimited(config, kBertMaxFileBytes), config, o);
            t.options_ = o;
        }
        return t;
    }
    throw InputError(directory, 0, "no vocab.txt or tokenizer.json (BERT's vocabulary)");
}

}  // namespace attnlab
