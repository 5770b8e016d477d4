#pragma once
// What every task's lessons share with a lesson file (base/lesson/Lesson.h): the run options every
// setup page has, read from a lesson (applyLessonTraining) and written to one (lessonTrainingOf,
// File > Save Setup as Lesson), and the card and controls of a setup being saved.
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

// A lesson's run options into the task's options: what the lesson gives (epochs, batch size,
// learning rate, clip, the held-out share: a forecaster's tail); the rest stays the task's. A task
// applies its own fields (teacher forcing, the cosine schedule, ...) itself.
template <typename Options>
void applyLessonTraining(const LessonTraining& t, Options& o) {
    if (t.epochs) o.epochs = *t.epochs;
    if (t.batchSize) o.batchSize = *t.batchSize;
    if (t.learningRate) o.learningRate = *t.learningRate;
    if (t.clip) o.clip = *t.clip;
    if (t.validationFraction) TrainingBox::heldOutShare(o) = *t.validationFraction;
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
