#pragma once
// The tasks AttnLab ships, in Task box order: translation, text classification, images. A new task
// adds its factory here (docs/ARCHITECTURE.md, "Adding a task"); the window takes the list.
#include "task/Task.h"

#include <vector>

namespace attnlab {

std::vector<TaskFactory> builtinTasks();

// The window's task that trains a model task (base/TaskIds.h: "caption" -> "images"); a window
// task's own id unchanged; empty for an unknown id.
QString windowTaskOf(const QString& id);

}  // namespace attnlab
