#pragma once
// Which of OpenBLAS's kernel sets AttnLab's programs run on. OpenBLAS picks one for the CPU when it
// loads, and Debian bookworm's 0.3.21 does not recognise some recent CPUs: it then falls back to its
// SSE3 "Prescott" kernels, 2-2.5x slower than its AVX2 "Haswell" ones on a CPU that has AVX2 and FMA.
// The choice can only be made before the library loads (OPENBLAS_CORETYPE), so the CLI's front end
// sets it before it executes the engine, and the GUI re-executes itself (engine/Runtime.h:
// preferFastBlasKernels). An OPENBLAS_CORETYPE already set is the user's choice and stays. Torch-free.
#include <string>

namespace attnlab {

// The kernel set to ask for instead of `chosen` (OpenBLAS's own choice, as openblas_get_corename
// names it) on this CPU: "Haswell" where `chosen` is "Prescott" and the CPU has AVX2 and FMA; ""
// to keep it.
std::string fasterBlasCore(const std::string& chosen);

// Whether the kernel set is already decided for this process: OPENBLAS_CORETYPE is set (the user's
// choice, or ours), or ATTNLAB_NO_BLAS_REEXEC says the program was re-executed for it already.
bool blasKernelsAlreadyChosen();

// Sets OPENBLAS_CORETYPE for the programs this process executes, from the choice the system's
// OpenBLAS makes when loaded here (without it, or with OPENBLAS_CORETYPE already set, nothing).
// Returns the kernel set requested, or "".
std::string requestFasterBlasKernels();

// Sets OPENBLAS_NUM_THREADS=1 for the programs this process executes, unless the environment names
// a thread count for OpenBLAS already (OPENBLAS_NUM_THREADS, GOTO_NUM_THREADS, OMP_NUM_THREADS).
// OpenBLAS starts a thread per core when it loads, and each spins ~0.1 s of CPU waiting for work
// it seldom gets: the engine's matrices are small, and the trainers set the count they use
// (engine/Runtime.h: setThreadCount; OpenBLAS then grows its pool). Returns whether it set it.
bool requestOneBlasThreadAtLoad();

}  // namespace attnlab
