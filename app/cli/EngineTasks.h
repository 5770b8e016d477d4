#pragma once
// The engine's part of what attnlab-cli does for each model task (the front end's is CliTasks.h):
// `train --task ID`, and `heads`, `explain`, `render` and `export` given a model file of the task
// (found by its "task" metadata), and the task's experiments (`experiment NAME`). Each task's folder
// makes its entry; BuiltinEngineTasks.cpp registers the built-in ones; a test's own task registers its
// own.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "Commands.h"

namespace attnlab::cli {

class ArgParser;

// A command on a model file of the task: the arguments after the command's name, and the model.
using ModelCommand = std::function<int(const Args& args, const std::string& modelPath)>;

struct EngineTask {
    std::string id;
    Command train;  // `train --task ID`
    // `heads --model M`; when absent, `heads` refuses the model with noHeads ("a captioner: ...").
    ModelCommand heads;
    std::string noHeads;
    // `explain --model M`, given explain's parsed flags; absent: explain refuses the model.
    std::function<int(const ArgParser& args, const std::string& modelPath)> explain;
    // `render ...` when renderFlag is among the arguments (empty: render's default, without a flag).
    Command render;
    std::string renderFlag;
    // `export --model M --pytorch DIR`: checks the model (a bad file: ModelFileError, exit 4, nothing
    // written) and writes the task's PyTorch package into DIR (created if needed; --pytorch is
    // checked first); absent: export refuses the model.
    std::function<int(const std::string& modelPath, const std::string& dir)> exportPytorch;
    // `experiment NAME ...`: the experiments of this task, in the order the help lists them.
    std::vector<std::pair<std::string, Command>> experiments;
    // The task's own commands (their names and help: FrontTask::commands).
    std::vector<std::pair<std::string, Command>> commands;
};

void registerEngineTask(EngineTask task);
const std::vector<EngineTask>& engineTasks();
const EngineTask* engineTask(const std::string& id);

// The model task of a model file: its "task" metadata, else tasks::untaggedCheckpointTask() (the
// files from before it). Throws as readSafetensors does (ModelFileError: exit 4) for a file that is
// no model.
std::string modelTaskOfFile(const std::string& path);

}  // namespace attnlab::cli
