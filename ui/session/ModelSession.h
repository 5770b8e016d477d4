#pragma once
// The base of every task's model session (ClassifierSession, ImageSession, TranslationSession): the
// state of the model and of its run, kept on the GUI thread, and the common requests and signals.
//
//   runState()  Idle / Training / Paused (only a session that can pause) / Stopping (a stop was asked;
//               the run ends after its current batch)
//   isBusy()    a job runs on the worker: a run, an open, or another job of the session (beginJob)
//   hasModel(), isModified() (trained since built, saved or opened), completedEpochs()
//   stop(), reset(), open(path), save(path), shutdown(timeoutMs)
//
// A session with a worker thread derives from SessionOf<Worker, Info> below: it owns the
// WorkerThread (BackgroundJob.h) and the model's Info, queues the worker's open/save/reset, and gives
// the worker a Reporter, through which the worker (on its thread) moves the session's state: the
// Reporter posts each transition to the GUI thread, where the base applies it and emits the signals.
// Nothing else of the session is touched from the worker's thread.
#include "engine/HeadStudy.h"
#include "session/BackgroundJob.h"
#include "session/SettingNames.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace attnlab {

class ModelSession : public QObject {
    Q_OBJECT

public:
    enum class RunState { Idle, Training, Paused, Stopping };
    Q_ENUM(RunState)

    explicit ModelSession(QObject* parent = nullptr);
    ~ModelSession() override;

    RunState runState() const { return runState_; }
    bool isTraining() const { return runState_ != RunState::Idle; }  // until the run has ended
    bool isOpening() const { return opening_; }
    bool isRunningJob() const { return jobRunning_; }  // a job begun with beginJob (an experiment)
    bool isBusy() const { return isTraining() || opening_ || jobRunning_; }
    bool hasModel() const { return hasModel_; }
    bool isModified() const { return modified_; }  // trained since it was built, saved or opened
    int completedEpochs() const { return completedEpochs_; }
    bool isShutDown() const { return shutDown_; }

    // The run ends after its current batch (another job after its current step); the model stays.
    virtual void stop();
    // Drops the model after stopping whatever runs; the worker resets when its job has ended.
    virtual void reset();
    // Opens a model file on the worker; refused (false) while a job runs. The open model stays if it fails.
    virtual bool open(const QString& path);
    virtual void save(const QString& path);
    // Stops the worker's job and ends its thread, waiting at most timeoutMs; false if the thread was
    // abandoned (TranslationSession::hasAbandonedThreads). Once only.
    virtual bool shutdown(int timeoutMs);

Q_SIGNALS:
    void stateChanged();
    void modelDiscarded();
    void trainingFinished(bool stopped);
    void trainingFailed(const QString& message);  // the model (if built) stays, with the last good weights
    void openFailed(const QString& message);
    void saved(const QString& path);
    void saveFailed(const QString& message);
    // A request's answer (the session's own signal for it, e.g. classified) has been emitted: requestAnswered;
    // or it failed: requestFailed.
    void requestAnswered(quint64 id);
    void requestFailed(quint64 id, const QString& message);
    void modifiedChanged(bool modified);
    // A head study (the Importance view) of a session whose model is a Transformer: its progress in
    // passes over the items, and its report with the name of the data measured (or requestFailed).
    void headStudyProgress(quint64 id, int done, int total);
    void headStudyMeasured(quint64 id, const attnlab::HeadStudyReport& report, const QString& data);

protected:
    // ---- for the derived session, on the GUI thread ----
    // A new run: refused (false) while a job runs or after shutdown; lowers the stop flag, zeroes the
    // epochs, enters `state` (Training, or Paused for a session that starts paused).
    bool beginTraining(RunState state = RunState::Training);
    bool canBegin() const { return !isBusy() && !shutDown_ && workerAvailable(); }  // what begin* checks
    // Another job of the session on the worker (an experiment): refused like beginTraining.
    bool beginJob();
    void beginOpening();  // an open is queued (no check): isOpening until applyOpened / applyOpenFailed
    void setRunState(RunState state);  // emits stateChanged on a change
    void setModified(bool modified);   // emits modifiedChanged on a change
    void setHasModel(bool has) { hasModel_ = has; }
    void setCompletedEpochs(int epochs) { completedEpochs_ = epochs; }
    quint64 nextRequestId() { return ++lastRequest_; }
    // Bumped by reset() and by newProbe(): answers tagged with an older generation are dropped.
    quint64 probeGeneration() const { return probeGeneration_; }
    quint64 newProbe() { return ++probeGeneration_; }
    const std::shared_ptr<std::atomic<bool>>& stopFlag() const { return stop_; }

