#include "task/BuiltinTasks.h"

#include "base/TaskIds.h"

#include "task/classify/ClassifierLessons.h"
#include "task/classify/ClassifierTask.h"
#include "task/forecast/ForecastLessons.h"
#include "task/forecast/ForecastTask.h"
#include "task/images/ImageLessons.h"
#include "task/images/ImageTask.h"
#include "task/lm/LmLessons.h"
#include "task/lm/LmTask.h"
#include "task/translate/Lessons.h"
#include "task/translate/TranslationTask.h"

#include <QStringList>

namespace attnlab {

namespace {

template <typename T>
TaskFactory factory() {
    return [](const TaskContext& c) -> Task* { return new T(c); };
}

std::vector<TaskEntry>& entries() {
    static std::vector<TaskEntry> all = {
        {QString::fromLatin1(tasks::kTranslate), factory<TranslationTask>(), translationLessonCards},
        {QString::fromLatin1(tasks::kClassify), factory<ClassifierTask>(), classifierLessonCards},
        {QString::fromLatin1(tasks::kImages), factory<ImageTask>(), imageLessonCards},
        {QString::fromLatin1(tasks::kForecast), factory<ForecastTask>(), forecastLessonCards},
        {QString::fromLatin1(kLmTask), factory<LmTask>(), lmLessonCards},
    };
    return all;
}

}  // namespace

const std::vector<TaskEntry>& registeredTasks() { return entries(); }

void registerTask(TaskEntry entry) {
    for (TaskEntry& e : entries())
        if (e.id == entry.id) {
            e = std::move(entry);
            return;
        }
    entries().push_back(std::move(entry));
}

std::vector<TaskFactory> taskFactories() {
    std::vector<TaskFactory> out;
    for (const TaskEntry& e : entries()) out.push_back(e.make);
    return out;
}

QList<LessonCard> allLessonCards() {
    QList<LessonCard> cards;
    for (const TaskEntry& e : entries())
        if (e.lessons) cards.append(e.lessons());
    return cards;
}

QString windowTaskOf(const QString& id) {
    return QString::fromStdString(tasks::windowTaskOf(id.toStdString()));
}

QString windowTaskList() {
    QStringList out;
    for (const TaskEntry& e : entries()) {
        QStringList models;  // the model tasks it trains under other names
        for (const tasks::ModelTask& t : tasks::modelTasks())
            if (QString::fromStdString(t.window) == e.id && QString::fromStdString(t.id) != e.id)
                models << QString::fromStdString(t.id);
        out << (models.isEmpty() ? e.id : QStringLiteral("%1 (or %2)").arg(e.id, models.join(QStringLiteral(", "))));
    }
    return out.join(QStringLiteral(", "));
}

}  // namespace attnlab
