// GUI tests run offscreen: the platform must be chosen before QApplication exists. Exit 77 when a
// case skipped and none failed (Skip.h).
#include "Skip.h"

#include <QApplication>
#include <cstdlib>

int main(int argc, char* argv[]) {
    setenv("QT_QPA_PLATFORM", "offscreen", 0);
    QApplication app(argc, argv);
    return attnlab::test::withSkips(attnlab::test::runCatchSession(argc, argv));
}
