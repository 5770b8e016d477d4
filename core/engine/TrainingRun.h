#pragma once
// What every task's trainer shares (TranslationTrainer, ClassifierTrainer, ImageClassifierTrainer,
// CaptionerTrainer): the options of the training loop, how a run ends, and the exception for a
// run that diverged. Torch-free header.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

#include "base/Tokenizer.h"

namespace attnlab {

// The training loop's options, the same members in every task (the front ends read them with
// the same flags and controls). Each task's options derive from it and set their own defaults
// where they differ (docs/defaults.md, docs/classification.md, docs/vision.md).
struct TrainingRunOptions {
    int epochs = 10;
    int batchSize = 32;
    double learningRate = 1e-3;
    double clip = 1.0;  // max gradient norm; 0 = no clipping
    std::uint64_t seed = 1;
    int threads = 1;
    double validationFraction = 0.1;  // held out for validation (when no test set is given)
};

// A text task's run also builds its vocabulary from the training split (translation, classify).
struct TextTrainingRunOptions : TrainingRunOptions {
    int minFrequency = 1;
    std::size_t maxVocabulary = 0;  // 0 = unlimited
    TokenizerOptions tokenizer;
};

// How run() returned: every epoch done, or stopped (the stop flag) after a batch.
enum class TrainingOutcome { Finished, Stopped };

// A non-finite loss or gradient. The weights are those before the failing batch (1-based epoch
// and batch within it).
class TrainingDiverged : public std::runtime_error {
public:
    TrainingDiverged(int epoch, int batch, const std::string& what)
        : std::runtime_error("training diverged at epoch " + std::to_string(epoch) + ", batch " +
                             std::to_string(batch) + ": " + what + "; the last good weights are kept"),
          epoch_(epoch), batch_(batch) {}
    int epoch() const { return epoch_; }
    int batch() const { return batch_; }

private:
    int epoch_, batch_;
};

// What every task's trainer answers beside its own run() and evaluate() (TranslationTrainer,
// ClassifierTrainer, ImageClassifierTrainer, CaptionerTrainer, ForecastTrainer): its model, how many
// examples it trains and validates on, and the epochs done. The trainer's constructor calls
// setModel(); its run() (or, for translation, finishEpoch()) calls epochDone() after each epoch.
template <typename Metrics, typename Model>
class TaskTrainer {
public:
    using Outcome = TrainingOutcome;
    // Called after each epoch with its validation metrics.
    using EpochReport = std::function<void(const Metrics&)>;

    TaskTrainer(const TaskTrainer&) = delete;
    TaskTrainer& operator=(const TaskTrainer&) = delete;

    Model& model() { return *model_; }
    const Model& model() const { return *model_; }
    std::size_t trainingExamples() const { return trainingExamples_; }
    std::size_t validationExamples() const { return validationExamples_; }
    int completedEpochs() const { return completedEpochs_; }

protected:
    TaskTrainer() = default;
    ~TaskTrainer() = default;
    void setModel(Model* model, std::size_t trainingExamples, std::size_t validationExamples) {
        model_ = model;
        trainingExamples_ = trainingExamples;
        validationExamples_ = validationExamples;
    }
    void epochDone(int completed) { completedEpochs_ = completed; }

private:
    Model* model_ = nullptr;  // owned by the trainer's Impl
    std::size_t trainingExamples_ = 0, validationExamples_ = 0;
    int completedEpochs_ = 0;
};

}  // namespace attnlab
