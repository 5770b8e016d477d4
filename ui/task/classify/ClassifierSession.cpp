#include "task/classify/ClassifierSession.h"
#include "base/InputError.h"
#include "engine/text/ClassifierHeadStudy.h"
#include <QCoreApplication>
#include <optional>

namespace attnlab {

namespace {

std::string noClassifierYet() {
    return QCoreApplication::translate("attnlab::ClassifierSession", "no model yet").toStdString();
}

ClassifierModelInfo describe(const TextClassifier& model) {
    ClassifierModelInfo info;
    info.config = model.config();
    for (const std::string& label : model.labels()) info.labels << QString::fromStdString(label);
    info.parameters = model.parameterCount();
    return info;
}

}  // namespace

// Lives on the session's thread; every member function runs there.
class ClassifierWorker : public SessionWorker<ClassifierSession> {
public:
    using SessionWorker::SessionWorker;

    const TextClassifier* model() const {
        if (trainer_) return &trainer_->model();
        return loaded_ ? &*loaded_ : nullptr;
    }

    void train(const ClassifierRequest& request) {
        ClassifierSession* s = session_;
        SessionWorker::train(
            [this, &request] {
                trainer_ = std::make_unique<ClassifierTrainer>(*request.corpus, request.config, request.options);
                ClassifierModelInfo info = describe(trainer_->model());
                info.trainingTexts = trainer_->trainingExamples();
                info.validationTexts = trainer_->validationExamples();
                info.epochsPlanned = request.options.epochs;
                info.source = QString::fromStdString(request.corpus->name);
                return info;
            },
            [this, s](const std::function<void()>& afterBatch) {
                const auto outcome = trainer_->run(
                    [this, s](const ClassifierEpochMetrics& m) {
                        report_.epochDone(m.epoch, [s, m] { Q_EMIT s->epochFinished(m); });
                        probeNow();
                    },
                    report_.stopFlag(), afterBatch);
                return outcome == ClassifierTrainer::Outcome::Stopped;
            });
    }

    void faithfulness(const FaithfulnessOptions& options, std::shared_ptr<const ClassificationCorpus> corpus) {
        job([&] {
            ClassifierSession* s = session_;
            std::optional<QString> failure;
            FaithfulnessResult result;
            try {
                if (!model()) throw std::runtime_error("no model");
                result = runFaithfulnessExperiment(
                    *model(), *corpus, options,
                    [this](int done, int total, const std::string& message) {
                        const QString text = QString::fromStdString(message);
                        toSession([done, total, text](ClassifierSession* t) {
                            Q_EMIT t->faithfulnessProgress(done, total, text);
                        });
                        serveQueuedRequests();
                    },
                    report_.stopFlag());
            } catch (const std::exception& e) {
                failure = messageOf(e);
            }
            const bool stopped = report_.stopRequested();
            report_.jobEnded([s, failure, result, stopped] {
                if (failure)
                    Q_EMIT s->faithfulnessFailed(*failure);
                else
                    Q_EMIT s->faithfulnessFinished(result, stopped);
            });
        });
    }

    void classify(quint64 id, const QString& text, const std::vector<HeadId>& off) {
        answer(id, [&] {
            if (!model()) throw std::runtime_error(noClassifierYet());
            Classification c = classifyAblated(*model(), text.toStdString(), off);
            toSession([id, c](ClassifierSession* s) { Q_EMIT s->classified(id, c); });
        });
    }

    void explain(quint64 id, const QString& text, int classIndex) {
        answer(id, [&] {
            if (!model()) throw std::runtime_error(noClassifierYet());
            Explanation e = model()->explain(text.toStdString(), classIndex);
            toSession([id, e](ClassifierSession* s) { Q_EMIT s->explained(id, e); });
        });
    }

    void measureHeads(quint64 id, int limit, std::shared_ptr<const ClassificationCorpus> corpus, const QString& data) {
        studyHeads(id, data, [&](const HeadStudyProgress& progress) {
            if (!model()) throw std::runtime_error(noClassifierYet());
            if (!corpus)
                throw std::runtime_error(QCoreApplication::translate("attnlab::ClassifierSession",
                                                                     "choose the texts to measure the heads on first")
                                             .toStdString());
            HeadStudyOptions options;
            options.limit = static_cast<std::size_t>(std::max(0, limit));
            return measureClassifierHeads(*model(), *corpus, options, progress);
        });
    }

