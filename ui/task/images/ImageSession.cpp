#include "task/images/ImageSession.h"
#include "base/InputError.h"
#include "base/vision/ImageAttention.h"
#include "engine/vision/ImageHeadStudy.h"
#include <QCoreApplication>
#include <optional>

namespace attnlab {

namespace {

std::string noImageModelYet() {
    return QCoreApplication::translate("attnlab::ImageSession", "no model yet").toStdString();
}

ImageModelInfo describe(const ImageClassifier& model) {
    ImageModelInfo info;
    info.task = QString::fromLatin1(tasks::kImageClassify);
    info.vit = model.config();
    for (const std::string& c : model.classes()) info.classes << QString::fromStdString(c);
    info.parameters = model.parameterCount();
    return info;
}

ImageModelInfo describe(const ImageCaptioner& model) {
    ImageModelInfo info;
    info.task = QString::fromLatin1(tasks::kCaption);
    info.captioner = model.config();
    info.parameters = model.parameterCount();
    return info;
}

}  // namespace

// Lives on the session's thread; every member function runs there.
class ImageWorker : public SessionWorker<ImageSession> {
public:
    using SessionWorker::SessionWorker;

    const ImageClassifier* classifier() const {
        if (vitTrainer_) return &vitTrainer_->model();
        return vit_ ? &*vit_ : nullptr;
    }
    const ImageCaptioner* captioner() const {
        if (captionTrainer_) return &captionTrainer_->model();
        return captioner_ ? &*captioner_ : nullptr;
    }

    void train(const ImageTrainRequest& request) {
        ImageSession* s = session_;
        const bool caption = request.task == QLatin1String(tasks::kCaption);
        SessionWorker::train(
            [this, &request, caption] {
                ImageModelInfo info;
                if (caption) {
                    if (!request.captions) throw std::runtime_error("no captions");
                    captionTrainer_ = std::make_unique<CaptionerTrainer>(*request.captions, CaptionDataset(),
                                                                         request.captioner, request.options);
                    info = describe(captionTrainer_->model());
                    info.trainingImages = captionTrainer_->trainingExamples();
                    info.validationImages = captionTrainer_->validationExamples();
                    info.source = QString::fromStdString(request.captions->name);
                } else {
                    if (!request.images) throw std::runtime_error("no images");
                    runImages_ = request.images;
                    runTest_ = request.testImages && !request.testImages->images.empty() ? request.testImages : nullptr;
                    vitTrainer_ = std::make_unique<ImageClassifierTrainer>(
                        *request.images, request.testImages ? *request.testImages : ImageDataset(), request.vit,
                        request.options);
                    info = describe(vitTrainer_->model());
                    info.trainingImages = vitTrainer_->trainingExamples();
                    info.validationImages = vitTrainer_->validationExamples();
                    info.source = QString::fromStdString(request.images->name);
                }
                info.epochsPlanned = request.options.epochs;
                return info;
            },
            [this, s, caption](const std::function<void()>& afterBatch) {
                if (caption) {
                    const auto outcome = captionTrainer_->run(
                        [this, s](const CaptionEpochMetrics& m) {
                            report_.epochDone(m.epoch, [s, m] { Q_EMIT s->captionerEpochFinished(m); });
                            probeNow();
                        },
                        report_.stopFlag(), afterBatch);
                    return outcome == CaptionerTrainer::Outcome::Stopped;
                }
                const auto outcome = vitTrainer_->run(
                    [this, s](const ImageEpochMetrics& m) {
                        report_.epochDone(m.epoch, [s, m] { Q_EMIT s->classifierEpochFinished(m); });
                        probeNow();
                    },
                    report_.stopFlag(), afterBatch);
                return outcome == ImageClassifierTrainer::Outcome::Stopped;
            });
    }

    void look(quint64 id, const Image& image) {
        answer(id, [&] {
            if (const ImageClassifier* m = classifier()) {
                ImageClassification c = m->classify(image);
                toSession([id, c](ImageSession* s) { Q_EMIT s->classified(id, c); });
            } else if (const ImageCaptioner* m2 = captioner()) {
                Captioning c = m2->caption(image, 1);
                toSession([id, c](ImageSession* s) { Q_EMIT s->captioned(id, c); });
            } else {
                throw std::runtime_error(noImageModelYet());
            }
        });
    }

    void explain(quint64 id, const Image& image, std::optional<Box> box, int word, const std::vector<SceneObject>& objects) {
        answer(id, [&] {
            ImageExplanation e;
            if (const ImageClassifier* m = classifier()) {
                e = m->explain(image);
            } else if (const ImageCaptioner* m2 = captioner()) {
                if (word < 0)
                    throw std::runtime_error(
                        QCoreApplication::translate("attnlab::ImageSession", "choose a word of the caption to explain").toStdString());
                e = m2->explainWord(image, word);
                box = namedObjectBox(e, objects);
            } else {
                throw std::runtime_error(noImageModelYet());
            }
            if (box) measureOnBox(e, scaleBox(*box, image.height, image.width, e.imageHeight, e.imageWidth));
            toSession([id, e](ImageSession* s) { Q_EMIT s->explained(id, e); });
        });
    }

