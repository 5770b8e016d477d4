// GNU gettext catalogues, read with our own code from the layouts the GNU gettext manual
// documents:
//
// .mo ("The Format of GNU MO Files"): a header of 32-bit words in the byte order of the
// machine that wrote it, which the magic number 0x950412de tells: magic, revision (major in
// the high 16 bits; 0 and 1 are defined, 1 adds system-dependent strings we do not need), N
// strings, offset O of the originals' table, offset T of the translations' table, hash table
// size and offset (unused here). Each table holds N (length, offset) pairs; a string is
// `length` bytes at `offset` (a NUL follows, not counted). An original "ctxt\x04id" has a
// context, "id\0plural" is a plural entry (its translation is "form0\0form1..."), the empty
// original is the header (its translation holds "Content-Type: ...; charset=...").
//
// .po ("The Format of PO Files"): entries of `msgctxt`, `msgid`, `msgid_plural`, `msgstr` or
// `msgstr[N]` keywords each followed by a C string, continued by lines holding only a string;
// `#` starts a comment, `#,` lists flags (fuzzy), `#~` marks an obsolete entry.
//
// Every length and offset from a file is checked against the file's size in 64-bit arithmetic
// before it is used, so a damaged file is an InputError, never a read out of bounds.
#include "Gettext.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <set>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

#include "Corpus.h"  // kMaxLineBytes
#include "FileUtil.h"
#include "InputError.h"
#include "Tokenizer.h"

namespace attnlab {

namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kMoMagic = 0x950412de;
constexpr std::uint64_t kMoHeaderBytes = 28;
// A message longer than this in bytes is too long whatever cleaning would take out of it.
constexpr std::size_t kMaxRawBytes = 16 * 1024;

std::string hex32(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", static_cast<unsigned>(v));
    return buf;
}

std::string hexByte(unsigned char b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned>(b));
    return buf;
}

bool inRange(char32_t cp, char32_t lo, char32_t hi) { return cp >= lo && cp <= hi; }

bool isAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isAsciiDigit(char c) { return c >= '0' && c <= '9'; }
bool isAsciiUpper(char c) { return c >= 'A' && c <= 'Z'; }

// A letter of some script, roughly: ASCII letters, and from U+00AA up anything that is not
// white space, punctuation, a symbol block, a combining mark, a full-width digit or private use.
// Good enough to tell "Open" and "打开" from "%s: %s", "100%" and "→".
bool isLetterCodePoint(char32_t cp) {
    if (cp < 0x80) return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
    if (cp < 0xC0) return cp == 0xAA || cp == 0xB5 || cp == 0xBA;
    if (cp == 0xD7 || cp == 0xF7 || cp == 0xFFFD) return false;
    if (isWhitespaceCodePoint(cp) || isPunctuationCodePoint(cp)) return false;
    return !(inRange(cp, 0x0300, 0x036F) ||    // combining diacritics
             inRange(cp, 0x2000, 0x2BFF) ||    // punctuation, currency, arrows, maths, box drawing, dingbats
             inRange(cp, 0x3000, 0x3004) || inRange(cp, 0x3008, 0x303F) ||  // CJK symbols (not 々〆〇)
             inRange(cp, 0xE000, 0xF8FF) ||    // private use
             inRange(cp, 0xFE00, 0xFE4F) ||    // variation selectors, vertical forms
             inRange(cp, 0xFF00, 0xFF20) || inRange(cp, 0xFF3B, 0xFF40) || inRange(cp, 0xFF5B, 0xFF65) ||
             inRange(cp, 0xFFF0, 0xFFFF) || inRange(cp, 0x1F000, 0x1FAFF));  // specials, emoji
}

bool hasLetter(const std::string& s) {
    for (std::size_t pos = 0; pos < s.size();)
        if (isLetterCodePoint(decodeUtf8(s, pos))) return true;
    return false;
}

// The code point at s[pos] (pos < s.size()), without moving.
char32_t peek(const std::string& s, std::size_t pos) { return decodeUtf8(s, pos); }

// ---------------------------------------------------------------- cleaning

// Tag names of Pango markup, HTML and Qt rich text; only these are markup. Block-level ones
// separate words, so they become a space.
bool isMarkupTag(const std::string& lowerName, bool& block) {
    static const std::set<std::string> inlineTags = {"a",    "b",     "big",  "i",    "s",      "sub",  "sup",
                                                     "small", "tt",   "u",    "span", "markup", "em",   "strong",
                                                     "code", "font",  "kbd",  "var",  "nobr",   "img",  "qt",
                                                     "html", "body",  "head", "cite", "strike", "del",  "ins",
                                                     "abbr", "label", "link", "q"};
    static const std::set<std::string> blockTags = {"br", "p",  "div", "li", "ul", "ol", "tr", "td", "th", "table",
                                                    "hr", "h1", "h2",  "h3", "h4", "h5", "h6", "pre", "blockquote",
                                                    "center", "dl", "dt", "dd"};
    block = blockTags.count(lowerName) > 0;
    return block || inlineTags.count(lowerName) > 0;
}

// The length of a markup tag at s[pos] ('<'), or 0: "<b>", "</span>", "<br/>", "<span weight="bold">".
std::size_t markupTagLength(const std::string& s, std::size_t pos, bool& block) {
    std::size_t i = pos + 1;
    if (i < s.size() && s[i] == '/') ++i;
    const std::size_t nameStart = i;
    while (i < s.size() && (isAsciiLetter(s[i]) || (i > nameStart && isAsciiDigit(s[i])))) ++i;
    if (i == nameStart) return 0;
    std::string name = s.substr(nameStart, i - nameStart);
    for (char& c : name) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    if (!isMarkupTag(name, block)) return 0;
    if (i < s.size() && s[i] != '>' && s[i] != '/' && s[i] != ' ' && s[i] != '\t' && s[i] != '\n') return 0;
    // Attributes up to '>', quotes respected; a tag is short (a link's address at most).
    char quote = 0;
    for (; i < s.size() && i - pos < 512; ++i) {
        const char c = s[i];
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '<') {
            return 0;
        } else if (c == '>') {
            return i + 1 - pos;
        }
    }
    return 0;
}

