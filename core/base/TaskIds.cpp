#include "base/TaskIds.h"

namespace attnlab::tasks {

const std::vector<ModelTask>& modelTasks() {
    static const std::vector<ModelTask> all = {
        {kTranslate, kTranslate}, {kClassify, kClassify}, {kImageClassify, kImages}, {kCaption, kImages}, {kForecast, kForecast}};
    return all;
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

}  // namespace attnlab::tasks
