#include "ClassifierTrainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "base/InputError.h"
#include "base/Memory.h"
#include "base/analysis/RankCorrelation.h"
#include "engine/detail/ClassifierImpl.h"
#include "engine/detail/ParallelBatch.h"
#include "engine/Runtime.h"

namespace attnlab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Example {
    std::vector<std::int64_t> ids;
    int label = 0;
    std::vector<int> rationale;  // token indices (< ids.size())
};

struct TextBatch {
    torch::Tensor ids;      // [B, S]
    torch::Tensor lengths;  // [B]
    torch::Tensor labels;   // [B]
    std::vector<std::size_t> members;  // indices into the example list
};

TextBatch makeBatch(const std::vector<Example>& examples, const std::vector<std::size_t>& members) {
    std::size_t longest = 0;
    for (auto m : members) longest = std::max(longest, examples[m].ids.size());
    const auto B = static_cast<int64_t>(members.size());
    TextBatch b;
    b.ids = torch::zeros({B, static_cast<int64_t>(longest)}, torch::kLong);
    b.lengths = torch::empty({B}, torch::kLong);
    b.labels = torch::empty({B}, torch::kLong);
    // Raw accessors: indexing a tensor element by element (b.lengths[r] = ...) is a LibTorch call each.
    auto ids = b.ids.accessor<int64_t, 2>();
    auto lengths = b.lengths.accessor<int64_t, 1>();
    auto labels = b.labels.accessor<int64_t, 1>();
    for (int64_t r = 0; r < B; ++r) {
        const Example& e = examples[members[static_cast<std::size_t>(r)]];
        for (std::size_t i = 0; i < e.ids.size(); ++i) ids[r][static_cast<int64_t>(i)] = e.ids[i];
        lengths[r] = static_cast<int64_t>(e.ids.size());
        labels[r] = e.label;
    }
    b.members = members;
    return b;
}

// Batches of similar length (less padding): a seeded shuffle, then sorted by length within
// windows of 50 batches, then the batches themselves shuffled.
std::vector<std::vector<std::size_t>> bucketedBatches(const std::vector<Example>& examples,
                                                      const std::vector<std::size_t>& indices, int batchSize,
                                                      std::mt19937_64& rng) {
    std::vector<std::size_t> order = indices;
    std::shuffle(order.begin(), order.end(), rng);
    const std::size_t window = static_cast<std::size_t>(batchSize) * 50;
    for (std::size_t start = 0; start < order.size(); start += window) {
        auto end = order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), start + window));
        std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(start), end, [&](std::size_t a, std::size_t b) {
            return examples[a].ids.size() < examples[b].ids.size();
        });
    }
    std::vector<std::vector<std::size_t>> batches;
    for (std::size_t start = 0; start < order.size(); start += static_cast<std::size_t>(batchSize))
        batches.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(start),
                             order.begin() + static_cast<std::ptrdiff_t>(
                                                 std::min(order.size(), start + static_cast<std::size_t>(batchSize))));
    std::shuffle(batches.begin(), batches.end(), rng);
    return batches;
}

}  // namespace

struct ClassifierTrainer::Impl {
    ClassifierTrainingOptions options;
    std::vector<Example> examples;
    std::vector<std::size_t> train, validation;
    std::unique_ptr<TextClassifier> model;
    std::unique_ptr<detail::ParallelBatchTrainer> trainer;
    std::mt19937_64 rng;
    int completed = 0;
    bool hasRationales = false;

    nn::ClassifierNet* network = nullptr;  // the model's (set by the trainer, a friend of TextClassifier)
    nn::ClassifierNet& net() const { return *network; }
};

