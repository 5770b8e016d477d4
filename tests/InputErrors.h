#pragma once
// The one-line message a user sees for bad input, or a marker when nothing was thrown: shared by
// the reader tests (their files go in a test::TempDir, TempDir.h).
#include <functional>
#include <string>

#include "base/InputError.h"

namespace attnlab::test {

inline std::string inputErrorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no InputError)";
}

}  // namespace attnlab::test
