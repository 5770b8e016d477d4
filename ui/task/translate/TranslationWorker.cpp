#include "task/translate/TranslationWorker.h"

#include "session/SettingNames.h"

#include "base/InputError.h"
#include "engine/translation/AttentionTrace.h"
#include "engine/translation/HeadImportance.h"
#include "engine/translation/Seq2SeqModel.h"
#include "engine/translation/TranslationTrainer.h"

#include <QMetaObject>

#include <algorithm>
#include <exception>
#include <map>
#include <string>

namespace attnlab {

namespace {

// Setting problems in the words of the setup panel (SettingNames), the rest as core wrote them.
QString messageOf(const std::exception& e) { return SettingNames::messageOf(e); }

QString unknownError() { return TranslationWorker::tr("an unknown internal error occurred"); }

}  // namespace

TranslationWorker::TranslationWorker(TranslationSession* session, TranslationSession::Reporter report)
    : session_(session), report_(std::move(report)) {}

TranslationWorker::~TranslationWorker() = default;

const Seq2SeqModel* TranslationWorker::model() const {
    if (trainer_) return &trainer_->model();
    return loaded_.get();
}

ModelSummary TranslationWorker::summarize() const {
    ModelSummary s;
    const Seq2SeqModel* m = model();
    if (!m) return s;
    s.config = m->config();
    s.parameters = m->parameterCount();
    s.sourceVocabulary = m->sourceVocabulary().size();
    s.targetVocabulary = m->targetVocabulary().size();
    s.origin = origin_;
    if (trainer_) {
        s.trainingPairs = trainer_->trainingExamples();
        s.validationPairs = trainer_->validationExamples();
        s.skippedTooLong = trainer_->skippedTooLong();
        s.batchesPerEpoch = trainer_->batchesPerEpoch();
        s.epochs = trainer_->options().epochs;
        s.estimatedBytes = trainer_->estimatedBytes();
    } else {
        s.loadedFromFile = true;
    }
    return s;
}

void TranslationWorker::start(quint64 run, const TrainingRequest& request, bool paused) {
    running_ = false;
    const quint64 previousRun = run_;
    const std::int64_t previousBatches = batches_;
    run_ = run;
    batches_ = 0;
    try {
        if (!request.corpus) throw ConfigError(tr("no corpus is loaded").toStdString());
        // Built before the old model is dropped: a configuration that fails leaves the session as it was.
        auto trainer = std::make_unique<TranslationTrainer>(*request.corpus, request.config, request.options);
        trainer_ = std::move(trainer);
        loaded_.reset();
        origin_ = QString::fromStdString(request.corpus->name);
        send(&TranslationSession::onPrepared, run_, summarize());
        translateProbe();
        running_ = !paused;
        if (running_) scheduleNext();
    } catch (const std::exception& e) {
        run_ = previousRun;
        batches_ = previousBatches;
        send(&TranslationSession::onFailed, run, messageOf(e));
    } catch (...) {
        run_ = previousRun;
        batches_ = previousBatches;
        send(&TranslationSession::onFailed, run, unknownError());
    }
}

void TranslationWorker::pause() { running_ = false; }

void TranslationWorker::resume() {
    if (!trainer_ || trainer_->finished()) return;
    running_ = true;
    scheduleNext();
}

void TranslationWorker::step() {
    running_ = false;
    if (!trainer_ || trainer_->finished() || cancelled_.load()) return;
    trainOne();
}

void TranslationWorker::stop() {
    const bool active = trainer_ && !trainer_->finished();
    running_ = false;
    if (active) send(&TranslationSession::onFinished, run_, true);
}

void TranslationWorker::reset() {
    running_ = false;
    trainer_.reset();
    loaded_.reset();
    origin_.clear();
    batches_ = 0;
}

void TranslationWorker::scheduleNext() {
    if (scheduled_) return;
    scheduled_ = true;
    // Queued, not a loop: whatever the GUI queued meanwhile runs before the next batch.
    QMetaObject::invokeMethod(this, &TranslationWorker::trainNext, Qt::QueuedConnection);
}

void TranslationWorker::trainNext() {
    scheduled_ = false;
    if (!running_ || !trainer_ || cancelled_.load()) return;
    trainOne();
    if (running_) scheduleNext();
}

void TranslationWorker::trainOne() {
    try {
        if (!trainer_->epochComplete()) {
            BatchReport report = trainer_->trainBatch();
            ++batches_;
            send(&TranslationSession::onBatchTrained, run_, report);
        }
        bool probeDue = probe_.everyBatches > 0 && batches_ % probe_.everyBatches == 0;
        if (trainer_->epochComplete()) {
            TranslationEpochMetrics metrics = trainer_->finishEpoch();
            send(&TranslationSession::onEpochFinished, run_, metrics);
            probeDue = probeDue || probe_.everyBatches <= 0;
        }
        if (probeDue) translateProbe();
        if (trainer_->finished()) {
            running_ = false;
            send(&TranslationSession::onFinished, run_, false);
        }
    } catch (const TrainingDiverged& e) {
        running_ = false;
        send(&TranslationSession::onDiverged, run_, e.epoch(), e.batch(), messageOf(e));
    } catch (const std::exception& e) {
        running_ = false;
        send(&TranslationSession::onFailed, run_, messageOf(e));
    } catch (...) {
        running_ = false;
        send(&TranslationSession::onFailed, run_, unknownError());
    }
}

void TranslationWorker::translateProbe() {
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
        send(&TranslationSession::onProbe, run_, result);
    } catch (...) {
        // A probe that cannot be translated (e.g. only punctuation) shows nothing; training goes on.
    }
}

