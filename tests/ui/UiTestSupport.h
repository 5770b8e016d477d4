#pragma once
// Helpers shared by the offscreen GUI tests.
#include <catch2/catch.hpp>

#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <QString>
#include <QTest>
#include <functional>
#include <string>

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

inline std::string str(const QString& s) { return s.toStdString(); }

// Writes `bytes` to `path` (a test's input file); the case stops if it cannot.
inline void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

}  // namespace attnlab::test
