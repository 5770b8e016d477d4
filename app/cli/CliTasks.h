#pragma once
// What attnlab-cli does for each model task (base/TaskIds.h), as registries the shared commands read:
// nothing outside a task's folder (app/cli/<task>/) names a task.
//
//   FrontTask   the front end's part (no LibTorch): `inspect --task ID`, its rows of `datasets` and
//               `datasets --write`, its part of `train --help`, the names and help of its own
//               commands.
//   EngineTask  the engine's part (EngineTasks.h): `train --task ID`, and `heads`, `explain` and
//               `render` on a model of the task, its experiments, its own commands.
//
// Each task's folder makes its entries (translate/TranslationCli.h, ...); BuiltinTasks.cpp and
// BuiltinEngineTasks.cpp register the built-in ones, one line per task. A task made elsewhere (a
// test's own) registers its own before the command runs.
#include <functional>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "Commands.h"

namespace attnlab::cli {

class ArgParser;

// One row of `datasets`: a built-in dataset of a task.
struct DatasetRow {
    std::string name;
    int maxLength = 0;                           // the MAX-LEN column (translation); 0 leaves it blank
    std::vector<std::string> description;        // the table's DESCRIPTION, one string per line
    nlohmann::json json = nlohmann::json(nullptr);  // its entry in `datasets --json`; null: not listed there
};

struct FrontTask {
    std::string id;
    // `datasets`: the line above its rows in the table (empty for none), and the rows.
    std::string datasetsHeading;
    std::function<std::vector<DatasetRow>()> datasets;
    // `datasets --write NAME --out OUT`: false when NAME is not one of its datasets; else it wrote
    // them (or threw UsageError / InputError naming the flag).
    std::function<bool(const ArgParser& args, const std::string& name, const std::string& out)> writeDataset;
    Command inspect;        // `inspect --task ID`: reads and checks the task's data without a model
    std::string trainHelp;  // its part of `train --help`
    // Commands of the task's own (`generate`, ...): their names, one line for the overview and the
    // help text. They run in the engine (EngineTask::commands holds the functions).
    struct OwnCommand {
        std::string name;
        std::string summary;
        std::string help;
    };
    std::vector<OwnCommand> commands;
};

// The task that owns `command` (FrontTask::commands), or nullptr.
const FrontTask* taskOwningCommand(const std::string& command);

void registerFrontTask(FrontTask task);
// The registered tasks, in registration order (the built-in ones in base/TaskIds.h's order).
const std::vector<FrontTask>& frontTasks();
const FrontTask* frontTask(const std::string& id);

// `datasets --write`: UsageError "FLAG WHY" for the first of `flags` given (a flag that does not
// apply to the dataset being written).
void refuseFlags(const ArgParser& args, std::initializer_list<const char*> flags, const std::string& why);

// The model task named by --task NAME (or --task=NAME) among args, else the first model task
// (translate); UsageError for a name that is not one of tasks::modelTaskIds().
std::string taskOf(const Args& args);

}  // namespace attnlab::cli
