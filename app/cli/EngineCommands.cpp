#include "Dispatch.h"
#include "EngineCommands.h"

namespace attnlab::cli {

const CommandTable& allCommands() {
    static const CommandTable commands = [] {
        CommandTable all = frontCommands();
#define ATTNLAB_ENGINE_COMMAND_ENTRY(name, run) all.emplace(name, run);
        ATTNLAB_ENGINE_COMMANDS(ATTNLAB_ENGINE_COMMAND_ENTRY)
#undef ATTNLAB_ENGINE_COMMAND_ENTRY
        return all;
    }();
    return commands;
}

}  // namespace attnlab::cli
