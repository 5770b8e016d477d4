#include "ClassifierExperiments.h"

#include "TextClassifier.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "ClassifierTrainer.h"
#include "base/text/ClassifyDatasets.h"
#include "base/InputError.h"

namespace attnlab {

NeedleResult runNeedleExperiment(const NeedleOptions& options,
                                 const std::function<void(int, int, const std::string&)>& progress,
                                 const std::atomic<bool>* stop) {
    for (const auto& name : options.poolings) parsePooling(name);  // validates before any training
    NeedleResult result;
    const int total = static_cast<int>(options.lengths.size() * options.poolings.size());
    int done = 0;
    for (int length : options.lengths) {
        const ClassificationCorpus corpus = makeClassificationDataset("needle", options.texts, options.seed, length);
        result.lengths.push_back(length);
        for (const auto& name : options.poolings) {
            ClassifierConfig config;
            config.pooling = parsePooling(name);
            config.hidden = options.hidden;
            config.bidirectional = options.bidirectional;
            ClassifierTrainingOptions training;
            training.epochs = options.epochs;
            training.seed = options.seed;
            ClassifierTrainer trainer(corpus, config, training);
            if (trainer.run({}, stop) == ClassifierTrainer::Outcome::Stopped) return result;
            result.accuracy[name].push_back(trainer.evaluate().accuracy);
            // The same validation texts the trainer held out, by where their keyword is.
            const Split split = splitClassification(corpus, training.validationFraction, training.seed);
            double right[2] = {0, 0}, seen[2] = {0, 0};
            for (std::size_t i : split.validation) {
                const LabeledText& e = corpus.examples[i];
                const int half = !e.rationale.empty() && e.rationale.front() >= length / 2 ? 1 : 0;
                seen[half] += 1;
                right[half] += trainer.model().classify(e.text).label == e.label ? 1 : 0;
            }
            result.byPosition[name].emplace_back(seen[0] ? right[0] / seen[0] : 0.0, seen[1] ? right[1] / seen[1] : 0.0);
            if (progress)
                progress(++done, total,
                         name + " at length " + std::to_string(length) + ": " +
                             std::to_string(result.accuracy[name].back()).substr(0, 5));
        }
    }
    return result;
}

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double totalVariation(const std::vector<double>& a, const std::vector<double>& b) {
    double d = 0;
    for (std::size_t i = 0; i < a.size(); ++i) d += std::fabs(a[i] - b[i]);
    return d / 2;
}

}  // namespace

FaithfulnessResult runFaithfulnessExperiment(const TextClassifier& model, const ClassificationCorpus& corpus,
                                             const FaithfulnessOptions& options,
                                             const std::function<void(int, int, const std::string&)>& progress,
                                             const std::atomic<bool>* stop) {
    if (!classifierAttends(model.config()))
        throw ConfigError("the model pools with '" + toString(model.config().pooling) + "': it has no attention to test");
    // Shuffling the weights means replacing the GRU's pooling; a Transformer's attention is inside its layers.
    const bool permutable = model.config().architecture == ClassifierArchitecture::Gru;
    const Split split = splitClassification(corpus, options.validationFraction, options.seed);
    std::vector<std::size_t> texts;
    for (std::size_t i : split.validation)
        if (texts.size() < options.maxTexts && !model.ids(corpus.examples[i].text).empty()) texts.push_back(i);
    if (texts.empty()) throw ConfigError("no validation text to explain (--val-fraction 0?)");

    FaithfulnessResult r;
    r.texts = texts.size();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    r.topWordInRationale = r.uniformAccuracy = nan;
    std::mt19937_64 rng(options.seed);
    std::size_t correct = 0, withRationale = 0, topInRationale = 0, small = 0;
    std::vector<double> changes;
    std::map<std::string, std::vector<double>> rhos;
    const int total = static_cast<int>(texts.size()) + (options.baselineEpochs > 0 ? 1 : 0);
    for (std::size_t k = 0; k < texts.size(); ++k) {
        if (stop && stop->load()) break;
        const LabeledText& e = corpus.examples[texts[k]];
        const Classification c = model.classify(e.text);
        correct += c.label == e.label;
        const Explanation ex = model.explain(e.text, c.labelIndex, options.igSteps);
        for (const auto& [method, tau] : ex.kendallTau) {
            if (std::isfinite(tau)) r.agreement[method].taus.push_back(tau);
            if (std::isfinite(ex.spearman.at(method))) rhos[method].push_back(ex.spearman.at(method));
        }
        const auto& attention = ex.methods.at("attention");
        if (!e.rationale.empty() && model.config().units == TextUnits::Words) {
            ++withRationale;
            const int top = static_cast<int>(std::max_element(attention.begin(), attention.end()) - attention.begin());
            topInRationale += std::find(e.rationale.begin(), e.rationale.end(), top) != e.rationale.end();
        }
        if (permutable && c.tokens.size() >= 2) {
            const auto ids = model.ids(e.text);
            std::vector<double> perText;
            for (int p = 0; p < options.permutations; ++p) {
                std::vector<std::vector<float>> shuffled = c.pooling;
                for (auto& row : shuffled) std::shuffle(row.begin(), row.end(), rng);
                perText.push_back(totalVariation(c.probabilities, model.probabilitiesWithPooling(ids, shuffled)));
            }
            const double m = median(perText);
            changes.push_back(m);
            small += m < 0.05;
        }
        if (progress && (k + 1) % 20 == 0) progress(static_cast<int>(k + 1), total, "explained " + std::to_string(k + 1) + " texts");
    }
    r.accuracy = static_cast<double>(correct) / static_cast<double>(texts.size());
    for (auto& [method, a] : r.agreement) {
        double sum = 0;
        for (double t : a.taus) sum += t;
        a.meanTau = a.taus.empty() ? nan : sum / static_cast<double>(a.taus.size());
        a.medianTau = median(a.taus);
        double rhoSum = 0;
        for (double x : rhos[method]) rhoSum += x;
        a.meanRho = rhos[method].empty() ? nan : rhoSum / static_cast<double>(rhos[method].size());
    }
    if (withRationale) r.topWordInRationale = static_cast<double>(topInRationale) / static_cast<double>(withRationale);
    r.permutationMedianChange = median(changes);
    r.permutationShareSmall = changes.empty() ? nan : static_cast<double>(small) / static_cast<double>(changes.size());

    if (options.baselineEpochs > 0 && !(stop && stop->load())) {
        ClassifierConfig uniform = model.config();
        uniform.architecture = ClassifierArchitecture::Gru;
        uniform.pooling = Pooling::Mean;
        uniform.hops = 1;
        uniform.penalty = 0;
        ClassifierTrainingOptions training;
        training.epochs = options.baselineEpochs;
        training.seed = options.seed;
        training.validationFraction = options.validationFraction;
        training.tokenizer = model.tokenizerOptions();
        ClassifierTrainer baseline(corpus, uniform, training);
        if (baseline.run({}, stop) == ClassifierTrainer::Outcome::Finished) {
            std::size_t right = 0;
            for (std::size_t i : texts) right += baseline.model().classify(corpus.examples[i].text).label == corpus.examples[i].label;
            r.uniformAccuracy = static_cast<double>(right) / static_cast<double>(texts.size());
        }
        if (progress) progress(total, total, "trained the uniform baseline");
    }
    return r;
}

}  // namespace attnlab
