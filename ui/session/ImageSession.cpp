#include "session/ImageSession.h"
#include "session/SettingNames.h"
#include "session/WorkerThread.h"
#include "base/InputError.h"
#include <QCoreApplication>
#include <optional>

namespace attnlab {

namespace {

constexpr int kProbeEveryBatches = 4;

QString messageOf(const std::exception& e) { return SettingNames::messageOf(e); }

std::string noModel() {
    return QCoreApplication::translate("attnlab::ImageSession", "no model yet").toStdString();
}

ImageModelInfo describe(const ImageClassifier& model) {
    ImageModelInfo info;
    info.task = QString::fromLatin1(kImageClassifyTask);
    info.vit = model.config();
    for (const std::string& c : model.classes()) info.classes << QString::fromStdString(c);
    info.parameters = model.parameterCount();
    return info;
}

ImageModelInfo describe(const ImageCaptioner& model) {
    ImageModelInfo info;
    info.task = QString::fromLatin1(kCaptionTask);
    info.captioner = model.config();
    info.parameters = model.parameterCount();
    return info;
}

}  // namespace

// Lives on the session's thread; every member function runs there.
class ImageWorker : public QObject {
public:
    ImageWorker(ImageSession* session, std::shared_ptr<std::atomic<bool>> stop)
        : session_(session), stop_(std::move(stop)) {}

    template <typename F>
    void toGui(F&& f) {
        postToGui(session_, std::forward<F>(f));
    }

    const ImageClassifier* classifier() const {
        if (vitTrainer_) return &vitTrainer_->model();
        return vit_ ? &*vit_ : nullptr;
    }
    const ImageCaptioner* captioner() const {
        if (captionTrainer_) return &captionTrainer_->model();
        return captioner_ ? &*captioner_ : nullptr;
    }

    void train(const ImageTrainRequest& request) {
        reset();
        ImageSession* s = session_;
        const bool caption = request.task == QLatin1String(kCaptionTask);
        ImageModelInfo info;
        try {
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
                vitTrainer_ = std::make_unique<ImageClassifierTrainer>(
                    *request.images, request.testImages ? *request.testImages : ImageDataset(), request.vit,
                    request.options);
                info = describe(vitTrainer_->model());
                info.trainingImages = vitTrainer_->trainingExamples();
                info.validationImages = vitTrainer_->validationExamples();
                info.source = QString::fromStdString(request.images->name);
            }
        } catch (const std::exception& e) {
            vitTrainer_.reset();
            captionTrainer_.reset();
            const QString message = messageOf(e);
            toGui([s, message] {
                s->training_ = false;
                Q_EMIT s->trainingFailed(message);
                Q_EMIT s->stateChanged();
            });
            return;
        }
        info.epochsPlanned = request.options.epochs;
        toGui([s, info] {
            s->info_ = info;
            s->hasModel_ = true;
            s->modified_ = true;
            Q_EMIT s->modelReady(info);
        });
        probeNow();
        int batches = 0;
        std::optional<QString> failure;
        bool stopped = false;
        busy_ = true;
        const auto afterBatch = [this, &batches] {
            if (++batches % kProbeEveryBatches == 0) probeNow();
            serveQueuedRequests();
        };
        try {
            if (caption) {
                const auto outcome = captionTrainer_->run(
                    [this, s](const CaptionEpochMetrics& m) {
                        toGui([s, m] {
                            s->completedEpochs_ = m.epoch;
                            Q_EMIT s->captionerEpochFinished(m);
                        });
                        probeNow();
                    },
                    stop_.get(), afterBatch);
                stopped = outcome == CaptionerTrainer::Outcome::Stopped;
            } else {
                const auto outcome = vitTrainer_->run(
                    [this, s](const ImageEpochMetrics& m) {
                        toGui([s, m] {
                            s->completedEpochs_ = m.epoch;
                            Q_EMIT s->classifierEpochFinished(m);
                        });
                        probeNow();
                    },
                    stop_.get(), afterBatch);
                stopped = outcome == ImageClassifierTrainer::Outcome::Stopped;
            }
        } catch (const std::exception& e) {
            failure = messageOf(e);
        }
        busy_ = false;
        toGui([s, failure, stopped] {
            s->training_ = false;
            if (failure)
                Q_EMIT s->trainingFailed(*failure);
            else
                Q_EMIT s->trainingFinished(stopped);
            Q_EMIT s->stateChanged();
        });
        if (pendingReset_) reset();
    }

    void open(const QString& path) {
        ImageSession* s = session_;
        try {
            const std::string file = path.toStdString();
            const std::string task = visionTaskOf(file);
            ImageModelInfo info;
            if (task == kImageClassifyTask) {
                ImageClassifier model = ImageClassifier::load(file);
                reset();
                vit_.emplace(std::move(model));
                info = describe(*vit_);
            } else if (task == kCaptionTask) {
                ImageCaptioner model = ImageCaptioner::load(file);
                reset();
                captioner_.emplace(std::move(model));
                info = describe(*captioner_);
            } else {
                throw ModelFileError(file, QCoreApplication::translate("attnlab::ImageSession",
                                                                       "not an image model (a translation model or a "
                                                                       "text classifier?)")
                                               .toStdString());
            }
            info.source = path;
            toGui([s, info] {
                s->loading_ = false;
                s->info_ = info;
                s->hasModel_ = true;
                s->modified_ = false;
                s->completedEpochs_ = 0;
                Q_EMIT s->modelReady(info);
                Q_EMIT s->stateChanged();
            });
        } catch (const std::exception& e) {
            const QString message = messageOf(e);
            toGui([s, message] {
                s->loading_ = false;
                Q_EMIT s->openFailed(message);
                Q_EMIT s->stateChanged();
            });
        }
    }