    void setProbe(const QString& text) { probe_ = text; }

private:
    ClassifierModelInfo openModel(const QString& path) override {
        TextClassifier opened = TextClassifier::load(path.toStdString());
        reset();
        loaded_.emplace(std::move(opened));
        return describe(*loaded_);
    }

    void saveModel(const std::string& path, const std::map<std::string, std::string>& extra) const override {
        if (!model()) throw std::runtime_error("no model to save");
        model()->save(path, extra);
    }

    void dropModel() override {
        trainer_.reset();
        loaded_.reset();
    }

    void probeNow() override {
        if (probe_.trimmed().isEmpty() || !model()) return;
        try {
            Classification c = model()->classify(probe_.toStdString());
            toSession([c](ClassifierSession* s) { Q_EMIT s->probed(c); });
        } catch (const std::exception&) {
            // A probe without a known token has nothing to show; the Classify view says so itself.
        }
    }

    std::unique_ptr<ClassifierTrainer> trainer_;
    std::optional<TextClassifier> loaded_;
    QString probe_;
};

ClassifierSession::ClassifierSession(QObject* parent) : ClassifierSessionBase(parent) {
    startWorker(QStringLiteral("attnlab-classifier"), new ClassifierWorker(this, reporter()));
}

bool ClassifierSession::train(const ClassifierRequest& request) {
    if (!request.corpus || !canBegin()) return false;
    corpus_ = request.corpus;
    validationFraction_ = request.options.validationFraction;
    splitSeed_ = request.options.seed;
    beginTraining();
    post([request](ClassifierWorker& w) { w.train(request); });
    return true;
}

void ClassifierSession::clearModel() {
    ClassifierSessionBase::clearModel();
    corpus_.reset();
}

quint64 ClassifierSession::classify(const QString& text, const std::vector<HeadId>& off) {
    const quint64 id = nextRequestId();
    post([id, text, off](ClassifierWorker& w) { w.classify(id, text, off); });
    return id;
}

quint64 ClassifierSession::explain(const QString& text, int classIndex) {
    const quint64 id = nextRequestId();
    post([id, text, classIndex](ClassifierWorker& w) { w.explain(id, text, classIndex); });
    return id;
}

quint64 ClassifierSession::measureHeads(int limit, std::shared_ptr<const ClassificationCorpus> corpus) {
    const quint64 id = nextRequestId();
    QString data;
    if (corpus_) {  // the run's validation texts, as its trainer split them
        auto held = std::make_shared<ClassificationCorpus>();
        held->name = corpus_->name;
        held->labels = corpus_->labels;
        held->hasRationales = corpus_->hasRationales;
        for (std::size_t i : splitClassification(*corpus_, validationFraction_, splitSeed_).validation)
            held->examples.push_back(corpus_->examples[i]);
        data = tr("%1 (validation)").arg(QString::fromStdString(corpus_->name));
        corpus = std::move(held);
    } else if (corpus) {
        data = QString::fromStdString(corpus->name);
    } else {
        post([id](ClassifierWorker& w) { w.measureHeads(id, 0, nullptr, QString()); });
        return id;
    }
    post([id, limit, corpus, data](ClassifierWorker& w) { w.measureHeads(id, limit, corpus, data); });
    return id;
}

void ClassifierSession::setProbe(const QString& text) {
    probe_ = text;
    post([text](ClassifierWorker& w) { w.setProbe(text); });
}

bool ClassifierSession::runFaithfulness(const FaithfulnessOptions& options,
                                        std::shared_ptr<const ClassificationCorpus> corpus) {
    if (!corpus) corpus = corpus_;
    if (isBusy() || !hasModel() || !corpus || !beginJob()) return false;
    post([options, corpus](ClassifierWorker& w) { w.faithfulness(options, corpus); });
    return true;
}

}  // namespace attnlab
