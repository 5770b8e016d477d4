// cleanGettextMessage and its helpers: a gettext message as a user reads it on screen, without
// accelerators, format directives, markup tags and XML entities, its white space collapsed
// (what each step removes is documented in Gettext.h). Also the letter test the parsers use to
// drop messages with no words (gettext_detail::hasLetter).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "Gettext.h"
#include "GettextDetail.h"
#include "base/Tokenizer.h"

namespace attnlab {

namespace {

using gettext_detail::isAsciiDigit;
using gettext_detail::isAsciiLetter;

bool inRange(char32_t cp, char32_t lo, char32_t hi) { return cp >= lo && cp <= hi; }

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

}  // namespace

namespace gettext_detail {

bool hasLetter(const std::string& s) {
    for (std::size_t pos = 0; pos < s.size();)
        if (isLetterCodePoint(decodeUtf8(s, pos))) return true;
    return false;
}

}  // namespace gettext_detail

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

}  // namespace attnlab