    // The worker's side, each posted by a Reporter and applied here.
    void applyModelBuilt();                     // a run's model exists: hasModel, modified
    void applyTrainingEnded(const std::optional<QString>& failure, bool stopped);
    void applyJobEnded(const std::function<void()>& announce);
    void applyOpened(const std::function<void()>& adopt);  // adopt: the session takes the model's info
    void applyOpenFailed(const QString& message);
    void applySaved(const QString& path);

    // Hooks of the requests above, implemented by SessionOf (or a session with its own worker).
    virtual bool workerAvailable() const = 0;
    virtual void queueOpen(const QString& path) = 0;
    virtual void queueSave(const QString& path, int epochs) = 0;
    virtual void queueReset() = 0;
    virtual bool endWorker(int timeoutMs) = 0;
    virtual void clearModel() {}  // reset(): the session's own record of the model
    virtual void modelOpened() {}  // applyOpened, before the session announces the model

private:
    RunState runState_ = RunState::Idle;
    bool opening_ = false;
    bool jobRunning_ = false;
    bool hasModel_ = false;
    bool modified_ = false;
    bool shutDown_ = false;
    int completedEpochs_ = 0;
    quint64 lastRequest_ = 0;
    quint64 probeGeneration_ = 0;
    std::shared_ptr<std::atomic<bool>> stop_ = std::make_shared<std::atomic<bool>>(false);
};

// The worker of a SessionOf session: lives on the session's thread, every call runs there.
class ModelWorker : public QObject {
public:
    virtual void open(const QString& path) = 0;
    virtual void save(const QString& path, int epochs) = 0;
    virtual void reset() = 0;  // drops the model (after the job that runs, if called from inside one)
};

// A session whose model lives on a WorkerThread<Worker> and is described by an Info value (what the
// window and the views show of it). Worker derives from ModelWorker; it may stay an incomplete type
// in the session's header.
template <typename Worker, typename Info>
class SessionOf : public ModelSession {
public:
    const Info& model() const { return info_; }

