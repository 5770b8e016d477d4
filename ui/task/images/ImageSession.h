#pragma once
// The Images task's model and its training, on a worker thread of its own ("attnlab-images"): a
// ViT (ImageClassifierTrainer, task "image-classify") or a captioner (CaptionerTrainer, task
// "caption"), trained, or opened from a file. The GUI thread asks through this object and never
// waits; the worker answers with value types (ImageClassification, Captioning, the epoch metrics,
// QString) posted back to this object, which re-emits them on the GUI thread. While a run trains,
// the worker answers the views' requests between batches (run's afterBatch) and every few batches
// looks at the probe image, so the Image view shows the attention forming.
//
// One job at a time: a run, an open or a save. Train and open are refused while a job runs; a reset
// during a run takes effect when the run has stopped.
#include "engine/vision/VisionTrainer.h"
#include "session/ModelSession.h"
#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "base/TaskIds.h"

namespace attnlab {

class ImageWorker;

struct ImageTrainRequest {
    QString task;  // tasks::kImageClassify or tasks::kCaption
    std::shared_ptr<const ImageDataset> images;       // image-classify
    std::shared_ptr<const ImageDataset> testImages;   // may be null
    std::shared_ptr<const CaptionDataset> captions;   // caption
    VitConfig vit;
    CaptionerConfig captioner;
    VisionTrainingOptions options;
};

// What the window and the views show of the model.
struct ImageModelInfo {
    QString task;  // tasks::kImageClassify or tasks::kCaption
    VitConfig vit;
    CaptionerConfig captioner;
    QStringList classes;  // a ViT's
    std::int64_t parameters = 0;
    std::size_t trainingImages = 0, validationImages = 0;  // 0 for a model opened from a file
    int epochsPlanned = 0;
    QString source;  // the dataset's name, or the file opened
    bool isCaptioner() const { return task == QLatin1String(tasks::kCaption); }
};

using ImageSessionBase = SessionOf<ImageWorker, ImageModelInfo>;

class ImageSession : public ImageSessionBase {
    Q_OBJECT
public:
    explicit ImageSession(QObject* parent = nullptr);
    // The destructor shuts the worker down (SessionOf: shutdown(5000)) if not done yet.

    bool train(const ImageTrainRequest& request);  // refused (false) while a job runs
    // stop(), reset(), open(path), save(path), shutdown(timeoutMs): ModelSession. The open model
    // stays if an open fails; a reset during a run takes effect when the run has stopped.
    // Classified (a ViT) or captioned (a captioner): answered by classified / captioned or
    // requestFailed, carrying the returned id.
    quint64 look(const Image& image);
    // The explanation lab on the image: a ViT's class (ImageClassifier::explain), measured on `box`
    // when known (in the image's pixels), or a captioner's word `word` of its greedy caption
    // (ImageCaptioner::explainWord), measured on the box of the object among `objects` it names:
    // explained or requestFailed, with the id.
    quint64 explain(const Image& image, std::optional<Box> box, int word = -1, std::vector<SceneObject> objects = {});
    // Every head of a ViT switched off in turn and ranked (engine/HeadStudy.h) on the run's held-out
    // images (its test set, or the share its trainer held out), or on `images` for a ViT opened from a
    // file: headStudyProgress, then headStudyMeasured or requestFailed, carrying the returned id.
    // `limit` images at most (0: all). A captioner has no heads: requestFailed.
    quint64 measureHeads(int limit, std::shared_ptr<const ImageDataset> images = {});
    // Looked at every few batches while training and after each epoch: probedClassification /
    // probedCaption. An empty image: no probe.
    void setProbe(const Image& image);

Q_SIGNALS:
    void modelReady(const attnlab::ImageModelInfo& info);
    void classifierEpochFinished(const attnlab::ImageEpochMetrics& metrics);
    void captionerEpochFinished(const attnlab::CaptionEpochMetrics& metrics);
    void classified(quint64 id, const attnlab::ImageClassification& result);
    void captioned(quint64 id, const attnlab::Captioning& result);
    void explained(quint64 id, const attnlab::ImageExplanation& result);
    void probedClassification(const attnlab::ImageClassification& result);
    void probedCaption(const attnlab::Captioning& result);
};

}  // namespace attnlab
