#pragma once
// Shared by the fuzz targets. A documented error (InputError, ModelFileError, ...)
// is caught by the target; anything else, and every broken invariant, must end the
// process so that libFuzzer (and the CTest replay) reports it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "base/Tokenizer.h"  // decodeUtf8, isWhitespaceCodePoint

namespace attnlab::fuzz {

[[noreturn]] inline void invariantFailed(const char* what, const char* file, int line) {
    std::fprintf(stderr, "%s:%d: invariant failed: %s\n", file, line, what);
    std::abort();
}

inline std::string bytesOf(const std::uint8_t* data, std::size_t size) {
    return size == 0 ? std::string() : std::string(reinterpret_cast<const char*>(data), size);
}

// Whether the code point at byte pos of valid UTF-8 is white space (a reader's "trimmed" check).
inline bool isWhitespaceAt(const std::string& s, std::size_t pos) {
    return isWhitespaceCodePoint(decodeUtf8(s, pos));
}

// Start of the last code point of valid, non-empty UTF-8.
inline std::size_t lastCodePoint(const std::string& s) {
    std::size_t pos = s.size() - 1;
    while (pos > 0 && (static_cast<unsigned char>(s[pos]) & 0xC0) == 0x80) --pos;
    return pos;
}

}  // namespace attnlab::fuzz

#define FUZZ_CHECK(cond) ((cond) ? (void)0 : ::attnlab::fuzz::invariantFailed(#cond, __FILE__, __LINE__))
