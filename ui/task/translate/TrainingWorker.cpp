#include "task/translate/TrainingWorker.h"

#include "session/SettingNames.h"

#include "base/InputError.h"
#include "engine/translation/AttentionTrace.h"
#include "engine/translation/HeadImportance.h"
#include "engine/translation/Seq2SeqModel.h"
#include "engine/translation/Trainer.h"

#include <QMetaObject>

#include <algorithm>
#include <exception>
#include <map>
#include <string>

namespace attnlab {

namespace {

// Setting problems in the words of the setup panel (SettingNames), the rest as core wrote them.
QString messageOf(const std::exception& e) { return SettingNames::messageOf(e); }

QString unknownError() { return TrainingWorker::tr("an unknown internal error occurred"); }

}  // namespace

TrainingWorker::TrainingWorker(QObject* parent) : QObject(parent) {}

TrainingWorker::~TrainingWorker() = default;

const Seq2SeqModel* TrainingWorker::model() const {
    if (trainer_) return &trainer_->model();
    return loaded_.get();
}

ModelSummary TrainingWorker::summarize() const {
    ModelSummary s;
    const Seq2SeqModel* m = model();
    if (!m) return s;
    s.config = m->config();
    s.parameters = m->parameterCount();
    s.sourceVocabulary = m->sourceVocabulary().size();
    s.targetVocabulary = m->targetVocabulary().size();
    s.origin = origin_;
    if (trainer_) {
        s.trainingPairs = trainer_->trainingPairs();
        s.validationPairs = trainer_->validationPairs();
        s.skippedTooLong = trainer_->skippedTooLong();
        s.batchesPerEpoch = trainer_->batchesPerEpoch();
        s.epochs = trainer_->options().epochs;
        s.estimatedBytes = trainer_->estimatedBytes();
    } else {
        s.loadedFromFile = true;
    }
    return s;
}

void TrainingWorker::start(quint64 run, const TrainingRequest& request, bool paused) {
    running_ = false;
    const quint64 previousRun = run_;
    const std::int64_t previousBatches = batches_;
    run_ = run;
    batches_ = 0;
    try {
        if (!request.corpus) throw ConfigError(tr("no corpus is loaded").toStdString());
        // Built before the old model is dropped: a configuration that fails leaves the session as it was.
        auto trainer = std::make_unique<Trainer>(*request.corpus, request.config, request.options);
        trainer_ = std::move(trainer);
        loaded_.reset();
        origin_ = QString::fromStdString(request.corpus->name);
        Q_EMIT prepared(run_, summarize());
        translateProbe();
        running_ = !paused;
        if (running_) scheduleNext();
    } catch (const std::exception& e) {
        run_ = previousRun;
        batches_ = previousBatches;
        Q_EMIT trainingFailed(run, messageOf(e));
    } catch (...) {
        run_ = previousRun;
        batches_ = previousBatches;
        Q_EMIT trainingFailed(run, unknownError());
    }
}

void TrainingWorker::pause() { running_ = false; }

void TrainingWorker::resume() {
    if (!trainer_ || trainer_->finished()) return;
    running_ = true;
    scheduleNext();
}

void TrainingWorker::step() {
    running_ = false;
    if (!trainer_ || trainer_->finished() || cancelled_.load()) return;
    trainOne();
}

void TrainingWorker::stop() {
    const bool active = trainer_ && !trainer_->finished();
    running_ = false;
    if (active) Q_EMIT trainingFinished(run_, true);
}

void TrainingWorker::reset() {
    running_ = false;
    trainer_.reset();
    loaded_.reset();
    origin_.clear();
    batches_ = 0;
}

void TrainingWorker::scheduleNext() {
    if (scheduled_) return;
    scheduled_ = true;
    // Queued, not a loop: whatever the GUI queued meanwhile runs before the next batch.
    QMetaObject::invokeMethod(this, &TrainingWorker::trainNext, Qt::QueuedConnection);
}

void TrainingWorker::trainNext() {
    scheduled_ = false;
    if (!running_ || !trainer_ || cancelled_.load()) return;
    trainOne();
    if (running_) scheduleNext();
}

void TrainingWorker::trainOne() {
    try {
        if (!trainer_->epochComplete()) {
            BatchReport report = trainer_->trainBatch();
            ++batches_;
            Q_EMIT batchTrained(run_, report);
        }
        bool probeDue = probe_.everyBatches > 0 && batches_ % probe_.everyBatches == 0;
        if (trainer_->epochComplete()) {
            EpochMetrics metrics = trainer_->finishEpoch();
            Q_EMIT epochFinished(run_, metrics);
            probeDue = probeDue || probe_.everyBatches <= 0;
        }
        if (probeDue) translateProbe();
        if (trainer_->finished()) {
            running_ = false;
            Q_EMIT trainingFinished(run_, false);
        }
    } catch (const TrainingDiverged& e) {
        running_ = false;
        Q_EMIT trainingDiverged(run_, e.epoch(), e.batch(), messageOf(e));
    } catch (const std::exception& e) {
        running_ = false;
        Q_EMIT trainingFailed(run_, messageOf(e));
    } catch (...) {
        running_ = false;
        Q_EMIT trainingFailed(run_, unknownError());
    }
}

void TrainingWorker::translateProbe() {
    const Seq2SeqModel* m = model();
    if (!m || probe_.sentence.empty()) return;
    try {
        DecodeOptions options;
        options.beam = probe_.beam;
        ProbeResult result;
        result.translation = m->translate(probe_.sentence, options);
        result.epoch = trainer_ ? trainer_->completedEpochs() : 0;
        result.batches = batches_;
        result.loadedModel = !trainer_;
        Q_EMIT probeTranslated(run_, result);
    } catch (...) {
        // A probe that cannot be translated (e.g. only punctuation) shows nothing; training goes on.
    }
}

void TrainingWorker::setProbe(const ProbeSettings& probe) {
    const bool changed = probe.sentence != probe_.sentence || probe.beam != probe_.beam;
    probe_ = probe;
    if (changed) translateProbe();
}

void TrainingWorker::translate(quint64 request, const QString& sentence, int beam) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model yet: start training or open a model").toStdString());
        DecodeOptions options;
        options.beam = beam;
        Q_EMIT translated(request, m->translate(sentence.toStdString(), options));
    } catch (const std::exception& e) {
        Q_EMIT translationFailed(request, messageOf(e));
    } catch (...) {
        Q_EMIT translationFailed(request, unknownError());
    }
}

