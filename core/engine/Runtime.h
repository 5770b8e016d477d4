#pragma once
// The engine's run-time helpers: thread counts, the BLAS kernel choice (and the re-exec that picks
// the fast one), and the machine's memory. Torch-free, for every front end's main().
#include <cstdint>
#include <string>

namespace attnlab {

// Sets glibc's allocator for training (large blocks stay in the heap) and for long
// sessions (at most two heap arenas). Idempotent; call it first thing in main(), before any
// thread allocates (setThreadCount calls it too, for callers that forget).
void tuneAllocator();

// Sets LibTorch's and OpenBLAS's thread counts together (they oversubscribe the
// cores otherwise). Returns the count in effect.
int setThreadCount(int threads);

// OpenBLAS chooses its kernels for the CPU when it loads, and Debian bookworm's 0.3.21 chooses
// older ones than some CPUs run (base/BlasKernels.h: fasterBlasCore). If it did and
// OPENBLAS_CORETYPE is unset, this re-executes the program with OPENBLAS_CORETYPE set to the faster
// set (one exec, ~0.6 s of start-up). Call it first thing in main(); it returns if nothing is to be
// done (or the exec fails).
void preferFastBlasKernels(char** argv);

// The BLAS kernel in use ("Haswell", "Prescott", ...), or "" if not OpenBLAS.
std::string blasCoreName();

// Physical memory of this machine in bytes (0 if unknown).
std::int64_t physicalMemoryBytes();

}  // namespace attnlab
