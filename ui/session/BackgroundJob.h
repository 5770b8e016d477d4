#pragma once
// The one way AttnLab runs work off the GUI thread. Two halves on one primitive (finishThread):
//
//  - BackgroundJob: a slot of one-off jobs. start() runs a job on a new thread with the slot's name
//    and hands its result to done() on the receiver's (GUI) thread. A result is dropped when a newer
//    job of the same slot has started (newest wins), cancel() or shutdown() was called, or the
//    receiver or the slot is gone. A job that throws hands failed(message) over instead. A job can
//    also post progress to the receiver's thread (JobContext::post, dropped like the result) and
//    poll a stop flag (JobContext::stopRequested, raised by stop(), a newer start() and shutdown()).
//    The destructor calls shutdown(timeout): it waits a bounded time for the slot's threads; one
//    that does not finish is abandoned (markThreadAbandoned: the process then ends with _Exit).
//    A job must therefore capture nothing it does not own: values, shared_ptrs, never `this`.
//
//  - WorkerThread<Worker>: a long-lived worker object on one thread of its own (a model session's).
//    post() queues a call on the worker (run in order); the worker answers through a GuiChannel
//    (gui(): dropped once the owner shut the thread down); between two batches it serves the calls
//    queued since (serveQueuedRequests). shutdown() quits the thread and waits a bounded time,
//    abandoning it the same way. ModelSession.h builds the sessions on it.
//
// Example, a newest-wins load (what a task does when the user picks another dataset):
//
//     class ImageTask : public QObject {
//         BackgroundJob load_{this, QStringLiteral("attnlab-images-data")};  // waits 5 s when the task goes
//         void loadData(const ImageSource& source) {
//             load_.start(
//                 [source](const JobContext& job) {         // on "attnlab-images-data"
//                     job.post([] { /* optional progress, on the GUI thread */ });
//                     return readImages(source);             // any movable value; may throw
//                 },
//                 [this](ImageData data) { show(std::move(data)); },   // GUI thread, newest load only
//                 [this](const QString& message) { reportError(message); });
//         }
//         bool isLoadingData() const { return load_.isPending(); }
//     };
//
// The work may also take no argument ([source] { return readImages(source); }) and return void (done
// then takes none); failed may be left out (a failure is then dropped). work, done and failed must
// be copyable; the result only movable. start() returns the job's id; isCurrent(id) tells whether a
// job is still the newest. In place of TaskSupport::startLoad(receiver, loader, generation, name,
// work, done): a BackgroundJob member named `name` and load_.start(work, done); endLoad(): cancel()
// (the thread ends on its own; the destructor waits for it).
#include <QCoreApplication>
#include <QEventLoop>
#include <QList>
#include <QMetaObject>
#include <QObject>
#include <QString>
#include <QThread>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>

namespace attnlab {

// The process-wide record of threads left running: when one was, main() ends the process with _Exit
// (static destructors must not run under a thread that still runs).
void markThreadAbandoned();
bool anyThreadAbandoned();

// Quits `thread` (its event loop, if any) and waits at most timeoutMs (< 0: no limit). True, and the
// thread deleted, if it finished; false if it is abandoned: left running, unparented, never deleted
// (deleting a running QThread aborts the process), and markThreadAbandoned() recorded.
bool finishThread(QThread* thread, int timeoutMs);

class JobContext;

namespace detail {

// What a slot's jobs share with their threads. The mutex guards `receiver` against its destruction
// while a job thread posts to it; the rest is read and written on the receiver's thread only.
struct JobShared : std::enable_shared_from_this<JobShared> {
    std::mutex mutex;
    QObject* receiver = nullptr;  // null once the receiver or the slot is gone
    quint64 current = 0;          // the newest job's id
    bool pending = false;         // the newest job has not been delivered or dropped yet

