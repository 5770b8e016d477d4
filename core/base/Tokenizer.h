#pragma once
// Splits text into tokens. Han, Hiragana, Katakana and Hangul characters become one
// token each (or, optionally, each run of them one token); everything else splits on
// whitespace and (optionally) punctuation.
#include <string>
#include <vector>

namespace attnlab {

struct TokenizerOptions {
    bool lowercase = true;            // ASCII and Latin-1/Latin Extended-A letters
    bool splitPunctuation = true;     // "cat." -> "cat" "."
    // "汤姆追逐" -> "汤" "姆" "追" "逐". Unsegmented Chinese or Japanese has no spaces between
    // words, so characters are the only tokens that work without a word segmenter. Off, a run
    // of CJK characters is one token ("汤姆 追逐" -> "汤姆" "追逐"): for text that is already
    // segmented with spaces. A run ends at white space, punctuation and any other script.
    bool splitCjkCharacters = true;

    bool operator==(const TokenizerOptions& o) const {
        return lowercase == o.lowercase && splitPunctuation == o.splitPunctuation &&
               splitCjkCharacters == o.splitCjkCharacters;
    }
    bool operator!=(const TokenizerOptions& o) const { return !(*this == o); }
};

class Tokenizer {
public:
    explicit Tokenizer(TokenizerOptions options = {});
    // Never throws on any byte sequence; invalid UTF-8 bytes become U+FFFD.
    std::vector<std::string> tokenize(const std::string& text) const;
    const TokenizerOptions& options() const { return options_; }

private:
    TokenizerOptions options_;
};

// True if the code point is Han, Hiragana, Katakana or Hangul (one token per char, or
// one per run without splitCjkCharacters).
bool isCjkCodePoint(char32_t cp);

// Validates UTF-8; returns the byte offset of the first invalid sequence or npos.
std::size_t findInvalidUtf8(const std::string& text);

// Decodes the code point starting at `pos` (< text.size()) and advances `pos` past it. An invalid or
// truncated sequence (overlong, surrogate, > U+10FFFF) yields U+FFFD and advances one byte.
char32_t decodeUtf8(const std::string& text, std::size_t& pos);
// Appends the UTF-8 encoding of `cp` (U+FFFD if it is not a scalar value).
void appendUtf8(std::string& out, char32_t cp);
// Unicode white space, plus zero-width space and U+FEFF: what separates tokens.
bool isWhitespaceCodePoint(char32_t cp);
// The punctuation the tokenizer splits off (ASCII, Latin-1, general and CJK punctuation, full-width forms).
bool isPunctuationCodePoint(char32_t cp);

}  // namespace attnlab
