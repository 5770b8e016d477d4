#pragma once
// What each attention head of a Transformer does, measured over a data set (Michel, Levy & Neubig
// 2019, "Are Sixteen Heads Really Better than One?"): the figures with one head switched off
// (ablation), each head's gradient importance, and the pruning curve. The same study for every
// Transformer in AttnLab: the translation model (engine/translation/HeadImportance.h, BLEU), the
// text classifier and the ViT (accuracy) and the forecaster (MAE). Torch-free.
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
#include "engine/forecast/Forecaster.h"   // Forecast
#include "engine/text/TextClassifier.h"  // Classification

namespace attnlab {

class TextClassifier;
class ImageClassifier;
class Forecaster;
struct ClassificationCorpus;
struct ImageDataset;
struct Series;

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

// The text classifier's heads (its encoder self-attention, kind encoder) over the corpus's
// examples, metric accuracy. ConfigError("... needs a Transformer ...") for a GRU classifier;
// InputError(corpus.name) when no example has a label the model knows.
HeadStudyReport measureClassifierHeads(const TextClassifier& model, const ClassificationCorpus& corpus,
                                       const HeadStudyOptions& options = {}, const HeadStudyProgress& progress = {});

// The ViT's heads over the images (converted to the model's channels and size), metric accuracy.
// Images whose class the model does not know (by name) are skipped; InputError(data.name) when none
// is left.
HeadStudyReport measureImageClassifierHeads(const ImageClassifier& model, const ImageDataset& data,
                                            const HeadStudyOptions& options = {},
                                            const HeadStudyProgress& progress = {});

// The forecaster's heads (encoder self-, decoder self- and cross-attention) over the held-out
// tail's windows as `forecast --evaluate` takes them, metric MAE (lower is better). The split's
// errors as splitSeries gives them; InputError when the tail holds no window.
HeadStudyReport measureForecasterHeads(const Forecaster& model, const Series& series, double tailFraction = 0.2,
                                       const HeadStudyOptions& options = {}, const HeadStudyProgress& progress = {});

// The figures with `off` switched off, for each task as above (empty `off` = the plain model).
HeadScore scoreClassifierWithAblation(const TextClassifier& model, const ClassificationCorpus& corpus,
                                      const std::vector<HeadId>& off, std::size_t limit = 0);
HeadScore scoreImageClassifierWithAblation(const ImageClassifier& model, const ImageDataset& data,
                                           const std::vector<HeadId>& off, std::size_t limit = 0);
HeadScore scoreForecasterWithAblation(const Forecaster& model, const Series& series, const std::vector<HeadId>& off,
                                      double tailFraction = 0.2, std::size_t limit = 0);

// TextClassifier::classify with the heads in `off` switched off (live ablation): the label, the
// probabilities and every layer's maps are the ablated model's (an ablated head's own map is still
// its softmax, which no longer reaches [CLS]); the rollout leaves the heads that are off out of
// their layer's mean (a layer with every head off mixes nothing: the identity). Empty `off` is
// classify. ConfigError for a GRU classifier (when `off` is not empty) or a head beyond the model.
Classification classifyAblated(const TextClassifier& model, const std::string& text, const std::vector<HeadId>& off);

// Forecaster::forecastAt with the heads in `off` switched off (live ablation): the forecast and
// every map are the ablated model's (an ablated head's own map is still its softmax). Empty `off` is
// forecastAt. ConfigError for a head beyond the model; forecastAt's errors otherwise.
Forecast forecastAblated(const Forecaster& model, const std::vector<double>& values, long at,
                         const std::vector<HeadId>& off);

// I_h before normalisation, in head order, for each task as above.
std::vector<double> classifierHeadGradients(const TextClassifier& model, const ClassificationCorpus& corpus,
                                            std::size_t limit = 0);
std::vector<double> imageClassifierHeadGradients(const ImageClassifier& model, const ImageDataset& data,
                                                 std::size_t limit = 0);
std::vector<double> forecasterHeadGradients(const Forecaster& model, const Series& series, double tailFraction = 0.2,
                                            std::size_t limit = 0);

}  // namespace attnlab
