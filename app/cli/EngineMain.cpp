// attnlab-cli-engine: every command, LibTorch loaded. attnlab-cli (main.cpp) answers what needs
// no model itself and executes this program, with the same arguments, for the rest.
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "Dispatch.h"
#include "EngineCommands.h"
#include "engine/Runtime.h"

int main(int argc, char** argv) {
    attnlab::tuneAllocator();  // before any thread allocates
    using namespace attnlab::cli;
    const int code = dispatch(argc, argv, allCommands());
    // Every command has closed its files by now. Leave without running the static destructors:
    // LibTorch's deregister each of its ~2,000 operators, ~9% of a short command's time.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(code);
}
