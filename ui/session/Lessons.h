#pragma once
// Lessons: presets a teacher walks a class through. Each sets the dataset, the model, the training
// (with a fixed seed, so a classroom demo repeats exactly), the sentences and the view to open, and
// says in a few sentences what to look for.
#include "base/translation/Datasets.h"
#include "base/translation/ModelConfig.h"
#include "engine/translation/Trainer.h"

#include "session/LessonCard.h"

#include <QList>
#include <QString>

#include <vector>

namespace attnlab {

// id "alignment", "bottleneck", "heads"; tab a MainWindow::showTab name.
struct Lesson : LessonCard {
    QString dataset;      // a built-in dataset
    DatasetOptions data;
    ModelConfig config;
    TrainingOptions options;
    QString probeSentence;
    int probeEveryBatches = 5;
    QString translateSentence;
};

// In the interface language: call after the translator is installed.
std::vector<Lesson> lessons();
QList<LessonCard> lessonCards();  // the same, as the Lessons menu lists them
// nullptr-like empty id when unknown.
Lesson findLesson(const QString& id);

}  // namespace attnlab