void TranslationWorker::setProbe(const ProbeSettings& probe) {
    const bool changed = probe.sentence != probe_.sentence || probe.beam != probe_.beam;
    probe_ = probe;
    if (changed) translateProbe();
}

void TranslationWorker::translate(quint64 request, const QString& sentence, int beam) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model yet: start training or open a model").toStdString());
        DecodeOptions options;
        options.beam = beam;
        send(&TranslationSession::translated, request, m->translate(sentence.toStdString(), options));
    } catch (const std::exception& e) {
        send(&TranslationSession::translationFailed, request, messageOf(e));
    } catch (...) {
        send(&TranslationSession::translationFailed, request, unknownError());
    }
}

void TranslationWorker::translateWords(quint64 request, const QStringList& words, int beam) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model yet: start training or open a model").toStdString());
        DecodeOptions options;
        options.beam = beam;
        for (const QString& w : words) options.sourceWords.push_back(w.toStdString());
        send(&TranslationSession::translated, request, m->translate(std::string(), options));
    } catch (const std::exception& e) {
        send(&TranslationSession::translationFailed, request, messageOf(e));
    } catch (...) {
        send(&TranslationSession::translationFailed, request, unknownError());
    }
}

void TranslationWorker::decode(quint64 request, const QString& sentence, const DecodeOptions& options) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model yet: start training or open a model").toStdString());
        send(&TranslationSession::translated, request, m->translate(sentence.toStdString(), options));
    } catch (const std::exception& e) {
        send(&TranslationSession::translationFailed, request, messageOf(e));
    } catch (...) {
        send(&TranslationSession::translationFailed, request, unknownError());
    }
}

void TranslationWorker::translateAblated(quint64 request, const QString& sentence, int beam,
                                      const std::vector<HeadId>& off) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model yet: start training or open a model").toStdString());
        DecodeOptions options;
        options.beam = beam;
        send(&TranslationSession::ablationTranslated, request, translateWithAblation(*m, sentence.toStdString(), options, off));
    } catch (const std::exception& e) {
        send(&TranslationSession::translationFailed, request, messageOf(e));
    } catch (...) {
        send(&TranslationSession::translationFailed, request, unknownError());
    }
}

const ParallelCorpus* TranslationWorker::measuredCorpus(const std::shared_ptr<const ParallelCorpus>& fallback) const {
    if (trainer_ && !trainer_->validationCorpus().pairs.empty()) return &trainer_->validationCorpus();
    if (fallback && !fallback->pairs.empty()) return fallback.get();
    return nullptr;
}

