#include "Tokenizer.h"

namespace attnlab {

namespace {

constexpr char32_t kReplacement = 0xFFFD;

// Length of a valid sequence at text[pos], or 0. Strict: no overlongs, no
// surrogates, nothing above U+10FFFF (the table in Unicode 15, section 3.9).
std::size_t validSequenceLength(const std::string& text, std::size_t pos, char32_t& cp) {
    auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char b0 = byte(pos);
    const std::size_t left = text.size() - pos;
    if (b0 < 0x80) {
        cp = b0;
        return 1;
    }
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        len = 2;
        cp = b0 & 0x1F;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        len = 3;
        cp = b0 & 0x0F;
        if (b0 == 0xE0) lo = 0xA0;
        if (b0 == 0xED) hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        len = 4;
        cp = b0 & 0x07;
        if (b0 == 0xF0) lo = 0x90;
        if (b0 == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (left < len) return 0;
    for (std::size_t i = 1; i < len; ++i) {
        const unsigned char b = byte(pos + i);
        if (i == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return 0;
        cp = (cp << 6) | (b & 0x3F);
    }
    return len;
}

bool inRange(char32_t cp, char32_t lo, char32_t hi) { return cp >= lo && cp <= hi; }

// Invisible format characters (bidi marks, word joiner, ...): dropped, never tokens.
bool isIgnorable(char32_t cp) {
    return inRange(cp, 0x200E, 0x200F) || inRange(cp, 0x202A, 0x202E) || inRange(cp, 0x2060, 0x206F) ||
           cp == 0x00AD || inRange(cp, 0x0000, 0x0008) || inRange(cp, 0x000E, 0x001F) || inRange(cp, 0x007F, 0x0084) ||
           inRange(cp, 0x0086, 0x009F);
}

bool isPunctuation(char32_t cp) {
    if (cp < 0x80) {
        return inRange(cp, 0x21, 0x2F) || inRange(cp, 0x3A, 0x40) || inRange(cp, 0x5B, 0x60) ||
               inRange(cp, 0x7B, 0x7E);
    }
    switch (cp) {
        // ¡ § « ¶ · » ¿
        case 0x00A1: case 0x00A7: case 0x00AB: case 0x00B6: case 0x00B7: case 0x00BB: case 0x00BF:
            return true;
        default: break;
    }
    return inRange(cp, 0x2010, 0x2027) || inRange(cp, 0x2030, 0x205E) ||  // general punctuation
           inRange(cp, 0x3001, 0x3004) || inRange(cp, 0x3008, 0x3020) || cp == 0x3030 || cp == 0x303D ||
           cp == 0x30FB ||                                                 // CJK punctuation, katakana middle dot
           inRange(cp, 0xFF01, 0xFF0F) || inRange(cp, 0xFF1A, 0xFF20) || inRange(cp, 0xFF3B, 0xFF40) ||
           inRange(cp, 0xFF5B, 0xFF65);                                    // full- and half-width forms
}

bool isApostrophe(char32_t cp) { return cp == U'\'' || cp == 0x2019; }

// Letters for the "apostrophe between letters" rule: not digits, spaces, punctuation.
bool isLetter(char32_t cp) {
    if (cp < 0x80) return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
    if (cp < 0xC0) return cp == 0xAA || cp == 0xB5 || cp == 0xBA;
    return cp != 0xD7 && cp != 0xF7 && cp != kReplacement && !isPunctuation(cp) && !isWhitespaceCodePoint(cp) &&
           !isIgnorable(cp) && !isCjkCodePoint(cp);
}

char32_t toLower(char32_t cp) {
    if (cp < 0x80) return (cp >= 'A' && cp <= 'Z') ? cp + 0x20 : cp;
    if (cp < 0x100) return (inRange(cp, 0xC0, 0xDE) && cp != 0xD7) ? cp + 0x20 : cp;
    if (cp < 0x180) {  // Latin Extended-A: upper/lower pairs, with a parity switch at U+0138 and U+0179
        if (cp == 0x0130) return U'i';
        if (cp == 0x0178) return 0x00FF;
        if (inRange(cp, 0x0100, 0x0137) || inRange(cp, 0x014A, 0x0177)) return (cp % 2 == 0) ? cp + 1 : cp;
        if (inRange(cp, 0x0139, 0x0148) || inRange(cp, 0x0179, 0x017E)) return (cp % 2 == 1) ? cp + 1 : cp;
        return cp;
    }
    if (inRange(cp, 0x0386, 0x03AB)) {  // Greek
        if (inRange(cp, 0x0391, 0x03AB) && cp != 0x03A2) return cp + 0x20;
        if (cp == 0x0386) return 0x03AC;
        if (inRange(cp, 0x0388, 0x038A)) return cp + 0x25;
        if (cp == 0x038C) return 0x03CC;
        if (inRange(cp, 0x038E, 0x038F)) return cp + 0x3F;
        return cp;
    }
    if (inRange(cp, 0x0400, 0x04FF)) {  // Cyrillic
        if (cp <= 0x040F) return cp + 0x50;
        if (cp <= 0x042F) return cp + 0x20;
        if (inRange(cp, 0x0460, 0x0481) || inRange(cp, 0x048A, 0x04BF) || inRange(cp, 0x04D0, 0x04FF))
            return (cp % 2 == 0) ? cp + 1 : cp;
        if (cp == 0x04C0) return 0x04CF;
        if (inRange(cp, 0x04C1, 0x04CE)) return (cp % 2 == 1) ? cp + 1 : cp;
    }
    return cp;
}

}  // namespace

char32_t decodeUtf8(const std::string& text, std::size_t& pos) {
    if (static_cast<unsigned char>(text[pos]) < 0x80) return static_cast<unsigned char>(text[pos++]);
    char32_t cp = 0;
    std::size_t len = validSequenceLength(text, pos, cp);
    if (len == 0) {
        ++pos;
        return kReplacement;
    }
    pos += len;
    return cp;
}

void appendUtf8(std::string& out, char32_t cp) {
    if (cp > 0x10FFFF || inRange(cp, 0xD800, 0xDFFF)) cp = kReplacement;
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

std::size_t findInvalidUtf8(const std::string& text) {
    char32_t cp = 0;
    for (std::size_t pos = 0; pos < text.size();) {
        if (static_cast<unsigned char>(text[pos]) < 0x80) {
            ++pos;
            continue;
        }
        std::size_t len = validSequenceLength(text, pos, cp);
        if (len == 0) return pos;
        pos += len;
    }
    return std::string::npos;
}

bool isWhitespaceCodePoint(char32_t cp) {
    return inRange(cp, 0x0009, 0x000D) || cp == 0x0020 || cp == 0x0085 || cp == 0x00A0 || cp == 0x1680 ||
           inRange(cp, 0x2000, 0x200B) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F ||
           cp == 0x3000 || cp == 0xFEFF;
}

bool isCjkCodePoint(char32_t cp) {
    return inRange(cp, 0x4E00, 0x9FFF) ||    // CJK Unified Ideographs
           inRange(cp, 0x3400, 0x4DBF) ||    // Extension A
           inRange(cp, 0x20000, 0x3134F) ||  // Extensions B-G and Compatibility Supplement
           inRange(cp, 0xF900, 0xFAFF) ||    // Compatibility Ideographs
           inRange(cp, 0x2E80, 0x2FDF) ||    // radicals
           inRange(cp, 0x3005, 0x3007) ||    // 々 〆 〇
           inRange(cp, 0x3040, 0x309F) ||    // Hiragana
           inRange(cp, 0x30A0, 0x30FA) || inRange(cp, 0x30FC, 0x30FF) ||  // Katakana (U+30FB ・ is punctuation)
           inRange(cp, 0x31F0, 0x31FF) ||    // Katakana phonetic extensions
           inRange(cp, 0xFF66, 0xFF9F) ||    // half-width Katakana
           inRange(cp, 0xAC00, 0xD7AF) ||    // Hangul syllables
           inRange(cp, 0x1100, 0x11FF) ||    // Hangul Jamo
           inRange(cp, 0x3130, 0x318F) ||    // Hangul compatibility Jamo
           inRange(cp, 0xA960, 0xA97F) || inRange(cp, 0xD7B0, 0xD7FF);  // Jamo extensions
}

bool isPunctuationCodePoint(char32_t cp) { return isPunctuation(cp); }

Tokenizer::Tokenizer(TokenizerOptions options) : options_(options) {}

std::vector<std::string> Tokenizer::tokenize(const std::string& text) const {
    std::vector<char32_t> cps;
    cps.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();) cps.push_back(decodeUtf8(text, pos));

    std::vector<std::string> tokens;
    std::string word;
    bool cjkRun = false;  // `word` holds CJK characters (only without splitCjkCharacters)
    auto flush = [&] {
        if (!word.empty()) tokens.push_back(std::move(word));
        word.clear();
        cjkRun = false;
    };
    auto single = [&](char32_t cp) {
        flush();
        appendUtf8(word, cp);
        flush();
    };
    for (std::size_t i = 0; i < cps.size(); ++i) {
        const char32_t cp = cps[i];
        if ((cp >= U'a' && cp <= U'z') || (cp >= U'0' && cp <= U'9')) {  // the common case, first
            if (cjkRun) flush();
            word += static_cast<char>(cp);
        } else if (isWhitespaceCodePoint(cp)) {
            flush();
        } else if (isIgnorable(cp)) {
            continue;
        } else if (isCjkCodePoint(cp)) {
            if (options_.splitCjkCharacters) {
                single(cp);
            } else {
                // "GPU加速" -> "gpu" "加速": a run of CJK is a word of its own, as it is per character.
                if (!cjkRun) flush();
                appendUtf8(word, cp);
                cjkRun = true;
            }
        } else if (options_.splitPunctuation && isPunctuation(cp)) {
            // "don't" stays one word: an apostrophe between two letters is part of it.
            const bool inWord = isApostrophe(cp) && i > 0 && i + 1 < cps.size() && !word.empty() &&
                                isLetter(cps[i - 1]) && isLetter(cps[i + 1]);
            if (inWord)
                appendUtf8(word, cp);
            else
                single(cp);
        } else {
            if (cjkRun) flush();
            appendUtf8(word, options_.lowercase ? toLower(cp) : cp);
        }
    }
    flush();
    return tokens;
}

}  // namespace attnlab