ClassifierTrainer::ClassifierTrainer(const ClassificationCorpus& corpus, ClassifierConfig config,
                                     ClassifierTrainingOptions options)
    : impl_(std::make_unique<Impl>()) {
    if (options.epochs < 1) throw ConfigError("epochs must be at least 1");
    if (options.batchSize < 1) throw ConfigError("the batch size must be at least 1");
    if (!(options.learningRate > 0)) throw ConfigError("the learning rate must be positive");
    if (corpus.labels.size() < 2) throw ConfigError("a classifier needs two or more classes");
    impl_->options = options;
    impl_->rng.seed(options.seed);
    setThreadCount(options.threads);

    const Split split = splitClassification(corpus, options.validationFraction, options.seed);
    std::vector<std::vector<std::string>> words(corpus.examples.size());
    for (std::size_t i = 0; i < corpus.examples.size(); ++i)
        words[i] = classifierTokens(corpus.examples[i].text, config.units, options.tokenizer);
    std::vector<std::vector<std::string>> trainingWords;
    for (auto i : split.train) trainingWords.push_back(words[i]);
    Vocabulary vocabulary = Vocabulary::build(trainingWords, options.minFrequency, options.maxVocabulary);

    impl_->hasRationales = corpus.hasRationales && config.units == TextUnits::Words;  // rationales index words
    const auto limit = static_cast<std::size_t>(config.maxLength);
    std::vector<std::size_t> remap(corpus.examples.size(), SIZE_MAX);
    for (std::size_t i = 0; i < corpus.examples.size(); ++i) {
        if (words[i].empty()) continue;  // nothing the model could read (punctuation only, say)
        Example e;
        e.ids = vocabulary.encode(words[i]);
        if (e.ids.size() > limit) e.ids.resize(limit);
        e.label = labelIndex(corpus, corpus.examples[i].label);
        if (impl_->hasRationales)
            for (int r : corpus.examples[i].rationale)
                if (r >= 0 && static_cast<std::size_t>(r) < e.ids.size()) e.rationale.push_back(r);
        remap[i] = impl_->examples.size();
        impl_->examples.push_back(std::move(e));
    }
    for (auto i : split.train)
        if (remap[i] != SIZE_MAX) impl_->train.push_back(remap[i]);
    for (auto i : split.validation)
        if (remap[i] != SIZE_MAX) impl_->validation.push_back(remap[i]);
    if (impl_->train.empty()) throw InputError(corpus.name, 0, "no training text has a token");

    impl_->model = std::make_unique<TextClassifier>(config, std::move(vocabulary), corpus.labels, options.tokenizer,
                                                    options.seed);
    impl_->network = impl_->model->impl_->net.get();
    impl_->trainer = std::make_unique<detail::ParallelBatchTrainer>(impl_->net().parameters(), options.threads,
                                                                   options.learningRate);
    setModel(impl_->model.get(), impl_->train.size(), impl_->validation.size());
}

ClassifierTrainer::~ClassifierTrainer() = default;


