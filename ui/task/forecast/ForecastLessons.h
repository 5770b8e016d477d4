#pragma once
// The forecasting task's lessons (Lessons.h has the translation ones, ClassifierLessons.h and
// ImageLessons.h the other tasks'): a generated series, a model and a training with a fixed seed,
// the view to open and what to look for. The Lessons menu lists them; MainWindow::startLesson hands
// them to ForecastTask.
#include "base/forecast/Series.h"
#include "engine/forecast/ForecastTrainer.h"
#include "session/LessonCard.h"
#include "session/LessonFiles.h"
#include <QList>
#include <QString>
#include <vector>

namespace attnlab {

// id "lookback"; summary shown above the views.
struct ForecastLesson : LessonCard {
    GeneratedSeriesOptions series;
    QString path;  // a series CSV (the lesson file's data.path) instead of the generated series
    ForecastConfig config;
    ForecastTrainingOptions options;
};

// A forecasting lesson file (resources/lessons/forecast-*.json, docs/lessons.md) as the task's
// lesson; throws InputError naming the file for a model that is not valid.
ForecastLesson forecastLessonFromFile(const LessonFile& file);

// In the interface language: call after the translator is installed.
std::vector<ForecastLesson> forecastLessons();
QList<LessonCard> forecastLessonCards();  // the same, as the Lessons menu lists them
// An empty id when unknown.
ForecastLesson findForecastLesson(const QString& id);

}  // namespace attnlab