    // The worker's handle on the session, used on the worker's thread: every call posts to the GUI
    // thread (and is dropped once the session has shut its worker down).
    class Reporter {
    public:
        Reporter() = default;
        bool stopRequested() const { return stop_->load(); }
        const std::atomic<bool>* stopFlag() const { return stop_.get(); }
        // Anything else: f(session) on the GUI thread, e.g. to emit a session's own signal.
        template <typename Session, typename F>
        void post(Session* session, F f) const {
            gui_.post([session, f = std::move(f)]() mutable { f(session); });
        }
        // The model of a run was built: the session takes its info (then announce() emits what the
        // session announces it with, e.g. modelReady).
        void modelBuilt(Info info, std::function<void()> announce) const {
            SessionOf* s = session_;
            gui_.post([s, info = std::move(info), announce = std::move(announce)] {
                s->info_ = info;
                s->applyModelBuilt();
                if (announce) announce();
            });
        }
        // The run finished epoch `epoch`; then announce() (the session's epoch signal).
        void epochDone(int epoch, std::function<void()> announce) const {
            SessionOf* s = session_;
            gui_.post([s, epoch, announce = std::move(announce)] {
                s->setCompletedEpochs(epoch);
                if (announce) announce();
            });
        }
        // The run ended (failure: it failed, or never started); trainingFailed or trainingFinished.
        void trainingEnded(std::optional<QString> failure, bool stopped) const {
            SessionOf* s = session_;
            gui_.post([s, failure = std::move(failure), stopped] { s->applyTrainingEnded(failure, stopped); });
        }
        // A job begun with beginJob ended; announce() emits its result.
        void jobEnded(std::function<void()> announce) const {
            SessionOf* s = session_;
            gui_.post([s, announce = std::move(announce)] { s->applyJobEnded(announce); });
        }
        // A model file was opened (then announce(), e.g. modelReady), or could not be.
        void opened(Info info, std::function<void()> announce) const {
            SessionOf* s = session_;
            gui_.post([s, info = std::move(info), announce = std::move(announce)] {
                s->applyOpened([s, &info, &announce] {
                    s->info_ = info;
                    if (announce) announce();
                });
            });
        }
        void openFailed(const QString& message) const {
            SessionOf* s = session_;
            gui_.post([s, message] { s->applyOpenFailed(message); });
        }
        void saved(const QString& path) const {
            SessionOf* s = session_;
            gui_.post([s, path] { s->applySaved(path); });
        }
        void saveFailed(const QString& message) const {
            SessionOf* s = session_;
            gui_.post([s, message] { Q_EMIT s->saveFailed(message); });
        }
        void requestFailed(quint64 id, const QString& message) const {
            SessionOf* s = session_;
            gui_.post([s, id, message] { Q_EMIT s->requestFailed(id, message); });
        }
        // A probe's answer made for probe generation `generation`: announce() unless the probe was
        // replaced, or the model reset, since.
        void probed(quint64 generation, std::function<void()> announce) const {
            SessionOf* s = session_;
            gui_.post([s, generation, announce = std::move(announce)] {
                if (generation == s->probeGeneration()) announce();
            });
        }

    private:
        friend class SessionOf;
        Reporter(SessionOf* session, GuiChannel gui, std::shared_ptr<std::atomic<bool>> stop)
            : session_(session), gui_(std::move(gui)), stop_(std::move(stop)) {}
        SessionOf* session_ = nullptr;  // dereferenced on the GUI thread only
        GuiChannel gui_;
        std::shared_ptr<std::atomic<bool>> stop_;
    };

protected:
    using ModelSession::ModelSession;
    ~SessionOf() override { shutdown(5000); }

    // Starts the worker's thread `name`; make the worker with reporter().
    Reporter reporter() { return Reporter(this, worker_.gui(this), stopFlag()); }
    void startWorker(const QString& name, Worker* worker) { worker_.start(this, name, worker); }
    // Runs job(worker) on the worker's thread, after the jobs posted before; nothing after shutdown.
    void post(std::function<void(Worker&)> job) {
        worker_.post([job = std::move(job)](ModelWorker& w) { job(static_cast<Worker&>(w)); });
    }

    bool workerAvailable() const override { return !worker_.isShutDown(); }
    void queueOpen(const QString& path) override {
        worker_.post([path](ModelWorker& w) { w.open(path); });
    }
    void queueSave(const QString& path, int epochs) override {
        worker_.post([path, epochs](ModelWorker& w) { w.save(path, epochs); });
    }
    void queueReset() override {
        worker_.post([](ModelWorker& w) { w.reset(); });
    }
    bool endWorker(int timeoutMs) override { return worker_.shutdown(timeoutMs, *stopFlag()); }
    void clearModel() override { info_ = Info(); }

    Info info_;

private:
    WorkerThread<ModelWorker> worker_;
};

// The common part of a SessionOf session's worker. Session is the derived session (with a
// modelReady(const Info&) signal); the derived worker keeps the model and implements the hooks.
// Every member function runs on the worker's thread.
template <typename Session>
class SessionWorker : public ModelWorker {
public:
    using Info = std::decay_t<decltype(std::declval<const Session&>().model())>;
    static constexpr int kProbeEveryBatches = 4;

    SessionWorker(Session* session, typename Session::Reporter report)
        : session_(session), report_(std::move(report)) {}

