#pragma once
// Engine-internal: the attention losses training can add to the cross-entropy
// (TranslationTrainingOptions::coveragePenalty and guidedAlignment, TranslationTrainer.h). Each is a sum over a batch's
// rows divided by the whole batch's scale, so that the parts a batch is split into for several
// threads add up to the batch's loss. Tested against hand computation in tests/core/test_attention_losses.
#include <torch/torch.h>

#include <vector>

#include "base/translation/Alignments.h"
#include "base/translation/Batching.h"
#include "engine/nn/networks/Seq2SeqNet.h"
#include "engine/translation/TranslationTrainer.h"

namespace attnlab {

bool hasAttentionLoss(const TranslationTrainingOptions& o);

// What an attention loss of a batch is divided by: the target tokens with gold links (guided
// alignment), and the sentences (coverage).
struct AttentionLossScale {
    double linkedRows = 0;
    double sentences = 0;
};

// The batch's gold links as attention targets [B, T, S] (its padded lengths): target token t's row
// spreads 1 evenly over the source tokens it is linked to (sure and possible; gold[batch.indices[b]]);
// rows without links (</s>, padding, unlinked words) are zero. *linkedRows counts the others.
torch::Tensor goldTargets(const std::vector<SentenceAlignment>& gold, const Batch& batch, double* linkedRows);

// The cross-attention [B, T, S] of a training forward's capture ([B, L, H, T, S]) that guided
// alignment pulls: one head (TranslationTrainingOptions::alignmentLayer, alignmentHead); and the map coverage
// reads: the last layer's heads averaged.
torch::Tensor guidedMap(const nn::Captured& captured, const TranslationTrainingOptions& o);
torch::Tensor coverageMap(const nn::Captured& captured);

// guidedAlignment * -sum(gold * log(a + 1e-8)) / scale.linkedRows
// + coveragePenalty * sum_b sum_{j < S_b} (tau_b - sum_{i < T_b} a_bij)^2 / scale.sentences,
// tau_b = T_b / S_b, the lengths counted from tgt and src (non-padding ids; </s> included).
// A capture without cross-attention (attention none) gives 0.
torch::Tensor attentionLoss(const nn::Captured& captured, const torch::Tensor& tgt, const torch::Tensor& src,
                            const torch::Tensor& gold, const TranslationTrainingOptions& o, const AttentionLossScale& scale);

}  // namespace attnlab
