#include "task/translate/Lessons.h"

#include "task/LessonSetup.h"
#include "base/InputError.h"
#include "base/TaskIds.h"

namespace attnlab {

// The lessons themselves are resources/lessons/translate-*.json; what each measured is in the
// file's card and in docs/lessons.md (alignment: seeds 1-5 each gave the clean diagonal for "tom
// chases jerry" after 4 epochs with the default model, the lesson trains 6).
Lesson lessonFromFile(const LessonFile& file) {
    Lesson l = lessonWithCard<Lesson>(file);
    if (!file.dataset.empty()) l.dataset = QString::fromStdString(file.dataset);
    else l.corpusPath = QString::fromStdString(file.path);
    if (file.size > 0) l.data.size = file.size;
    l.data.seed = file.dataSeed;
    l.data.maxLen = file.maxLength;
    try {
        l.config = modelConfigFromJson(parsableLessonModel(file.model));
    } catch (const std::exception& e) {
        throw InputError(file.file, 0, std::string("model: ") + e.what());
    }
    l.config.sourceVocab = l.config.targetVocab = 0;  // from the corpus
    const LessonTraining& t = file.training;
    applyLessonTraining(t, l.options);
    if (t.teacherForcing) l.options.teacherForcing = *t.teacherForcing;
    if (t.coveragePenalty) l.options.coveragePenalty = *t.coveragePenalty;
    if (t.guidedAlignment) l.options.guidedAlignment = *t.guidedAlignment;
    if (t.alignmentLayer) l.options.alignmentLayer = *t.alignmentLayer;
    if (t.alignmentHead) l.options.alignmentHead = *t.alignmentHead;
    if (file.seed) l.options.seed = *file.seed;
    if (const auto it = file.probe.find("sentence"); it != file.probe.end()) l.probeSentence = QString::fromStdString(it->second);
    if (const auto it = file.probe.find("translate"); it != file.probe.end())
        l.translateSentence = QString::fromStdString(it->second);
    if (file.probeEveryBatches > 0) l.probeEveryBatches = file.probeEveryBatches;
    return l;
}

std::vector<Lesson> lessons() {
    std::vector<Lesson> out;
    for (const LessonFile& f : builtinLessonFilesOf(tasks::kTranslate)) out.push_back(lessonFromFile(f));
    return out;
}

QList<LessonCard> translationLessonCards() { return lessonCardsOf(lessons()); }

Lesson findLesson(const QString& id) { return findLessonById(lessons(), id); }

}  // namespace attnlab
