#pragma once
// Training a TextClassifier: Adam on cross-entropy (plus Lin et al.'s redundancy penalty
// when the config asks for it), length-bucketed batches, validation metrics every epoch.
// Torch-free header.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>

#include "base/ClassifyCorpus.h"
#include "base/Tokenizer.h"
#include "engine/TextClassifier.h"

namespace attnlab {

struct ClassifierTrainingOptions {
    int epochs = 10;
    int batchSize = 32;
    double learningRate = 2e-3;
    double clip = 1.0;  // gradient norm; 0 = off
    std::uint64_t seed = 1;
    int threads = 1;
    double validationFraction = 0.1;
    int minFrequency = 1;
    std::size_t maxVocabulary = 0;  // 0 = unlimited
    TokenizerOptions tokenizer;
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

class ClassifierTrainingDiverged : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class ClassifierTrainer {
public:
    // Tokenizes the corpus, builds the vocabulary from the training split, builds the model.
    // Throws ConfigError for invalid options or config, InputError if no text has a token.
    ClassifierTrainer(const ClassificationCorpus& corpus, ClassifierConfig config, ClassifierTrainingOptions options);
    ~ClassifierTrainer();

    enum class Outcome { Finished, Stopped };
    // Runs the remaining epochs, calling onEpoch after each; stops after the current batch
    // when *stop becomes true. Throws ClassifierTrainingDiverged on a non-finite loss.
    // afterBatch (if set) is called after every training batch, on the calling thread: the GUI's
    // worker answers classify and explain requests there while a run goes on.
    Outcome run(const std::function<void(const ClassifierEpochMetrics&)>& onEpoch,
                const std::atomic<bool>* stop = nullptr, const std::function<void()>& afterBatch = {});
    // Validation metrics of the model as it is.
    ClassifierEpochMetrics evaluate() const;

    TextClassifier& model();
    const TextClassifier& model() const;
    std::size_t trainingExamples() const;
    std::size_t validationExamples() const;
    int completedEpochs() const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace attnlab
