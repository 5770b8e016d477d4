// Which OpenBLAS kernels the programs ask for (base/BlasKernels.h): only SSE3's fallback on a CPU with
// AVX2 and FMA is replaced, and an OPENBLAS_CORETYPE the user set is kept; one OpenBLAS thread at load
// unless the environment names a count.
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

TEST_CASE("blas kernels: one OpenBLAS thread at load unless the environment names a count", "[blas]") {
    const char* names[] = {"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"};
    std::string saved[3];
    bool had[3];
    for (int i = 0; i < 3; ++i) {
        const char* v = std::getenv(names[i]);
        had[i] = v != nullptr;
        saved[i] = v ? v : "";
        unsetenv(names[i]);
    }
    CHECK(requestOneBlasThreadAtLoad());
    CHECK(std::string(std::getenv("OPENBLAS_NUM_THREADS")) == "1");
    for (const char* given : names) {
        INFO(given);
        for (const char* name : names) unsetenv(name);
        setenv(given, "2", 1);
        CHECK_FALSE(requestOneBlasThreadAtLoad());
        CHECK(std::string(std::getenv(given)) == "2");
        if (std::string(given) != "OPENBLAS_NUM_THREADS") CHECK(std::getenv("OPENBLAS_NUM_THREADS") == nullptr);
    }
    for (int i = 0; i < 3; ++i) {
        if (had[i])
            setenv(names[i], saved[i].c_str(), 1);
        else
            unsetenv(names[i]);
    }
}
