#pragma once
// The window's tasks as the program knows them before any window exists: how to make each one and
// its lessons' cards (the Lessons menu, `attnlab --help` and `--lesson` read them without a window).
// BuiltinTasks.cpp lists the tasks AttnLab ships, one line each, in Task box order; a task made
// elsewhere (a test's own) registers itself with registerTask before the window is made
// (docs/ARCHITECTURE.md, "Adding a task").
#include "session/LessonCard.h"
#include "task/Task.h"

#include <QList>
#include <QString>

#include <functional>
#include <vector>

namespace attnlab {

struct TaskEntry {
    QString id;  // the window task's id (base/TaskIds.h)
    TaskFactory make;
    std::function<QList<LessonCard>()> lessons;  // its lessons' cards, as its lessons() lists them
};

// Every task, the built-in ones first, then those registered, in Task box order.
const std::vector<TaskEntry>& registeredTasks();
// Adds a task after the others (an id already registered replaces that entry).
void registerTask(TaskEntry entry);
// The factories of registeredTasks(), for the window.
std::vector<TaskFactory> taskFactories();
// Every task's lessons in the Lessons menu's order: what --help prints and --lesson checks against.
QList<LessonCard> allLessonCards();

// The window's task that trains a model task (base/TaskIds.h: "caption" -> "images"); a window
// task's own id unchanged; empty for an unknown id.
QString windowTaskOf(const QString& id);
// The ids --task takes, for help and errors: "translate, classify, images (or image-classify,
// caption), forecast".
QString windowTaskList();

}  // namespace attnlab