void TranslationWorker::measureHeads(quint64 request, const std::shared_ptr<const ParallelCorpus>& fallback, int limit) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model yet: start training or open a model").toStdString());
        const ParallelCorpus* corpus = measuredCorpus(fallback);
        if (!corpus) throw ConfigError(tr("there are no pairs to measure the heads on: load a corpus first").toStdString());
        HeadImportanceOptions options;
        options.limit = static_cast<std::size_t>(std::max(0, limit));
        const HeadImportanceReport report = measureHeadImportance(*m, *corpus, options, [&](int done, int total) {
            if (cancelled_.load()) throw ConfigError("the window is closing");
            send(&TranslationSession::headsProgress, request, done, total);
        });
        send(&TranslationSession::headsMeasured, request, report, QString::fromStdString(corpus->name));
    } catch (const std::exception& e) {
        send(&TranslationSession::headsFailed, request, messageOf(e));
    } catch (...) {
        send(&TranslationSession::headsFailed, request, unknownError());
    }
}

void TranslationWorker::projectStates(quint64 request, const std::shared_ptr<const ParallelCorpus>& fallback, int layer,
                                   int limit) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model yet: start training or open a model").toStdString());
        const ParallelCorpus* corpus = measuredCorpus(fallback);
        if (!corpus) throw ConfigError(tr("there are no sentences to project: load a corpus first").toStdString());
        std::vector<std::string> sentences;
        for (const SentencePair& p : corpus->pairs) {
            if (limit > 0 && static_cast<int>(sentences.size()) >= limit) break;
            sentences.push_back(p.source);
        }
        send(&TranslationSession::statesProjected, request, projectEncoderStates(*m, sentences, layer), QString::fromStdString(corpus->name));
    } catch (const std::exception& e) {
        send(&TranslationSession::projectionFailed, request, messageOf(e));
    } catch (...) {
        send(&TranslationSession::projectionFailed, request, unknownError());
    }
}

void TranslationWorker::trace(quint64 request, const QString& sentence, const TraceRequest& options) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model yet: start training or open a model").toStdString());
        send(&TranslationSession::traced, request, traceAttention(*m, sentence.toStdString(), options));
    } catch (const std::exception& e) {
        send(&TranslationSession::traceFailed, request, messageOf(e));
    } catch (...) {
        send(&TranslationSession::traceFailed, request, unknownError());
    }
}

void TranslationWorker::explainToken(quint64 request, const QString& sentence, int outputIndex) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model yet: start training or open a model").toStdString());
        send(&TranslationSession::tokenExplained, request, explainOutputToken(*m, sentence.toStdString(), outputIndex));
    } catch (const std::exception& e) {
        send(&TranslationSession::explainFailed, request, messageOf(e));
    } catch (...) {
        send(&TranslationSession::explainFailed, request, unknownError());
    }
}

void TranslationWorker::saveModel(const QString& path) {
    try {
        const Seq2SeqModel* m = model();
        if (!m) throw ConfigError(tr("there is no model to save").toStdString());
        std::map<std::string, std::string> metadata;
        if (trainer_) metadata["epochs_trained"] = std::to_string(trainer_->completedEpochs());
        m->save(path.toStdString(), metadata);
        send(&TranslationSession::onSaved, path);
    } catch (const std::exception& e) {
        send(&TranslationSession::saveFailed, messageOf(e));
    } catch (...) {
        send(&TranslationSession::saveFailed, unknownError());
    }
}

void TranslationWorker::loadModel(quint64 run, const QString& path) {
    try {
        // Loaded completely before anything is replaced: a bad file leaves the session as it was.
        auto model = std::make_unique<Seq2SeqModel>(Seq2SeqModel::load(path.toStdString()));
        running_ = false;
        trainer_.reset();
        loaded_ = std::move(model);
        origin_ = path;
        run_ = run;
        batches_ = 0;
        send(&TranslationSession::onLoaded, run_, summarize());
        translateProbe();
    } catch (const std::exception& e) {
        send(&TranslationSession::onLoadFailed, messageOf(e));
    } catch (...) {
        send(&TranslationSession::onLoadFailed, unknownError());
    }
}

}  // namespace attnlab
