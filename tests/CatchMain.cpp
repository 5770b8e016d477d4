// Catch2's implementation, once for every test program (attnlab_catch in tests/CMakeLists.txt); each
// program's main() (main_core.cpp, main_ui.cpp) calls runCatchSession.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "Skip.h"

namespace attnlab::test {

int runCatchSession(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }

}  // namespace attnlab::test
