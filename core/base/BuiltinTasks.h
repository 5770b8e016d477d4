#pragma once
// The built-in tasks' entries in core/base's registries: the one place in core/base that lists
// them (a new task adds a line to each function). Read once, when a registry is first used.
#include "base/lesson/LessonSchema.h"

#include <vector>

namespace attnlab {

// Every built-in model task's lesson schema (base/lesson/LessonSchema.h).
std::vector<LessonSchema> builtinLessonSchemas();

}  // namespace attnlab
