#include "task/translate/TranslationSession.h"

#include "task/translate/TranslationWorker.h"


#include <algorithm>

namespace attnlab {

namespace {

ModelSession::RunState runStateOf(TranslationSession::State state) {
    switch (state) {
    case TranslationSession::State::Running: return ModelSession::RunState::Training;
    case TranslationSession::State::Paused: return ModelSession::RunState::Paused;
    case TranslationSession::State::Idle:
    case TranslationSession::State::Finished: break;
    }
    return ModelSession::RunState::Idle;
}

}  // namespace

TranslationSession::TranslationSession(QObject* parent) : SessionOf(parent) {
    registerTrainingMetaTypes();
    // Every request's answer or failure also as ModelSession's requestAnswered / requestFailed.
    connect(this, &TranslationSession::translated, this, [this](quint64 id) { Q_EMIT requestAnswered(id); });
    connect(this, &TranslationSession::ablationTranslated, this, [this](quint64 id) { Q_EMIT requestAnswered(id); });
    connect(this, &TranslationSession::headsMeasured, this, [this](quint64 id) { Q_EMIT requestAnswered(id); });
    connect(this, &TranslationSession::statesProjected, this, [this](quint64 id) { Q_EMIT requestAnswered(id); });
    connect(this, &TranslationSession::traced, this, [this](quint64 id) { Q_EMIT requestAnswered(id); });
    connect(this, &TranslationSession::tokenExplained, this, [this](quint64 id) { Q_EMIT requestAnswered(id); });
    for (auto failed : {&TranslationSession::translationFailed, &TranslationSession::headsFailed,
                        &TranslationSession::projectionFailed, &TranslationSession::traceFailed,
                        &TranslationSession::explainFailed})
        connect(this, failed, this, &ModelSession::requestFailed);
    worker_ = new TranslationWorker(this, reporter());
    startWorker(QStringLiteral("attnlab-training"), worker_);
}

TranslationSession::~TranslationSession() { shutdown(); }

bool TranslationSession::hasAbandonedThreads() { return anyThreadAbandoned(); }

void TranslationSession::noteAbandonedThread() { markThreadAbandoned(); }

double TranslationSession::progress() const {
    if (info_.epochs <= 0 || info_.batchesPerEpoch <= 0) return 0.0;
    const double total = static_cast<double>(info_.epochs) * info_.batchesPerEpoch;
    const double done = static_cast<double>(completedEpochs()) * info_.batchesPerEpoch + epochBatch_;
    return std::min(1.0, done / total);
}

double TranslationSession::etaSeconds() const {
    const double f = progress();
    qint64 elapsed = elapsedMs_;
    if (clock_.isValid()) elapsed += clock_.elapsed();
    if (f <= 0.0 || elapsed < 500) return -1.0;
    if (f >= 1.0) return 0.0;
    return elapsed / 1000.0 * (1.0 - f) / f;
}

void TranslationSession::setState(State state) {
    if (state == state_) return;
    state_ = state;
    if (state == State::Running) {
        startClock();
    } else {
        stopClock();
    }
    Q_EMIT stateChanged(state);
    setRunState(runStateOf(state));  // ModelSession's stateChanged()
}

void TranslationSession::startClock() {
    if (!clock_.isValid()) clock_.start();
}

void TranslationSession::stopClock() {
    if (clock_.isValid()) {
        elapsedMs_ += clock_.elapsed();
        clock_.invalidate();
    }
}

void TranslationSession::start(const TrainingRequest& request, bool paused) {
    if (!worker_ || isActive()) return;
    previousRun_ = run_;
    previousState_ = state_;
    previousSummary_ = info_;
    run_ = ++lastRunId_;
    preparing_ = true;
    setCompletedEpochs(0);
    epochBatch_ = 0;
    batchesTrained_ = 0;
    elapsedMs_ = 0;
    clock_.invalidate();
    info_ = ModelSummary{};
    info_.epochs = request.options.epochs;
    stopFlag()->store(false);
    const quint64 run = run_;
    post([run, request, paused](TranslationWorker& w) { w.start(run, request, paused); });
    setState(paused ? State::Paused : State::Running);
    Q_EMIT progressChanged(0.0, -1.0);
}

void TranslationSession::pause() {
    if (!worker_ || state_ != State::Running) return;
    post([](TranslationWorker& w) { w.pause(); });
    setState(State::Paused);
}

void TranslationSession::resume() {
    if (!worker_ || state_ != State::Paused) return;
    post([](TranslationWorker& w) { w.resume(); });
    setState(State::Running);
}

void TranslationSession::step() {
    if (!worker_ || !isActive()) return;
    post([](TranslationWorker& w) { w.step(); });
    setState(State::Paused);
}

void TranslationSession::stop() {
    if (!worker_ || !isActive()) return;
    stopFlag()->store(true);
    post([](TranslationWorker& w) { w.stop(); });
    setState(hasModel() || preparing_ ? State::Finished : State::Idle);
}

void TranslationSession::reset() {
    if (!worker_) return;
    queueReset();
    run_ = ++lastRunId_;  // whatever the old run still sends is dropped
    preparing_ = false;
    const bool had = hasModel();
    setHasModel(false);
    info_ = ModelSummary{};
    setCompletedEpochs(0);
    epochBatch_ = 0;
    batchesTrained_ = 0;
    elapsedMs_ = 0;
    clock_.invalidate();
    setModified(false);
    setState(State::Idle);
    Q_EMIT progressChanged(0.0, -1.0);
    if (had) Q_EMIT modelDiscarded();
}

void TranslationSession::queueReset() {
    post([](TranslationWorker& w) { w.reset(); });
}

quint64 TranslationSession::translate(const QString& sentence, int beam) {
    const quint64 id = nextRequestId();
    post([id, sentence, beam](TranslationWorker& w) { w.translate(id, sentence, beam); });
    return id;
}

quint64 TranslationSession::translateWords(const QStringList& words, int beam) {
    const quint64 id = nextRequestId();
    post([id, words, beam](TranslationWorker& w) { w.translateWords(id, words, beam); });
    return id;
}

quint64 TranslationSession::decode(const QString& sentence, const DecodeOptions& options) {
    const quint64 id = nextRequestId();
    post([id, sentence, options](TranslationWorker& w) { w.decode(id, sentence, options); });
    return id;
}

quint64 TranslationSession::translateAblated(const QString& sentence, int beam, const std::vector<HeadId>& off) {
    const quint64 id = nextRequestId();
    post([id, sentence, beam, off](TranslationWorker& w) { w.translateAblated(id, sentence, beam, off); });
    return id;
}

quint64 TranslationSession::measureHeads(std::shared_ptr<const ParallelCorpus> fallback, int limit) {
    const quint64 id = nextRequestId();
    post([id, fallback, limit](TranslationWorker& w) { w.measureHeads(id, fallback, limit); });
    return id;
}

quint64 TranslationSession::projectStates(std::shared_ptr<const ParallelCorpus> fallback, int layer, int limit) {
    const quint64 id = nextRequestId();
    post([id, fallback, layer, limit](TranslationWorker& w) { w.projectStates(id, fallback, layer, limit); });
    return id;
}

quint64 TranslationSession::trace(const QString& sentence, const TraceRequest& request) {
    const quint64 id = nextRequestId();
    post([id, sentence, request](TranslationWorker& w) { w.trace(id, sentence, request); });
    return id;
}

quint64 TranslationSession::explainToken(const QString& sentence, int outputIndex) {
    const quint64 id = nextRequestId();
    post([id, sentence, outputIndex](TranslationWorker& w) { w.explainToken(id, sentence, outputIndex); });
    return id;
}

void TranslationSession::setProbe(const QString& sentence, int everyBatches, int beam) {
    if (!worker_) return;
    ProbeSettings probe;
    probe.sentence = sentence.trimmed().toStdString();
    probe.everyBatches = std::max(0, everyBatches);
    probe.beam = std::max(1, beam);
    post([probe](TranslationWorker& w) { w.setProbe(probe); });
}

void TranslationSession::saveModel(const QString& path) {
    if (!worker_) return;
    ModelSession::save(path);  // queueSave
}

void TranslationSession::queueSave(const QString& path, int) {
    post([path](TranslationWorker& w) { w.saveModel(path); });
}

void TranslationSession::loadModel(const QString& path) {
    if (!worker_ || isActive()) return;
    beginOpening();
    queueOpen(path);
}

bool TranslationSession::open(const QString& path) {
    if (!worker_ || isActive()) return false;
    loadModel(path);
    return true;
}

void TranslationSession::queueOpen(const QString& path) {
    const quint64 run = ++lastRunId_;
    post([run, path](TranslationWorker& w) { w.loadModel(run, path); });
}

bool TranslationSession::shutdown(int timeoutMs) {
    const bool finished = ModelSession::shutdown(timeoutMs);  // endWorker, once
    stopClock();
    return finished;
}

bool TranslationSession::endWorker(int timeoutMs) {
    if (!worker_) return true;
    worker_->cancel();  // no further batch
    post([](TranslationWorker& w) { w.stop(); });
    worker_ = nullptr;
    // Quits the thread and waits; deletes the worker, or abandons it with its thread.
    return SessionOf::endWorker(timeoutMs);
}

void TranslationSession::onPrepared(quint64 run, const ModelSummary& summary) {
    if (!current(run)) return;
    preparing_ = false;
    setHasModel(true);
    info_ = summary;
    Q_EMIT prepared(summary);
}

void TranslationSession::onBatchTrained(quint64 run, const BatchReport& report) {
    if (!current(run)) return;
    ++batchesTrained_;
    setCompletedEpochs(report.epoch - 1);
    epochBatch_ = report.batch;
    setModified(true);
    Q_EMIT batchTrained(report);
    Q_EMIT progressChanged(progress(), etaSeconds());
}

void TranslationSession::onEpochFinished(quint64 run, const TranslationEpochMetrics& metrics) {
    if (!current(run)) return;
    setCompletedEpochs(metrics.epoch);
    epochBatch_ = 0;
    Q_EMIT epochFinished(metrics);
    Q_EMIT progressChanged(progress(), etaSeconds());
}

void TranslationSession::onProbe(quint64 run, const ProbeResult& result) {
    if (current(run)) Q_EMIT probeUpdated(result);
}

void TranslationSession::onFinished(quint64 run, bool stopped) {
    if (!current(run)) return;
    setState(State::Finished);
    Q_EMIT progressChanged(progress(), stopped ? -1.0 : 0.0);
    Q_EMIT finished(stopped);
    Q_EMIT trainingFinished(stopped);
}

void TranslationSession::onDiverged(quint64 run, int epoch, int batch, const QString& message) {
    if (!current(run)) return;
    setState(State::Finished);
    Q_EMIT diverged(epoch, batch, message);
    Q_EMIT trainingFailed(message);
}

void TranslationSession::onFailed(quint64 run, const QString& message) {
    if (!current(run)) return;
    if (preparing_) {
        // The new run never started: the worker kept the previous model (if any) and its run id.
        preparing_ = false;
        run_ = previousRun_;
        info_ = previousSummary_;
        setState(hasModel() ? previousState_ : State::Idle);
    } else {
        setState(State::Finished);
    }
    Q_EMIT failed(message);
    Q_EMIT trainingFailed(message);
}

void TranslationSession::onLoaded(quint64 run, const ModelSummary& summary) {
    run_ = run;
    preparing_ = false;
    info_ = summary;
    epochBatch_ = 0;
    batchesTrained_ = 0;
    // hasModel, not modified, no epochs; then modelLoaded and ModelSession's stateChanged().
    applyOpened([this, &summary] {
        setState(State::Idle);
        Q_EMIT modelLoaded(summary);
    });
}

void TranslationSession::onSaved(const QString& path) {
    Q_EMIT modelSaved(path);
    applySaved(path);
}

void TranslationSession::onLoadFailed(const QString& message) {
    Q_EMIT loadFailed(message);
    applyOpenFailed(message);  // openFailed
}

}  // namespace attnlab
