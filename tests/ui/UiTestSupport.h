#pragma once
// Helpers shared by the offscreen GUI tests.
#include <QElapsedTimer>
#include <QTest>
#include <functional>

namespace attnlab::test {

// Spins the event loop until the condition holds; false after timeoutMs.
inline bool waitUntil(const std::function<bool()>& condition, int timeoutMs = 20000) {
    QElapsedTimer timer;
    timer.start();
    while (!condition()) {
        if (timer.elapsed() > timeoutMs) return false;
        QTest::qWait(5);
    }
    return true;
}

}  // namespace attnlab::test