void TrainingWorker::translateWords(quint64 request, const QStringList& words, int beam) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model yet: start training or open a model").toStdString());
        DecodeOptions options;
        options.beam = beam;
        for (const QString& w : words) options.sourceWords.push_back(w.toStdString());
        Q_EMIT translated(request, m->translate(std::string(), options));
    } catch (const std::exception& e) {
        Q_EMIT translationFailed(request, messageOf(e));
    } catch (...) {
        Q_EMIT translationFailed(request, unknownError());
    }
}

void TrainingWorker::decode(quint64 request, const QString& sentence, const DecodeOptions& options) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model yet: start training or open a model").toStdString());
        Q_EMIT translated(request, m->translate(sentence.toStdString(), options));
    } catch (const std::exception& e) {
        Q_EMIT translationFailed(request, messageOf(e));
    } catch (...) {
        Q_EMIT translationFailed(request, unknownError());
    }
}

void TrainingWorker::translateAblated(quint64 request, const QString& sentence, int beam,
                                      const std::vector<HeadId>& off) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model yet: start training or open a model").toStdString());
        DecodeOptions options;
        options.beam = beam;
        Q_EMIT ablationTranslated(request, translateWithAblation(*m, sentence.toStdString(), options, off));
    } catch (const std::exception& e) {
        Q_EMIT translationFailed(request, messageOf(e));
    } catch (...) {
        Q_EMIT translationFailed(request, unknownError());
    }
}

