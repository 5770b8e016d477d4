#include "task/forecast/ForecastLessons.h"

#include "task/LessonSetup.h"
#include "base/InputError.h"
#include "base/TaskIds.h"

namespace attnlab {

// The lessons are resources/lessons/forecast-*.json. "lookback": what does a forecaster look back
// at? The default seasonal series (period 17, odd so that no power of two hides it; 2,000 values,
// noise 0.2, seed 1) and the default model and training (context 96, horizon 12, d_model 64, 4
// heads, time features, 12 epochs). docs/forecasting.md has what it reached here (MASE 0.775 and a
// period-mass ratio of 2.10 after the 12 epochs).
ForecastLesson forecastLessonFromFile(const LessonFile& file) {
    ForecastLesson l = lessonWithCard<ForecastLesson>(file);
    if (!file.dataset.empty()) {
        if (const auto kind = parseSeriesKind(file.dataset)) l.series.kind = *kind;
    } else {
        l.path = QString::fromStdString(file.path);
    }
    if (file.size > 0) l.series.length = static_cast<long>(file.size);
    l.series.seed = file.dataSeed;
    if (file.period > 0) l.series.period = file.period;
    if (file.lag > 0) l.series.lag = file.lag;
    if (file.noise) l.series.noise = *file.noise;
    try {
        l.config = forecastConfigFromJson(parsableLessonModel(file.model));
    } catch (const std::exception& e) {
        throw InputError(file.file, 0, std::string("model: ") + e.what());
    }
    const LessonTraining& t = file.training;
    applyLessonTraining(t, l.options);
    if (file.seed) l.options.seed = *file.seed;
    return l;
}

std::vector<ForecastLesson> forecastLessons() {
    std::vector<ForecastLesson> out;
    for (const LessonFile& f : builtinLessonFilesOf(tasks::kForecast)) out.push_back(forecastLessonFromFile(f));
    return out;
}

QList<LessonCard> forecastLessonCards() { return lessonCardsOf(forecastLessons()); }

ForecastLesson findForecastLesson(const QString& id) { return findLessonById(forecastLessons(), id); }

}  // namespace attnlab
