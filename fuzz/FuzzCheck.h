#pragma once
// Shared by the fuzz targets. A documented error (InputError, ModelFileError, ...)
// is caught by the target; anything else, and every broken invariant, must end the
// process so that libFuzzer (and the CTest replay) reports it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace attnlab::fuzz {

[[noreturn]] inline void invariantFailed(const char* what, const char* file, int line) {
    std::fprintf(stderr, "%s:%d: invariant failed: %s\n", file, line, what);
    std::abort();
}

inline std::string bytesOf(const std::uint8_t* data, std::size_t size) {
    return size == 0 ? std::string() : std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace attnlab::fuzz

#define FUZZ_CHECK(cond) ((cond) ? (void)0 : ::attnlab::fuzz::invariantFailed(#cond, __FILE__, __LINE__))
