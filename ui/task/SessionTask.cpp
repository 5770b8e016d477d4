#include "task/SessionTask.h"
#include "setup/LessonControls.h"

#include "task/TaskSupport.h"
#include "views/ViewNavigator.h"

namespace attnlab {

SessionTask::SessionTask(const TaskContext& context, ModelSession* session, const QString& loadThreadName)
    : Task(context), session_(session), load_(this, loadThreadName) {
    session_->setParent(this);
}

SessionTask::~SessionTask() = default;

void SessionTask::activate() {
    if (activated_) return;
    activated_ = true;
    if (!hasData() && !isLoadingData()) loadData();
}

bool SessionTask::confirmDiscard(const QString& title) {
    return TaskSupport::confirmDiscard(session_, hooks(), title, words().discard);
}

void SessionTask::train() {
    if (session_->isBusy()) {  // a lesson started while a run winds down: train when it has
        trainWhenIdle_ = true;
        return;
    }
    if (isLoadingData() || !hasData()) {
        trainWhenLoaded_ = true;
        if (!isLoadingData()) loadData();
        return;
    }
    if (!confirmDiscard(words().trainTitle)) return;
    TaskSupport::runStarted(navigator(), id());
    startRun();
}

void SessionTask::sessionStateChanged() {
    if (trainWhenIdle_ && !session_->isBusy()) {
        trainWhenIdle_ = false;
        train();
    }
    Q_EMIT actionsChanged();
}

RunState SessionTask::runState() const {
    RunState s;
    const bool busy = session_->isBusy();
    s.start = !busy;
    s.stop = busy;
    s.reset = !busy && session_->hasModel();
    return s;
}

void SessionTask::run(RunCommand command) {
    switch (command) {
    case RunCommand::Start: train(); break;
    case RunCommand::Stop: session_->stop(); break;
    case RunCommand::Reset:
        if (!session_->isBusy() && confirmDiscard(tr("Reset the Model?"))) session_->reset();
        break;
    case RunCommand::Pause:
    case RunCommand::Step: break;  // these sessions do not pause
    }
}

void SessionTask::loadEnded(bool ok) {
    if (!ok) {
        trainWhenLoaded_ = false;
        return;
    }
    Q_EMIT dataReady();
    Q_EMIT titleChanged();
    if (trainWhenLoaded_) {
        trainWhenLoaded_ = false;
        train();
    }
}

bool SessionTask::beginLesson(const LessonCard& card, const std::function<void()>& apply) {
    if (!confirmDiscard(tr("Start the Lesson?"))) return false;
    session_->stop();
    session_->reset();
    activated_ = true;
    lesson_ = card.id;
    trainWhenLoaded_ = true;
    // The lesson's hidden and locked controls first, so that the panel's own enabling after the
    // settings below keeps them (setup/LessonControls.h).
    applyLessonControls(setupPage(), card.hidden, card.locked);
    apply();  // sets the data choice, which loads it, then trains
    navigator()->show(card.tab);
    Q_EMIT lessonStarted(card.title, card.summary);
    return true;
}

void SessionTask::openModel(const QString& path) {
    if (!confirmDiscard(words().openTitle)) return;
    TaskSupport::openModel(session_, hooks(), path);
}

void SessionTask::openModelDialog() {
    const QString path = TaskSupport::askOpenModelPath(windowWidget(), words().openDialog, lastDirectory());
    if (path.isEmpty()) return;
    openModel(path);
}

QString SessionTask::askSavePath() {
    return TaskSupport::askSaveModelPath(windowWidget(), words().saveDialog, lastDirectory(), modelFileName());
}

void SessionTask::saveModelDialog() {
    const QString path = askSavePath();
    if (!path.isEmpty()) saveModelTo(path);
}

bool SessionTask::confirmClose() {
    const Words w = words();
    return TaskSupport::confirmClose(session_, hooks(), w.closeTitle, w.closeText, [this] { return askSavePath(); });
}

void SessionTask::shutdown() {
    load_.cancel();  // the newest load's result is dropped; the job's destructor waits for its thread
    session_->shutdown(5000);
}

}  // namespace attnlab
