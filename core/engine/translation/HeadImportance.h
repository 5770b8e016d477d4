#pragma once
// What the translation Transformer's heads do, measured: the translation with heads switched off
// (ablation), each head's importance over a corpus (Michel, Levy & Neubig 2019, "Are Sixteen Heads
// Really Better than One?"), the pruning curve, and the attention rollout of the encoder (Abnar &
// Zuidema 2020). Torch-free: the CLI's `translate --ablate` and `heads` and any view use these.
//
// A head's output is weights·V; ablation multiplies it by a gate xi_h = 0 before the layer's
// output projection (MultiHeadAttention::setHeadGate). The gradient importance of a head is
//   I_h = sum over sentences x of | dL(x) / d xi_h |  at every xi = 1,
// L(x) the sentence's summed token cross-entropy (teacher forced, </s> included), which equals
// Michel et al.'s |Att_h(x)ᵀ dL/dAtt_h(x)| summed; then normalised within each attention layer (a
// kind and a layer) by the l2 norm of that layer's I (their section 4.2), so each layer's
// importances have norm 1. Every number here is >= 0.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "Seq2SeqModel.h"
#include "engine/HeadStudy.h"  // PruningPoint, HeadStudyOptions, normalisePerLayer: the same study for every task
#include "base/AttentionMap.h"
#include "base/translation/ParallelCorpus.h"
#include "base/translation/HeadAblation.h"

namespace attnlab {

// A model's figures on a corpus: mean token cross-entropy (teacher forced, </s> included, as the
// trainer's val_loss), corpus BLEU-4 of the greedy translations (0..100, base/analysis/Metrics.h) and the
// share of greedy translations equal to the reference.
struct AblationScore {
    double loss = 0.0;
    double bleu = 0.0;
    double exact = 0.0;
};

struct HeadEffect {
    HeadId head;
    double loss = 0.0;          // with this head alone off
    double bleu = 0.0;
    double exact = 0.0;
    double deltaLoss = 0.0;     // loss - baseline loss (> 0: the head helped)
    double deltaMetric = 0.0;   // bleu - baseline bleu (< 0: the head helped)
    double gradient = 0.0;      // I_h before the per-layer normalisation
    double importance = 0.0;    // I_h / ||I of its layer||_2 (0 when the whole layer's I is 0)
};

// The pruning curves' metric is BLEU; limit counts usable pairs.
using HeadImportanceOptions = HeadStudyOptions;

struct HeadImportanceReport {
    AblationScore baseline;
    std::vector<HeadEffect> heads;            // allHeads order: encoder, decoder, cross; layer; head
    std::vector<PruningPoint> pruningCurve;   // heads removed in order of ascending importance, 0..all
    std::vector<PruningPoint> randomCurve;    // the same for random orders
    std::vector<HeadId> pruningOrder;         // the order pruningCurve removes them in
    std::size_t pairs = 0;                    // pairs measured
    std::size_t skipped = 0;                  // pairs with an empty side or longer than the model's maximum
    HeadStudyReport study;                    // the same figures in the form every task's study has (metric "BLEU")
};

// Throws ConfigError("heads needs a Transformer model ...") for a GRU, InputError(corpus.name)
// when no pair is usable. `progress` (may be empty) is told (done, total) evaluations.
HeadImportanceReport measureHeadImportance(const Seq2SeqModel& model, const ParallelCorpus& corpus,
                                           const HeadImportanceOptions& options = {},
                                           const std::function<void(int, int)>& progress = {});

// The figures with `off` switched off (empty = the plain model). Same errors as above (a GRU is
// accepted when `off` is empty).
AblationScore scoreWithAblation(const Seq2SeqModel& model, const ParallelCorpus& corpus, const std::vector<HeadId>& off,
                                std::size_t limit = 0);

// I_h before normalisation, in allHeads order (see the top of this file).
std::vector<double> headGateGradients(const Seq2SeqModel& model, const ParallelCorpus& corpus, std::size_t limit = 0);

// log p(output + </s> | sentence) under the model with `off` switched off (teacher forced, float
// sums as beam search makes them): the score the model gives a fixed translation. The sentence is
// truncated as translate truncates it; output tokens the model does not know count as <unk>.
double forcedLogProbability(const Seq2SeqModel& model, const std::string& sentence,
                            const std::vector<std::string>& output, const std::vector<HeadId>& off = {});

// Attention rollout (Abnar & Zuidema 2020) of a translation's encoder self-attention: per layer
// the mean over heads A, then (A + I) / 2 with rows renormalised, multiplied through the layers
// (the last layer leftmost): [source][source], each row sums to 1. Heads in `off` are left out of
// their layer's mean (a layer with every head off mixes nothing: I). An empty map when the
// translation has no encoder maps (a GRU).
AttentionMap encoderRollout(const Translation& translation, const std::vector<HeadId>& off = {});

// Seq2SeqModel::translate with the heads in `off` switched off: the output and every map it
// captures are the ablated model's (the ablated heads' own maps are still their softmax, which
// no longer reaches the output). Empty `off` is translate. ConfigError for a GRU when `off` is not
// empty, or a head beyond the model.
Translation translateAblated(const Seq2SeqModel& model, const std::string& sentence, const DecodeOptions& options,
                             const std::vector<HeadId>& off);

// The ablated translation beside the model's own: what switching the heads off changes.
struct AblatedTranslation {
    Translation original;                 // every head on
    Translation ablated;                  // `off` switched off
    double originalLogProbability = 0.0;  // forcedLogProbability of original's output, every head on
    double originalLogProbabilityAblated = 0.0;  // the same output with the heads off
    AttentionMap rollout;                 // encoderRollout of `ablated`, ablated heads left out
};
AblatedTranslation translateWithAblation(const Seq2SeqModel& model, const std::string& sentence,
                                         const DecodeOptions& options, const std::vector<HeadId>& off);

}  // namespace attnlab
