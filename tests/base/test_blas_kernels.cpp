// Which OpenBLAS kernels the programs ask for (base/BlasKernels.h): only SSE3's fallback on a CPU with
// AVX2 and FMA is replaced, and an OPENBLAS_CORETYPE the user set is kept.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <cstdlib>
#include <string>

#include "base/BlasKernels.h"

using namespace attnlab;

TEST_CASE("blas kernels: Prescott becomes Haswell on a CPU with AVX2 and FMA, any other choice stays", "[blas]") {
#if defined(__GNUC__) && defined(__x86_64__)
    __builtin_cpu_init();
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    const bool avx2 = false;
#endif
    CHECK(fasterBlasCore("Prescott") == (avx2 ? "Haswell" : ""));
    CHECK(fasterBlasCore("PRESCOTT") == (avx2 ? "Haswell" : ""));
    for (const char* kept : {"Haswell", "SkylakeX", "Cooperlake", "Zen", "Sandybridge", ""}) {
        INFO(kept);
        CHECK(fasterBlasCore(kept).empty());
    }
}

TEST_CASE("blas kernels: an OPENBLAS_CORETYPE already set is left as it is", "[blas]") {
    const char* before = std::getenv("OPENBLAS_CORETYPE");
    const std::string saved = before ? before : "";
    setenv("OPENBLAS_CORETYPE", "Sandybridge", 1);
    CHECK(requestFasterBlasKernels().empty());
    CHECK(std::string(std::getenv("OPENBLAS_CORETYPE")) == "Sandybridge");
    if (before)
        setenv("OPENBLAS_CORETYPE", saved.c_str(), 1);
    else
        unsetenv("OPENBLAS_CORETYPE");
}
