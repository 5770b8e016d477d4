#include "task/classify/ClassifierLessons.h"

#include "task/LessonSetup.h"
#include "base/InputError.h"
#include "base/TaskIds.h"

namespace attnlab {

// The lessons are resources/lessons/classify-*.json. "explanation" is the default classifier
// (bidirectional GRU, additive pooling) on the sentiment reviews, whose gold rationales say which
// words decide. Measured (docs/classification.md): 10 epochs, seeds 1-5 reach accuracy 1.00 with
// 0.60-0.80 of the attention on the rationale (uniform: ~0.12); an epoch takes under a second here.
ClassifierLesson classifierLessonFromFile(const LessonFile& file) {
    ClassifierLesson l = lessonWithCard<ClassifierLesson>(file);
    if (!file.dataset.empty()) {
        l.dataset = QString::fromStdString(file.dataset);
    } else {
        l.dataset = QStringLiteral("file");
        l.path = QString::fromStdString(file.path);
    }
    if (file.size > 0) l.texts = static_cast<int>(file.size);
    l.dataSeed = file.dataSeed;
    l.length = file.length;
    try {
        const ClassifierConfig defaults;
        l.config = classifierConfigFromJson(parsableLessonModel(file.model));
        l.config.vocabulary = defaults.vocabulary;  // from the corpus
        l.config.classes = defaults.classes;
    } catch (const std::exception& e) {
        throw InputError(file.file, 0, std::string("model: ") + e.what());
    }
    const LessonTraining& t = file.training;
    applyLessonTraining(t, l.options);
    if (file.seed) l.options.seed = *file.seed;
    if (const auto it = file.probe.find("text"); it != file.probe.end()) l.text = QString::fromStdString(it->second);
    return l;
}

std::vector<ClassifierLesson> classifierLessons() {
    std::vector<ClassifierLesson> out;
    for (const LessonFile& f : builtinLessonFilesOf(tasks::kClassify)) out.push_back(classifierLessonFromFile(f));
    return out;
}

QList<LessonCard> classifierLessonCards() { return lessonCardsOf(classifierLessons()); }

ClassifierLesson findClassifierLesson(const QString& id) { return findLessonById(classifierLessons(), id); }

}  // namespace attnlab
