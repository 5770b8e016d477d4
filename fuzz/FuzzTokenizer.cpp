// fuzz_tokenizer: Tokenizer::tokenize never throws, and with every option
// combination returns non-empty, valid UTF-8 tokens without white space. Keeping CJK
// words whole only joins characters the default splits, and tokenizing word by word
// (what alignmentOverTokens does) gives the sentence's tokens. Also checks the UTF-8
// helpers the readers rely on against each other.
#include <cstdint>
#include <string>
#include <vector>

#include "FuzzCheck.h"
#include "base/Tokenizer.h"

namespace {

using attnlab::Tokenizer;
using attnlab::TokenizerOptions;

void checkTokens(const std::vector<std::string>& tokens, bool splitCjk) {
    for (const auto& token : tokens) {
        FUZZ_CHECK(!token.empty());
        FUZZ_CHECK(attnlab::findInvalidUtf8(token) == std::string::npos);
        std::size_t cjk = 0, count = 0;
        for (std::size_t pos = 0; pos < token.size(); ++count) {
            const std::size_t start = pos;
            const char32_t cp = attnlab::decodeUtf8(token, pos);
            FUZZ_CHECK(!attnlab::isWhitespaceCodePoint(cp));
            // A Han/Kana/Hangul character is a token of its own, or (kept whole) of a run of them.
            if (attnlab::isCjkCodePoint(cp)) {
                ++cjk;
                if (splitCjk) FUZZ_CHECK(start == 0 && pos == token.size());
            }
        }
        FUZZ_CHECK(cjk == 0 || cjk == count);
    }
}

// The tokens with every CJK token cut into its characters.
std::vector<std::string> cutCjk(const std::vector<std::string>& tokens) {
    std::vector<std::string> out;
    for (const auto& token : tokens) {
        std::size_t pos = 0;
        if (!attnlab::isCjkCodePoint(attnlab::decodeUtf8(token, pos))) {
            out.push_back(token);
            continue;
        }
        for (pos = 0; pos < token.size();) {
            std::string one;
            attnlab::appendUtf8(one, attnlab::decodeUtf8(token, pos));
            out.push_back(one);
        }
    }
    return out;
}

// Tokens of each white-space-separated word, concatenated.
std::vector<std::string> wordByWord(const Tokenizer& tokenizer, const std::string& text) {
    std::vector<std::string> out;
    std::string word;
    auto endWord = [&] {
        for (auto& t : tokenizer.tokenize(word)) out.push_back(std::move(t));
        word.clear();
    };
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t start = pos;
        if (attnlab::isWhitespaceCodePoint(attnlab::decodeUtf8(text, pos)))
            endWord();
        else
            word.append(text, start, pos - start);
    }
    endWord();
    return out;
}

// Decoding valid UTF-8 and encoding it again gives the same bytes; invalid UTF-8 is
// found at the first byte that decodes to U+FFFD without being U+FFFD.
void checkUtf8(const std::string& text) {
    const std::size_t invalid = attnlab::findInvalidUtf8(text);
    std::string reencoded;
    std::size_t firstBad = std::string::npos;
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t start = pos;
        const char32_t cp = attnlab::decodeUtf8(text, pos);
        FUZZ_CHECK(pos > start && pos <= text.size() && pos - start <= 4);
        FUZZ_CHECK(cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF));
        std::string encoded;
        attnlab::appendUtf8(encoded, cp);
        if (firstBad == std::string::npos && text.compare(start, pos - start, encoded) != 0) firstBad = start;
        reencoded += encoded;
    }
    FUZZ_CHECK(invalid == firstBad);
    if (invalid == std::string::npos) FUZZ_CHECK(reencoded == text);
    FUZZ_CHECK(attnlab::findInvalidUtf8(reencoded) == std::string::npos);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text = attnlab::fuzz::bytesOf(data, size);
    checkUtf8(text);
    for (bool split : {false, true}) {
        std::vector<std::string> perCharacter;
        for (bool splitCjk : {true, false}) {
            TokenizerOptions options;
            options.splitPunctuation = split;
            options.splitCjkCharacters = splitCjk;
            options.lowercase = false;
            const auto asTyped = Tokenizer(options).tokenize(text);
            options.lowercase = true;
            const Tokenizer tokenizer(options);
            const auto lowered = tokenizer.tokenize(text);
            checkTokens(asTyped, splitCjk);
            checkTokens(lowered, splitCjk);
            // Lower-casing changes letters, never where tokens split.
            FUZZ_CHECK(asTyped.size() == lowered.size());
            FUZZ_CHECK(tokenizer.tokenize(text) == lowered);  // deterministic
            FUZZ_CHECK(wordByWord(tokenizer, text) == lowered);
            if (splitCjk)
                perCharacter = lowered;
            else
                FUZZ_CHECK(cutCjk(lowered) == perCharacter);
        }
    }
    return 0;
}
