// attnlab-cli train: the task's own training command (EngineTasks.h), and what they all end with.
#include <iostream>

#include "CliTasks.h"
#include "ArgParser.h"
#include "Commands.h"
#include "EngineTasks.h"
#include "base/InputError.h"

namespace attnlab::cli {

int runTrain(const Args& argv) {
    const std::string task = taskOf(argv);
    const EngineTask* t = engineTask(task);
    if (t == nullptr || !t->train) throw UsageError("--task: " + task + " has no training command in this program");
    return t->train(argv);
}

int reportSaved(bool interrupted, const std::string& out) {
    if (interrupted) {
        std::cerr << "interrupted: model saved to " << out << "\n";
        return kInterrupted;
    }
    std::cerr << "saved " << out << "\n";
    return kOk;
}

}  // namespace attnlab::cli
