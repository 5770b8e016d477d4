#include "session/TrainingController.h"

#include "session/TrainingWorker.h"

#include <QDeadlineTimer>
#include <QMetaObject>
#include <QThread>

#include <algorithm>
#include <atomic>

namespace attnlab {

namespace {

std::atomic<bool> gAbandonedThreads{false};

}  // namespace

TrainingController::TrainingController(QObject* parent) : QObject(parent) {
    registerTrainingMetaTypes();
    thread_ = new QThread;  // not a child: it must outlive a busy worker if shutdown() gives up on it
    thread_->setObjectName(QStringLiteral("attnlab-training"));
    worker_ = new TrainingWorker;
    worker_->moveToThread(thread_);

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
    connect(worker_, &TrainingWorker::explainFailed, this, &TrainingController::explainFailed);
    connect(worker_, &TrainingWorker::saveFailed, this, &TrainingController::saveFailed);
    connect(worker_, &TrainingWorker::loadFailed, this, &TrainingController::loadFailed);
    connect(worker_, &TrainingWorker::modelSaved, this, [this](const QString& path) {
        setModified(false);
        Q_EMIT modelSaved(path);
    });
    thread_->start();
}

TrainingController::~TrainingController() { shutdown(); }

bool TrainingController::hasAbandonedThreads() { return gAbandonedThreads.load(); }

void TrainingController::noteAbandonedThread() { gAbandonedThreads.store(true); }

double TrainingController::progress() const {
    if (summary_.epochs <= 0 || summary_.batchesPerEpoch <= 0) return 0.0;
    const double total = static_cast<double>(summary_.epochs) * summary_.batchesPerEpoch;
    const double done = static_cast<double>(completedEpochs_) * summary_.batchesPerEpoch + epochBatch_;
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
}

void TrainingController::setModified(bool modified) {
    if (modified == modified_) return;
    modified_ = modified;
    Q_EMIT modifiedChanged(modified);
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
    completedEpochs_ = 0;
    epochBatch_ = 0;
    batchesTrained_ = 0;
    elapsedMs_ = 0;
    clock_.invalidate();
    summary_ = ModelSummary{};
    summary_.epochs = request.options.epochs;
    TrainingWorker* worker = worker_;
    const quint64 run = run_;
    QMetaObject::invokeMethod(
        worker_, [worker, run, request, paused] { worker->start(run, request, paused); }, Qt::QueuedConnection);
    setState(paused ? State::Paused : State::Running);
    Q_EMIT progressChanged(0.0, -1.0);
}

void TrainingController::pause() {
    if (!worker_ || state_ != State::Running) return;
    QMetaObject::invokeMethod(worker_, &TrainingWorker::pause, Qt::QueuedConnection);
    setState(State::Paused);
}

void TrainingController::resume() {
    if (!worker_ || state_ != State::Paused) return;
    QMetaObject::invokeMethod(worker_, &TrainingWorker::resume, Qt::QueuedConnection);
    setState(State::Running);
}

void TrainingController::step() {
    if (!worker_ || !isActive()) return;
    QMetaObject::invokeMethod(worker_, &TrainingWorker::step, Qt::QueuedConnection);
    setState(State::Paused);
}

void TrainingController::stop() {
    if (!worker_ || !isActive()) return;
    QMetaObject::invokeMethod(worker_, &TrainingWorker::stop, Qt::QueuedConnection);
    setState(hasModel_ || preparing_ ? State::Finished : State::Idle);
}

void TrainingController::reset() {
    if (!worker_) return;
    QMetaObject::invokeMethod(worker_, &TrainingWorker::reset, Qt::QueuedConnection);
    run_ = ++lastRunId_;  // whatever the old run still sends is dropped
    preparing_ = false;
    hasModel_ = false;
    summary_ = ModelSummary{};
    completedEpochs_ = 0;
    epochBatch_ = 0;
    batchesTrained_ = 0;
    elapsedMs_ = 0;
    clock_.invalidate();
    setModified(false);
    setState(State::Idle);
    Q_EMIT progressChanged(0.0, -1.0);
}

quint64 TrainingController::translate(const QString& sentence, int beam) {
    const quint64 id = ++lastRequestId_;
    if (!worker_) return id;
    TrainingWorker* worker = worker_;
    QMetaObject::invokeMethod(
        worker_, [worker, id, sentence, beam] { worker->translate(id, sentence, beam); }, Qt::QueuedConnection);
    return id;
}

quint64 TrainingController::trace(const QString& sentence, const TraceRequest& request) {
    const quint64 id = ++lastRequestId_;
    if (!worker_) return id;
    TrainingWorker* worker = worker_;
    QMetaObject::invokeMethod(
        worker_, [worker, id, sentence, request] { worker->trace(id, sentence, request); }, Qt::QueuedConnection);
    return id;
}

quint64 TrainingController::explainToken(const QString& sentence, int outputIndex) {
    const quint64 id = ++lastRequestId_;
    if (!worker_) return id;
    TrainingWorker* worker = worker_;
    QMetaObject::invokeMethod(
        worker_, [worker, id, sentence, outputIndex] { worker->explainToken(id, sentence, outputIndex); },
        Qt::QueuedConnection);
    return id;
}

void TrainingController::setProbe(const QString& sentence, int everyBatches, int beam) {
    if (!worker_) return;
    ProbeSettings probe;
    probe.sentence = sentence.trimmed().toStdString();
    probe.everyBatches = std::max(0, everyBatches);
    probe.beam = std::max(1, beam);
    TrainingWorker* worker = worker_;
    QMetaObject::invokeMethod(worker_, [worker, probe] { worker->setProbe(probe); }, Qt::QueuedConnection);
}

void TrainingController::saveModel(const QString& path) {
    if (!worker_) return;
    TrainingWorker* worker = worker_;
    QMetaObject::invokeMethod(worker_, [worker, path] { worker->saveModel(path); }, Qt::QueuedConnection);
}

void TrainingController::loadModel(const QString& path) {
    if (!worker_ || isActive()) return;
    TrainingWorker* worker = worker_;
    const quint64 run = ++lastRunId_;
    QMetaObject::invokeMethod(worker_, [worker, run, path] { worker->loadModel(run, path); }, Qt::QueuedConnection);
}

bool TrainingController::shutdown(int timeoutMs) {
    if (!thread_) return true;
    worker_->cancel();
    QMetaObject::invokeMethod(worker_, &TrainingWorker::stop, Qt::QueuedConnection);
    thread_->quit();
    if (!thread_->wait(QDeadlineTimer(timeoutMs))) {
        // Deleting a running QThread aborts the process; leave it (and its worker) to the OS.
        gAbandonedThreads.store(true);
        thread_ = nullptr;
        worker_ = nullptr;
        stopClock();
        return false;
    }
    delete worker_;  // its thread has ended: deleting it here is safe
    worker_ = nullptr;
    delete thread_;
    thread_ = nullptr;
    stopClock();
    return true;
}

void TrainingController::onPrepared(quint64 run, const ModelSummary& summary) {
    if (!current(run)) return;
    preparing_ = false;
    hasModel_ = true;
    summary_ = summary;
    Q_EMIT prepared(summary);
}

void TrainingController::onBatchTrained(quint64 run, const BatchReport& report) {
    if (!current(run)) return;
    ++batchesTrained_;
    completedEpochs_ = report.epoch - 1;
    epochBatch_ = report.batch;
    setModified(true);
    Q_EMIT batchTrained(report);
    Q_EMIT progressChanged(progress(), etaSeconds());
}

void TrainingController::onEpochFinished(quint64 run, const EpochMetrics& metrics) {
    if (!current(run)) return;
    completedEpochs_ = metrics.epoch;
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
}

void TrainingController::onDiverged(quint64 run, int epoch, int batch, const QString& message) {
    if (!current(run)) return;
    setState(State::Finished);
    Q_EMIT diverged(epoch, batch, message);
}

void TrainingController::onFailed(quint64 run, const QString& message) {
    if (!current(run)) return;
    if (preparing_) {
        // The new run never started: the worker kept the previous model (if any) and its run id.
        preparing_ = false;
        run_ = previousRun_;
        summary_ = previousSummary_;
        setState(hasModel_ ? previousState_ : State::Idle);
    } else {
        setState(State::Finished);
    }
    Q_EMIT failed(message);
}

void TrainingController::onLoaded(quint64 run, const ModelSummary& summary) {
    run_ = run;
    hasModel_ = true;
    preparing_ = false;
    summary_ = summary;
    completedEpochs_ = 0;
    epochBatch_ = 0;
    batchesTrained_ = 0;
    setModified(false);
    setState(State::Idle);
    Q_EMIT modelLoaded(summary);
}

}  // namespace attnlab
