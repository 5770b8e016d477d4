#pragma once
// What each attention head of a Transformer does, measured over a data set (Michel, Levy & Neubig
// 2019, "Are Sixteen Heads Really Better than One?"): the figures with one head switched off
// (ablation), each head's gradient importance, and the pruning curve. The same study for every
// Transformer in AttnLab, each task's in its own folder: the translation model
// (translation/HeadImportance.h, BLEU), the text classifier (text/ClassifierHeadStudy.h) and the ViT
// (vision/ImageHeadStudy.h, accuracy), the forecaster (forecast/ForecastHeadStudy.h, MAE); a task's
// study describes its network to detail/HeadStudyRunner.h. Torch-free.
//
// A head's output is weights·V; switching it off multiplies it by a gate xi_h = 0 before the
// layer's output projection (nn::MultiHeadAttention::setHeadGate). The gradient importance is
//   I_h = sum over items x of | dL(x) / d xi_h |  at every xi = 1,
// L(x) the item's loss (cross-entropy of the label for a classifier, summed token cross-entropy
// for a translation, the summed squared error of the standardised forecast for a forecaster),
// then normalised within each attention layer (a kind and a layer) by the l2 norm of that layer's
// I (their section 4.2). Every importance is >= 0.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/translation/HeadAblation.h"

namespace attnlab {

struct HeadStudyOptions {
    std::size_t limit = 0;       // use the first N usable items (0 = all)
    std::uint64_t seed = 1;      // the random orders' shuffles
    int randomOrders = 3;        // random orders averaged in randomCurve (0 = no random curve)
    std::size_t batchSize = 64;
};

// A model's figures on the set: the mean loss per item (per token for a translation) and the
// task's metric (BLEU 0..100, accuracy 0..1, MAE in the series' units); exact is the share of
// exact translations (0 for the other tasks).
struct HeadScore {
    double loss = 0.0;
    double metric = 0.0;
    double exact = 0.0;
};

struct HeadStudyEffect {
    HeadId head;
    HeadScore score;            // with this head alone off
    double deltaLoss = 0.0;     // loss - baseline loss (> 0: the head helped)
    double deltaMetric = 0.0;   // metric - baseline metric
    double gradient = 0.0;      // I_h before the per-layer normalisation
    double importance = 0.0;    // I_h / ||I of its layer||_2 (0 when the whole layer's I is 0)
};

// One point of a pruning curve: the first `pruned` heads of an order switched off together.
struct PruningPoint {
    int pruned = 0;
    double prunedFraction = 0.0;  // pruned / number of heads
    double metric = 0.0;          // (the mean over the random orders for the random curve)
    double loss = 0.0;
};

struct HeadStudyReport {
    std::string metric;            // "BLEU", "accuracy" or "MAE"
    bool higherIsBetter = true;    // false for MAE
    HeadScore baseline;
    std::vector<HeadStudyEffect> heads;       // encoder, decoder, cross; layer; head
    std::vector<PruningPoint> pruningCurve;   // heads removed in order of ascending importance, 0..all
    std::vector<PruningPoint> randomCurve;    // the same for random orders
    std::vector<HeadId> pruningOrder;         // the order pruningCurve removes them in
    std::size_t items = 0;                    // items measured (texts, images, forecast windows, pairs)
    std::size_t skipped = 0;                  // items the model cannot take (e.g. an unknown label)
};

// The most heads the pruning curve removes with the metric still within 10% of the baseline
// (at least 90% of it, or for MAE at most 110% of it).
int headsWithinTenPercent(const HeadStudyReport& report);

// Michel et al.'s per-layer normalisation of values in head order: each run of `heads` values (one
// attention layer) divided by its l2 norm (a run of zeros stays zero).
std::vector<double> normalisePerLayer(const std::vector<double>& values, int heads);

using HeadStudyProgress = std::function<void(int done, int total)>;

}  // namespace attnlab
