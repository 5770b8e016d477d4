#pragma once
// The Images task's lessons (Lessons.h has the translation ones, ClassifierLessons.h the text
// classifier's): a generated dataset, a small model and a training with a fixed seed, the view to
// open and what to look for. The Lessons menu lists them; MainWindow::startLesson hands them to
// ImageTask. Sized to train in well under a minute on two cores.
#include "engine/vision/VisionTrainer.h"
#include "session/LessonCard.h"
#include "session/LessonFiles.h"
#include <QList>
#include <QString>
#include <vector>

namespace attnlab {

// id "vit", "captioner"; summary shown above the views.
struct ImageLesson : LessonCard {
    QString dataset;  // "glyphs", "fashion-mnist", "scenes", or "folder" / "captions" for path
    QString path;     // an image folder (image-classify) or caption TSV (caption): data.path
    QString probeImage;  // an image file to open in the Image view, or empty
    int images = 2000;
    std::uint64_t dataSeed = 1;
    double sceneNoise = 0;  // scenes: SceneOptions::noise (data.noise)
    VitConfig vit;
    CaptionerConfig captioner;
    VisionTrainingOptions options;
};

// An image lesson file (task image-classify or caption, resources/lessons/images-*.json) as the
// task's lesson; throws InputError naming the file for a model that is not valid.
ImageLesson imageLessonFromFile(const LessonFile& file);

// In the interface language: call after the translator is installed.
std::vector<ImageLesson> imageLessons();
QList<LessonCard> imageLessonCards();  // the same, as the Lessons menu lists them
// An empty id when unknown.
ImageLesson findImageLesson(const QString& id);

}  // namespace attnlab
