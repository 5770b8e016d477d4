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
#include "engine/ClassifierExperiments.h"
#include "engine/ClassifierTrainer.h"
#include "session/WorkerThread.h"
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

class ClassifierSession : public QObject {
    Q_OBJECT
public:
    explicit ClassifierSession(QObject* parent = nullptr);
    ~ClassifierSession() override;  // shutdown(5000) if not done yet

    bool isTraining() const { return training_; }
    bool isBusy() const { return training_ || experimenting_ || loading_; }
    bool isExperimenting() const { return experimenting_; }
    bool hasModel() const { return hasModel_; }
    bool isModified() const { return modified_; }  // trained since it was built, saved or opened
    const ClassifierModelInfo& model() const { return info_; }
    int completedEpochs() const { return completedEpochs_; }
    // The corpus of the current model's run (null for a model opened from a file).
    std::shared_ptr<const ClassificationCorpus> corpus() const { return corpus_; }

    // A new model trained on the request's corpus; refused (false) while a job runs.
    bool train(const ClassifierRequest& request);
    void stop();  // the run ends after its current batch, an experiment after its current text
    // Drops the model (after stopping whatever runs).
    void reset();
    bool open(const QString& path);  // refused while a job runs
    void save(const QString& path);
    // Answered by classified / explained, or requestFailed, carrying the returned id.
    quint64 classify(const QString& text);
    quint64 explain(const QString& text, int classIndex = -1);
    // Classified every few batches while training, and once after each epoch: probed().
    void setProbe(const QString& text);
    QString probe() const { return probe_; }
    // The validation-set figures on `corpus` (the run's own when null); refused while a job runs.
    bool runFaithfulness(const FaithfulnessOptions& options, std::shared_ptr<const ClassificationCorpus> corpus = {});
    // Stops the worker's job and waits at most timeoutMs for the thread.
    void shutdown(int timeoutMs);

Q_SIGNALS:
    void stateChanged();
    void modelReady(const attnlab::ClassifierModelInfo& info);  // built for a run, or opened
    void modelDiscarded();
    void epochFinished(const attnlab::ClassifierEpochMetrics& metrics);
    void trainingFinished(bool stopped);
    void trainingFailed(const QString& message);  // the model (if built) stays, with the last good weights
    void openFailed(const QString& message);
    void saved(const QString& path);
    void saveFailed(const QString& message);
    void classified(quint64 id, const attnlab::Classification& result);
    void explained(quint64 id, const attnlab::Explanation& result);
    void requestFailed(quint64 id, const QString& message);
    void probed(const attnlab::Classification& result);
    void faithfulnessProgress(int done, int total, const QString& message);
    void faithfulnessFinished(const attnlab::FaithfulnessResult& result, bool stopped);
    void faithfulnessFailed(const QString& message);

private:
    friend class ClassifierWorker;

    WorkerThread<ClassifierWorker> worker_;
    std::shared_ptr<std::atomic<bool>> stop_;
    bool training_ = false, experimenting_ = false, loading_ = false;
    bool hasModel_ = false, modified_ = false;
    int completedEpochs_ = 0;
    ClassifierModelInfo info_;
    std::shared_ptr<const ClassificationCorpus> corpus_;
    QString probe_;
    quint64 nextRequest_ = 0;
};

}  // namespace attnlab