// "(_O)" and "(&O)", the accelerator suffix of CJK translations ("打开(_O)"), ASCII or full-width parentheses.
std::size_t parenAcceleratorLength(const std::string& s, std::size_t pos) {
    static const std::string open = "\xEF\xBC\x88", close = "\xEF\xBC\x89";  // （ ）
    std::size_t i = pos;
    if (s[i] == '(') {
        ++i;
    } else if (s.compare(i, open.size(), open) == 0) {
        i += open.size();
    } else {
        return 0;
    }
    if (i + 2 > s.size() || (s[i] != '_' && s[i] != '&') || !(isAsciiLetter(s[i + 1]) || isAsciiDigit(s[i + 1])))
        return 0;
    i += 2;
    if (i < s.size() && s[i] == ')') return i + 1 - pos;
    if (s.compare(i, close.size(), close) == 0) return i + close.size() - pos;
    return 0;
}

// Whether the '_' at text[pos], the message's only one, marks a GTK accelerator. At the start of
// a word it does ("_Open", "Save _As", "_Файл"); inside a word only in a short label that starts
// with a capital ("E_xit", "Page act_uelle"), as identifiers are lower case or join capitals
// ("obey_child is FALSE", "it_lld", "KP_Enter"). Before a non-letter it never does ("with _ characters").
bool isUnderscoreAccelerator(const std::string& text, std::size_t pos) {
    if (pos + 1 >= text.size() || !isLetterCodePoint(peek(text, pos + 1))) return false;
    if (pos == 0) return true;
    std::size_t start = pos - 1;
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    const char32_t before = peek(text, start);
    if (!isLetterCodePoint(before)) return !(before >= '0' && before <= '9');
    if (before < 0x80 && isAsciiUpper(static_cast<char>(before)) && isAsciiUpper(text[pos + 1])) return false;
    if (std::count(text.begin(), text.end(), ' ') >= 4) return false;  // more than four words: a sentence
    for (std::size_t p = 0; p < text.size();) {
        const char32_t cp = decodeUtf8(text, p);
        if (isLetterCodePoint(cp)) return !(cp >= 'a' && cp <= 'z');
    }
    return false;
}

// The length of a format directive at s[pos] ('%'), or 0. "%%" is handled by the caller.
std::size_t percentDirectiveLength(const std::string& s, std::size_t pos) {
    std::size_t i = pos + 1;
    auto digits = [&] {
        const std::size_t start = i;
        while (i < s.size() && isAsciiDigit(s[i])) ++i;
        return i > start;
    };
    if (i < s.size() && s[i] == '(') {  // Python: %(name)s
        std::size_t close = i + 1;
        while (close < s.size() && (isAsciiLetter(s[close]) || isAsciiDigit(s[close]) || s[close] == '_')) ++close;
        if (close >= s.size() || s[close] != ')') return 0;
        i = close + 1;
    } else {
        const std::size_t save = i;
        if (digits() && i < s.size() && s[i] == '$')
            ++i;  // %1$s: an argument number
        else
            i = save;
    }
    while (i < s.size() && s[i] != '\0' && std::strchr("-+#0'I", s[i])) ++i;  // flags, not ' ': "50% of" is text
    if (i < s.size() && s[i] == '*') {
        ++i;
        const std::size_t save = i;
        if (digits() && i < s.size() && s[i] == '$') ++i;
        else i = save;
    } else {
        digits();
    }
    if (i < s.size() && s[i] == '.') {
        ++i;
        if (i < s.size() && s[i] == '*') ++i;
        else digits();
    }
    static const char* const lengths[] = {"hh", "ll", "h", "l", "L", "q", "j", "z", "Z", "t"};
    for (const char* m : lengths) {
        const std::size_t n = std::strlen(m);
        if (s.compare(i, n, m) == 0) {
            i += n;
            break;
        }
    }
    // Any letter: printf's conversions, and strftime's ("%b %H:%M %Y") and find's, which catalogues hold too.
    if (i < s.size() && isAsciiLetter(s[i])) return i + 1 - pos;
    if (i < s.size() && s[i] == '<') {  // %<PRIu64>, a .po's portable integer directive
        std::size_t k = i + 1;
        while (k < s.size() && (isAsciiLetter(s[k]) || isAsciiDigit(s[k]) || s[k] == '_')) ++k;
        if (k > i + 1 && k < s.size() && s[k] == '>') return k + 1 - pos;
    }
    // Qt: %1 .. %99 and %L1 (no conversion letter follows in a Qt string).
    i = pos + 1;
    if (i < s.size() && s[i] == 'L') ++i;
    const std::size_t start = i;
    if (digits() && i - start <= 2) return i - pos;
    return 0;
}

// The length of a brace field at s[pos] ('{'), or 0: "{}", "{0}", "{name}", "{0:>5}", "{name!r}".
std::size_t braceFieldLength(const std::string& s, std::size_t pos) {
    std::size_t i = pos + 1;
    while (i < s.size() && (isAsciiLetter(s[i]) || isAsciiDigit(s[i]) || s[i] == '_' || s[i] == '.')) ++i;
    if (i < s.size() && (s[i] == ':' || s[i] == '!')) {
        const std::size_t limit = std::min(s.size(), i + 24);
        while (i < limit && s[i] != '}' && s[i] != '{' && s[i] != ' ') ++i;
    }
    return i < s.size() && s[i] == '}' ? i + 1 - pos : 0;
}

