#pragma once
// What both halves of attnlab-cli share: the command table's shape, the help and version
// flags, and the mapping of every error to its exit code and one "error:" line.
#include <functional>
#include <map>
#include <string>

#include "Commands.h"

namespace attnlab::cli {

using CommandTable = std::map<std::string, std::function<int(const Args&)>>;

// The commands that need no model (datasets, inspect): both programs run them themselves.
const CommandTable& frontCommands();

// The commands that need the engine (LibTorch; ATTNLAB_ENGINE_COMMANDS in EngineCommands.h): the front
// end hands them to attnlab-cli-engine.
bool isEngineCommand(const std::string& command);

// Every command, the engine's too: attnlab-cli-engine's table (EngineCommands.cpp, in the engine).
const CommandTable& allCommands();

// Runs argv's command from `commands`. `--help`, `--version`, an unknown command and every
// thrown error are handled here; a command that is not in `commands` but is an engine
// command goes to `otherwise` (the front end's exec), which returns only if it failed.
int dispatch(int argc, char** argv, const CommandTable& commands,
             const std::function<int(const std::string& command)>& otherwise = {});

}  // namespace attnlab::cli