const Corpus* TrainingWorker::measuredCorpus(const std::shared_ptr<const Corpus>& fallback) const {
    if (trainer_ && !trainer_->validationCorpus().pairs.empty()) return &trainer_->validationCorpus();
    if (fallback && !fallback->pairs.empty()) return fallback.get();
    return nullptr;
}

void TrainingWorker::measureHeads(quint64 request, const std::shared_ptr<const Corpus>& fallback, int limit) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model yet: start training or open a model").toStdString());
        const Corpus* corpus = measuredCorpus(fallback);
        if (!corpus) throw ConfigError(tr("there are no pairs to measure the heads on: load a corpus first").toStdString());
        HeadImportanceOptions options;
        options.limit = static_cast<std::size_t>(std::max(0, limit));
        const HeadImportanceReport report = measureHeadImportance(*m, *corpus, options, [&](int done, int total) {
            if (cancelled_.load()) throw ConfigError("the window is closing");
            Q_EMIT headsProgress(request, done, total);
        });
        Q_EMIT headsMeasured(request, report, QString::fromStdString(corpus->name));
    } catch (const std::exception& e) {
        Q_EMIT headsFailed(request, messageOf(e));
    } catch (...) {
        Q_EMIT headsFailed(request, unknownError());
    }
}

void TrainingWorker::projectStates(quint64 request, const std::shared_ptr<const Corpus>& fallback, int layer,
                                   int limit) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model yet: start training or open a model").toStdString());
        const Corpus* corpus = measuredCorpus(fallback);
        if (!corpus) throw ConfigError(tr("there are no sentences to project: load a corpus first").toStdString());
        std::vector<std::string> sentences;
        for (const SentencePair& p : corpus->pairs) {
            if (limit > 0 && static_cast<int>(sentences.size()) >= limit) break;
            sentences.push_back(p.source);
        }
        Q_EMIT statesProjected(request, projectEncoderStates(*m, sentences, layer), QString::fromStdString(corpus->name));
    } catch (const std::exception& e) {
        Q_EMIT projectionFailed(request, messageOf(e));
    } catch (...) {
        Q_EMIT projectionFailed(request, unknownError());
    }
}

void TrainingWorker::trace(quint64 request, const QString& sentence, const TraceRequest& options) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model yet: start training or open a model").toStdString());
        Q_EMIT traced(request, traceAttention(*m, sentence.toStdString(), options));
    } catch (const std::exception& e) {
        Q_EMIT traceFailed(request, messageOf(e));
    } catch (...) {
        Q_EMIT traceFailed(request, unknownError());
    }
}

void TrainingWorker::explainToken(quint64 request, const QString& sentence, int outputIndex) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model yet: start training or open a model").toStdString());
        Q_EMIT tokenExplained(request, explainOutputToken(*m, sentence.toStdString(), outputIndex));
    } catch (const std::exception& e) {
        Q_EMIT explainFailed(request, messageOf(e));
    } catch (...) {
        Q_EMIT explainFailed(request, unknownError());
    }
}

void TrainingWorker::saveModel(const QString& path) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model to save").toStdString());
        std::map<std::string, std::string> metadata;
        if (trainer_) metadata["epochs_trained"] = std::to_string(trainer_->completedEpochs());
        m->save(path.toStdString(), metadata);
        Q_EMIT modelSaved(path);
    } catch (const std::exception& e) {
        Q_EMIT saveFailed(messageOf(e));
    } catch (...) {
        Q_EMIT saveFailed(unknownError());
    }
}

void TrainingWorker::loadModel(quint64 run, const QString& path) {
    try {
        // Loaded completely before anything is replaced: a bad file leaves the session as it was.
        auto model = std::make_unique<Seq2SeqModel>(Seq2SeqModel::load(path.toStdString()));
        running_ = false;
        trainer_.reset();
        loaded_ = std::move(model);
        origin_ = path;
        run_ = run;
        batches_ = 0;
        Q_EMIT modelLoaded(run_, summarize());
        translateProbe();
    } catch (const std::exception& e) {
        Q_EMIT loadFailed(messageOf(e));
    } catch (...) {
        Q_EMIT loadFailed(unknownError());
    }
}

}  // namespace attnlab
