#include "BlasKernels.h"

#include <dlfcn.h>
#include <stdlib.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace attnlab {

std::string fasterBlasCore(const std::string& chosen) {
    std::string core = chosen;
    std::transform(core.begin(), core.end(), core.begin(), [](unsigned char c) { return std::tolower(c); });
    if (core.empty()) return "";
#if defined(__GNUC__) && defined(__x86_64__)
    __builtin_cpu_init();
    if (core == "prescott" && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
#endif
    return "";
}

bool blasKernelsAlreadyChosen() {
    return std::getenv("OPENBLAS_CORETYPE") != nullptr || std::getenv("ATTNLAB_NO_BLAS_REEXEC") != nullptr;
}

std::string requestFasterBlasKernels() {
    if (blasKernelsAlreadyChosen()) return "";
    // Loading OpenBLAS here costs ~5 ms. It stays loaded (its threads make unloading unsafe) until
    // the caller executes the next program.
    void* library = dlopen("libopenblas.so.0", RTLD_LAZY | RTLD_LOCAL);
    if (!library) return "";
    using CoreName = char* (*)();
    auto name = reinterpret_cast<CoreName>(dlsym(library, "openblas_get_corename"));
    const char* chosen = name ? name() : nullptr;
    const std::string faster = fasterBlasCore(chosen ? chosen : "");
    if (!faster.empty()) setenv("OPENBLAS_CORETYPE", faster.c_str(), 1);
    return faster;
}

bool requestOneBlasThreadAtLoad() {
    for (const char* name : {"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"})
        if (std::getenv(name)) return false;
    return setenv("OPENBLAS_NUM_THREADS", "1", 1) == 0;
}

}  // namespace attnlab
