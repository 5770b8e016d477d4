#include "session/ClassifierSession.h"
#include "session/SettingNames.h"
#include "session/WorkerThread.h"
#include "base/InputError.h"
#include <QCoreApplication>
#include <optional>

namespace attnlab {

namespace {

constexpr int kProbeEveryBatches = 4;

QString messageOf(const std::exception& e) { return SettingNames::messageOf(e); }

ClassifierModelInfo describe(const TextClassifier& model) {
    ClassifierModelInfo info;
    info.config = model.config();
    for (const std::string& label : model.labels()) info.labels << QString::fromStdString(label);
    info.parameters = model.parameterCount();
    return info;
}

}  // namespace

// Lives on the session's thread; every member function runs there.
class ClassifierWorker : public QObject {
public:
    ClassifierWorker(ClassifierSession* session, std::shared_ptr<std::atomic<bool>> stop)
        : session_(session), stop_(std::move(stop)) {}

    template <typename F>
    void toGui(F&& f) {
        postToGui(session_, std::forward<F>(f));
    }

    const TextClassifier* model() const {
        if (trainer_) return &trainer_->model();
        return loaded_ ? &*loaded_ : nullptr;
    }

    void train(const ClassifierRequest& request) {
        reset();
        ClassifierSession* s = session_;
        try {
            trainer_ = std::make_unique<ClassifierTrainer>(*request.corpus, request.config, request.options);
        } catch (const std::exception& e) {
            const QString message = messageOf(e);
            toGui([s, message] {
                s->training_ = false;
                Q_EMIT s->trainingFailed(message);
                Q_EMIT s->stateChanged();
            });
            return;
        }
        ClassifierModelInfo info = describe(trainer_->model());
        info.trainingTexts = trainer_->trainingExamples();
        info.validationTexts = trainer_->validationExamples();
        info.epochsPlanned = request.options.epochs;
        info.source = QString::fromStdString(request.corpus->name);
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
        try {
            const auto outcome = trainer_->run(
                [this, s](const ClassifierEpochMetrics& m) {
                    toGui([s, m] {
                        s->completedEpochs_ = m.epoch;
                        Q_EMIT s->epochFinished(m);
                    });
                    probeNow();
                },
                stop_.get(),
                [this, &batches] {
                    if (++batches % kProbeEveryBatches == 0) probeNow();
                    serveQueuedRequests();
                });
            stopped = outcome == ClassifierTrainer::Outcome::Stopped;
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

    void faithfulness(const FaithfulnessOptions& options, std::shared_ptr<const ClassificationCorpus> corpus) {
        ClassifierSession* s = session_;
        std::optional<QString> failure;
        FaithfulnessResult result;
        busy_ = true;
        try {
            if (!model()) throw std::runtime_error("no model");
            result = runFaithfulnessExperiment(
                *model(), *corpus, options,
                [this, s](int done, int total, const std::string& message) {
                    const QString text = QString::fromStdString(message);
                    toGui([s, done, total, text] { Q_EMIT s->faithfulnessProgress(done, total, text); });
                    serveQueuedRequests();
                },
                stop_.get());
        } catch (const std::exception& e) {
            failure = messageOf(e);
        }
        busy_ = false;
        const bool stopped = stop_->load();
        toGui([s, failure, result, stopped] {
            s->experimenting_ = false;
            if (failure)
                Q_EMIT s->faithfulnessFailed(*failure);
            else
                Q_EMIT s->faithfulnessFinished(result, stopped);
            Q_EMIT s->stateChanged();
        });
        if (pendingReset_) reset();
    }

    void open(const QString& path) {
        ClassifierSession* s = session_;
        try {
            TextClassifier model = TextClassifier::load(path.toStdString());
            reset();
            loaded_.emplace(std::move(model));
            ClassifierModelInfo info = describe(*loaded_);
            info.source = path;
            toGui([s, info] {
                s->loading_ = false;
                s->info_ = info;
                s->hasModel_ = true;
                s->modified_ = false;
                s->completedEpochs_ = 0;
                s->corpus_.reset();
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
        ClassifierSession* s = session_;
        try {
            if (!model()) throw std::runtime_error("no model to save");
            model()->save(path.toStdString(), {{"epochs_trained", std::to_string(epochs)}});
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

    void classify(quint64 id, const QString& text) {
        ClassifierSession* s = session_;
        try {
            if (!model()) throw std::runtime_error(QCoreApplication::translate("attnlab::ClassifierSession",
                                                                               "no model yet").toStdString());
            Classification c = model()->classify(text.toStdString());
            toGui([s, id, c] { Q_EMIT s->classified(id, c); });
        } catch (const std::exception& e) {
            const QString message = messageOf(e);
            toGui([s, id, message] { Q_EMIT s->requestFailed(id, message); });
        }
    }

    void explain(quint64 id, const QString& text, int classIndex) {
        ClassifierSession* s = session_;
        try {
            if (!model()) throw std::runtime_error(QCoreApplication::translate("attnlab::ClassifierSession",
                                                                               "no model yet").toStdString());
            Explanation e = model()->explain(text.toStdString(), classIndex);
            toGui([s, id, e] { Q_EMIT s->explained(id, e); });
        } catch (const std::exception& e) {
            const QString message = messageOf(e);
            toGui([s, id, message] { Q_EMIT s->requestFailed(id, message); });
        }
    }

    void setProbe(const QString& text) { probe_ = text; }

    void reset() {
        if (busy_) {  // called from inside a run's callback: after the run
            pendingReset_ = true;
            return;
        }
        pendingReset_ = false;
        trainer_.reset();
        loaded_.reset();
    }

    bool isBusy() const { return busy_; }

private:
    void probeNow() {
        if (probe_.trimmed().isEmpty() || !model()) return;
        try {
            Classification c = model()->classify(probe_.toStdString());
            ClassifierSession* s = session_;
            toGui([s, c] { Q_EMIT s->probed(c); });
        } catch (const std::exception&) {
            // A probe without a known token has nothing to show; the Classify view says so itself.
        }
    }


    ClassifierSession* session_;
    std::shared_ptr<std::atomic<bool>> stop_;
    std::unique_ptr<ClassifierTrainer> trainer_;
    std::optional<TextClassifier> loaded_;
    QString probe_;
    bool busy_ = false;
    bool pendingReset_ = false;
};

ClassifierSession::ClassifierSession(QObject* parent)
    : QObject(parent), stop_(std::make_shared<std::atomic<bool>>(false)) {
    worker_.start(this, QStringLiteral("attnlab-classifier"), new ClassifierWorker(this, stop_));
}

ClassifierSession::~ClassifierSession() { shutdown(5000); }

bool ClassifierSession::train(const ClassifierRequest& request) {
    if (isBusy() || !request.corpus || worker_.isShutDown()) return false;
    stop_->store(false);
    training_ = true;
    completedEpochs_ = 0;
    corpus_ = request.corpus;
    Q_EMIT stateChanged();
    worker_.post([request](ClassifierWorker& w) { w.train(request); });
    return true;
}

void ClassifierSession::stop() { stop_->store(true); }

void ClassifierSession::reset() {
    stop_->store(true);
    worker_.post([](ClassifierWorker& w) { w.reset(); });
    const bool had = hasModel_;
    hasModel_ = false;
    modified_ = false;
    completedEpochs_ = 0;
    corpus_.reset();
    info_ = ClassifierModelInfo();
    if (had) Q_EMIT modelDiscarded();
    Q_EMIT stateChanged();
}

bool ClassifierSession::open(const QString& path) {
    if (isBusy() || worker_.isShutDown()) return false;
    loading_ = true;
    Q_EMIT stateChanged();
    worker_.post([path](ClassifierWorker& w) { w.open(path); });
    return true;
}

void ClassifierSession::save(const QString& path) {
    const int epochs = completedEpochs_;
    worker_.post([path, epochs](ClassifierWorker& w) { w.save(path, epochs); });
}

quint64 ClassifierSession::classify(const QString& text) {
    const quint64 id = ++nextRequest_;
    worker_.post([id, text](ClassifierWorker& w) { w.classify(id, text); });
    return id;
}

quint64 ClassifierSession::explain(const QString& text, int classIndex) {
    const quint64 id = ++nextRequest_;
    worker_.post([id, text, classIndex](ClassifierWorker& w) { w.explain(id, text, classIndex); });
    return id;
}

void ClassifierSession::setProbe(const QString& text) {
    probe_ = text;
    worker_.post([text](ClassifierWorker& w) { w.setProbe(text); });
}

bool ClassifierSession::runFaithfulness(const FaithfulnessOptions& options,
                                        std::shared_ptr<const ClassificationCorpus> corpus) {
    if (!corpus) corpus = corpus_;
    if (isBusy() || !hasModel_ || !corpus || worker_.isShutDown()) return false;
    stop_->store(false);
    experimenting_ = true;
    Q_EMIT stateChanged();
    worker_.post([options, corpus](ClassifierWorker& w) { w.faithfulness(options, corpus); });
    return true;
}

void ClassifierSession::shutdown(int timeoutMs) { worker_.shutdown(timeoutMs, *stop_); }

}  // namespace attnlab