ClassifierEpochMetrics ClassifierTrainer::evaluate() const {
    ClassifierEpochMetrics m;
    m.epoch = impl_->completed;
    m.validationLoss = m.accuracy = m.macroF1 = kNaN;
    m.attentionEntropy = m.uniformEntropy = m.rationaleMass = m.uniformRationaleMass = kNaN;
    if (impl_->validation.empty()) return m;
    nn::ClassifierNet& net = impl_->net();
    c10::InferenceMode inference;
    const EvalModeGuard evalMode(net);
    std::vector<int> predicted, truth;
    double loss = 0, entropy = 0, uniformEntropy = 0, mass = 0, uniformMass = 0;
    std::size_t withRationale = 0;
    bool attends = false;
    const std::size_t batchSize = 128;
    for (std::size_t start = 0; start < impl_->validation.size(); start += batchSize) {
        std::vector<std::size_t> members(
            impl_->validation.begin() + static_cast<std::ptrdiff_t>(start),
            impl_->validation.begin() + static_cast<std::ptrdiff_t>(std::min(impl_->validation.size(), start + batchSize)));
        const TextBatch b = makeBatch(impl_->examples, members);
        const nn::ClassifierOutput out = net.forward(b.ids, b.lengths);
        loss += torch::nn::functional::cross_entropy(out.logits, b.labels,
                                                     torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
                    .item<double>();
        const torch::Tensor argmaxTensor = out.logits.argmax(1).contiguous();
        const int64_t* argmax = argmaxTensor.data_ptr<int64_t>();
        torch::Tensor meanAttention;
        if (out.attention.defined()) {
            attends = true;
            meanAttention = out.attention.mean(1).contiguous();  // [B, S]
        }
        for (std::size_t r = 0; r < members.size(); ++r) {
            const Example& e = impl_->examples[members[r]];
            predicted.push_back(static_cast<int>(argmax[r]));
            truth.push_back(e.label);
            const double n = static_cast<double>(e.ids.size());
            uniformEntropy += std::log(n);
            if (meanAttention.defined()) {
                const float* a = meanAttention[static_cast<int64_t>(r)].data_ptr<float>();
                double h = 0;
                for (std::size_t i = 0; i < e.ids.size(); ++i)
                    if (a[i] > 0) h -= a[i] * std::log(static_cast<double>(a[i]));
                entropy += h;
                if (!e.rationale.empty()) {
                    double onRationale = 0;
                    for (int i : e.rationale) onRationale += a[i];
                    mass += onRationale;
                }
            }
            if (!e.rationale.empty()) {
                uniformMass += static_cast<double>(e.rationale.size()) / n;
                ++withRationale;
            }
        }
    }
    const auto count = static_cast<double>(impl_->validation.size());
    m.validationLoss = loss / count;
    std::size_t correct = 0;
    for (std::size_t i = 0; i < predicted.size(); ++i) correct += predicted[i] == truth[i];
    m.accuracy = static_cast<double>(correct) / count;
    m.macroF1 = macroF1(predicted, truth, static_cast<int>(impl_->model->labels().size()));
    m.uniformEntropy = uniformEntropy / count;
    if (attends) m.attentionEntropy = entropy / count;
    if (withRationale > 0) {
        m.uniformRationaleMass = uniformMass / static_cast<double>(withRationale);
        if (attends) m.rationaleMass = mass / static_cast<double>(withRationale);
    }
    return m;
}

ClassifierTrainer::Outcome ClassifierTrainer::run(const std::function<void(const ClassifierEpochMetrics&)>& onEpoch,
                                                  const std::atomic<bool>* stop,
                                                  const std::function<void()>& afterBatch) {
    nn::ClassifierNet& net = impl_->net();
    const ClassifierConfig& config = impl_->model->config();
    const bool penalised = config.penalty > 0 && config.architecture == ClassifierArchitecture::Gru &&
                           poolingAttends(config.pooling);
    while (impl_->completed < impl_->options.epochs) {
        const auto start = std::chrono::steady_clock::now();
        net.train();
        double lossSum = 0;
        std::size_t seen = 0, batchIndex = 0;
        const auto batches = bucketedBatches(impl_->examples, impl_->train, impl_->options.batchSize, impl_->rng);
        for (const auto& members : batches) {
            if (stop && stop->load()) return Outcome::Stopped;
            ++batchIndex;  // 1-based, for TrainingDiverged
            const TextBatch b = makeBatch(impl_->examples, members);
            const auto rows = static_cast<std::int64_t>(members.size());
            // Each part's share: its summed cross-entropy (and its rows' penalty) over the batch's size.
            const double value = impl_->trainer->backward(rows, [&](const detail::BatchPart& part, double& reported) {
                const auto mine = [&](const torch::Tensor& t) { return t.slice(0, part.first, part.first + part.count); };
                const nn::ClassifierOutput out = net.forward(mine(b.ids), mine(b.lengths));
                const torch::Tensor loss = torch::nn::functional::cross_entropy(
                                               out.logits, mine(b.labels),
                                               torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum)) /
                                           static_cast<double>(rows);
                reported = loss.item<double>();
                if (!penalised) return loss;
                return loss + config.penalty * nn::GruClassifierNetImpl::redundancyPenalty(out.attention) *
                                  (static_cast<double>(part.count) / static_cast<double>(rows));
            });
            if (!std::isfinite(value))
                throw TrainingDiverged(impl_->completed + 1, static_cast<int>(batchIndex),
                                       "the loss became " + std::to_string(value));
            if (impl_->options.clip > 0) impl_->trainer->clipGradNorm(impl_->options.clip);
            impl_->trainer->step();
            lossSum += value * static_cast<double>(members.size());
            seen += members.size();
            if (afterBatch) {
                afterBatch();
                net.train();  // the callback may have used the model in eval mode
            }
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        epochDone(++impl_->completed);
        ClassifierEpochMetrics m = evaluate();
        m.trainLoss = seen ? lossSum / static_cast<double>(seen) : kNaN;
        m.seconds = seconds;
        m.pairsPerSecond = seconds > 0 ? static_cast<double>(seen) / seconds : 0;
        releaseFreeMemory();  // evaluation's one-off blocks (glibc keeps them otherwise)
        if (onEpoch) onEpoch(m);
    }
    return Outcome::Finished;
}

}  // namespace attnlab
