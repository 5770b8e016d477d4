#include "session/ModelSession.h"

namespace attnlab {

ModelSession::ModelSession(QObject* parent) : QObject(parent) {}

ModelSession::~ModelSession() = default;

bool ModelSession::beginTraining(RunState state) {
    if (!canBegin()) return false;
    stop_->store(false);
    completedEpochs_ = 0;
    runState_ = state;
    Q_EMIT stateChanged();
    return true;
}

bool ModelSession::beginJob() {
    if (!canBegin()) return false;
    stop_->store(false);
    jobRunning_ = true;
    Q_EMIT stateChanged();
    return true;
}

void ModelSession::setRunState(RunState state) {
    if (state == runState_) return;
    runState_ = state;
    Q_EMIT stateChanged();
}

void ModelSession::setModified(bool modified) {
    if (modified == modified_) return;
    modified_ = modified;
    Q_EMIT modifiedChanged(modified);
}

void ModelSession::stop() {
    stop_->store(true);
    if (runState_ == RunState::Training || runState_ == RunState::Paused) setRunState(RunState::Stopping);
}

void ModelSession::reset() {
    stop_->store(true);
    queueReset();
    ++probeGeneration_;  // a probe of the discarded model, still on its way, is dropped
    const bool had = hasModel_;
    hasModel_ = false;
    setModified(false);
    completedEpochs_ = 0;
    clearModel();
    if (had) Q_EMIT modelDiscarded();
    Q_EMIT stateChanged();
}

void ModelSession::beginOpening() {
    opening_ = true;
    Q_EMIT stateChanged();
}

bool ModelSession::open(const QString& path) {
    if (!canBegin()) return false;
    beginOpening();
    queueOpen(path);
    return true;
}

void ModelSession::save(const QString& path) { queueSave(path, completedEpochs_); }

bool ModelSession::shutdown(int timeoutMs) {
    if (shutDown_) return true;
    shutDown_ = true;
    stop_->store(true);
    return endWorker(timeoutMs);
}

void ModelSession::applyModelBuilt() {
    hasModel_ = true;
    setModified(true);
}

void ModelSession::applyTrainingEnded(const std::optional<QString>& failure, bool stopped) {
    runState_ = RunState::Idle;
    if (failure)
        Q_EMIT trainingFailed(*failure);
    else
        Q_EMIT trainingFinished(stopped);
    Q_EMIT stateChanged();
}

void ModelSession::applyJobEnded(const std::function<void()>& announce) {
    jobRunning_ = false;
    if (announce) announce();
    Q_EMIT stateChanged();
}

void ModelSession::applyOpened(const std::function<void()>& adopt) {
    opening_ = false;
    hasModel_ = true;
    setModified(false);
    completedEpochs_ = 0;
    modelOpened();
    if (adopt) adopt();
    Q_EMIT stateChanged();
}

void ModelSession::applyOpenFailed(const QString& message) {
    opening_ = false;
    Q_EMIT openFailed(message);
    Q_EMIT stateChanged();
}

void ModelSession::applySaved(const QString& path) {
    setModified(false);
    Q_EMIT saved(path);
    Q_EMIT stateChanged();
}

}  // namespace attnlab
