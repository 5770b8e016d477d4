#pragma once
// The tasks AttnLab ships, in Task box order: translation, text classification, images. A new task
// adds its factory here (docs/ARCHITECTURE.md, "Adding a task"); the window takes the list.
#include "task/Task.h"

#include <vector>

namespace attnlab {

std::vector<TaskFactory> builtinTasks();

}  // namespace attnlab
