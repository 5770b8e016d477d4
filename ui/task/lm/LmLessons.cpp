#include "task/lm/LmLessons.h"

#include "base/InputError.h"
#include "task/LessonSetup.h"

namespace attnlab {

LmTrainingOptions lmWindowTrainingOptions() {
    LmTrainingOptions o;
    o.evaluateEvery = 50;
    return o;
}

// The lessons are resources/lessons/lm-*.json. "induction-heads": the 2-layer attention-only model
// on the induction set, with the task's defaults (docs/lm.md has what it reached here).
LmLesson lmLessonFromFile(const LessonFile& file) {
    LmLesson l = lessonWithCard<LmLesson>(file);
    l.options = lmWindowTrainingOptions();
    if (!file.dataset.empty()) {
        l.data.dataset = QString::fromStdString(file.dataset);
    } else {
        l.data.dataset = QStringLiteral("file");
        l.data.path = QString::fromStdString(file.path);
    }
    if (file.size > 0) l.data.size = static_cast<int>(file.size);
    l.data.seed = file.dataSeed;
    try {
        l.config = lmConfigFromJson(parsableLessonModel(file.model));
    } catch (const std::exception& e) {
        throw InputError(file.file, 0, std::string("model: ") + e.what());
    }
    const LessonTraining& t = file.training;
    applyLessonTraining(t, l.options);
    l.options.epochs = 0;
    if (t.steps) l.options.steps = *t.steps;
    if (t.warmup) l.options.warmup = *t.warmup;
    if (file.seed) l.options.seed = *file.seed;
    return l;
}

std::vector<LmLesson> lmLessons() {
    std::vector<LmLesson> out;
    for (const LessonFile& f : builtinLessonFilesOf(kLmTask)) out.push_back(lmLessonFromFile(f));
    return out;
}

QList<LessonCard> lmLessonCards() { return lessonCardsOf(lmLessons()); }

}  // namespace attnlab
