#pragma once
// Owns the Trainer and the model on a worker thread. It trains one batch per event-loop iteration
// (each batch queues the next), so requests queued by the GUI — translate, pause, step, stop — are
// served between batches. Every call runs on the worker's thread; nothing here is touched from the
// GUI thread except cancel(). No exception leaves a call: each becomes a failure signal.
#include "task/translate/TrainingTypes.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <vector>

namespace attnlab {

class Seq2SeqModel;
class Trainer;

class TrainingWorker : public QObject {
    Q_OBJECT

public:
    explicit TrainingWorker(QObject* parent = nullptr);
    ~TrainingWorker() override;

    // Builds the Trainer (tokenizing, vocabularies, model) and starts training unless paused.
    // `run` tags every signal of this run so that the controller can drop stale ones.
    void start(quint64 run, const TrainingRequest& request, bool paused);
    void pause();
    void resume();
    void step();  // one batch, then paused
    void stop();  // ends the run; the model stays for translation and saving
    void reset(); // drops the trainer and the model
    void translate(quint64 request, const QString& sentence, int beam);
    // The source given as tokens (token edits: DecodeOptions::sourceWords); answered by translated.
    void translateWords(quint64 request, const QStringList& words, int beam);
    // The decoding lab: the sentence decoded with these options (sampling, a recorded beam tree, the
    // key/value cache); answered by translated or translationFailed.
    void decode(quint64 request, const QString& sentence, const DecodeOptions& options);
    // The translation with the heads in `off` switched off beside the model's own
    // (translateWithAblation, engine/translation/HeadImportance.h); fails like translate.
    void translateAblated(quint64 request, const QString& sentence, int beam, const std::vector<HeadId>& off);
    // Every head of a Transformer measured (measureHeadImportance): on the run's validation pairs,
    // or on `fallback` (the loaded corpus) for a model opened from a file or a run without them;
    // at most `limit` pairs (0 = all). Blocks the worker while it runs (training waits).
    void measureHeads(quint64 request, const std::shared_ptr<const Corpus>& fallback, int limit);
    // The embedding projector: the encoder states of the sources of the validation pairs (or of
    // `fallback`), at most `limit` sentences, projected by PCA (projectEncoderStates).
    void projectStates(quint64 request, const std::shared_ptr<const Corpus>& fallback, int layer, int limit);
    void trace(quint64 request, const QString& sentence, const TraceRequest& options);
    // The attribution methods for one output token of the greedy translation (TranslationExplanation.h).
    void explainToken(quint64 request, const QString& sentence, int outputIndex);
    void setProbe(const ProbeSettings& probe);
    void saveModel(const QString& path);
    void loadModel(quint64 run, const QString& path);

    // Thread-safe: no further batch is trained (used when the application closes).
    void cancel() { cancelled_.store(true); }

Q_SIGNALS:
    void prepared(quint64 run, attnlab::ModelSummary summary);
    void batchTrained(quint64 run, attnlab::BatchReport report);
    void epochFinished(quint64 run, attnlab::EpochMetrics metrics);
    void probeTranslated(quint64 run, attnlab::ProbeResult result);
    void trainingFinished(quint64 run, bool stopped);
    void trainingDiverged(quint64 run, int epoch, int batch, QString message);
    void trainingFailed(quint64 run, QString message);
    void translated(quint64 request, attnlab::Translation translation);
    void ablationTranslated(quint64 request, attnlab::AblatedTranslation result);
    void headsProgress(quint64 request, int done, int total);
    void headsMeasured(quint64 request, attnlab::HeadImportanceReport report, QString corpus);
    void headsFailed(quint64 request, QString message);
    void statesProjected(quint64 request, attnlab::StateProjection projection, QString corpus);
    void projectionFailed(quint64 request, QString message);
    void tokenExplained(quint64 request, attnlab::OutputTokenExplanation explanation);
    void explainFailed(quint64 request, QString message);
    void translationFailed(quint64 request, QString message);
    void traced(quint64 request, attnlab::AttentionTrace trace);
    void traceFailed(quint64 request, QString message);
    void modelSaved(QString path);
    void saveFailed(QString message);
    void modelLoaded(quint64 run, attnlab::ModelSummary summary);
    void loadFailed(QString message);

private:
    const Seq2SeqModel* model() const;
    // What the heads and the projector measure on: the run's validation pairs, else `fallback`
    // (the loaded corpus, for a model opened from a file); null when neither has a pair.
    const Corpus* measuredCorpus(const std::shared_ptr<const Corpus>& fallback) const;
    void scheduleNext();
    void trainNext();
    void trainOne();
    void translateProbe();
    ModelSummary summarize() const;

    std::unique_ptr<Trainer> trainer_;
    std::unique_ptr<Seq2SeqModel> loaded_;  // a model opened from a file (no trainer)
    QString origin_;
    quint64 run_ = 0;
    bool running_ = false;
    bool scheduled_ = false;  // a trainNext() is queued
    std::int64_t batches_ = 0;
    ProbeSettings probe_;
    std::atomic<bool> cancelled_{false};
};

}  // namespace attnlab
