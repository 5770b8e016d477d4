#pragma once
// The translation session's worker (a ModelWorker, session/ModelSession.h): owns the
// TranslationTrainer and the model on the session's thread. It trains one batch per event-loop
// iteration (each batch queues the next), so requests queued by the GUI (translate, pause, step,
// stop) are served between batches. It reports through the session's Reporter: each answer is
// posted to the GUI thread, where the session applies it and emits its signal. Every call runs on
// the worker's thread; nothing here is touched from the GUI thread except cancel(). No exception
// leaves a call: each becomes a failure report.
#include "task/translate/TranslationSession.h"
#include "task/translate/TranslationTypes.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace attnlab {

class Seq2SeqModel;
class TranslationTrainer;

class TranslationWorker : public ModelWorker {
    Q_OBJECT

public:
    TranslationWorker(TranslationSession* session, TranslationSession::Reporter report);
    ~TranslationWorker() override;

    // Builds the TranslationTrainer (tokenizing, vocabularies, model) and starts training unless paused.
    // `run` tags every signal of this run so that the controller can drop stale ones.
    void start(quint64 run, const TrainingRequest& request, bool paused);
    void pause();
    void resume();
    void step();  // one batch, then paused
    void stop();  // ends the run; the model stays for translation and saving
    void reset() override;  // drops the trainer and the model
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
    void measureHeads(quint64 request, const std::shared_ptr<const ParallelCorpus>& fallback, int limit);
    // The embedding projector: the encoder states of the sources of the validation pairs (or of
    // `fallback`), at most `limit` sentences, projected by PCA (projectEncoderStates).
    void projectStates(quint64 request, const std::shared_ptr<const ParallelCorpus>& fallback, int layer, int limit);
    void trace(quint64 request, const QString& sentence, const TraceRequest& options);
    // The attribution methods for one output token of the greedy translation (TranslationExplanation.h).
    void explainToken(quint64 request, const QString& sentence, int outputIndex);
    void setProbe(const ProbeSettings& probe);
    void saveModel(const QString& path);
    void loadModel(quint64 run, const QString& path);
    // ModelWorker's: open() loads under the current run's id (the session's own open passes a new one
    // to loadModel), save() is saveModel, reset() above.
    void open(const QString& path) override { loadModel(run_, path); }
    void save(const QString& path, int) override { saveModel(path); }

    // Thread-safe: no further batch is trained (used when the application closes).
    void cancel() { cancelled_.store(true); }

private:
    // f(session) on the GUI thread (dropped once the session has shut the worker down).
    template <typename F>
    void toSession(F f) const {
        report_.post(session_, std::move(f));
    }
    // handler(args...) on the session, on the GUI thread: one of its signals or its on*() handlers.
    template <typename Receiver, typename... Params, typename... Args>
    void send(void (Receiver::*handler)(Params...), Args&&... args) const {
        toSession([handler, values = std::make_tuple(std::decay_t<Args>(std::forward<Args>(args))...)](TranslationSession* s) {
            std::apply([s, handler](const auto&... a) { (s->*handler)(a...); }, values);
        });
    }
    const Seq2SeqModel* model() const;
    // What the heads and the projector measure on: the run's validation pairs, else `fallback`
    // (the loaded corpus, for a model opened from a file); null when neither has a pair.
    const ParallelCorpus* measuredCorpus(const std::shared_ptr<const ParallelCorpus>& fallback) const;
    void scheduleNext();
    void trainNext();
    void trainOne();
    void translateProbe();
    ModelSummary summarize() const;

    TranslationSession* session_;  // only in what report_ posts to the GUI thread
    TranslationSession::Reporter report_;
    std::unique_ptr<TranslationTrainer> trainer_;
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
