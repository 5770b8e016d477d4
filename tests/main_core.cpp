// The base, core and cli test programs: Catch's own runner, and exit 77 when a case skipped (Skip.h).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "Skip.h"

int main(int argc, char* argv[]) { return attnlab::test::withSkips(Catch::Session().run(argc, argv)); }