    void save(const QString& path, int epochs) {
        ImageSession* s = session_;
        try {
            const std::map<std::string, std::string> extra{{"epochs_trained", std::to_string(epochs)}};
            if (classifier())
                classifier()->save(path.toStdString(), extra);
            else if (captioner())
                captioner()->save(path.toStdString(), extra);
            else
                throw std::runtime_error(noModel());
            toGui([s, path] {
                s->modified_ = false;
                Q_EMIT s->saved(path);
                Q_EMIT s->stateChanged();
            });
        } catch (const std::exception& e) {
            const QString message = messageOf(e);
            toGui([s, message] { Q_EMIT s->saveFailed(message); });
        }
    }

    void look(quint64 id, const Image& image) {
        ImageSession* s = session_;
        try {
            if (const ImageClassifier* m = classifier()) {
                ImageClassification c = m->classify(image);
                toGui([s, id, c] { Q_EMIT s->classified(id, c); });
            } else if (const ImageCaptioner* m2 = captioner()) {
                Captioning c = m2->caption(image, 1);
                toGui([s, id, c] { Q_EMIT s->captioned(id, c); });
            } else {
                throw std::runtime_error(noModel());
            }
        } catch (const std::exception& e) {
            const QString message = messageOf(e);
            toGui([s, id, message] { Q_EMIT s->requestFailed(id, message); });
        }
    }

    void setProbe(const Image& image, quint64 generation) {
        probe_ = image;
        probeGeneration_ = generation;
    }

    void reset() {
        if (busy_) {  // from inside a run's callback: after the run
            pendingReset_ = true;
            return;
        }
        pendingReset_ = false;
        vitTrainer_.reset();
        captionTrainer_.reset();
        vit_.reset();
        captioner_.reset();
    }

private:
    void probeNow() {
        if (probe_.pixels.empty()) return;
        ImageSession* s = session_;
        const quint64 generation = probeGeneration_;
        try {
            if (const ImageClassifier* m = classifier()) {
                ImageClassification c = m->classify(probe_);
                toGui([s, c, generation] {
                    if (generation == s->probeGeneration_) Q_EMIT s->probedClassification(c);
                });
            } else if (const ImageCaptioner* m2 = captioner()) {
                Captioning c = m2->caption(probe_, 1);
                toGui([s, c, generation] {
                    if (generation == s->probeGeneration_) Q_EMIT s->probedCaption(c);
                });
            }
        } catch (const std::exception&) {
            // A probe the model cannot read has nothing to show; a request for it says why.
        }
    }


    ImageSession* session_;
    std::shared_ptr<std::atomic<bool>> stop_;
    std::unique_ptr<ImageClassifierTrainer> vitTrainer_;
    std::unique_ptr<CaptionerTrainer> captionTrainer_;
    std::optional<ImageClassifier> vit_;
    std::optional<ImageCaptioner> captioner_;
    Image probe_;
    quint64 probeGeneration_ = 0;
    bool busy_ = false;
    bool pendingReset_ = false;
};

ImageSession::ImageSession(QObject* parent) : QObject(parent), stop_(std::make_shared<std::atomic<bool>>(false)) {
    worker_.start(this, QStringLiteral("attnlab-images"), new ImageWorker(this, stop_));
}

ImageSession::~ImageSession() { shutdown(5000); }

bool ImageSession::train(const ImageTrainRequest& request) {
    if (isBusy() || worker_.isShutDown()) return false;
    if (request.task == QLatin1String(kCaptionTask) ? !request.captions : !request.images) return false;
    stop_->store(false);
    training_ = true;
    completedEpochs_ = 0;
    Q_EMIT stateChanged();
    worker_.post([request](ImageWorker& w) { w.train(request); });
    return true;
}

void ImageSession::stop() { stop_->store(true); }

void ImageSession::reset() {
    stop_->store(true);
    worker_.post([](ImageWorker& w) { w.reset(); });
    ++probeGeneration_;  // a probe of the discarded model, still on its way, is dropped
    const bool had = hasModel_;
    hasModel_ = false;
    modified_ = false;
    completedEpochs_ = 0;
    info_ = ImageModelInfo();
    if (had) Q_EMIT modelDiscarded();
    Q_EMIT stateChanged();
}

bool ImageSession::open(const QString& path) {
    if (isBusy() || worker_.isShutDown()) return false;
    loading_ = true;
    Q_EMIT stateChanged();
    worker_.post([path](ImageWorker& w) { w.open(path); });
    return true;
}

void ImageSession::save(const QString& path) {
    const int epochs = completedEpochs_;
    worker_.post([path, epochs](ImageWorker& w) { w.save(path, epochs); });
}

quint64 ImageSession::look(const Image& image) {
    const quint64 id = ++nextRequest_;
    worker_.post([id, image](ImageWorker& w) { w.look(id, image); });
    return id;
}

void ImageSession::setProbe(const Image& image) {
    const quint64 generation = ++probeGeneration_;
    worker_.post([image, generation](ImageWorker& w) { w.setProbe(image, generation); });
}

void ImageSession::shutdown(int timeoutMs) { worker_.shutdown(timeoutMs, *stop_); }

}  // namespace attnlab
