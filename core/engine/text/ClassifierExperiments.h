#pragma once
// The classification version of the bottleneck experiment: `needle` texts of growing length,
// one keyword anywhere among noise words decides the class. A one-way GRU that classifies from
// its last state must carry the keyword to the end of the text; attention pooling reads it where
// it is. Torch-free header (the CLI's `experiment needle`; the GUI can chart the same result).
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "base/text/ClassifyCorpus.h"
#include "engine/text/TextClassifier.h"

namespace attnlab {

struct NeedleOptions {
    std::vector<int> lengths{25, 50, 100};
    std::vector<std::string> poolings{"none", "additive"};
    std::size_t texts = 2000;
    int epochs = 5;
    int hidden = 64;
    bool bidirectional = false;  // one-way: "none" then has one state that has read everything
    std::uint64_t seed = 1;
};

struct NeedleResult {
    std::vector<int> lengths;
    std::map<std::string, std::vector<double>> accuracy;  // pooling -> validation accuracy per length
    // pooling -> per length {accuracy when the keyword is in the first half, in the second half}
    std::map<std::string, std::vector<std::pair<double, double>>> byPosition;
};

// progress(done, total, message) after each training; *stop ends it early (results so far).
// Throws ConfigError for a length outside needle's range or an unknown pooling.
NeedleResult runNeedleExperiment(const NeedleOptions& options,
                                 const std::function<void(int, int, const std::string&)>& progress = {},
                                 const std::atomic<bool>* stop = nullptr);

// Is attention an explanation? Over a corpus' validation texts (the split a trainer with the same
// seed and fraction holds out), for a trained classifier:
//  - Kendall's tau (and Spearman's rho) between the attention and each attribution method, as Jain &
//    Wallace (2019) plot its distribution;
//  - the share of texts whose most attended word is one of the gold rationale words;
//  - the permutation test: the attention weights shuffled over the words (`permutations` times per
//    text), the median total variation distance between the output distributions;
//  - Wiegreffe & Pinter's (2019) baseline: the same model with uniform weights (mean pooling) trained
//    the same way, and both accuracies on the same texts.
struct FaithfulnessOptions {
    std::size_t maxTexts = 200;  // validation texts explained (the first ones)
    int permutations = 20;
    int igSteps = 64;
    int baselineEpochs = 10;     // 0 = no uniform baseline
    double validationFraction = 0.1;
    std::uint64_t seed = 1;
};

struct MethodAgreement {
    std::vector<double> taus;  // one per text (texts where tau is defined)
    double meanTau = 0, medianTau = 0, meanRho = 0;
};

struct FaithfulnessResult {
    std::size_t texts = 0;
    double accuracy = 0;                  // the model on the validation texts
    std::map<std::string, MethodAgreement> agreement;  // gradient, grad_x_input, integrated_gradients, leave_one_out
    double topWordInRationale = 0;        // NaN without rationales
    double permutationMedianChange = 0;   // median over texts of the median TVD under shuffling
    double permutationShareSmall = 0;     // texts whose median TVD is below 0.05
    double uniformAccuracy = 0;           // NaN when the baseline is not trained
};

// Throws ConfigError for a model without attention pooling or a corpus with no validation text.
FaithfulnessResult runFaithfulnessExperiment(const TextClassifier& model, const ClassificationCorpus& corpus,
                                             const FaithfulnessOptions& options,
                                             const std::function<void(int, int, const std::string&)>& progress = {},
                                             const std::atomic<bool>* stop = nullptr);

}  // namespace attnlab