// An XML entity at s[pos] ('&'): appends what it stands for and returns its length, or 0.
std::size_t entityLength(const std::string& s, std::size_t pos, std::string& out) {
    std::size_t semi = pos + 1;
    while (semi < s.size() && semi - pos <= 10 && s[semi] != ';') ++semi;  // "&#x10FFFF;" is the longest
    if (semi >= s.size() || s[semi] != ';') return 0;
    const std::string name = s.substr(pos + 1, semi - pos - 1);
    static const std::pair<const char*, const char*> named[] = {
        {"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""}, {"apos", "'"}, {"nbsp", " "}};
    for (const auto& [n, text] : named) {
        if (name == n) {
            out += text;
            return semi + 1 - pos;
        }
    }
    if (name.size() < 2 || name[0] != '#') return 0;
    const bool hex = name[1] == 'x' || name[1] == 'X';
    const std::size_t first = hex ? 2 : 1;
    if (first >= name.size()) return 0;
    std::uint32_t cp = 0;
    for (std::size_t k = first; k < name.size(); ++k) {
        const char c = name[k];
        int v = -1;
        if (isAsciiDigit(c)) v = c - '0';
        else if (hex && c >= 'a' && c <= 'f') v = c - 'a' + 10;
        else if (hex && c >= 'A' && c <= 'F') v = c - 'A' + 10;
        if (v < 0) return 0;
        cp = cp * (hex ? 16 : 10) + static_cast<std::uint32_t>(v);
        if (cp > 0x10FFFF) return 0;
    }
    if (cp < 0x20 || inRange(cp, 0xD800, 0xDFFF)) return 0;  // controls and surrogates stay literal text
    appendUtf8(out, cp);
    return semi + 1 - pos;
}

// Where a directive was taken out: a space inside a word ("Size%sUsed" -> "Size Used"), none after
// an opening bracket ("(%d%%)" -> "(%)"), and none before closing punctuation ("Hello {name}," -> "Hello,").
void separate(std::string& out, const std::string& text, std::size_t next) {
    if (next < text.size() && std::strchr(")]},.:;!?", text[next])) {
        if (!out.empty() && out.back() == ' ') out.pop_back();
        return;
    }
    if (out.empty() || next >= text.size() || std::strchr(" ([{", out.back()) || text[next] == ' ' || text[next] == '%')
        return;
    out += ' ';
}

// Spaces for every kind of white space and control character, runs collapsed, ends trimmed.
std::string collapseSpaces(const std::string& s) {
    std::string out;
    bool space = false;
    for (std::size_t pos = 0; pos < s.size();) {
        const std::size_t start = pos;
        const char32_t cp = decodeUtf8(s, pos);
        if (isWhitespaceCodePoint(cp) || cp < 0x20 || cp == 0x7F || inRange(cp, 0x80, 0x9F)) {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out.append(s, start, pos - start);
    }
    return out;
}

// Quotes and brackets that held only a directive: "Cannot open “%s”" -> "Cannot open “ ”" -> "Cannot open".
std::string dropEmptyPairs(const std::string& s) {
    static const std::pair<const char*, const char*> pairs[] = {
        {"\"", "\""}, {"'", "'"}, {"`", "'"}, {"\u201C", "\u201D"}, {"\u2018", "\u2019"}, {"\u201E", "\u201C"},
        {"\u00AB", "\u00BB"}, {"\u00BB", "\u00AB"}, {"\u300C", "\u300D"}, {"\u300E", "\u300F"}, {"(", ")"},
        {"[", "]"}, {"\uFF08", "\uFF09"}};
    static const std::vector<std::string> empties = [] {
        std::vector<std::string> v;
        for (const auto& [open, close] : pairs) {
            v.push_back(std::string(open) + close);
            v.push_back(std::string(open) + " " + close);
        }
        return v;
    }();
    if (s.find_first_of("\"'`([\xE2\xC2\xE3\xEF") == std::string::npos) return s;  // no opening mark at all
    std::string out = s;
    for (bool changed = true; changed;) {  // "(“%s”)" empties twice
        changed = false;
        for (const std::string& empty : empties) {
            for (std::size_t at = out.find(empty); at != std::string::npos; at = out.find(empty, at)) {
                out.replace(at, empty.size(), " ");
                changed = true;
            }
        }
    }
    return out;
}

std::size_t codePoints(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

std::size_t words(const std::string& s) {
    return s.empty() ? 0 : static_cast<std::size_t>(std::count(s.begin(), s.end(), ' ')) + 1;
}

// ---------------------------------------------------------------- charsets

enum class Charset { Utf8, Latin1, Latin9 };

// The charset a header names ("Content-Type: text/plain; charset=UTF-8"); UTF-8 if none.
// Throws InputError for one we cannot convert.
Charset headerCharset(const std::string& header, const std::string& name, long line) {
    std::string lower = header;
    for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    const std::size_t at = lower.find("charset=");
    if (at == std::string::npos) return Charset::Utf8;
    std::size_t end = at + 8;
    while (end < lower.size() && lower[end] != ' ' && lower[end] != ';' && lower[end] != '\n' && lower[end] != '\r' &&
           lower[end] != '\t')
        ++end;
    const std::string cs = lower.substr(at + 8, end - at - 8);
    // "charset" is the placeholder of a template (.pot) that nobody filled in.
    if (cs.empty() || cs == "utf-8" || cs == "utf8" || cs == "ascii" || cs == "us-ascii" || cs == "ansi_x3.4-1968" ||
        cs == "charset")
        return Charset::Utf8;
    if (cs == "iso-8859-1" || cs == "iso8859-1" || cs == "iso_8859-1" || cs == "latin1" || cs == "latin-1")
        return Charset::Latin1;
    if (cs == "iso-8859-15" || cs == "iso8859-15" || cs == "iso_8859-15" || cs == "latin9" || cs == "latin-9")
        return Charset::Latin9;
    std::string shown = header.substr(at + 8, std::min<std::size_t>(end - at - 8, 40));
    for (char& c : shown)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F) c = '?';
    throw InputError(name, line,
                     "charset " + shown +
                         " is not supported (UTF-8, ASCII, ISO-8859-1 and ISO-8859-15 are); convert it with msgconv "
                         "--to-code=UTF-8");
}

std::string toUtf8(const std::string& s, Charset charset) {
    if (charset == Charset::Utf8) return s;
    std::string out;
    out.reserve(s.size() + s.size() / 4);
    for (unsigned char b : s) {
        char32_t cp = b;
        if (charset == Charset::Latin9) {
            switch (b) {  // where ISO-8859-15 differs from ISO-8859-1
                case 0xA4: cp = 0x20AC; break;
                case 0xA6: cp = 0x0160; break;
                case 0xA8: cp = 0x0161; break;
                case 0xB4: cp = 0x017D; break;
                case 0xB8: cp = 0x017E; break;
                case 0xBC: cp = 0x0152; break;
                case 0xBD: cp = 0x0153; break;
                case 0xBE: cp = 0x0178; break;
                default: break;
            }
        }
        appendUtf8(out, cp);
    }
    return out;
}

// ---------------------------------------------------------------- collecting pairs

// The pairs of one catalogue and its report; applies the content checks (after the structural
// ones, which each parser makes) and the deduplication.
class Collector {
public:
    explicit Collector(GettextReport& report) : report_(report) {}

    void skip(GettextSkip reason) { ++report_.skipped[reason]; }

    // An entry that is one message with one translation, both UTF-8.
    void offer(const std::string& rawEnglish, const std::string& rawTranslation) {
        if (rawTranslation.empty()) return skip(GettextSkip::Untranslated);
        // Far too long to clean down to a sentence, and not worth cleaning (a --help text, a licence).
        if (rawEnglish.size() > kMaxRawBytes || rawTranslation.size() > kMaxRawBytes) return skip(GettextSkip::TooLong);
        if (findInvalidUtf8(rawEnglish) != std::string::npos || findInvalidUtf8(rawTranslation) != std::string::npos)
            return skip(GettextSkip::InvalidUtf8);
        GettextPair pair{cleanGettextMessage(rawEnglish), cleanGettextMessage(rawTranslation)};
        if (!hasLetter(pair.english) || !hasLetter(pair.translation)) return skip(GettextSkip::NoLetters);
        for (const std::string* side : {&pair.english, &pair.translation})
            if (codePoints(*side) > kMaxGettextChars || words(*side) > kMaxGettextWords) return skip(GettextSkip::TooLong);
        if (!seen_.insert(pair.english).second) return skip(GettextSkip::Duplicate);
        ++report_.kept;
        pairs_.push_back(std::move(pair));
    }

    std::vector<GettextPair> take() { return std::move(pairs_); }

private:
    GettextReport& report_;
    std::unordered_set<std::string> seen_;
    std::vector<GettextPair> pairs_;
};

// ---------------------------------------------------------------- .mo

class MoReader {
public:
    MoReader(const std::string& bytes, const std::string& name) : bytes_(bytes), name_(name) {
        const std::uint64_t size = bytes_.size();
        if (size < 4) fail("truncated header (" + std::to_string(size) + " bytes; a .mo file starts with a 28-byte header)");
        const std::uint32_t little = word(0, false);
        if (little == kMoMagic) {
            big_ = false;
        } else if (word(0, true) == kMoMagic) {
            big_ = true;
        } else {
            fail("wrong magic number " + hex32(little) + " (not a GNU .mo file; expected 0x950412de in either byte order)");
        }
        if (size < kMoHeaderBytes)
            fail("truncated header (" + std::to_string(size) + " bytes; a .mo file starts with a 28-byte header)");
        const std::uint32_t revision = word(4);
        if ((revision >> 16) > 1)
            fail("unsupported .mo revision " + std::to_string(revision >> 16) + "." + std::to_string(revision & 0xFFFF) +
                 " (major revisions 0 and 1 are defined)");
        count_ = word(8);
        originals_ = word(12);
        translations_ = word(16);
        // Each string takes 8 bytes in each table: more than size / 16 cannot be there.
        if (count_ > (size - kMoHeaderBytes) / 16)
            fail("absurd string count " + std::to_string(count_) + " for a file of " + std::to_string(size) + " bytes");
        checkTable("original", originals_);
        checkTable("translation", translations_);
    }

    std::uint32_t count() const { return count_; }
    std::string original(std::uint32_t i) const { return string("original", originals_, i); }
    std::string translation(std::uint32_t i) const { return string("translation", translations_, i); }

private:
    [[noreturn]] void fail(const std::string& reason) const { throw InputError(name_, 0, reason); }

    // The 32-bit word at `offset`; the caller has checked offset + 4 <= size.
    std::uint32_t word(std::uint64_t offset) const { return word(offset, big_); }
    std::uint32_t word(std::uint64_t offset, bool big) const {
        std::uint32_t v = 0;
        for (int k = 0; k < 4; ++k) {
            const auto b = static_cast<unsigned char>(bytes_[static_cast<std::size_t>(offset) + static_cast<std::size_t>(k)]);
            v |= static_cast<std::uint32_t>(b) << (big ? 8 * (3 - k) : 8 * k);
        }
        return v;
    }

    void checkTable(const char* which, std::uint32_t offset) const {
        const std::uint64_t end = static_cast<std::uint64_t>(offset) + 8ull * count_;
        if (end > bytes_.size())
            fail(std::string("table of ") + which + " strings (" + std::to_string(count_) + " entries at offset " +
                 std::to_string(offset) + ") runs past the end of the file (" + std::to_string(bytes_.size()) + " bytes)");
    }

    std::string string(const char* which, std::uint32_t table, std::uint32_t i) const {
        const std::uint64_t entry = static_cast<std::uint64_t>(table) + 8ull * i;
        const std::uint32_t length = word(entry), offset = word(entry + 4);
        if (static_cast<std::uint64_t>(offset) + length > bytes_.size())
            fail(std::string(which) + " string " + std::to_string(i) + " (" + std::to_string(length) +
                 " bytes at offset " + std::to_string(offset) + ") runs past the end of the file (" +
                 std::to_string(bytes_.size()) + " bytes)");
        return bytes_.substr(offset, length);
    }

    const std::string& bytes_;
    const std::string& name_;
    bool big_ = false;
    std::uint32_t count_ = 0, originals_ = 0, translations_ = 0;
};

// ---------------------------------------------------------------- .po

// The lines of a .po text, with the checks Corpus.cpp's reader makes (BOM, CRLF, UTF-8, NUL,
// 64 KiB per line).
class PoLines {
public:
    PoLines(const std::string& text, const std::string& name) : text_(text), name_(name) {
        if (text_.compare(0, 2, "\xFF\xFE") == 0 || text_.compare(0, 2, "\xFE\xFF") == 0)
            throw InputError(name_, 1, "looks like UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8");
        if (text_.compare(0, 2, "\x1F\x8B") == 0) throw InputError(name_, 1, "looks gzip-compressed; decompress it first");
        if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3;
    }

    bool next(std::string& line) {
        if (pos_ >= text_.size()) return false;
        const std::size_t newline = text_.find('\n', pos_);
        const std::size_t end = newline == std::string::npos ? text_.size() : newline;
        std::size_t length = end - pos_;
        if (length > 0 && text_[end - 1] == '\r') --length;
        ++number_;
        if (length > kMaxLineBytes)
            throw InputError(name_, number_, "line is longer than 64 KiB (" + std::to_string(length) + " bytes)");
        line.assign(text_, pos_, length);
        pos_ = newline == std::string::npos ? text_.size() : newline + 1;
        for (std::size_t p = 0; p < line.size();) {
            const auto b = static_cast<unsigned char>(line[p]);
            if (b >= 0x20 && b < 0x80) {
                ++p;
                continue;
            }
            const std::string at = " at byte " + std::to_string(p + 1);
            if (b == 0) throw InputError(name_, number_, "NUL byte" + at + " (is this a binary file?)");
            if (b == '\r')
                throw InputError(name_, number_,
                                 "carriage return inside the line" + at + " (only LF or CRLF line ends are supported)");
            if (b < 0x80) {
                ++p;
                continue;
            }
            const std::size_t start = p;
            decodeUtf8(line, p);
            if (p == start + 1)
                throw InputError(name_, number_, "invalid UTF-8" + at + " (" + hexByte(b) + "); the file must be UTF-8");
        }
        return true;
    }

    long number() const { return number_; }

private:
    const std::string& text_;
    const std::string& name_;
    std::size_t pos_ = 0;
    long number_ = 0;
};

struct PoEntry {
    bool hasContext = false, hasId = false, hasPlural = false, fuzzy = false, obsolete = false;
    std::string context, id, plural;
    std::vector<std::string> strs;  // msgstr, or msgstr[0], msgstr[1], ...
    long line = 0;                  // of its first keyword
    bool empty() const { return !hasContext && !hasId && strs.empty(); }
};

class PoParser {
public:
    PoParser(const std::string& text, const std::string& name, Collector& out, GettextReport& report)
        : lines_(text, name), name_(name), out_(out), report_(report) {}

    void run() {
        std::string line;
        while (lines_.next(line)) {
            line_ = lines_.number();
            std::size_t pos = skipSpaces(line, 0);
            if (pos == line.size()) {  // blank: ends a string's continuation
                target_ = nullptr;
                continue;
            }
            bool obsolete = false;
            if (line[pos] == '#') {
                if (pos + 1 < line.size() && line[pos + 1] == '~') {
                    pos += 2;
                    if (pos < line.size() && line[pos] == '|') {  // the previous msgid of an obsolete entry
                        target_ = nullptr;
                        continue;
                    }
                    pos = skipSpaces(line, pos);
                    if (pos == line.size()) continue;
                    obsolete = true;
                } else {
                    comment(line, pos);
                    continue;
                }
            }
            if (line[pos] == '"') {
                if (!target_) fail("a string with no keyword (msgid, msgstr, ...) before it");
                *target_ += readString(line, pos);
                continue;
            }
            keyword(line, pos, obsolete);
        }
        line_ = lines_.number();
        if (entry_.hasContext && !entry_.hasId) fail(entry_.line, "msgctxt without msgid");
        if (entry_.hasId && entry_.strs.empty()) fail(entry_.line, "msgid without msgstr");
        finish();
    }

private:
    [[noreturn]] void fail(const std::string& reason) const { throw InputError(name_, line_, reason); }
    [[noreturn]] void fail(long line, const std::string& reason) const { throw InputError(name_, line, reason); }

    static std::size_t skipSpaces(const std::string& s, std::size_t pos) {
        while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t')) ++pos;
        return pos;
    }

    // A comment; "#," flags belong to the entry that follows.
    void comment(const std::string& line, std::size_t pos) {
        target_ = nullptr;
        if (!entry_.strs.empty()) finish();  // a comment after a msgstr starts the next entry
        if (line.compare(pos, 2, "#,") != 0) return;
        std::size_t start = pos + 2;
        while (start <= line.size()) {
            std::size_t end = line.find(',', start);
            if (end == std::string::npos) end = line.size();
            std::size_t a = skipSpaces(line, start), b = end;
            while (b > a && (line[b - 1] == ' ' || line[b - 1] == '\t')) --b;
            if (line.compare(a, b - a, "fuzzy") == 0 && b - a == 5) fuzzyNext_ = true;
            start = end + 1;
        }
    }

    void keyword(const std::string& line, std::size_t pos, bool obsolete) {
        std::size_t end = pos;
        while (end < line.size() && (isAsciiLetter(line[end]) || line[end] == '_' || isAsciiDigit(line[end]) ||
                                     line[end] == '[' || line[end] == ']'))
            ++end;
        const std::string word = line.substr(pos, end - pos);
        if (word.empty())
            fail("expected a keyword (msgctxt, msgid, msgid_plural, msgstr) or a string, found " + shown(line, pos));
        const std::size_t stringAt = skipSpaces(line, end);
        if (stringAt == line.size() || line[stringAt] != '"') {
            if (word == "msgctxt" || word == "msgid" || word == "msgid_plural" || word.rfind("msgstr", 0) == 0)
                fail("expected a string after " + word);
            fail("unknown keyword '" + word.substr(0, 40) + "'");
        }
        std::size_t at = stringAt;
        std::string value = readString(line, at);

        if (word == "msgctxt" || word == "msgid") {
            if (!entry_.strs.empty()) finish();
            if (word == "msgctxt") {
                if (entry_.hasContext || entry_.hasId)
                    fail(entry_.line, entry_.hasId ? "msgid without msgstr" : "msgctxt without msgid");
                begin(obsolete);
                entry_.hasContext = true;
                entry_.context = std::move(value);
                target_ = &entry_.context;
            } else {
                if (entry_.hasId) fail(entry_.line, "msgid without msgstr");
                if (!entry_.hasContext) begin(obsolete);
                entry_.hasId = true;
                entry_.id = std::move(value);
                target_ = &entry_.id;
            }
        } else if (word == "msgid_plural") {
            if (!entry_.hasId || !entry_.strs.empty() || entry_.hasPlural) fail("msgid_plural without msgid");
            entry_.hasPlural = true;
            entry_.plural = std::move(value);
            target_ = &entry_.plural;
        } else if (word == "msgstr" || isIndexedMsgstr(word)) {
            if (!entry_.hasId) fail("msgstr without msgid");
            if (word == "msgstr" && !entry_.strs.empty()) fail("a second msgstr in one entry");
            entry_.strs.push_back(std::move(value));
            target_ = &entry_.strs.back();
        } else {
            fail("unknown keyword '" + word.substr(0, 40) + "'");
        }
    }

    static bool isIndexedMsgstr(const std::string& w) {
        if (w.size() < 9 || w.compare(0, 7, "msgstr[") != 0 || w.back() != ']') return false;
        for (std::size_t k = 7; k + 1 < w.size(); ++k)
            if (!isAsciiDigit(w[k])) return false;
        return true;
    }

    // The whole code point at line[pos], for a message.
    static std::string codePointAt(const std::string& line, std::size_t pos) {
        std::size_t end = pos;
        decodeUtf8(line, end);
        return line.substr(pos, end - pos);
    }

    static std::string shown(const std::string& line, std::size_t pos) {
        std::size_t end = pos;
        const std::size_t limit = std::min(line.size(), pos + 20);
        while (end < limit) decodeUtf8(line, end);  // whole code points
        return "'" + line.substr(pos, end - pos) + (end < line.size() ? "...'" : "'");
    }

    void begin(bool obsolete) {
        entry_ = PoEntry{};
        entry_.obsolete = obsolete;
        entry_.fuzzy = fuzzyNext_;
        entry_.line = line_;
        fuzzyNext_ = false;
    }

    // The C string starting at line[pos] ('"'); moves pos past it and refuses anything after it.
    std::string readString(const std::string& line, std::size_t& pos) {
        std::string out;
        std::size_t i = pos + 1;
        for (;;) {
            if (i >= line.size()) fail("unterminated string (no closing \")");
            const char c = line[i];
            if (c == '"') break;
            if (c != '\\') {
                out += c;
                ++i;
                continue;
            }
            if (i + 1 >= line.size()) fail("unterminated string (a \\ ends the line)");
            const char e = line[i + 1];
            i += 2;
            switch (e) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'a': out += '\a'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'v': out += '\v'; break;
                case '\\': out += '\\'; break;
                case '"': out += '"'; break;
                case '\'': out += '\''; break;
                case '?': out += '?'; break;
                case 'x': {
                    int value = 0, n = 0;
                    for (; n < 2 && i < line.size() && std::isxdigit(static_cast<unsigned char>(line[i])); ++n, ++i) {
                        const char h = line[i];
                        value = value * 16 + (isAsciiDigit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
                    }
                    if (n == 0) fail("invalid escape \\x without hex digits");
                    if (value == 0) fail("invalid escape \\x00 (a NUL byte)");
                    out += static_cast<char>(value);
                    break;
                }
                default: {
                    if (e < '0' || e > '7') fail("invalid escape \\" + codePointAt(line, i - 1));
                    int value = e - '0';
                    for (int n = 1; n < 3 && i < line.size() && line[i] >= '0' && line[i] <= '7'; ++n, ++i)
                        value = value * 8 + (line[i] - '0');
                    if (value == 0) fail("invalid escape \\0 (a NUL byte)");
                    if (value > 0xFF) fail("invalid escape: octal value over 0377");
                    out += static_cast<char>(value);
                    break;
                }
            }
        }
        pos = skipSpaces(line, i + 1);
        if (pos != line.size()) fail("unexpected text after the string: " + shown(line, pos));
        return out;
    }

    void finish() {
        if (entry_.empty()) return;
        const PoEntry e = std::move(entry_);
        entry_ = PoEntry{};
        target_ = nullptr;
        ++report_.entries;
        for (const std::string* s : {&e.context, &e.id, &e.plural})
            if (findInvalidUtf8(*s) != std::string::npos) fail(e.line, "invalid UTF-8 in a string (made by an escape)");
        for (const std::string& s : e.strs)
            if (findInvalidUtf8(s) != std::string::npos) fail(e.line, "invalid UTF-8 in a string (made by an escape)");
        if (e.obsolete) return out_.skip(GettextSkip::Obsolete);
        if (!e.hasContext && e.id.empty()) {
            headerCharset(e.strs.front(), name_, e.line);  // refuses what we cannot read; the rest is UTF-8
            return out_.skip(GettextSkip::Header);
        }
        if (e.hasContext) return out_.skip(GettextSkip::Context);
        if (e.hasPlural || e.strs.size() > 1) return out_.skip(GettextSkip::Plural);
        if (e.fuzzy) return out_.skip(GettextSkip::Fuzzy);
        out_.offer(e.id, e.strs.front());
    }

    PoLines lines_;
    const std::string& name_;
    Collector& out_;
    GettextReport& report_;
    PoEntry entry_;
    std::string* target_ = nullptr;  // the string a continuation line extends
    bool fuzzyNext_ = false;
    long line_ = 0;
};

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool isEnglishVariant(const std::string& code) {
    return code == "en" || code.rfind("en_", 0) == 0 || code.rfind("en@", 0) == 0;
}

std::uint64_t uniformBelow(std::mt19937_64& rng, std::uint64_t bound) {
    const std::uint64_t threshold = (0 - bound) % bound;  // as Batching.cpp: the same on every machine
    for (;;) {
        const std::uint64_t r = rng();
        if (r >= threshold) return r % bound;
    }
}

// "a, b, c and 12 more" for messages.
std::string listed(const std::vector<std::string>& items, std::size_t shown = 12) {
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < shown; ++i) out += (i ? ", " : "") + items[i];
    if (items.size() > shown) out += " and " + std::to_string(items.size() - shown) + " more";
    return out.empty() ? "none" : out;
}

}  // namespace

const char* toString(GettextSkip reason) {
    switch (reason) {
        case GettextSkip::Obsolete: return "obsolete";
        case GettextSkip::Header: return "header";
        case GettextSkip::Context: return "context";
        case GettextSkip::Plural: return "plural";
        case GettextSkip::Fuzzy: return "fuzzy";
        case GettextSkip::Untranslated: return "untranslated";
        case GettextSkip::InvalidUtf8: return "invalid UTF-8";
        case GettextSkip::NoLetters: return "no letters";
        case GettextSkip::TooLong: return "too long";
        case GettextSkip::Duplicate: return "duplicate";
    }
    return "unknown";
}

long GettextReport::count(GettextSkip reason) const {
    const auto it = skipped.find(reason);
    return it == skipped.end() ? 0 : it->second;
}

void GettextReport::merge(const GettextReport& other) {
    entries += other.entries;
    kept += other.kept;
    catalogues += other.catalogues;
    for (const auto& [reason, n] : other.skipped) skipped[reason] += n;
    problems.insert(problems.end(), other.problems.begin(), other.problems.end());
}

std::string cleanGettextMessage(const std::string& message) {
    // Markup and "(_O)" first, so that what they hold cannot look like anything else.
    std::string text;
    text.reserve(message.size());
    for (std::size_t pos = 0; pos < message.size();) {
        const char c = message[pos];
        if (c != '<' && c != '(' && c != '\xEF') {  // the common case: nothing starts here
            text += c;
            ++pos;
            continue;
        }
        bool block = false;
        std::size_t n = 0;
        if (message[pos] == '<') n = markupTagLength(message, pos, block);
        if (n > 0) {
            if (block) text += ' ';
            pos += n;
            continue;
        }
        n = parenAcceleratorLength(message, pos);
        if (n > 0) {
            pos += n;
            continue;
        }
        text += message[pos++];
    }

    const bool oneUnderscore = std::count(text.begin(), text.end(), '_') == 1;
    std::string out;
    out.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();) {
        const char c = text[pos];
        if (c == '&') {
            if (pos + 1 < text.size() && text[pos + 1] == '&') {  // Qt's literal ampersand
                out += '&';
                pos += 2;
                continue;
            }
            const std::size_t n = entityLength(text, pos, out);
            if (n > 0) {
                pos += n;
                continue;
            }
            if (pos + 1 < text.size() && isLetterCodePoint(peek(text, pos + 1))) {  // "&Open"
                ++pos;
                continue;
            }
        } else if (c == '%') {
            if (pos + 1 < text.size() && text[pos + 1] == '%') {
                out += '%';
                pos += 2;
                continue;
            }
            const std::size_t n = percentDirectiveLength(text, pos);
            if (n > 0) {
                pos += n;
                separate(out, text, pos);
                continue;
            }
        } else if (c == '{') {
            const std::size_t n = braceFieldLength(text, pos);
            if (n > 0) {
                pos += n;
                separate(out, text, pos);
                continue;
            }
        } else if (c == '_' && oneUnderscore && isUnderscoreAccelerator(text, pos)) {
            ++pos;
            continue;
        }
        out += c;
        ++pos;
    }
    return collapseSpaces(dropEmptyPairs(collapseSpaces(out)));
}

