#include "base/lesson/LessonSchema.h"

#include "base/BuiltinTasks.h"

#include <map>
#include <mutex>

namespace attnlab {

namespace {

struct Schemas {
    std::mutex mutex;
    std::map<std::string, LessonSchema> byTask;
};

Schemas& schemas() {
    static Schemas* all = [] {
        auto* s = new Schemas;  // never destroyed: read until the process ends
        for (LessonSchema& schema : builtinLessonSchemas()) s->byTask[schema.task] = std::move(schema);
        return s;
    }();
    return *all;
}

}  // namespace

void registerLessonSchema(LessonSchema schema) {
    Schemas& s = schemas();
    const std::lock_guard<std::mutex> lock(s.mutex);
    s.byTask[schema.task] = std::move(schema);
}

const LessonSchema* lessonSchemaOf(const std::string& task) {
    Schemas& s = schemas();
    const std::lock_guard<std::mutex> lock(s.mutex);
    const auto it = s.byTask.find(task);
    return it == s.byTask.end() ? nullptr : &it->second;  // std::map: stays valid when others are added
}

}  // namespace attnlab
