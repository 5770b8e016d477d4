#pragma once
// Lessons: presets a teacher walks a class through. Each sets the dataset, the model, the training
// (with a fixed seed, so a classroom demo repeats exactly), the sentences and the view to open, and
// says in a few sentences what to look for. They are lesson files (resources/lessons/translate-*.json,
// docs/lessons.md); this is the translation task's view of one.
#include "base/translation/Datasets.h"
#include "base/translation/ModelConfig.h"
#include "engine/translation/TranslationTrainer.h"

#include "session/LessonCard.h"
#include "session/LessonFiles.h"

#include <QList>
#include <QString>

#include <vector>

namespace attnlab {

// id "alignment", "bottleneck", "heads"; tab a MainWindow::showTab name.
struct Lesson : LessonCard {
    QString dataset;      // a built-in dataset, or empty for corpusPath
    QString corpusPath;   // a TSV corpus (the lesson file's data.path)
    DatasetOptions data;
    ModelConfig config;
    TranslationTrainingOptions options;
    QString probeSentence;
    int probeEveryBatches = 5;
    QString translateSentence;
};

// A translation lesson file as the task's lesson (throws InputError naming the file for a model
// the file gives that is not valid).
Lesson lessonFromFile(const LessonFile& file);

// The built-in translation lessons, in the interface language: call after the translator is installed.
std::vector<Lesson> lessons();
QList<LessonCard> translationLessonCards();  // the same, as the Lessons menu lists them
// nullptr-like empty id when unknown.
Lesson findLesson(const QString& id);

}  // namespace attnlab