    void measureHeads(quint64 id, int limit, std::shared_ptr<const ImageDataset> images) {
        QString data;
        std::shared_ptr<const ImageDataset> set = images;
        if (vitTrainer_ && runImages_) {  // the run's held-out images
            const ImageDataset& from = runTest_ ? *runTest_ : *runImages_;
            auto held = std::make_shared<ImageDataset>();
            held->name = from.name;
            held->classes = from.classes;
            const bool boxed = from.boxes.size() == from.images.size();
            for (std::size_t i : vitTrainer_->heldOutIndices()) {
                held->images.push_back(from.images[i]);
                held->labels.push_back(from.labels[i]);
                if (boxed) held->boxes.push_back(from.boxes[i]);
            }
            data = runTest_ ? QCoreApplication::translate("attnlab::ImageSession", "%1 (test)").arg(QString::fromStdString(from.name))
                            : QCoreApplication::translate("attnlab::ImageSession", "%1 (held out)").arg(QString::fromStdString(from.name));
            set = std::move(held);
        } else if (images) {
            data = QString::fromStdString(images->name);
        }
        studyHeads(id, data, [&](const HeadStudyProgress& progress) {
            if (captioner())
                throw std::runtime_error(QCoreApplication::translate(
                    "attnlab::ImageSession", "the captioner has no attention heads: its decoder's attention is additive")
                                             .toStdString());
            if (!classifier()) throw std::runtime_error(noImageModelYet());
            if (!set)
                throw std::runtime_error(
                    QCoreApplication::translate("attnlab::ImageSession", "choose the images to measure the heads on first")
                        .toStdString());
            HeadStudyOptions options;
            options.limit = static_cast<std::size_t>(std::max(0, limit));
            return measureImageClassifierHeads(*classifier(), *set, options, progress);
        });
    }

    void setProbe(const Image& image, quint64 generation) {
        probe_ = image;
        probeGeneration_ = generation;
    }

private:
    ImageModelInfo openModel(const QString& path) override {
        const std::string file = path.toStdString();
        const std::string task = visionTaskOf(file);
        if (task == tasks::kImageClassify) {
            ImageClassifier opened = ImageClassifier::load(file);
            reset();
            vit_.emplace(std::move(opened));
            return describe(*vit_);
        }
        if (task == tasks::kCaption) {
            ImageCaptioner opened = ImageCaptioner::load(file);
            reset();
            captioner_.emplace(std::move(opened));
            return describe(*captioner_);
        }
        throw ModelFileError(file, QCoreApplication::translate("attnlab::ImageSession",
                                                               "not an image model (a translation model or a "
                                                               "text classifier?)")
                                       .toStdString());
    }

    void saveModel(const std::string& path, const std::map<std::string, std::string>& extra) const override {
        if (classifier())
            classifier()->save(path, extra);
        else if (captioner())
            captioner()->save(path, extra);
        else
            throw std::runtime_error(noImageModelYet());
    }

    void dropModel() override {
        runImages_.reset();
        runTest_.reset();
        vitTrainer_.reset();
        captionTrainer_.reset();
        vit_.reset();
        captioner_.reset();
    }

    void probeNow() override {
        if (probe_.pixels.empty()) return;
        ImageSession* s = session_;
        try {
            if (const ImageClassifier* m = classifier()) {
                ImageClassification c = m->classify(probe_);
                report_.probed(probeGeneration_, [s, c] { Q_EMIT s->probedClassification(c); });
            } else if (const ImageCaptioner* m2 = captioner()) {
                Captioning c = m2->caption(probe_, 1);
                report_.probed(probeGeneration_, [s, c] { Q_EMIT s->probedCaption(c); });
            }
        } catch (const std::exception&) {
            // A probe the model cannot read has nothing to show; a request for it says why.
        }
    }

    std::shared_ptr<const ImageDataset> runImages_, runTest_;  // the ViT run's data
    std::unique_ptr<ImageClassifierTrainer> vitTrainer_;
    std::unique_ptr<CaptionerTrainer> captionTrainer_;
    std::optional<ImageClassifier> vit_;
    std::optional<ImageCaptioner> captioner_;
    Image probe_;
    quint64 probeGeneration_ = 0;
};

ImageSession::ImageSession(QObject* parent) : ImageSessionBase(parent) {
    startWorker(QStringLiteral("attnlab-images"), new ImageWorker(this, reporter()));
}

bool ImageSession::train(const ImageTrainRequest& request) {
    if (request.task == QLatin1String(tasks::kCaption) ? !request.captions : !request.images) return false;
    if (!beginTraining()) return false;
    post([request](ImageWorker& w) { w.train(request); });
    return true;
}

quint64 ImageSession::look(const Image& image) {
    const quint64 id = nextRequestId();
    post([id, image](ImageWorker& w) { w.look(id, image); });
    return id;
}

quint64 ImageSession::explain(const Image& image, std::optional<Box> box, int word, std::vector<SceneObject> objects) {
    const quint64 id = nextRequestId();
    post([id, image, box, word, objects = std::move(objects)](ImageWorker& w) { w.explain(id, image, box, word, objects); });
    return id;
}

quint64 ImageSession::measureHeads(int limit, std::shared_ptr<const ImageDataset> images) {
    const quint64 id = nextRequestId();
    post([id, limit, images](ImageWorker& w) { w.measureHeads(id, limit, images); });
    return id;
}

void ImageSession::setProbe(const Image& image) {
    const quint64 generation = newProbe();
    post([image, generation](ImageWorker& w) { w.setProbe(image, generation); });
}

}  // namespace attnlab
