#include "session/ImageLessons.h"

#include "base/InputError.h"
#include "base/TaskIds.h"
#include "base/vision/Captions.h"
#include "base/vision/ImageDatasets.h"

namespace attnlab {

// The lessons are resources/lessons/images-*.json.
// "vit": the default glyphs (5,000: a 6x6 mark among dashes on 32x32), 4x4 patches, the default ViT
// (64 wide, 4 heads, 3 layers, no dropout), 8 epochs: about 2 minutes here, held-out accuracy 0.95,
// the rollout's peak on the mark in 28 and 30 of the first 40 glyphs (seeds 1, 2 in the CLI); on the
// probe (the first glyph, a plus at the edge) it landed on the mark in one run and on two dashes in
// another, hence the card's "three in four".
// "captioner": scenes of two or three coloured shapes, captioned left to right; the default
// captioner and training (docs/vision.md): every object named in 0.985 of the held-out scenes, the
// attention peak inside the named object for 0.71 of the shape words; about 15 s an epoch here. On
// 2,000 scenes it named them as often (0.93) but the probe's "bar" looked beside the bar. With the
// doubly stochastic term (lambda 1) the peaks fall in the object for only ~0.2 of the words: it
// spreads each word's attention over the grid, so the lesson leaves it off.
ImageLesson imageLessonFromFile(const LessonFile& file) {
    ImageLesson l = lessonWithCard<ImageLesson>(file);
    const bool captions = file.task == tasks::kCaption;
    if (!file.dataset.empty()) {
        l.dataset = QString::fromStdString(file.dataset);
    } else {
        l.dataset = captions ? QStringLiteral("captions") : QStringLiteral("folder");
        l.path = QString::fromStdString(file.path);
    }
    if (file.size > 0) l.images = static_cast<int>(file.size);
    else l.images = static_cast<int>(captions ? kDefaultSceneCount : kDefaultGlyphCount);
    l.dataSeed = file.dataSeed;
    try {
        if (captions) {
            const CaptionerConfig defaults;
            l.captioner = captionerConfigFromJson(parsableLessonModel(file.model));
            l.captioner.vocabulary = defaults.vocabulary;  // from the captions
        } else {
            const VitConfig defaults;
            l.vit = vitConfigFromJson(parsableLessonModel(file.model));
            l.vit.classes = defaults.classes;  // from the images
        }
    } catch (const std::exception& e) {
        throw InputError(file.file, 0, std::string("model: ") + e.what());
    }
    l.options = captions ? defaultCaptionerTraining() : defaultVitTraining();
    const LessonTraining& t = file.training;
    if (t.epochs) l.options.epochs = *t.epochs;
    if (t.batchSize) l.options.batchSize = *t.batchSize;
    if (t.learningRate) l.options.learningRate = *t.learningRate;
    if (t.clip) l.options.clip = *t.clip;
    if (t.validationFraction) l.options.validationFraction = *t.validationFraction;
    if (t.cosine) l.options.cosine = *t.cosine;
    if (file.seed) l.options.seed = *file.seed;
    if (const auto it = file.probe.find("image"); it != file.probe.end()) l.probeImage = QString::fromStdString(it->second);
    return l;
}

std::vector<ImageLesson> imageLessons() {
    std::vector<ImageLesson> out;
    for (const LessonFile& f : builtinLessonFilesOf(tasks::kImages)) out.push_back(imageLessonFromFile(f));
    return out;
}

QList<LessonCard> imageLessonCards() { return lessonCardsOf(imageLessons()); }

ImageLesson findImageLesson(const QString& id) { return findLessonById(imageLessons(), id); }

}  // namespace attnlab
