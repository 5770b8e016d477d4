// attnlab-cli inspect: reads a task's data the way `train` would and reports what it found, so a
// user can fix their data before spending time on training. What each task reports is its own
// (FrontTask::inspect, CliTasks.h).
#include "CliTasks.h"
#include "ArgParser.h"
#include "Commands.h"
#include "base/InputError.h"

namespace attnlab::cli {

int runInspect(const Args& args) {
    const std::string task = taskOf(args);
    const FrontTask* t = frontTask(task);
    if (t == nullptr || !t->inspect) throw UsageError("--task: " + task + " has no data to inspect");
    return t->inspect(args);
}

}  // namespace attnlab::cli
