// attnlab-cli: the headless face of AttnLab. Loading LibTorch costs about a second of CPU
// here (Debian's build pulls in some 280 libraries), so this front end does not link it: help,
// the version, `datasets`, `inspect` and an unknown command are answered at once, and a
// command that needs a model executes attnlab-cli-engine with the same arguments (same
// process, same exit code, same signals). See docs/ARCHITECTURE.md, "The CLI".
#include <limits.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

#include "Dispatch.h"
#include "base/BlasKernels.h"

#ifndef ATTNLAB_ENGINE_DIR
#define ATTNLAB_ENGINE_DIR "."
#endif

namespace {

namespace fs = std::filesystem;

// The engine beside this program (the build tree) or where the install puts it
// (ATTNLAB_ENGINE_DIR, relative to the binary's directory: ../libexec/attnlab).
fs::path findEngine(std::string& looked) {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    const fs::path dir = ec ? fs::path(".") : self.parent_path();
    for (const fs::path& candidate : {dir / ATTNLAB_ENGINE_DIR / "attnlab-cli-engine", dir / "attnlab-cli-engine"}) {
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
        looked += (looked.empty() ? "" : " or ") + candidate.lexically_normal().string();
    }
    return {};
}

// Asks glibc's malloc in the engine to back its heap with transparent huge pages (where the kernel
// allows them on request), unless the environment already tunes that. LibTorch registers its
// operators at load in some 100,000 small allocations; with 4 KiB pages their page faults were a
// fifth of an engine start here (0.55 s), with huge pages a start takes 0.43 s. Training speed is
// unchanged.
void requestHugePageHeap() {
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    std::string value = tunables ? tunables : "";
    if (value.find("glibc.malloc.hugetlb") != std::string::npos) return;
    value += (value.empty() ? "" : ":") + std::string("glibc.malloc.hugetlb=1");
    setenv("GLIBC_TUNABLES", value.c_str(), 1);
}

}  // namespace

int main(int argc, char** argv) {
    using namespace attnlab::cli;
    return dispatch(argc, argv, frontCommands(), [argv](const std::string& command) {
        std::string looked;
        const fs::path engine = findEngine(looked);
        if (engine.empty()) {
            std::cerr << "error: '" << command << "' needs attnlab-cli-engine, which is not at " << looked
                      << " (reinstall AttnLab)\n";
            return static_cast<int>(kInternal);
        }
        // The engine's OpenBLAS kernels, chosen before it loads them (base/BlasKernels.h).
        attnlab::requestFasterBlasKernels();
        // No OpenBLAS threads spinning while the engine starts (base/BlasKernels.h).
        attnlab::requestOneBlasThreadAtLoad();
        requestHugePageHeap();
        ::execv(engine.c_str(), argv);
        std::cerr << "error: cannot run " << engine.string() << ": " << std::strerror(errno) << "\n";
        return static_cast<int>(kInternal);
    });
}
