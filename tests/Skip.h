#pragma once
// A test case whose precondition is missing (a system dataset not installed, running as root, which
// ignores permissions) says so with ATTNLAB_SKIP(reason) and returns: its checks did not run. The
// test programs' main() (main_core.cpp, main_ui.cpp) then exits with kSkipExitCode (77) when nothing
// failed, and CTest shows the entry as "Skipped" (SKIP_RETURN_CODE, tests/CMakeLists.txt).
//
// So that a skip hides no other case's result, a case that may skip carries a tag [needs-WHAT]
// (e.g. [needs-locales], [needs-non-root]): attnlab_add_test_suite gives every such tag of a file an
// entry of its own, <area>/<file>:needs-WHAT, and leaves those cases out of the file's entry.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

namespace attnlab::test {

constexpr int kSkipExitCode = 77;

inline bool& skippedCase() {
    static bool skipped = false;
    return skipped;
}

// Catch's session on the command line (tests/CatchMain.cpp, with Catch's implementation).
int runCatchSession(int argc, char* argv[]);

// Catch's exit code, or kSkipExitCode when a case skipped and none failed.
inline int withSkips(int catchResult) { return catchResult == 0 && skippedCase() ? kSkipExitCode : catchResult; }

// Where a [needs-...] case finds the system's data: the environment variable `variable` if set (so a
// run can point it elsewhere, e.g. ATTNLAB_TEST_LOCALE_DIR=/nonexistent to see the skip), else
// `fallback`.
inline std::string systemDataDir(const char* variable, const std::string& fallback) {
    const char* value = std::getenv(variable);
    return value != nullptr && *value != '\0' ? std::string(value) : fallback;
}

}  // namespace attnlab::test

#define ATTNLAB_SKIP(reason)                      \
    do {                                          \
        ::attnlab::test::skippedCase() = true;    \
        WARN("skipped: " << reason);              \
        return;                                   \
    } while (false)
