#include "task/Task.h"

#include <QMainWindow>

namespace attnlab {

Task::Task(const TaskContext& context) : QObject(context.window), context_(context) {}

Task::~Task() = default;

bool Task::showSetupPart(const QString& name) {
    (void)name;
    return false;
}

QWidget* Task::windowWidget() const { return context_.window; }

QString& Task::lastDirectory() const { return context_.lastDirectory ? *context_.lastDirectory : ownDirectory_; }

}  // namespace attnlab
