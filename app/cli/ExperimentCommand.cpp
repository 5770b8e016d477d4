// attnlab-cli experiment NAME: the teaching experiments, each a task's (EngineTask::experiments).
#include <string>

#include "ArgParser.h"
#include "Commands.h"
#include "EngineTasks.h"
#include "base/InputError.h"

namespace attnlab::cli {

int runExperiment(const Args& args) {
    std::vector<std::string> all;
    for (const EngineTask& task : engineTasks())
        for (const auto& experiment : task.experiments) all.push_back(experiment.first);
    std::string names;
    for (std::size_t i = 0; i < all.size(); ++i) names += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + all[i];
    if (args.empty()) throw UsageError("name an experiment: " + names);
    const Args rest(args.begin() + 1, args.end());
    for (const EngineTask& task : engineTasks())
        for (const auto& [name, run] : task.experiments)
            if (args.front() == name) return run(rest);
    throw UsageError("unknown experiment '" + args.front() + "' (expected " + names + ")");
}

}  // namespace attnlab::cli
