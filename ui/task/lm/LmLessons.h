#pragma once
// The language model's lessons (resources/lessons/lm-*.json, docs/lessons.md): a text, a model and a
// run with a fixed seed, the view to open and what to look for. The Lessons menu lists them;
// MainWindow::startLesson hands them to LmTask.
#include "engine/lm/LmTrainer.h"
#include "session/LessonCard.h"
#include "session/LessonFiles.h"
#include "task/lm/LmSetupPanel.h"
#include <QList>
#include <vector>

namespace attnlab {

struct LmLesson : LessonCard {
    LmDataChoice data;
    LmConfig config;
    LmTrainingOptions options;
};

// The task's run options in the window: LmTrainingOptions with a report every 50 steps (the CLI's
// 250 is too coarse to watch the bump form).
LmTrainingOptions lmWindowTrainingOptions();

// A language-model lesson file as the task's lesson; throws InputError naming the file for a model
// that is not valid.
LmLesson lmLessonFromFile(const LessonFile& file);

// In the interface language: call after the translator is installed.
std::vector<LmLesson> lmLessons();
QList<LessonCard> lmLessonCards();  // the same, as the Lessons menu lists them

}  // namespace attnlab
