#include "task/translate/TrainingController.h"

#include "session/BackgroundJob.h"
#include "task/translate/TrainingWorker.h"


#include <algorithm>

namespace attnlab {

namespace {

ModelSession::RunState runStateOf(TrainingController::State state) {
    switch (state) {
    case TrainingController::State::Running: return ModelSession::RunState::Training;
    case TrainingController::State::Paused: return ModelSession::RunState::Paused;
    case TrainingController::State::Idle:
    case TrainingController::State::Finished: break;
    }
    return ModelSession::RunState::Idle;
}

}  // namespace

TrainingController::TrainingController(QObject* parent) : ModelSession(parent) {
    registerTrainingMetaTypes();
    worker_ = new TrainingWorker;

    // Queued: the worker emits from its own thread; `this` lives on the GUI thread.
    connect(worker_, &TrainingWorker::prepared, this, &TrainingController::onPrepared);
    connect(worker_, &TrainingWorker::batchTrained, this, &TrainingController::onBatchTrained);
    connect(worker_, &TrainingWorker::epochFinished, this, &TrainingController::onEpochFinished);
    connect(worker_, &TrainingWorker::probeTranslated, this, &TrainingController::onProbe);
    connect(worker_, &TrainingWorker::trainingFinished, this, &TrainingController::onFinished);
    connect(worker_, &TrainingWorker::trainingDiverged, this, &TrainingController::onDiverged);
    connect(worker_, &TrainingWorker::trainingFailed, this, &TrainingController::onFailed);
    connect(worker_, &TrainingWorker::modelLoaded, this, &TrainingController::onLoaded);
    connect(worker_, &TrainingWorker::translated, this, &TrainingController::translated);
    connect(worker_, &TrainingWorker::translationFailed, this, &TrainingController::translationFailed);
    connect(worker_, &TrainingWorker::traced, this, &TrainingController::traced);
    connect(worker_, &TrainingWorker::traceFailed, this, &TrainingController::traceFailed);
    connect(worker_, &TrainingWorker::tokenExplained, this, &TrainingController::tokenExplained);
    connect(worker_, &TrainingWorker::ablationTranslated, this, &TrainingController::ablationTranslated);
    connect(worker_, &TrainingWorker::headsProgress, this, &TrainingController::headsProgress);
    connect(worker_, &TrainingWorker::headsMeasured, this, &TrainingController::headsMeasured);
    connect(worker_, &TrainingWorker::headsFailed, this, &TrainingController::headsFailed);
    connect(worker_, &TrainingWorker::statesProjected, this, &TrainingController::statesProjected);
    connect(worker_, &TrainingWorker::projectionFailed, this, &TrainingController::projectionFailed);
    connect(worker_, &TrainingWorker::explainFailed, this, &TrainingController::explainFailed);
    connect(worker_, &TrainingWorker::saveFailed, this, &TrainingController::saveFailed);
    connect(worker_, &TrainingWorker::loadFailed, this, &TrainingController::onLoadFailed);
    connect(worker_, &TrainingWorker::modelSaved, this, [this](const QString& path) {
        Q_EMIT modelSaved(path);
        applySaved(path);
    });
    // A thread of its own, started after the connections so that no signal of the worker is missed.
    thread_.start(this, QStringLiteral("attnlab-training"), worker_);
}

TrainingController::~TrainingController() { shutdown(); }

bool TrainingController::hasAbandonedThreads() { return anyThreadAbandoned(); }

void TrainingController::noteAbandonedThread() { markThreadAbandoned(); }

double TrainingController::progress() const {
    if (summary_.epochs <= 0 || summary_.batchesPerEpoch <= 0) return 0.0;
    const double total = static_cast<double>(summary_.epochs) * summary_.batchesPerEpoch;
    const double done = static_cast<double>(completedEpochs()) * summary_.batchesPerEpoch + epochBatch_;
    return std::min(1.0, done / total);
}

double TrainingController::etaSeconds() const {
    const double f = progress();
    qint64 elapsed = elapsedMs_;
    if (clock_.isValid()) elapsed += clock_.elapsed();
    if (f <= 0.0 || elapsed < 500) return -1.0;
    if (f >= 1.0) return 0.0;
    return elapsed / 1000.0 * (1.0 - f) / f;
}

void TrainingController::setState(State state) {
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

void TrainingController::startClock() {
    if (!clock_.isValid()) clock_.start();
}

void TrainingController::stopClock() {
    if (clock_.isValid()) {
        elapsedMs_ += clock_.elapsed();
        clock_.invalidate();
    }
}

void TrainingController::start(const TrainingRequest& request, bool paused) {
    if (!worker_ || isActive()) return;
    previousRun_ = run_;
    previousState_ = state_;
    previousSummary_ = summary_;
    run_ = ++lastRunId_;
    preparing_ = true;
    setCompletedEpochs(0);
    epochBatch_ = 0;
    batchesTrained_ = 0;
    elapsedMs_ = 0;
    clock_.invalidate();
    summary_ = ModelSummary{};
    summary_.epochs = request.options.epochs;
    stopFlag()->store(false);
    const quint64 run = run_;
    thread_.post([run, request, paused](TrainingWorker& w) { w.start(run, request, paused); });
    setState(paused ? State::Paused : State::Running);
    Q_EMIT progressChanged(0.0, -1.0);
}

void TrainingController::pause() {
    if (!worker_ || state_ != State::Running) return;
    thread_.post([](TrainingWorker& w) { w.pause(); });
    setState(State::Paused);
}

void TrainingController::resume() {
    if (!worker_ || state_ != State::Paused) return;
    thread_.post([](TrainingWorker& w) { w.resume(); });
    setState(State::Running);
}

void TrainingController::step() {
    if (!worker_ || !isActive()) return;
    thread_.post([](TrainingWorker& w) { w.step(); });
    setState(State::Paused);
}

void TrainingController::stop() {
    if (!worker_ || !isActive()) return;
    stopFlag()->store(true);
    thread_.post([](TrainingWorker& w) { w.stop(); });
    setState(hasModel() || preparing_ ? State::Finished : State::Idle);
}

void TrainingController::reset() {
    if (!worker_) return;
    queueReset();
    run_ = ++lastRunId_;  // whatever the old run still sends is dropped
    preparing_ = false;
    const bool had = hasModel();
    setHasModel(false);
    summary_ = ModelSummary{};
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

void TrainingController::queueReset() {
    thread_.post([](TrainingWorker& w) { w.reset(); });
}

quint64 TrainingController::translate(const QString& sentence, int beam) {
    const quint64 id = nextRequestId();
    thread_.post([id, sentence, beam](TrainingWorker& w) { w.translate(id, sentence, beam); });
    return id;
}

quint64 TrainingController::translateWords(const QStringList& words, int beam) {
    const quint64 id = nextRequestId();
    thread_.post([id, words, beam](TrainingWorker& w) { w.translateWords(id, words, beam); });
    return id;
}

quint64 TrainingController::decode(const QString& sentence, const DecodeOptions& options) {
    const quint64 id = nextRequestId();
    thread_.post([id, sentence, options](TrainingWorker& w) { w.decode(id, sentence, options); });
    return id;
}

quint64 TrainingController::translateAblated(const QString& sentence, int beam, const std::vector<HeadId>& off) {
    const quint64 id = nextRequestId();
    thread_.post([id, sentence, beam, off](TrainingWorker& w) { w.translateAblated(id, sentence, beam, off); });
    return id;
}

quint64 TrainingController::measureHeads(std::shared_ptr<const Corpus> fallback, int limit) {
    const quint64 id = nextRequestId();
    thread_.post([id, fallback, limit](TrainingWorker& w) { w.measureHeads(id, fallback, limit); });
    return id;
}

quint64 TrainingController::projectStates(std::shared_ptr<const Corpus> fallback, int layer, int limit) {
    const quint64 id = nextRequestId();
    thread_.post([id, fallback, layer, limit](TrainingWorker& w) { w.projectStates(id, fallback, layer, limit); });
    return id;
}

quint64 TrainingController::trace(const QString& sentence, const TraceRequest& request) {
    const quint64 id = nextRequestId();
    thread_.post([id, sentence, request](TrainingWorker& w) { w.trace(id, sentence, request); });
    return id;
}

quint64 TrainingController::explainToken(const QString& sentence, int outputIndex) {
    const quint64 id = nextRequestId();
    thread_.post([id, sentence, outputIndex](TrainingWorker& w) { w.explainToken(id, sentence, outputIndex); });
    return id;
}

void TrainingController::setProbe(const QString& sentence, int everyBatches, int beam) {
    if (!worker_) return;
    ProbeSettings probe;
    probe.sentence = sentence.trimmed().toStdString();
    probe.everyBatches = std::max(0, everyBatches);
    probe.beam = std::max(1, beam);
    thread_.post([probe](TrainingWorker& w) { w.setProbe(probe); });
}

void TrainingController::saveModel(const QString& path) {
    if (!worker_) return;
    ModelSession::save(path);  // queueSave
}

void TrainingController::queueSave(const QString& path, int) {
    thread_.post([path](TrainingWorker& w) { w.saveModel(path); });
}

void TrainingController::loadModel(const QString& path) {
    if (!worker_ || isActive()) return;
    beginOpening();
    queueOpen(path);
}

bool TrainingController::open(const QString& path) {
    if (!worker_ || isActive()) return false;
    loadModel(path);
    return true;
}

void TrainingController::queueOpen(const QString& path) {
    const quint64 run = ++lastRunId_;
    thread_.post([run, path](TrainingWorker& w) { w.loadModel(run, path); });
}

bool TrainingController::shutdown(int timeoutMs) {
    const bool finished = ModelSession::shutdown(timeoutMs);  // endWorker, once
    stopClock();
    return finished;
}

bool TrainingController::endWorker(int timeoutMs) {
    if (!worker_) return true;
    worker_->cancel();  // no further batch
    thread_.post([](TrainingWorker& w) { w.stop(); });
    worker_ = nullptr;
    // Quits the thread and waits; deletes the worker, or abandons it with its thread.
    return thread_.shutdown(timeoutMs, *stopFlag());
}

void TrainingController::onPrepared(quint64 run, const ModelSummary& summary) {
    if (!current(run)) return;
    preparing_ = false;
    setHasModel(true);
    summary_ = summary;
    Q_EMIT prepared(summary);
}

void TrainingController::onBatchTrained(quint64 run, const BatchReport& report) {
    if (!current(run)) return;
    ++batchesTrained_;
    setCompletedEpochs(report.epoch - 1);
    epochBatch_ = report.batch;
    setModified(true);
    Q_EMIT batchTrained(report);
    Q_EMIT progressChanged(progress(), etaSeconds());
}

void TrainingController::onEpochFinished(quint64 run, const EpochMetrics& metrics) {
    if (!current(run)) return;
    setCompletedEpochs(metrics.epoch);
    epochBatch_ = 0;
    Q_EMIT epochFinished(metrics);
    Q_EMIT progressChanged(progress(), etaSeconds());
}

void TrainingController::onProbe(quint64 run, const ProbeResult& result) {
    if (current(run)) Q_EMIT probeUpdated(result);
}

void TrainingController::onFinished(quint64 run, bool stopped) {
    if (!current(run)) return;
    setState(State::Finished);
    Q_EMIT progressChanged(progress(), stopped ? -1.0 : 0.0);
    Q_EMIT finished(stopped);
    Q_EMIT trainingFinished(stopped);
}

void TrainingController::onDiverged(quint64 run, int epoch, int batch, const QString& message) {
    if (!current(run)) return;
    setState(State::Finished);
    Q_EMIT diverged(epoch, batch, message);
    Q_EMIT trainingFailed(message);
}

void TrainingController::onFailed(quint64 run, const QString& message) {
    if (!current(run)) return;
    if (preparing_) {
        // The new run never started: the worker kept the previous model (if any) and its run id.
        preparing_ = false;
        run_ = previousRun_;
        summary_ = previousSummary_;
        setState(hasModel() ? previousState_ : State::Idle);
    } else {
        setState(State::Finished);
    }
    Q_EMIT failed(message);
    Q_EMIT trainingFailed(message);
}

void TrainingController::onLoaded(quint64 run, const ModelSummary& summary) {
    run_ = run;
    preparing_ = false;
    summary_ = summary;
    epochBatch_ = 0;
    batchesTrained_ = 0;
    // hasModel, not modified, no epochs; then modelLoaded and ModelSession's stateChanged().
    applyOpened([this, &summary] {
        setState(State::Idle);
        Q_EMIT modelLoaded(summary);
    });
}

void TrainingController::onLoadFailed(const QString& message) {
    Q_EMIT loadFailed(message);
    applyOpenFailed(message);  // openFailed
}

}  // namespace attnlab
