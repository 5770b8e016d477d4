#pragma once
// The Images task's lessons (Lessons.h has the translation ones, ClassifierLessons.h the text
// classifier's): a generated dataset, a small model and a training with a fixed seed, the view to
// open and what to look for. The Lessons menu lists them; MainWindow::startLesson hands them to
// ImageTask. Sized to train in well under a minute on two cores.
#include "engine/VisionTrainer.h"
#include <QString>
#include <vector>

namespace attnlab {

struct ImageLesson {
    QString id;       // for --lesson and tests: "vit", "captioner"
    QString title;    // menu entry
    QString summary;  // shown above the views
    QString dataset;  // "glyphs" or "scenes"
    int images = 2000;
    std::uint64_t dataSeed = 1;
    VitConfig vit;
    CaptionerConfig captioner;
    VisionTrainingOptions options;
    QString tab;      // the view to open
};

// In the interface language: call after the translator is installed.
std::vector<ImageLesson> imageLessons();
// An empty id when unknown.
ImageLesson findImageLesson(const QString& id);

}  // namespace attnlab
