#include <dlfcn.h>
#include <unistd.h>

#include "Trainer.h"
#include "TorchPch.h"

namespace attnlab {

int setThreadCount(int threads) {
    threads = std::max(1, threads);
    // LibTorch's intra-op pool and OpenBLAS's own pthreads oversubscribe the cores when
    // both run several threads (measured here: 3.4x slower). The matrices in these
    // models are small, so LibTorch keeps one thread and the threads go to BLAS.
    torch::set_num_threads(1);
    using SetThreads = void (*)(int);
    if (auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) set(threads);
    return threads;
}

std::int64_t physicalMemoryBytes() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageSize <= 0) return 0;
    return static_cast<std::int64_t>(pages) * pageSize;
}

}  // namespace attnlab
