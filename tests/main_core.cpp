// The base, core and cli test programs: Catch's own runner, and exit 77 when a case skipped (Skip.h).
#include "Skip.h"

int main(int argc, char* argv[]) { return attnlab::test::withSkips(attnlab::test::runCatchSession(argc, argv)); }