    void open(const QString& path) final {
        try {
            Info info = openModel(path);
            info.source = path;
            report_.opened(std::move(info), announceModel());
        } catch (const std::exception& e) {
            report_.openFailed(messageOf(e));
        }
    }

    void save(const QString& path, int epochs) final {
        try {
            saveModel(path.toStdString(), {{"epochs_trained", std::to_string(epochs)}});
            report_.saved(path);
        } catch (const std::exception& e) {
            report_.saveFailed(messageOf(e));
        }
    }

    void reset() final {
        if (busy_) {  // called from inside a job's callback: after the job
            pendingReset_ = true;
            return;
        }
        pendingReset_ = false;
        dropModel();
    }

protected:
    // A training run: build() makes the trainer and returns its model's info (if it throws, the run
    // fails before it starts); run(afterBatch) trains, calling afterBatch after every batch (which
    // probes every few batches and serves the queued requests), and returns true if stopped.
    void train(const std::function<Info()>& build, const std::function<bool(const std::function<void()>&)>& run) {
        reset();
        Info info;
        try {
            info = build();
        } catch (const std::exception& e) {
            dropModel();
            report_.trainingEnded(messageOf(e), false);
            return;
        }
        report_.modelBuilt(std::move(info), announceModel());
        probeNow();
        int batches = 0;
        std::optional<QString> failure;
        bool stopped = false;
        busy_ = true;
        try {
            stopped = run([this, &batches] {
                if (++batches % kProbeEveryBatches == 0) probeNow();
                serveQueuedRequests();
            });
        } catch (const std::exception& e) {
            failure = messageOf(e);
        }
        busy_ = false;
        report_.trainingEnded(failure, stopped);
        if (pendingReset_) reset();
    }

    // Another job (begun with beginJob): a reset asked for during body() waits until it ends.
    template <typename F>
    void job(F body) {
        busy_ = true;
        body();
        busy_ = false;
        if (pendingReset_) reset();
    }

    // A request's answer: f() posts it (then requestAnswered(id)); if it throws, requestFailed(id, message).
    template <typename F>
    void answer(quint64 id, F f) {
        try {
            f();
            toSession([id](Session* s) { Q_EMIT s->requestAnswered(id); });
        } catch (const std::exception& e) {
            report_.requestFailed(id, messageOf(e));
        }
    }

    // A head study answering request `id`: measure(progress) runs here; its progress and its report
    // (about `data`) reach the session's headStudyProgress / headStudyMeasured, a failure requestFailed.
    template <typename Measure>
    void studyHeads(quint64 id, const QString& data, Measure measure) {
        answer(id, [&] {
            HeadStudyReport report = measure([this, id](int done, int total) {
                toSession([id, done, total](Session* s) { Q_EMIT s->headStudyProgress(id, done, total); });
            });
            toSession([id, report = std::move(report), data](Session* s) { Q_EMIT s->headStudyMeasured(id, report, data); });
        });
    }

    // f(session) on the GUI thread, to emit one of the session's own signals.
    template <typename F>
    void toSession(F f) const {
        report_.post(session_, std::move(f));
    }

    static QString messageOf(const std::exception& e) { return SettingNames::messageOf(e); }

    // Reads a model file, then reset()s and keeps it; returns its info. Throws if unreadable (the
    // model held before stays).
    virtual Info openModel(const QString& path) = 0;
    // Writes the model with these metadata entries; throws if there is none.
    virtual void saveModel(const std::string& path, const std::map<std::string, std::string>& extra) const = 0;
    virtual void dropModel() = 0;  // the trainer and any opened model
    virtual void probeNow() {}     // the probe, answered if there is a model

    Session* session_;  // only in what report_ posts to the GUI thread
    typename Session::Reporter report_;

private:
    std::function<void()> announceModel() const {
        Session* s = session_;
        return [s] { Q_EMIT s->modelReady(s->model()); };
    }

    bool busy_ = false;
    bool pendingReset_ = false;
};

}  // namespace attnlab
