#pragma once
// The built-in tasks' entries in core/base's registries: the one place in core/base that lists
// them (a new task adds a line to each function). Read once, when a registry is first used.
#include "base/TaskIds.h"
#include "base/lesson/LessonSchema.h"

#include <vector>

namespace attnlab {

// Every built-in model task, in the order the CLI lists them (base/TaskIds.h's modelTasks()).
std::vector<tasks::ModelTask> builtinModelTasks();
// Every built-in model task's lesson schema (base/lesson/LessonSchema.h).
std::vector<LessonSchema> builtinLessonSchemas();

}  // namespace attnlab
