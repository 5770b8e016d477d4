#pragma once
// What every task's File > Save Setup as Lesson shares: the training settings, the card and the
// controls of the setup being saved, as the fields of a lesson file (base/Lesson.h).
#include "setup/TrainingBox.h"
#include "base/lesson/Lesson.h"
#include "setup/LessonControls.h"

#include <QString>
#include <QWidget>

namespace attnlab {

// The run options every task's setup page has (epochs, batch size, learning rate; the seed is the
// lesson's "seed").
template <typename Options>
LessonTraining lessonTrainingOf(const Options& o) {
    LessonTraining t;
    t.epochs = o.epochs;
    t.batchSize = o.batchSize;
    t.learningRate = o.learningRate;
    t.clip = o.clip;
    Options copy = o;
    t.validationFraction = TrainingBox::heldOutShare(copy);  // a forecaster's: its held-out tail
    return t;
}

// The card of a saved setup (the teacher rewrites it), its view, and the controls hidden or
// locked on the setup page now.
inline void describeSavedSetup(LessonFile& lesson, const QString& title, const QString& card, const QString& view,
                               const QWidget* setupPage) {
    lesson.title.byLanguage["en"] = title.toStdString();
    lesson.card.byLanguage["en"] = card.toStdString();
    lesson.view = view.toStdString();
    lesson.hidden.clear();
    lesson.locked.clear();
    for (const QString& name : hiddenLessonControls(setupPage)) lesson.hidden.push_back(name.toStdString());
    for (const QString& name : lockedLessonControls(setupPage)) lesson.locked.push_back(name.toStdString());
}

}  // namespace attnlab
