#include "ClassifierExperiments.h"

#include "ClassifierTrainer.h"
#include "base/ClassifyDatasets.h"

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

}  // namespace attnlab