std::vector<GettextPair> parseMo(const std::string& bytes, const std::string& name, GettextReport& report) {
    const MoReader mo(bytes, name);
    // Every string is checked before any pair is made: a damaged file gives nothing but its error.
    std::vector<std::pair<std::string, std::string>> entries;
    entries.reserve(mo.count());
    for (std::uint32_t i = 0; i < mo.count(); ++i) entries.emplace_back(mo.original(i), mo.translation(i));

    Charset charset = Charset::Utf8;
    for (const auto& [original, translation] : entries)
        if (original.empty()) charset = headerCharset(translation, name, 0);

    GettextReport local;
    Collector out(local);
    for (const auto& [original, translation] : entries) {
        ++local.entries;
        if (original.empty()) {
            out.skip(GettextSkip::Header);
        } else if (original.find('\x04') != std::string::npos) {
            out.skip(GettextSkip::Context);
        } else if (original.find('\0') != std::string::npos || translation.find('\0') != std::string::npos) {
            out.skip(GettextSkip::Plural);
        } else {
            out.offer(toUtf8(original, charset), toUtf8(translation, charset));
        }
    }
    ++local.catalogues;
    report.merge(local);
    return out.take();
}

std::vector<GettextPair> parsePo(const std::string& text, const std::string& name, GettextReport& report) {
    GettextReport local;
    Collector out(local);
    PoParser(text, name, out, local).run();
    ++local.catalogues;
    report.merge(local);  // only for a file that parsed: a refused one adds nothing
    return out.take();
}

