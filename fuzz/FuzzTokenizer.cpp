// fuzz_tokenizer: Tokenizer::tokenize never throws, and with every option
// combination returns non-empty, valid UTF-8 tokens without white space. Also checks
// the UTF-8 helpers the readers rely on against each other.
#include <cstdint>
#include <string>
#include <vector>

#include "FuzzCheck.h"
#include "base/Tokenizer.h"

namespace {

using attnlab::Tokenizer;
using attnlab::TokenizerOptions;

void checkTokens(const std::vector<std::string>& tokens) {
    for (const auto& token : tokens) {
        FUZZ_CHECK(!token.empty());
        FUZZ_CHECK(attnlab::findInvalidUtf8(token) == std::string::npos);
        for (std::size_t pos = 0; pos < token.size();) {
            const std::size_t start = pos;
            const char32_t cp = attnlab::decodeUtf8(token, pos);
            FUZZ_CHECK(!attnlab::isWhitespaceCodePoint(cp));
            // A Han/Kana/Hangul character is a token of its own.
            FUZZ_CHECK(!attnlab::isCjkCodePoint(cp) || (start == 0 && pos == token.size()));
        }
    }
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
        TokenizerOptions options;
        options.splitPunctuation = split;
        options.lowercase = false;
        const auto asTyped = Tokenizer(options).tokenize(text);
        options.lowercase = true;
        const auto lowered = Tokenizer(options).tokenize(text);
        checkTokens(asTyped);
        checkTokens(lowered);
        // Lower-casing changes letters, never where tokens split.
        FUZZ_CHECK(asTyped.size() == lowered.size());
        FUZZ_CHECK(Tokenizer(options).tokenize(text) == lowered);  // deterministic
    }
    return 0;
}
