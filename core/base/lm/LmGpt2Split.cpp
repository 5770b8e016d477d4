#include "base/lm/LmGpt2Split.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>

#include "base/Tokenizer.h"  // decodeUtf8

namespace attnlab {

namespace {

struct Gpt2ClassRange {
    char32_t first;
    char32_t last;
    unsigned char cls;  // LmCharClass
};

const Gpt2ClassRange kGpt2ClassRanges[] = {
#include "base/lm/LmUnicodeTable.inc"
};

LmCharClass gpt2ClassFromTable(char32_t cp) {
    const auto* end = std::end(kGpt2ClassRanges);
    // The first range that ends at or after cp.
    const auto* it = std::lower_bound(std::begin(kGpt2ClassRanges), end, cp,
                                      [](const Gpt2ClassRange& r, char32_t c) { return r.last < c; });
    if (it == end || it->first > cp) return LmCharClass::Other;
    return static_cast<LmCharClass>(it->cls);
}

// ASCII's classes, read from the table once.
const std::array<LmCharClass, 128>& gpt2AsciiClasses() {
    static const std::array<LmCharClass, 128> table = [] {
        std::array<LmCharClass, 128> t{};
        for (char32_t c = 0; c < 128; ++c) t[c] = gpt2ClassFromTable(c);
        return t;
    }();
    return table;
}

// The class and the length in bytes of the character at `pos` (< text.size()); an invalid byte is a
// character of one byte, of class Other (decodeUtf8 reads it as U+FFFD).
struct Gpt2Char {
    LmCharClass cls;
    std::size_t length;
};

Gpt2Char gpt2CharAt(const std::string& text, std::size_t pos) {
    const auto c = static_cast<unsigned char>(text[pos]);
    if (c < 0x80) return {gpt2AsciiClasses()[c], 1};
    std::size_t next = pos;
    const char32_t cp = decodeUtf8(text, next);
    return {next == pos + 1 ? LmCharClass::Other : gpt2ClassFromTable(cp), next - pos};
}

}  // namespace

LmCharClass lmCharClass(char32_t cp) { return cp < 128 ? gpt2AsciiClasses()[cp] : gpt2ClassFromTable(cp); }

std::size_t lmContractionLength(const std::string& text, std::size_t pos) {
    const std::size_t n = text.size();
    if (text[pos] != '\'' || pos + 1 >= n) return 0;
    const char c = text[pos + 1];
    if (c == 's' || c == 't' || c == 'm' || c == 'd') return 2;
    if (pos + 2 < n) {
        const char d = text[pos + 2];
        if ((c == 'r' && d == 'e') || (c == 'v' && d == 'e') || (c == 'l' && d == 'l')) return 3;
    }
    return 0;
}

std::size_t lmGpt2PieceLength(const std::string& text, std::size_t pos) {
    const std::size_t n = text.size();
    // 1. Contractions.
    if (const std::size_t c = lmContractionLength(text, pos)) return c;
    // 2-4. An optional space, then a run of letters, numbers or others.
    Gpt2Char first = gpt2CharAt(text, pos);
    std::size_t start = pos;
    if (text[pos] == ' ' && pos + 1 < n) {
        const Gpt2Char next = gpt2CharAt(text, pos + 1);
        if (next.cls != LmCharClass::Space) {
            start = pos + 1;
            first = next;
        }
    }
    if (first.cls != LmCharClass::Space) {
        std::size_t end = start + first.length;
        while (end < n) {
            const Gpt2Char c = gpt2CharAt(text, end);
            if (c.cls != first.cls) break;
            end += c.length;
        }
        return end - pos;
    }
    // 5-6. White space: the run, or the run but its last character when a non-space follows.
    std::size_t last = pos, end = pos + first.length;
    int count = 1;
    while (end < n) {
        const Gpt2Char c = gpt2CharAt(text, end);
        if (c.cls != LmCharClass::Space) break;
        last = end;
        end += c.length;
        ++count;
    }
    if (end == n || count == 1) return end - pos;
    return last - pos;
}

}  // namespace attnlab
