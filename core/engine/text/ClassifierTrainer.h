#pragma once
// Training a TextClassifier: Adam on cross-entropy (plus Lin et al.'s redundancy penalty
// when the config asks for it), length-bucketed batches, validation metrics every epoch.
// Torch-free header.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

#include "base/text/ClassifyCorpus.h"
#include "base/Tokenizer.h"
#include "engine/TrainingRun.h"
#include "engine/text/TextClassifier.h"

namespace attnlab {

// TrainingRun.h's options (loop and vocabulary); a classifier learns at 2e-3 (docs/classification.md).
struct ClassifierTrainingOptions : TextTrainingRunOptions {
    ClassifierTrainingOptions() { learningRate = 2e-3; }
};

struct ClassifierEpochMetrics {
    int epoch = 0;
    double trainLoss = 0;
    double validationLoss = 0;
    double accuracy = 0;            // validation
    double macroF1 = 0;             // validation
    double attentionEntropy = 0;    // mean over validation texts of the hop-mean pooling's entropy (nats); NaN without attention
    double uniformEntropy = 0;      // the same for uniform weights (mean ln n), for scale
    double rationaleMass = 0;       // mean attention on the gold rationale words; NaN without rationales or attention
    double uniformRationaleMass = 0;  // what uniform weights would put there
    double pairsPerSecond = 0;      // training texts per second
    double seconds = 0;             // the epoch's wall time
};

class ClassifierTrainer : public TaskTrainer<ClassifierEpochMetrics, TextClassifier> {
public:
    // Tokenizes the corpus, builds the vocabulary from the training split, builds the model.
    // Throws ConfigError for invalid options or config, InputError if no text has a token.
    ClassifierTrainer(const ClassificationCorpus& corpus, ClassifierConfig config, ClassifierTrainingOptions options);
    ~ClassifierTrainer();

    // Runs the remaining epochs, calling onEpoch after each; stops after the current batch
    // when *stop becomes true. Throws TrainingDiverged on a non-finite loss.
    // afterBatch (if set) is called after every training batch, on the calling thread: the GUI's
    // worker answers classify and explain requests there while a run goes on.
    Outcome run(const EpochReport& onEpoch, const std::atomic<bool>* stop = nullptr,
                const std::function<void()>& afterBatch = {});
    // Validation metrics of the model as it is.
    ClassifierEpochMetrics evaluate() const;
    // model(), trainingExamples(), validationExamples(), completedEpochs(): TaskTrainer.

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace attnlab
