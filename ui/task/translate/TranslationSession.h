#pragma once
// The translation task's model session: the GUI thread's handle on training. A SessionOf
// (session/ModelSession.h) whose worker thread ("attnlab-training") holds the TranslationWorker; it
// queues requests to it, and the worker reports back through the session's Reporter (each report
// posted to the GUI thread), as every task's worker does. Its own state: Idle (no run), Running,
// Paused, Finished (the run ended; its model stays). ModelSession's run state follows: Running is
// Training, Paused is Paused, Idle and Finished are Idle. Never blocks on the worker, except
// shutdown(), which waits a bounded time. Reports of a run that was reset or superseded are dropped
// by run id. model() (and summary()) is the ModelSummary of the model it has.
//
// Besides its own signals it emits ModelSession's: requestAnswered and requestFailed with each
// request's answer (translated, traced, ...) or failure (translationFailed, ...), stateChanged() with stateChanged(State),
// trainingFinished with finished, trainingFailed with failed and diverged, saved with modelSaved,
// openFailed with loadFailed, modelDiscarded on a reset that dropped a model; open() and save() are
// loadModel() and saveModel().
#include "session/ModelSession.h"
#include "task/translate/TranslationTypes.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

namespace attnlab {

class TranslationWorker;

class TranslationSession : public SessionOf<TranslationWorker, ModelSummary> {
    Q_OBJECT

public:
    enum class State { Idle, Running, Paused, Finished };
    Q_ENUM(State)

    explicit TranslationSession(QObject* parent = nullptr);
    ~TranslationSession() override;

    State state() const { return state_; }
    bool isActive() const { return state_ == State::Running || state_ == State::Paused; }
    bool isPreparing() const { return preparing_; }  // the worker is building the trainer and model
    // hasModel(), isModified() (trained since the last save or load), completedEpochs(): ModelSession.
    const ModelSummary& summary() const { return info_; }
    std::int64_t batchesTrained() const { return batchesTrained_; }
    double progress() const;    // 0..1 of the planned epochs
    double etaSeconds() const;  // < 0 while unknown

    // Starts a new run (Idle or Finished only); with paused, the model is built and waits for step()
    // or resume().
    void start(const TrainingRequest& request, bool paused = false);
    void pause();
    void resume();
    void step();
    void stop() override;
    void reset() override;
    // Queued to the worker and answered between batches; returns the request id that
    // translated/translationFailed carry.
    quint64 translate(const QString& sentence, int beam = 1);
    // The source given as tokens (the Translate view's token edits); answered like translate().
    quint64 translateWords(const QStringList& words, int beam = 1);
    // The decoding lab's request: any DecodeOptions (sampling, recordBeam, captureCache); answered
    // like translate().
    quint64 decode(const QString& sentence, const DecodeOptions& options);
    // The sentence translated with the heads in `off` switched off, beside the model's own
    // (Transformers only); answered by ablationTranslated or translationFailed with the returned id.
    quint64 translateAblated(const QString& sentence, int beam, const std::vector<HeadId>& off);
    // Every head measured over the run's validation pairs (or `fallback`, the loaded corpus, for a
    // model opened from a file): headsProgress while it runs, then headsMeasured or headsFailed.
    quint64 measureHeads(std::shared_ptr<const ParallelCorpus> fallback, int limit);
    // The embedding projector's points (statesProjected or projectionFailed).
    quint64 projectStates(std::shared_ptr<const ParallelCorpus> fallback, int layer, int limit);
    // The step-by-step numbers of one attention row of the sentence's translation; queued and
    // answered like translate(), with traced/traceFailed carrying the returned id.
    quint64 trace(const QString& sentence, const TraceRequest& request);
    // Output token `outputIndex` of the greedy translation explained over the source (the
    // attribution methods beside its cross-attention row); answered by tokenExplained/explainFailed.
    quint64 explainToken(const QString& sentence, int outputIndex);
    // everyBatches 0: after every epoch.
    void setProbe(const QString& sentence, int everyBatches, int beam = 1);
    void saveModel(const QString& path);
    void loadModel(const QString& path);
    bool open(const QString& path) override;  // loadModel; refused (false) while a run is active
    void save(const QString& path) override { saveModel(path); }