std::vector<GettextPair> readGettextFile(const std::string& path, GettextReport& report) {
    const std::string bytes = readFileLimited(path, kMaxGettextFileBytes);
    bool mo = endsWith(path, ".mo");
    if (!mo && !endsWith(path, ".po") && !endsWith(path, ".pot") && bytes.size() >= 4) {
        const auto b = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
        mo = (b(0) == 0xde && b(1) == 0x12 && b(2) == 0x04 && b(3) == 0x95) ||
             (b(0) == 0x95 && b(1) == 0x04 && b(2) == 0x12 && b(3) == 0xde);
    }
    return mo ? parseMo(bytes, path, report) : parsePo(bytes, path, report);
}

std::vector<std::string> gettextCatalogues(const std::string& localeRoot, const std::string& lang) {
    std::vector<std::string> out;
    std::error_code ec;
    const fs::path dir = fs::path(localeRoot) / lang / "LC_MESSAGES";
    if (lang.empty() || lang.find('/') != std::string::npos || !fs::is_directory(dir, ec)) return out;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path& p = it->path();
        std::error_code fileEc;
        if (p.extension() == ".mo" && fs::is_regular_file(p, fileEc)) out.push_back(p.string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> gettextLanguages(const std::string& localeRoot) {
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(localeRoot, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string lang = it->path().filename().string();
        if (!gettextCatalogues(localeRoot, lang).empty()) out.push_back(lang);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<GettextPair> gettextTranslationPairs(const std::string& localeRoot, const std::string& lang,
                                                 GettextReport& report) {
    const std::vector<std::string> files = gettextCatalogues(localeRoot, lang);
    if (files.empty())
        throw InputError((fs::path(localeRoot) / lang / "LC_MESSAGES").string(), 0,
                         "no gettext catalogues (*.mo) for language '" + lang + "' (installed: " +
                             listed(gettextLanguages(localeRoot)) + ")");
    std::vector<GettextPair> pairs;
    std::unordered_set<std::string> seen;
    for (const std::string& file : files) {
        GettextReport local;
        std::vector<GettextPair> filePairs;
        try {
            filePairs = readGettextFile(file, local);
        } catch (const InputError& e) {
            report.problems.push_back(e.what());
            continue;
        }
        for (GettextPair& p : filePairs) {
            if (!seen.insert(p.english).second) {  // already given by an earlier catalogue
                --local.kept;
                ++local.skipped[GettextSkip::Duplicate];
                continue;
            }
            pairs.push_back(std::move(p));
        }
        report.merge(local);
    }
    return pairs;
}

ClassificationCorpus langidDataset(const std::string& localeRoot, const std::vector<std::string>& languages,
                                   std::size_t perLanguage, std::uint64_t seed, LangidReport* report) {
    if (perLanguage == 0) throw ConfigError("messages per language must be at least 1");
    LangidReport local;
    const bool chosen = !languages.empty();
    std::vector<std::string> codes;
    if (chosen) {
        codes = languages;
        std::sort(codes.begin(), codes.end());
        codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
    } else {
        for (const std::string& code : gettextLanguages(localeRoot))
            if (!isEnglishVariant(code)) codes.push_back(code);
    }

    // Each language's distinct translations that differ from their English.
    std::vector<std::vector<std::string>> texts(codes.size());
    std::unordered_map<std::string, int> languagesOf;
    for (std::size_t k = 0; k < codes.size(); ++k) {
        std::unordered_set<std::string> distinct;
        for (GettextPair& p : gettextTranslationPairs(localeRoot, codes[k], local.gettext)) {
            if (p.translation == p.english) {
                ++local.sameAsEnglish;
                continue;
            }
            if (distinct.insert(p.translation).second) texts[k].push_back(std::move(p.translation));
        }
        for (const std::string& t : texts[k]) ++languagesOf[t];
    }

    std::mt19937_64 rng(seed);
    ClassificationCorpus corpus;
    corpus.name = "langid";
    for (std::size_t k = 0; k < codes.size(); ++k) {
        std::vector<std::string> own;
        for (std::string& t : texts[k]) {
            if (languagesOf[t] > 1)
                ++local.shared;
            else
                own.push_back(std::move(t));
        }
        LangidLanguage info{codes[k], static_cast<long>(own.size()), 0};
        const std::size_t needed = chosen ? 1 : kLangidMinMessages;
        if (own.size() < needed) {
            local.leftOut.push_back(info);
            continue;
        }
        const std::size_t take = std::min(own.size(), perLanguage);
        for (std::size_t i = 0; i < take; ++i)  // a seeded partial Fisher-Yates: the first `take` are the sample
            std::swap(own[i], own[i + static_cast<std::size_t>(uniformBelow(rng, own.size() - i))]);
        for (std::size_t i = 0; i < take; ++i) corpus.examples.push_back({std::move(own[i]), codes[k], {}, 0});
        info.used = static_cast<long>(take);
        local.used.push_back(info);
    }

    if (local.used.size() < 2) {
        std::vector<std::string> found, small;
        for (const auto& l : local.used) found.push_back(l.code + " (" + std::to_string(l.available) + ")");
        for (const auto& l : local.leftOut) small.push_back(l.code + " (" + std::to_string(l.available) + ")");
        std::string reason = "language identification needs two or more languages with ";
        reason += chosen ? std::string("usable messages") : "at least " + std::to_string(kLangidMinMessages) + " usable messages";
        reason += "; found " + std::to_string(local.used.size()) + (found.empty() ? "" : ": " + listed(found));
        if (!small.empty()) reason += "; too few: " + listed(small);
        if (codes.empty()) reason += " (no gettext catalogues under LANG/LC_MESSAGES/)";
        throw InputError(localeRoot, 0, reason);
    }

    for (std::size_t i = corpus.examples.size(); i > 1; --i)
        std::swap(corpus.examples[i - 1], corpus.examples[static_cast<std::size_t>(uniformBelow(rng, i))]);
    corpus.labels = distinctLabels(corpus.examples);
    if (report) *report = std::move(local);
    return corpus;
}

}  // namespace attnlab