    // From any thread: f() on the receiver's thread, if job `id` (0: any) is still the newest then;
    // clearsPending: the job's result (the newest job is then no longer pending).
    void post(quint64 id, std::function<void()> f, bool clearsPending);
};

template <typename Work, bool withContext>
struct JobResult {
    using type = std::invoke_result_t<Work&>;
};
template <typename Work>
struct JobResult<Work, true> {
    using type = std::invoke_result_t<Work&, const JobContext&>;
};

}  // namespace detail

// Handed to a job's work: its id, its stop flag and a way to the receiver's thread.
class JobContext {
public:
    quint64 id() const { return id_; }
    bool stopRequested() const { return stop_->load(); }
    // For the engine's `const std::atomic<bool>* stop` parameters.
    const std::atomic<bool>* stopFlag() const { return stop_.get(); }
    // From the job's thread: f() on the receiver's thread, dropped like the job's result.
    void post(std::function<void()> f) const { shared_->post(id_, std::move(f), false); }
    // The same, but delivered even once a newer job of the slot has started (for reports that carry
    // their own run id); still dropped after shutdown or once the receiver is gone.
    void postAlways(std::function<void()> f) const { shared_->post(0, std::move(f), false); }

private:
    friend class BackgroundJob;
    JobContext(std::shared_ptr<detail::JobShared> shared, quint64 id, std::shared_ptr<std::atomic<bool>> stop)
        : shared_(std::move(shared)), id_(id), stop_(std::move(stop)) {}
    std::shared_ptr<detail::JobShared> shared_;
    quint64 id_;
    std::shared_ptr<std::atomic<bool>> stop_;
};

class BackgroundJob {
public:
    // Jobs run on threads named threadName; results go to receiver's thread. The destructor waits
    // at most shutdownTimeoutMs for threads still running.
    BackgroundJob(QObject* receiver, QString threadName, int shutdownTimeoutMs = 5000);
    ~BackgroundJob();
    BackgroundJob(const BackgroundJob&) = delete;
    BackgroundJob& operator=(const BackgroundJob&) = delete;

    // Runs work() or work(const JobContext&) on a new thread; then done(result) (done() for a void
    // work) or failed(message) on the receiver's thread, unless dropped (see above). Raises the
    // previous job's stop flag. Returns the job's id; nothing runs after shutdown() (returns 0).
    template <typename Work, typename Done>
    quint64 start(Work work, Done done, std::function<void(const QString&)> failed = {});

    quint64 current() const { return shared_->current; }
    bool isCurrent(quint64 id) const { return id != 0 && id == shared_->current; }
    // The newest job's result is still awaited.
    bool isPending() const { return shared_->pending; }
    // Some thread of this slot still runs (the newest job or an older one whose result is dropped).
    bool isBusy() const;

    void stop();    // raises the newest job's stop flag; its result still arrives
    void cancel();  // raises it and drops the newest job's result (its thread runs on)
    // Waits at most timeoutMs (< 0: no limit) for every thread of this slot, results still delivered
    // later by the event loop. False if one still runs.
    bool wait(int timeoutMs = -1);
    // Drops every result to come, raises the stop flag and waits at most timeoutMs (< 0: no limit)
    // for the threads; abandons those that do not finish (false). No job starts afterwards.
    bool shutdown(int timeoutMs);
    bool isShutDown() const { return shutDown_; }

private:
    template <typename R>
    struct Outcome {
        std::optional<R> value;
        std::optional<QString> error;
    };

    // Starts body on a new thread (the non-template part, in the .cpp).
    quint64 launch(const std::function<void(const JobContext&)>& body);
    static QString messageOf(const std::exception& e);
    static QString unknownError();

