#pragma once
// The text-classification task's lessons (Lessons.h has the translation ones): a dataset, a model and
// a training with a fixed seed, the text to watch and to explain, the view to open, and what to look
// for. The Lessons menu lists both kinds; MainWindow::startLesson hands these to ClassifierTask.
#include "engine/ClassifierTrainer.h"
#include <QString>
#include <vector>

namespace attnlab {

struct ClassifierLesson {
    QString id;       // for --lesson and tests: "explanation"
    QString title;    // menu entry
    QString summary;  // shown above the views
    QString dataset;  // a built-in classification dataset
    int texts = 2000;
    std::uint64_t dataSeed = 1;
    ClassifierConfig config;
    ClassifierTrainingOptions options;
    QString text;     // classified while training (the Classify view) and explained after
    QString tab;      // the view to open
};

// In the interface language: call after the translator is installed.
std::vector<ClassifierLesson> classifierLessons();
// An empty id when unknown.
ClassifierLesson findClassifierLesson(const QString& id);

}  // namespace attnlab