    // Stops the worker and ends its thread, waiting at most timeoutMs. Returns false if the worker
    // did not finish in time; its thread is then abandoned (see hasAbandonedThreads()).
    bool shutdown(int timeoutMs = 5000) override;
    // True once a worker thread was left running: the process should then end with _Exit, since
    // running static destructors under a busy LibTorch thread is not safe.
    static bool hasAbandonedThreads();
    // For other workers that gave up waiting for their thread (finishThread in BackgroundJob.h).
    static void noteAbandonedThread();

Q_SIGNALS:
    void stateChanged(attnlab::TranslationSession::State state);
    void prepared(attnlab::ModelSummary summary);
    void batchTrained(attnlab::BatchReport report);
    void epochFinished(attnlab::TranslationEpochMetrics metrics);
    void probeUpdated(attnlab::ProbeResult result);
    void finished(bool stopped);
    void diverged(int epoch, int batch, QString message);
    void failed(QString message);
    void translated(quint64 request, attnlab::Translation translation);
    void ablationTranslated(quint64 request, attnlab::AblatedTranslation result);
    void headsProgress(quint64 request, int done, int total);
    void headsMeasured(quint64 request, attnlab::HeadImportanceReport report, QString corpus);
    void headsFailed(quint64 request, QString message);
    void statesProjected(quint64 request, attnlab::StateProjection projection, QString corpus);
    void projectionFailed(quint64 request, QString message);
    void translationFailed(quint64 request, QString message);
    void traced(quint64 request, attnlab::AttentionTrace trace);
    void tokenExplained(quint64 request, attnlab::OutputTokenExplanation explanation);
    void explainFailed(quint64 request, QString message);
    void traceFailed(quint64 request, QString message);
    void modelSaved(QString path);
    // saveFailed(message) and modifiedChanged(modified): ModelSession's.
    void modelLoaded(attnlab::ModelSummary summary);
    void loadFailed(QString message);
    void progressChanged(double fraction, double etaSeconds);

private:
    friend class TranslationWorker;  // its reports call the on*() handlers below, on the GUI thread

    void setState(State state);
    void startClock();
    void stopClock();
    bool current(quint64 run) const { return run == run_; }

    void onPrepared(quint64 run, const ModelSummary& summary);
    void onBatchTrained(quint64 run, const BatchReport& report);
    void onEpochFinished(quint64 run, const TranslationEpochMetrics& metrics);
    void onProbe(quint64 run, const ProbeResult& result);
    void onFinished(quint64 run, bool stopped);
    void onDiverged(quint64 run, int epoch, int batch, const QString& message);
    void onFailed(quint64 run, const QString& message);
    void onLoaded(quint64 run, const ModelSummary& summary);
    void onLoadFailed(const QString& message);
    void onSaved(const QString& path);

    // ModelSession's hooks, in place of SessionOf's: the worker's calls carry the run id.
    bool workerAvailable() const override { return worker_ != nullptr; }
    void queueOpen(const QString& path) override;
    void queueSave(const QString& path, int epochs) override;
    void queueReset() override;
    bool endWorker(int timeoutMs) override;

    TranslationWorker* worker_ = nullptr;  // on the worker's thread (only cancel() is called here); null once shut down
    State state_ = State::Idle;
    bool preparing_ = false;
    quint64 run_ = 0;
    quint64 previousRun_ = 0;     // restored when a start fails and the old model stays
    State previousState_ = State::Idle;
    quint64 lastRunId_ = 0;
    ModelSummary previousSummary_;
    int epochBatch_ = 0;          // batches done in the current epoch
    std::int64_t batchesTrained_ = 0;
    QElapsedTimer clock_;         // runs while state is Running
    qint64 elapsedMs_ = 0;        // accumulated running time
};

}  // namespace attnlab
