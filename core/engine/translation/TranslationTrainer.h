#pragma once
// Trains a Seq2SeqModel on a corpus, one batch at a time so that a caller (the GUI
// worker, the CLI) can pause, step, stop and translate between batches.
#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>

#include "Seq2SeqModel.h"
#include "base/translation/ParallelCorpus.h"
#include "engine/TrainingRun.h"

namespace attnlab {

// The loop's options (epochs, batchSize, learningRate 1e-3, clip, seed, threads,
// validationFraction) and the vocabulary's (minFrequency, maxVocabulary, tokenizer) are
// TrainingRun.h's, as for every task.
struct TranslationTrainingOptions : TextTrainingRunOptions {
    double teacherForcing = 1.0;  // probability of feeding the gold token (GRU)
    // Attention losses added to the cross-entropy (0 = off; docs/teaching-lab.md, "Coverage and
    // guided alignment"). coveragePenalty: the doubly stochastic regularisation of Xu et al. (2015,
    // eq. 14), lambda * sum over source tokens j of (tau - sum over target steps i of a_ij)^2 per
    // sentence, tau = target length / source length (1 when they match; </s> counted in both),
    // averaged over the batch's sentences; on the cross-attention (a Transformer's last layer,
    // heads averaged). guidedAlignment: Garg et al. (2019), lambda * the cross-entropy between each
    // target token's gold links (sure and possible, normalised to sum to 1) and its attention
    // row, averaged over the batch's target tokens that have links; on one cross-attention head
    // of a Transformer (alignmentLayer, alignmentHead; 0-based, -1 = the last layer), the GRU's
    // one map. Needs pairs with gold links (--alignments, or a built-in dataset).
    double coveragePenalty = 0.0;
    double guidedAlignment = 0.0;
    int alignmentLayer = -1;
    int alignmentHead = 0;
    // Testing aid: makes the loss of this (global, 1-based) batch NaN. 0 = off.
    std::int64_t injectNonFiniteAtBatch = 0;
};

struct BatchReport {
    int epoch = 0;             // 1-based epoch this batch belongs to
    int batch = 0;             // 1-based batch within the epoch
    int batchesPerEpoch = 0;
    double loss = 0.0;         // mean token loss of the batch
    std::int64_t pairs = 0;    // pairs in the batch
};

struct TranslationEpochMetrics {
    int epoch = 0;
    double trainLoss = 0.0;
    double validationLoss = 0.0;
    double tokenAccuracy = 0.0;    // greedy output vs reference, position by position (incl. </s>)
    double exactMatch = 0.0;
    double bleu = 0.0;             // corpus BLEU-4, 0..100
    double attentionEntropy = std::numeric_limits<double>::quiet_NaN();   // nats, cross-attention rows
    // The share of source words (</s> not counted) whose cross-attention, summed over the target
    // steps (</s> included), is below 0.1: the coverage diagnostic's "never attended", over the
    // validation set (last layer, heads averaged).
    double uncoveredShare = std::numeric_limits<double>::quiet_NaN();
    // When the validation pairs have gold links (Alignments.h, Och & Ney over the whole validation
    // set): the argmax of each cross-attention row (last layer, heads averaged) as the predicted link.
    double alignmentErrorRate = std::numeric_limits<double>::quiet_NaN();
    double alignmentPrecision = std::numeric_limits<double>::quiet_NaN();
    double alignmentRecall = std::numeric_limits<double>::quiet_NaN();
    double pairsPerSecond = 0.0;   // training throughput of the epoch
    double seconds = 0.0;          // wall time of the epoch, evaluation included
};

// The translation task's trainer: a TaskTrainer (model(), trainingExamples() and validationExamples()
// in pairs, completedEpochs()) that also trains batch by batch (trainBatch / finishEpoch), which the
// window's pause and step use.
class TranslationTrainer : public TaskTrainer<TranslationEpochMetrics, Seq2SeqModel> {
public:
    // Tokenizes the corpus, builds vocabularies, splits train/validation and builds the
    // model. Throws ConfigError for invalid options or a configuration whose estimated
    // memory exceeds what the machine has, InputError if no pair fits the model.
    TranslationTrainer(const ParallelCorpus& corpus, ModelConfig config, TranslationTrainingOptions options);
    ~TranslationTrainer();

    const TranslationTrainingOptions& options() const;

    // Trains the next batch. Throws TrainingDiverged (weights untouched).
    BatchReport trainBatch();
    bool epochComplete() const;  // every batch of the current epoch is done
    bool finished() const;       // all epochs done
    // Evaluates on the validation set, records the epoch and starts the next one.
    TranslationEpochMetrics finishEpoch();
    // Validation metrics of the current weights (no side effects on training).
    TranslationEpochMetrics evaluate();

    int batchesPerEpoch() const;
    // The validation pairs as the corpus wrote them (gold links included), e.g. to measure the
    // heads on (HeadImportance.h); empty when validationFraction is 0.
    const ParallelCorpus& validationCorpus() const;
    std::size_t skippedTooLong() const;  // pairs longer than the model's maximum length
    std::int64_t estimatedBytes() const;
    // Parts each batch is split into, trained on as many threads (--threads, or 1 where
    // a model's random draws cannot be split).
    int partsPerBatch() const;

    // Runs until all epochs are done or *stop becomes true (checked after every batch).
    using Outcome = TrainingOutcome;
    Outcome run(const std::function<void(const BatchReport&)>& onBatch,
                const std::function<void(const TranslationEpochMetrics&)>& onEpoch, const std::atomic<bool>* stop = nullptr);

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace attnlab
