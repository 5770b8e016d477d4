#pragma once
// Lessons: presets a teacher walks a class through. Each sets the dataset, the model, the training
// (with a fixed seed, so a classroom demo repeats exactly), the sentences and the view to open, and
// says in a few sentences what to look for.
#include "base/Datasets.h"
#include "base/ModelConfig.h"
#include "engine/Trainer.h"

#include <QString>

#include <vector>

namespace attnlab {

struct Lesson {
    QString id;           // for --lesson and tests: "alignment", "bottleneck", "heads"
    QString title;        // menu entry
    QString summary;      // what the lesson shows and what to look for (shown above the views)
    QString dataset;      // a built-in dataset
    DatasetOptions data;
    ModelConfig config;
    TrainingOptions options;
    QString probeSentence;
    int probeEveryBatches = 5;
    QString translateSentence;
    QString tab;          // the view to open (MainWindow::showTab names)
};

// In the interface language: call after the translator is installed.
std::vector<Lesson> lessons();
// nullptr-like empty id when unknown.
Lesson findLesson(const QString& id);

}  // namespace attnlab