    std::shared_ptr<detail::JobShared> shared_;
    QString threadName_;
    int shutdownTimeoutMs_;
    quint64 lastId_ = 0;
    std::shared_ptr<std::atomic<bool>> stop_;  // the newest job's
    QList<QThread*> threads_;                  // running, or finished and not yet deleted
    QMetaObject::Connection receiverGone_;
    bool shutDown_ = false;
};

template <typename Work, typename Done>
quint64 BackgroundJob::start(Work work, Done done, std::function<void(const QString&)> failed) {
    constexpr bool withContext = std::is_invocable_v<Work&, const JobContext&>;
    using R = typename detail::JobResult<Work, withContext>::type;
    constexpr bool isVoid = std::is_void_v<R>;
    using Stored = std::conditional_t<isVoid, bool, R>;
    auto outcome = std::make_shared<Outcome<Stored>>();
    auto call = [work = std::move(work)](const JobContext& job) mutable -> decltype(auto) {
        if constexpr (withContext)
            return work(job);
        else
            return work();
    };
    auto body = [call = std::move(call), outcome, done = std::move(done),
                 failed = std::move(failed)](const JobContext& job) mutable {
        try {
            if constexpr (isVoid) {
                call(job);
                outcome->value.emplace(true);
            } else {
                outcome->value.emplace(call(job));
            }
        } catch (const std::exception& e) {
            outcome->error = messageOf(e);
        } catch (...) {
            outcome->error = unknownError();
        }
        // Posted from this thread after every JobContext::post of the job, so delivered after them.
        job.shared_->post(
            job.id(),
            [outcome, done, failed]() mutable {
                if (outcome->error) {
                    if (failed) failed(*outcome->error);
                } else if constexpr (isVoid) {
                    done();
                } else {
                    done(std::move(*outcome->value));
                }
            },
            true);
    };
    return launch(std::function<void(const JobContext&)>(std::move(body)));
}

// ---- the long-lived half ----------------------------------------------------------------------

// A worker's way back to its session's thread: post(f) runs f() there, or nothing once the session
// has shut the worker's thread down (or abandoned it). Copyable; safe from any thread.
class GuiChannel {
public:
    GuiChannel() = default;
    void post(std::function<void()> f) const {
        if (shared_) shared_->post(0, std::move(f), false);
    }

private:
    template <typename>
    friend class WorkerThread;
    explicit GuiChannel(std::shared_ptr<detail::JobShared> shared) : shared_(std::move(shared)) {}
    std::shared_ptr<detail::JobShared> shared_;
};

// Non-template helpers of WorkerThread (BackgroundJob.cpp).
std::shared_ptr<detail::JobShared> newGuiChannel(QObject* receiver);
void closeGuiChannel(detail::JobShared& shared);

template <typename Worker>
class WorkerThread {
public:
    WorkerThread() = default;
    WorkerThread(const WorkerThread&) = delete;
    WorkerThread& operator=(const WorkerThread&) = delete;
    ~WorkerThread() {
        if (channel_) closeGuiChannel(*channel_);
    }

    // Starts the thread `name`, a child of `owner`, and moves `worker` (not yet owned) onto it;
    // posts through gui() reach `owner`'s thread.
    void start(QObject* owner, const QString& name, Worker* worker) {
        if (!channel_) channel_ = newGuiChannel(owner);  // gui() may have made it already
        thread_ = new QThread(owner);
        thread_->setObjectName(name);
        worker_ = worker;
        worker_->moveToThread(thread_);
        thread_->start();
    }

    // For the worker, given before start(): its way back to the owner's thread.
    GuiChannel gui(QObject* owner) {
        if (!channel_) channel_ = newGuiChannel(owner);
        return GuiChannel(channel_);
    }

    // Runs job(worker) on the thread, after the jobs posted before; nothing after shutdown.
    void post(std::function<void(Worker&)> job) {
        if (!worker_) return;
        Worker* w = worker_;
        QMetaObject::invokeMethod(w, [w, job = std::move(job)] { job(*w); }, Qt::QueuedConnection);
    }

    bool isShutDown() const { return shutDown_; }

    // Raises `stop`, closes the way back (nothing the worker posts after this arrives), quits the
    // thread and waits at most timeoutMs for it (finishThread). A worker whose thread finished is
    // deleted; one that did not is abandoned with its thread. Once only; false if abandoned.
    bool shutdown(int timeoutMs, std::atomic<bool>& stop) {
        if (shutDown_) return true;
        shutDown_ = true;
        stop.store(true);
        if (channel_) closeGuiChannel(*channel_);
        Worker* worker = worker_;
        worker_ = nullptr;
        if (!thread_) return true;
        thread_->setParent(nullptr);  // finishThread deletes it, or leaves it running
        const bool finished = finishThread(thread_, timeoutMs);
        thread_ = nullptr;
        if (finished) delete worker;
        return finished;
    }

private:
    std::shared_ptr<detail::JobShared> channel_;
    QThread* thread_ = nullptr;
    Worker* worker_ = nullptr;
    bool shutDown_ = false;
};

// From the worker's thread: f() on the session's (GUI) thread. Prefer GuiChannel, which drops what
// is posted after the session shut the thread down.
template <typename F>
void postToGui(QObject* session, F&& f) {
    QMetaObject::invokeMethod(session, std::forward<F>(f), Qt::QueuedConnection);
}

// From inside a job: runs the requests queued to the worker's thread since (between two batches).
inline void serveQueuedRequests() { QCoreApplication::processEvents(QEventLoop::AllEvents); }

}  // namespace attnlab
