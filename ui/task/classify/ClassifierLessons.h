#pragma once
// The text-classification task's lessons (Lessons.h has the translation ones): a dataset, a model and
// a training with a fixed seed, the text to watch and to explain, the view to open, and what to look
// for. The Lessons menu lists both kinds; MainWindow::startLesson hands these to ClassifierTask.
#include "engine/text/ClassifierTrainer.h"
#include "session/LessonCard.h"
#include "session/LessonFiles.h"
#include <QList>
#include <QString>
#include <vector>

namespace attnlab {

// id "explanation"; summary shown above the views.
struct ClassifierLesson : LessonCard {
    QString dataset;  // a built-in classification dataset, or "file" for path
    QString path;     // the TSV corpus (the lesson file's data.path)
    int texts = 2000;
    int length = 0;   // needle's words per text; 0 = its default
    std::uint64_t dataSeed = 1;
    ClassifierConfig config;
    ClassifierTrainingOptions options;
    QString text;     // classified while training (the Classify view) and explained after
};

// A classification lesson file (resources/lessons/classify-*.json) as the task's lesson; throws
// InputError naming the file for a model that is not valid.
ClassifierLesson classifierLessonFromFile(const LessonFile& file);

// In the interface language: call after the translator is installed.
std::vector<ClassifierLesson> classifierLessons();
QList<LessonCard> classifierLessonCards();  // the same, as the Lessons menu lists them
// An empty id when unknown.
ClassifierLesson findClassifierLesson(const QString& id);

}  // namespace attnlab
