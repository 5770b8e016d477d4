#pragma once
// The setup controls a lesson may hide or lock (a lesson file's "controls": {"hide": [...], "lock":
// [...]}, docs/lessons.md). Each panel names its controls once with markLessonControl (the stable
// names of base/lesson/Lesson.h lessonControlNames); the task applies a lesson's lists to its setup page.
// A hidden control (and its label in a form) stays hidden and a locked one disabled whatever the
// panel's own enabling does afterwards, until the next lesson's lists are applied.
#include <QStringList>

#include <initializer_list>
#include <utility>

class QWidget;

namespace attnlab {

// Gives the widget its stable lesson name (several widgets may share one: both are hidden or locked).
void markLessonControl(QWidget* widget, const char* name);
void markLessonControls(std::initializer_list<std::pair<QWidget*, const char*>> controls);
// The widget's lesson name, or empty.
QString lessonControlName(const QWidget* widget);
// Hides and locks the named controls under root; every other named control is shown and unlocked
// again (a locked one becomes enabled: the panel's enabling decides after that).
void applyLessonControls(QWidget* root, const QStringList& hidden, const QStringList& locked);
// What is hidden and locked under root now (for tests and Save Setup as Lesson), in widget order.
QStringList hiddenLessonControls(const QWidget* root);
QStringList lockedLessonControls(const QWidget* root);

}  // namespace attnlab
