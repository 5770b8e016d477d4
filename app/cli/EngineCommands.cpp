#include "Dispatch.h"
#include "EngineCommands.h"
#include "EngineTasks.h"

namespace attnlab::cli {

const CommandTable& allCommands() {
    static const CommandTable commands = [] {
        CommandTable all = frontCommands();
#define ATTNLAB_ENGINE_COMMAND_ENTRY(name, run) all.emplace(name, run);
        ATTNLAB_ENGINE_COMMANDS(ATTNLAB_ENGINE_COMMAND_ENTRY)
#undef ATTNLAB_ENGINE_COMMAND_ENTRY
        for (const EngineTask& task : engineTasks())  // each task's own (EngineTask::commands)
            for (const auto& [name, run] : task.commands) all.emplace(name, run);
        return all;
    }();
    return commands;
}

}  // namespace attnlab::cli
