#include "EngineTasks.h"

#include "base/io/Safetensors.h"
#include "base/TaskIds.h"

namespace attnlab::cli {

std::vector<EngineTask> builtinEngineTasks();  // BuiltinEngineTasks.cpp

namespace {

std::vector<EngineTask>& registry() {
    static std::vector<EngineTask> tasks = builtinEngineTasks();
    return tasks;
}

}  // namespace

void registerEngineTask(EngineTask task) {
    std::vector<EngineTask>& tasks = registry();
    for (EngineTask& t : tasks)
        if (t.id == task.id) {
            t = std::move(task);
            return;
        }
    tasks.push_back(std::move(task));
}

const std::vector<EngineTask>& engineTasks() { return registry(); }

const EngineTask* engineTask(const std::string& id) {
    for (const EngineTask& t : registry())
        if (t.id == id) return &t;
    return nullptr;
}

std::string modelTaskOfFile(const std::string& path) {
    const SafetensorsContent content = readSafetensors(path);
    const auto task = content.metadata.find("task");
    return task == content.metadata.end() ? tasks::untaggedCheckpointTask() : task->second;
}

}  // namespace attnlab::cli
