#pragma once
// Training a language model: Adam over batches of documents (each <bos> + up to context - 1 tokens
// predicting the next, or, for the masked objective, 15% of the tokens hidden and predicted), with a
// linear warm-up, reporting every `evaluateEvery` steps the held-out loss and the circuits (every
// head's previous-token, duplicate-token and induction scores on repeated random sequences, the
// copy accuracy and the in-context-learning score): the induction head forms between two reports,
// at the bump in the loss. Torch-free header.
#include <atomic>
#include <functional>
#include <memory>

#include "base/lm/LmText.h"
#include "engine/TrainingRun.h"
#include "engine/lm/LmModel.h"

namespace attnlab {

// The defaults are the ones measured for the induction set (docs/lm.md): Adam 3e-3 with a 200-step
// warm-up, batch 32, 3,000 steps, no clipping.
struct LmTrainingOptions : TrainingRunOptions {
    int steps = 3000;          // updates in all (the run's length; epochs follow from it)
    int warmup = 200;          // steps of linear warm-up from 0 to the learning rate
    int evaluateEvery = 250;   // steps between two reports (and the last step)
    int probes = 16;           // repeated random sequences the circuits are measured on
    LmTrainingOptions() {
        learningRate = 3e-3;
        batchSize = 32;
        clip = 0;
        epochs = 0;  // unused: the run is `steps` long
    }
};

struct LmStepMetrics {
    int step = 0;
    int epoch = 0;               // passes over the training documents begun
    double trainLoss = 0;        // mean over the steps since the last report
    double validationLoss = 0;   // per predicted token on the held-out documents
    LmCircuitScores circuits;    // on the probes
    double tokensPerSecond = 0;  // training tokens since the last report
    double seconds = 0;          // since the start
};

class LmTrainer : public TaskTrainer<LmStepMetrics, LmModel> {
public:
    // Holds out options.validationFraction of the documents (a seeded shuffle; at least one), builds
    // the model from the corpus's tokenizer. Throws ConfigError for invalid options or config,
    // InputError (naming the corpus) for a corpus with fewer than two documents.
    LmTrainer(const LmCorpus& corpus, LmConfig config, LmTrainingOptions options);
    ~LmTrainer();

    Outcome run(const EpochReport& onReport, const std::atomic<bool>* stop = nullptr,
                const std::function<void()>& afterBatch = {});
    LmStepMetrics evaluate() const;
    int completedSteps() const;
    // The documents held out (the held-out loss and the head study's text).
    const std::vector<std::vector<int>>& heldOutDocuments() const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace attnlab
