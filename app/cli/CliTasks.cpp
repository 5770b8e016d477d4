#include "CliTasks.h"

#include <algorithm>

#include "ArgParser.h"
#include "base/InputError.h"
#include "base/TaskIds.h"

namespace attnlab::cli {

std::vector<FrontTask> builtinFrontTasks();  // BuiltinTasks.cpp

namespace {

std::vector<FrontTask>& registry() {
    static std::vector<FrontTask> tasks = builtinFrontTasks();
    return tasks;
}

}  // namespace

void registerFrontTask(FrontTask task) {
    std::vector<FrontTask>& tasks = registry();
    for (FrontTask& t : tasks)
        if (t.id == task.id) {
            t = std::move(task);
            return;
        }
    tasks.push_back(std::move(task));
}

const std::vector<FrontTask>& frontTasks() { return registry(); }

const FrontTask* frontTask(const std::string& id) {
    for (const FrontTask& t : registry())
        if (t.id == id) return &t;
    return nullptr;
}

const FrontTask* taskOwningCommand(const std::string& command) {
    for (const FrontTask& t : registry())
        for (const FrontTask::OwnCommand& c : t.commands)
            if (c.name == command) return &t;
    return nullptr;
}

std::string taskOf(const Args& args) {
    const std::vector<std::string> known = tasks::modelTaskIds();
    std::string task = known.front();
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--task" && i + 1 < args.size()) task = args[i + 1];
        else if (args[i].rfind("--task=", 0) == 0) task = args[i].substr(7);
    }
    if (std::find(known.begin(), known.end(), task) == known.end()) {
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        throw UsageError("--task: unknown task '" + task + "' (expected one of: " + list + ")");
    }
    return task;
}

}  // namespace attnlab::cli
