#include "session/BackgroundJob.h"

#include "session/SettingNames.h"

#include <QDeadlineTimer>
#include <QThread>

#include <algorithm>

namespace attnlab {

namespace {

std::atomic<bool> gAbandonedThreads{false};

}  // namespace

void markThreadAbandoned() { gAbandonedThreads.store(true); }
bool anyThreadAbandoned() { return gAbandonedThreads.load(); }

bool finishThread(QThread* thread, int timeoutMs) {
    if (!thread) return true;
    thread->quit();
    const bool finished = timeoutMs < 0 ? thread->wait() : thread->wait(QDeadlineTimer(timeoutMs));
    if (!finished) {
        // Deleting a running QThread aborts the process; leave it (and what runs on it) to the OS.
        thread->setParent(nullptr);
        markThreadAbandoned();
        return false;
    }
    delete thread;
    return true;
}

void detail::JobShared::post(quint64 id, std::function<void()> f, bool clearsPending) {
    const std::lock_guard<std::mutex> lock(mutex);
    if (!receiver) return;
    // Posted under the lock: the receiver cannot be destroyed in between (BackgroundJob's
    // receiverGone_, shutdown and closeGuiChannel clear it under the same lock).
    std::shared_ptr<JobShared> shared = shared_from_this();
    QMetaObject::invokeMethod(
        receiver,
        [shared, id, f = std::move(f), clearsPending] {
            // On the receiver's thread: the receiver is alive (its pending events die with it), but
            // the slot may have been shut down, or a newer job started, since.
            {
                const std::lock_guard<std::mutex> check(shared->mutex);
                if (!shared->receiver) return;
            }
            if (id != 0 && id != shared->current) return;
            if (clearsPending && id == shared->current) shared->pending = false;
            f();
        },
        Qt::QueuedConnection);
}

// ---- BackgroundJob ---------------------------------------------------------------------------

BackgroundJob::BackgroundJob(QObject* receiver, QString threadName, int shutdownTimeoutMs)
    : shared_(std::make_shared<detail::JobShared>()),
      threadName_(std::move(threadName)),
      shutdownTimeoutMs_(shutdownTimeoutMs),
      stop_(std::make_shared<std::atomic<bool>>(false)) {
    shared_->receiver = receiver;
    std::shared_ptr<detail::JobShared> shared = shared_;
    // Direct: runs in the receiver's destructor, before its pending events are removed.
    receiverGone_ = QObject::connect(receiver, &QObject::destroyed, [shared] {
        const std::lock_guard<std::mutex> lock(shared->mutex);
        shared->receiver = nullptr;
    });
}

BackgroundJob::~BackgroundJob() {
    shutdown(shutdownTimeoutMs_);
    QObject::disconnect(receiverGone_);
}

QString BackgroundJob::messageOf(const std::exception& e) { return SettingNames::messageOf(e); }

QString BackgroundJob::unknownError() {
    return QCoreApplication::translate("attnlab::BackgroundJob", "an unknown error occurred");
}

quint64 BackgroundJob::launch(const std::function<void(const JobContext&)>& body) {
    if (shutDown_) return 0;
    stop_->store(true);  // the previous job's
    stop_ = std::make_shared<std::atomic<bool>>(false);
    const quint64 id = ++lastId_;
    shared_->current = id;
    shared_->pending = true;
    const JobContext context(shared_, id, stop_);
    QThread* thread = QThread::create([body, context] { body(context); });
    thread->setObjectName(threadName_);
    threads_.append(thread);
    // The thread object lives on this (the GUI) thread: finished is queued here, then it is deleted.
    // A slot gone by then (shutdown deleted or abandoned the thread) has disconnected it.
    QObject::connect(thread, &QThread::finished, thread, [this, thread] {
        threads_.removeOne(thread);
        thread->deleteLater();
    });
    thread->start();
    return id;
}

bool BackgroundJob::isBusy() const {
    for (QThread* thread : threads_)
        if (thread->isRunning()) return true;
    return false;
}

void BackgroundJob::stop() { stop_->store(true); }

void BackgroundJob::cancel() {
    stop_->store(true);
    shared_->current = ++lastId_;  // no job has this id: the newest one's result is dropped
    shared_->pending = false;
}

bool BackgroundJob::wait(int timeoutMs) {
    const QDeadlineTimer deadline = timeoutMs < 0 ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(timeoutMs);
    bool all = true;
    for (QThread* thread : threads_) all = thread->wait(deadline) && all;
    return all;
}

bool BackgroundJob::shutdown(int timeoutMs) {
    if (shutDown_ && threads_.isEmpty()) return true;
    shutDown_ = true;
    stop_->store(true);
    {
        const std::lock_guard<std::mutex> lock(shared_->mutex);
        shared_->receiver = nullptr;  // nothing more is delivered
    }
    shared_->pending = false;
    const QDeadlineTimer deadline = timeoutMs < 0 ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(timeoutMs);
    bool all = true;
    const QList<QThread*> threads = threads_;
    threads_.clear();
    for (QThread* thread : threads) {
        thread->disconnect();  // its finished handler uses this slot
        const qint64 left = deadline.isForever() ? -1 : std::max<qint64>(0, deadline.remainingTime());
        all = finishThread(thread, static_cast<int>(left)) && all;
    }
    return all;
}

// ---- WorkerThread's helpers --------------------------------------------------------------------

std::shared_ptr<detail::JobShared> newGuiChannel(QObject* receiver) {
    auto shared = std::make_shared<detail::JobShared>();
    shared->receiver = receiver;
    return shared;
}

void closeGuiChannel(detail::JobShared& shared) {
    const std::lock_guard<std::mutex> lock(shared.mutex);
    shared.receiver = nullptr;
}

}  // namespace attnlab
