#include "PositionalExperiment.h"

#include <algorithm>
#include <cmath>

#include "TranslationTrainer.h"
#include "base/InputError.h"
#include "base/translation/Datasets.h"
#include "base/translation/ModelConfig.h"

namespace attnlab {

namespace {

ModelConfig configFor(const std::string& model, const PositionalOptions& o, int length) {
    ModelConfig c;
    if (model == "gru") {
        c = defaultModelConfig(Architecture::Gru);
        c.attention = AttentionKind::Additive;
    } else {
        c = defaultModelConfig(Architecture::Transformer);
        c.positional = parsePositionalKind(model);
        c.layers = o.layers;
        c.heads = o.heads;
        c.feedForward = o.feedForward;
    }
    c.hidden = o.hidden;
    c.maxLength = std::max(64, 2 * length + 2);
    return c;
}

}  // namespace

PositionalResult runPositionalExperiment(const PositionalOptions& o,
                                         const std::function<void(int, int, const std::string&)>& progress,
                                         const std::atomic<bool>* stop) {
    const DatasetInfo* info = findBuiltinDataset(o.dataset);
    if (!info) throw ConfigError("--dataset: unknown dataset '" + o.dataset + "'");
    if (o.lengths.empty()) throw ConfigError("--lengths needs at least one length");
    for (int len : o.lengths)
        if (len < 2 || len > 100) throw ConfigError("--lengths must be between 2 and 100, got " + std::to_string(len));
    if (o.models.empty()) throw ConfigError("--models needs at least one model");
    for (const auto& m : o.models)
        if (m != "gru") {
            try {
                parsePositionalKind(m);
            } catch (const ConfigError&) {
                throw ConfigError("--models: unknown model '" + m + "' (expected sinusoidal, learned, none or gru)");
            }
        }
    PositionalResult result;
    result.lengths = o.lengths;
    result.models = o.models;
    const int total = static_cast<int>(o.lengths.size() * o.models.size()) * o.epochs;
    int done = 0;
    for (int len : o.lengths) {
        DatasetOptions data;
        data.size = o.pairs;
        data.seed = o.seed;
        data.minLen = len;
        data.maxLen = len;
        const ParallelCorpus corpus = generateDataset(o.dataset, data);
        for (const auto& model : o.models) {
            TranslationTrainingOptions t;
            t.epochs = o.epochs;
            t.seed = o.seed;
            t.threads = o.threads;
            t.learningRate = o.learningRate;
            t.validationFraction = 0.1;
            t.tokenizer = info->tokenizer;
            TranslationTrainer trainer(corpus, configFor(model, o, len), t);
            TranslationEpochMetrics last;
            trainer.run(nullptr,
                        [&](const TranslationEpochMetrics& m) {
                            last = m;
                            ++done;
                            if (progress)
                                progress(done, total,
                                         "length " + std::to_string(len) + ", " + model + ": epoch " +
                                             std::to_string(m.epoch) + "/" + std::to_string(o.epochs) +
                                             ", token accuracy " + std::to_string(m.tokenAccuracy).substr(0, 5));
                        },
                        stop);
            if (stop && stop->load()) return result;
            result.tokenAccuracy[model].push_back(last.tokenAccuracy);
            result.exactMatch[model].push_back(last.exactMatch);
        }
    }
    return result;
}

}  // namespace attnlab
