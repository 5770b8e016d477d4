#pragma once
// The language model and its training, on a worker thread of its own ("attnlab-lm"). The GUI thread
// asks through this object and never waits: the worker owns the LmTrainer (or an LmModel opened from
// a file) and answers with value types (LmStepMetrics, LmReading, LmGeneration, HeadStudyReport)
// emitted on the GUI thread. While a run trains, the worker answers the requests between batches
// (Generate, the Heads view's text, the Circuits view's repeated sequence work while it learns) and
// every few batches reads the probe text, so the Heads view shows the attention forming.
//
// One job at a time: a run, an open or a save. Train and open are refused while a job runs; a reset
// during a run takes effect when the run has stopped.
#include "base/lm/LmText.h"
#include "engine/lm/LmTrainer.h"
#include "session/ModelSession.h"
#include <QObject>
#include <QString>
#include <memory>
#include <vector>

namespace attnlab {

class LmWorker;

struct LmRequest {
    std::shared_ptr<const LmCorpus> corpus;
    LmConfig config;
    LmTrainingOptions options;
};

// What the window and the views show of the model.
struct LmModelInfo {
    LmConfig config;
    std::int64_t parameters = 0;
    std::size_t trainingDocuments = 0, validationDocuments = 0;  // 0 for a model opened from a file
    int stepsPlanned = 0;
    QString tokens;  // the tokenizer's kind: "chars", "words", "bpe"
    QString source;  // the data's name, or the file opened
};

using LmSessionBase = SessionOf<LmWorker, LmModelInfo>;

class LmSession : public LmSessionBase {
    Q_OBJECT
public:
    explicit LmSession(QObject* parent = nullptr);

    bool train(const LmRequest& request);  // refused (false) while a job runs
    // The model's reading of `text` (cut to the context): attended, or requestFailed, with the id.
    quint64 attend(const QString& text);
    // A continuation of `prompt`: generated, or requestFailed.
    quint64 generate(const QString& prompt, const LmGenerateOptions& options);
    // The model's reading of a repeated random sequence of its own vocabulary (the circuits' probe,
    // lmRepeatedSequence of half the context, from `seed`): repeatRead, or requestFailed.
    quint64 readRepeat(std::uint64_t seed);
    // Every head's scores on repeated random sequences, the copy accuracy and the in-context-learning
    // score (LmModel::circuits, as the run reports them): detected, or requestFailed.
    quint64 detect();
    // Every head switched off in turn over held-out documents (the run's held-out ones; for a model
    // opened from a file, `corpus`'s documents read with the model's tokenizer), `limit` at most (0:
    // all): headStudyProgress, then headStudyMeasured or requestFailed.
    quint64 measureHeads(std::shared_ptr<const LmCorpus> corpus, int limit);
    // Read every few batches while training and after each report: probed. Empty: no probe.
    void setProbe(const QString& text);

Q_SIGNALS:
    void modelReady(const attnlab::LmModelInfo& info);  // built for a run, or opened
    void reported(const attnlab::LmStepMetrics& metrics);
    void attended(quint64 id, const attnlab::LmReading& reading);
    void generated(quint64 id, const attnlab::LmGenerated& answer);
    void repeatRead(quint64 id, const attnlab::LmReading& reading);
    void detected(quint64 id, const attnlab::LmCircuitScores& scores);
    void probed(const attnlab::LmReading& reading);
};

}  // namespace attnlab
