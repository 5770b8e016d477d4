#pragma once
// The worker thread of a task's session (ClassifierSession, ImageSession): one QThread owned by the
// session and the worker object living on it. The session posts jobs to the worker (post: queued,
// run on the thread in order) and shuts the thread down when it closes; the worker answers by
// posting to the session (postToGui). The sessions keep their own state and signals.
#include "session/TrainingController.h"
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QMetaObject>
#include <QObject>
#include <QString>
#include <QThread>
#include <atomic>
#include <functional>
#include <utility>

namespace attnlab {

template <typename Worker>
class WorkerThread {
public:
    // Starts the thread `name`, a child of `owner`, and moves `worker` (not yet owned) onto it.
    void start(QObject* owner, const QString& name, Worker* worker) {
        thread_ = new QThread(owner);
        thread_->setObjectName(name);
        worker_ = worker;
        worker_->moveToThread(thread_);
        thread_->start();
    }

    // Runs job(worker) on the thread, after the jobs posted before; nothing after shutdown.
    void post(std::function<void(Worker&)> job) {
        if (!worker_) return;
        Worker* w = worker_;
        QMetaObject::invokeMethod(w, [w, job = std::move(job)] { job(*w); }, Qt::QueuedConnection);
    }

    bool isShutDown() const { return shutDown_; }

    // Raises `stop`, quits the thread and waits at most timeoutMs for it; a thread that does not
    // finish is abandoned (TrainingController::noteAbandonedThread). Once only.
    void shutdown(int timeoutMs, std::atomic<bool>& stop) {
        if (shutDown_) return;
        shutDown_ = true;
        stop.store(true);
        thread_->quit();
        if (!thread_->wait(QDeadlineTimer(timeoutMs))) {
            // Deleting a running QThread aborts the process; leave it (and its worker) to the OS.
            TrainingController::noteAbandonedThread();
            thread_->setParent(nullptr);
            worker_ = nullptr;
            thread_ = nullptr;
            return;
        }
        delete worker_;
        worker_ = nullptr;
    }

private:
    QThread* thread_ = nullptr;
    Worker* worker_ = nullptr;
    bool shutDown_ = false;
};

// From the worker's thread: f() on the session's (GUI) thread.
template <typename F>
void postToGui(QObject* session, F&& f) {
    QMetaObject::invokeMethod(session, std::forward<F>(f), Qt::QueuedConnection);
}

// From inside a job: runs the requests queued to the worker's thread since (between two batches).
inline void serveQueuedRequests() { QCoreApplication::processEvents(QEventLoop::AllEvents); }

}  // namespace attnlab
