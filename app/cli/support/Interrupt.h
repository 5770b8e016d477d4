#pragma once
// Ctrl+C (and, for a training run, SIGTERM) asks a long command to stop at its next checkpoint: the
// command passes interruptFlag() to the engine, which polls it, and exits with kInterrupted when it
// is set. One flag per process: only one command runs in it.
#include <atomic>
#include <csignal>

namespace attnlab::cli {

inline std::atomic<bool>& interruptFlag() {
    static std::atomic<bool> flag{false};
    return flag;
}

extern "C" inline void attnlabCliOnInterrupt(int) { interruptFlag().store(true); }

// SIGINT, and SIGTERM too when `alsoTerminate` (a training run saves what it has).
inline void catchInterrupts(bool alsoTerminate) {
    std::signal(SIGINT, attnlabCliOnInterrupt);
    if (alsoTerminate) std::signal(SIGTERM, attnlabCliOnInterrupt);
}

}  // namespace attnlab::cli
