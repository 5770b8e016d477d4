#include <dlfcn.h>
#include <malloc.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>

#include "Runtime.h"
#include "base/BlasKernels.h"
#include "detail/TorchPch.h"

namespace attnlab {

void tuneAllocator() {
    static const bool tuned = [] {
        // Training allocates and frees the same large tensors every batch. glibc would hand
        // blocks above its mmap threshold back to the kernel each time and fault them in
        // again (8% of a Transformer step here); keep them in the heap instead.
        mallopt(M_MMAP_THRESHOLD, 256 * 1024 * 1024);
        mallopt(M_TRIM_THRESHOLD, 512 * 1024 * 1024);
        mallopt(M_TOP_PAD, 64 * 1024 * 1024);
        // glibc gives each thread that allocates a heap arena of its own, up to 8 per core,
        // and never shrinks a thread arena with the settings above: each keeps the peak of
        // whatever ran on it (a training run, a data load), so a long session's resident
        // memory crept up by arenas (see docs/reliability.md, the soak). Two arenas: the
        // GUI thread's (main) one, which releaseFreeMemory() trims, and one that the workers
        // share. One arena made a two-thread training run 7-14% slower; two cost nothing
        // measurable. MALLOC_ARENA_MAX in the environment still wins.
        if (!std::getenv("MALLOC_ARENA_MAX")) mallopt(M_ARENA_MAX, 2);
        return true;
    }();
    (void)tuned;
}

int setThreadCount(int threads) {
    threads = std::max(1, threads);
    tuneAllocator();
    // LibTorch's intra-op pool and OpenBLAS's own pthreads oversubscribe the cores when
    // both run several threads (measured here: 3.4x slower). The matrices in these
    // models are small, so LibTorch keeps one thread and the threads go to BLAS.
    torch::set_num_threads(1);
    using SetThreads = void (*)(int);
    if (auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) set(threads);
    return threads;
}

std::string blasCoreName() {
    using CoreName = char* (*)();
    auto name = reinterpret_cast<CoreName>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
    const char* n = name ? name() : nullptr;
    return n ? n : "";
}

void preferFastBlasKernels(char** argv) {
    if (blasKernelsAlreadyChosen()) return;
    const std::string faster = fasterBlasCore(blasCoreName());
    if (faster.empty()) return;
    setenv("OPENBLAS_CORETYPE", faster.c_str(), 1);
    setenv("ATTNLAB_NO_BLAS_REEXEC", "1", 1);  // never loop
    execv("/proc/self/exe", argv);
    // exec failed: carry on with the slower kernels.
}

std::int64_t physicalMemoryBytes() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageSize <= 0) return 0;
    return static_cast<std::int64_t>(pages) * pageSize;
}

}  // namespace attnlab
