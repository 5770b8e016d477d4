#include "base/TaskIds.h"

#include "base/BuiltinTasks.h"

#include <mutex>

namespace attnlab::tasks {

namespace {

struct Registry {
    std::mutex mutex;
    std::vector<ModelTask> tasks = builtinModelTasks();
};

Registry& registry() {
    static Registry* r = new Registry;  // never destroyed: read until the process ends
    return *r;
}

}  // namespace

const std::vector<ModelTask>& modelTasks() { return registry().tasks; }

void registerModelTask(const ModelTask& task) {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    for (const ModelTask& t : r.tasks)
        if (t.id == task.id) return;
    r.tasks.push_back(task);
}

std::vector<std::string> modelTaskIds() {
    std::vector<std::string> ids;
    for (const ModelTask& t : modelTasks()) ids.emplace_back(t.id);
    return ids;
}

std::string windowTaskOf(const std::string& id) {
    for (const ModelTask& t : modelTasks()) {
        if (id == t.id || id == t.window) return t.window;
    }
    return {};
}

std::string untaggedCheckpointTask() {
    for (const ModelTask& t : modelTasks())
        if (t.untaggedCheckpoints) return t.id;
    return {};
}

}  // namespace attnlab::tasks
