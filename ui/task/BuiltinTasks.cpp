#include "task/BuiltinTasks.h"

#include "base/TaskIds.h"

#include "task/classify/ClassifierTask.h"
#include "task/forecast/ForecastTask.h"
#include "task/images/ImageTask.h"
#include "task/translate/TranslationTask.h"

namespace attnlab {

std::vector<TaskFactory> builtinTasks() {
    return {
        [](const TaskContext& c) -> Task* { return new TranslationTask(c); },
        [](const TaskContext& c) -> Task* { return new ClassifierTask(c); },
        [](const TaskContext& c) -> Task* { return new ImageTask(c); },
        [](const TaskContext& c) -> Task* { return new ForecastTask(c); },
    };
}

QString windowTaskOf(const QString& id) {
    return QString::fromStdString(tasks::windowTaskOf(id.toStdString()));
}

}  // namespace attnlab
