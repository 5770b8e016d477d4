#pragma once
// The text-classification task's model and its training, on a worker thread of its own
// ("attnlab-classifier"). The GUI thread asks through this object and never waits: the worker owns
// the ClassifierTrainer (or a TextClassifier opened from a file) and answers with value types posted
// back to this object, which re-emits them on the GUI thread (so the signals' types need no
// registration). While a run trains, the worker answers classify and explain requests between
// batches (ClassifierTrainer::run's afterBatch), and every few batches classifies the probe text,
// so the Classify view shows the attention forming.
//
// One job at a time on the worker: a training run, a faithfulness experiment, a load or a save.
// Requests that need the model (classify, explain) are answered between batches of a run and
// between texts of an experiment; the ones that would replace the model are refused while a job
// runs (the window disables them).
#include "engine/text/ClassifierExperiments.h"
#include "engine/text/ClassifierTrainer.h"
#include "session/ModelSession.h"
#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>

namespace attnlab {

class ClassifierWorker;

struct ClassifierRequest {
    std::shared_ptr<const ClassificationCorpus> corpus;
    ClassifierConfig config;
    ClassifierTrainingOptions options;
};

// What the window and the views show of the model.
struct ClassifierModelInfo {
    ClassifierConfig config;
    QStringList labels;
    std::int64_t parameters = 0;
    std::size_t trainingTexts = 0, validationTexts = 0;  // 0 for a model opened from a file
    int epochsPlanned = 0;
    QString source;  // the corpus name, or the file opened
};

class ClassifierSession;
using ClassifierSessionBase = SessionOf<ClassifierWorker, ClassifierModelInfo>;

class ClassifierSession : public ClassifierSessionBase {
    Q_OBJECT
public:
    explicit ClassifierSession(QObject* parent = nullptr);
    // The destructor shuts the worker down (SessionOf: shutdown(5000)) if not done yet.

    // The faithfulness experiment is this session's other job (ModelSession::beginJob).
    bool isExperimenting() const { return isRunningJob(); }
    // The corpus of the current model's run (null for a model opened from a file).
    std::shared_ptr<const ClassificationCorpus> corpus() const { return corpus_; }

    // A new model trained on the request's corpus; refused (false) while a job runs.
    bool train(const ClassifierRequest& request);
    // stop(): the run ends after its current batch, an experiment after its current text.
    // reset(), open(path), save(path), shutdown(timeoutMs): ModelSession.
    // Answered by classified / explained, or requestFailed, carrying the returned id.
    // With `off` switched off (a Transformer's heads; engine/HeadStudy.h classifyAblated).
    quint64 classify(const QString& text, const std::vector<HeadId>& off = {});
    quint64 explain(const QString& text, int classIndex = -1);
    // Classified every few batches while training, and once after each epoch: probed().
    void setProbe(const QString& text);
    QString probe() const { return probe_; }
    // Every head of a Transformer classifier switched off in turn and ranked (engine/HeadStudy.h) on
    // the run's validation texts (the trainer's own split), or on `corpus` for a model opened from a
    // file: headStudyProgress, then headStudyMeasured or requestFailed, carrying the returned id.
    // Answered between batches while a run trains. `limit` texts at most (0: all).
    quint64 measureHeads(int limit, std::shared_ptr<const ClassificationCorpus> corpus = {});
    // The validation-set figures on `corpus` (the run's own when null); refused while a job runs.
    bool runFaithfulness(const FaithfulnessOptions& options, std::shared_ptr<const ClassificationCorpus> corpus = {});

Q_SIGNALS:
    void modelReady(const attnlab::ClassifierModelInfo& info);  // built for a run, or opened
    void epochFinished(const attnlab::ClassifierEpochMetrics& metrics);
    void classified(quint64 id, const attnlab::Classification& result);
    void explained(quint64 id, const attnlab::Explanation& result);
    void probed(const attnlab::Classification& result);
    void faithfulnessProgress(int done, int total, const QString& message);
    void faithfulnessFinished(const attnlab::FaithfulnessResult& result, bool stopped);
    void faithfulnessFailed(const QString& message);

private:
    void clearModel() override;
    void modelOpened() override { corpus_.reset(); }

    std::shared_ptr<const ClassificationCorpus> corpus_;
    double validationFraction_ = 0.1;  // the run's split
    std::uint64_t splitSeed_ = 1;
    QString probe_;
};

}  // namespace attnlab
