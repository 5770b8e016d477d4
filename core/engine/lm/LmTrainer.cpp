#include "engine/lm/LmTrainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>

#include "base/InputError.h"
#include "engine/Runtime.h"
#include "engine/detail/EvalModeGuard.h"
#include "engine/detail/ParallelBatch.h"
#include "engine/lm/LmBatches.h"
#include "engine/lm/LmImpl.h"

namespace attnlab {

struct LmTrainer::Impl {
    LmTrainingOptions options;
    std::unique_ptr<LmModel> model;
    std::unique_ptr<detail::ParallelBatchTrainer> trainer;
    std::vector<std::vector<int>> train, held;
    std::mt19937_64 rng;
    int step = 0, epoch = 0;
    std::vector<std::size_t> order;  // this epoch's
    std::size_t next = 0;            // into order
    LmModel::Impl& modelImpl() { return *model->impl_; }
    const LmModel::Impl& modelImpl() const { return *model->impl_; }
};

namespace {

double elapsed(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

LmTrainer::LmTrainer(const LmCorpus& corpus, LmConfig config, LmTrainingOptions options) : impl_(std::make_unique<Impl>()) {
    if (options.steps < 1 || options.steps > 10'000'000) throw ConfigError("the steps must be between 1 and 10000000");
    if (options.warmup < 0) throw ConfigError("the warm-up must be 0 steps or more");
    if (options.batchSize < 1 || options.batchSize > 4096) throw ConfigError("the batch size must be between 1 and 4096");
    if (!(options.learningRate > 0 && options.learningRate <= 10)) throw ConfigError("the learning rate must be above 0 and at most 10");
    if (!(options.validationFraction > 0 && options.validationFraction < 1))
        throw ConfigError("the held-out share must be above 0 and below 1");
    if (options.evaluateEvery < 1) throw ConfigError("the steps between reports must be 1 or more");
    std::vector<std::size_t> usable;
    for (std::size_t i = 0; i < corpus.documents.size(); ++i)
        if (!corpus.documents[i].empty()) usable.push_back(i);
    if (usable.size() < 2) throw InputError(corpus.name, 0, "fewer than two documents: nothing to hold out");
    impl_->options = options;
    impl_->rng.seed(options.seed);
    setThreadCount(options.threads);
    std::vector<std::size_t> shuffled = usable;
    std::mt19937_64 split(options.seed ^ 0x5eedULL);
    for (std::size_t i = shuffled.size(); i > 1; --i) std::swap(shuffled[i - 1], shuffled[split() % i]);
    const std::size_t held = std::clamp<std::size_t>(
        static_cast<std::size_t>(std::lround(options.validationFraction * static_cast<double>(shuffled.size()))), 1,
        shuffled.size() - 1);
    for (std::size_t k = 0; k < shuffled.size(); ++k)
        (k < held ? impl_->held : impl_->train).push_back(corpus.documents[shuffled[k]]);
    impl_->model = std::make_unique<LmModel>(config, corpus.tokenizer, options.seed);
    impl_->trainer = std::make_unique<detail::ParallelBatchTrainer>(impl_->modelImpl().net->parameters(), options.threads,
                                                                   options.learningRate);
    setModel(impl_->model.get(), impl_->train.size(), impl_->held.size());
}

LmTrainer::~LmTrainer() = default;

int LmTrainer::completedSteps() const { return impl_->step; }

const std::vector<std::vector<int>>& LmTrainer::heldOutDocuments() const { return impl_->held; }

LmStepMetrics LmTrainer::evaluate() const {
    LmStepMetrics m;
    m.step = impl_->step;
    m.epoch = impl_->epoch;
    const LmModel::Impl& mi = impl_->modelImpl();
    const bool masked = mi.config.objective == LmObjective::Masked;
    {
        c10::InferenceMode inference;
        const EvalModeGuard evalMode(*mi.net);
        std::mt19937_64 rng(12345);  // the same hidden positions at every report
        double loss = 0;
        int64_t words = 0;
        for (std::size_t first = 0; first < impl_->held.size(); first += 64) {
            std::vector<const std::vector<int>*> docs;
            for (std::size_t i = first; i < std::min(impl_->held.size(), first + 64); ++i) docs.push_back(&impl_->held[i]);
            const auto [inputs, targets] = lmBatch(docs, mi.config.context, masked, rng, mi.tokenizer.specials());
            const torch::Tensor logits = mi.net->forward(inputs);
            loss += torch::nn::functional::cross_entropy(logits.reshape({-1, logits.size(2)}), targets.reshape({-1}),
                                                         torch::nn::functional::CrossEntropyFuncOptions()
                                                             .ignore_index(mi.tokenizer.specials().pad)
                                                             .reduction(torch::kSum))
                        .item<double>();
            words += targets.ne(mi.tokenizer.specials().pad).sum().item<int64_t>();
        }
        m.validationLoss = words ? loss / static_cast<double>(words) : std::nan("");
    }
    if (!masked) m.circuits = impl_->model->circuits(impl_->options.probes);
    return m;
}

LmTrainer::Outcome LmTrainer::run(const EpochReport& onReport, const std::atomic<bool>* stop,
                                  const std::function<void()>& afterBatch) {
    Impl& d = *impl_;
    LmModel::Impl& mi = d.modelImpl();
    const bool masked = mi.config.objective == LmObjective::Masked;
    const auto start = std::chrono::steady_clock::now();
    auto since = start;
    double lossSum = 0;
    int lossSteps = 0;
    int64_t tokens = 0;
    mi.net->train();
    while (d.step < d.options.steps) {
        if (stop && stop->load()) return Outcome::Stopped;
        if (d.next >= d.order.size()) {  // a new pass over the training documents
            d.order.resize(d.train.size());
            std::iota(d.order.begin(), d.order.end(), std::size_t{0});
            for (std::size_t i = d.order.size(); i > 1; --i) std::swap(d.order[i - 1], d.order[d.rng() % i]);
            d.next = 0;
            epochDone(d.epoch++);
        }
        std::vector<const std::vector<int>*> docs;
        while (docs.size() < static_cast<std::size_t>(d.options.batchSize) && d.next < d.order.size())
            docs.push_back(&d.train[d.order[d.next++]]);
        const int pad = mi.tokenizer.specials().pad;
        auto [inputs, targets] = lmBatch(docs, mi.config.context, masked, d.rng, mi.tokenizer.specials());
        const double rate = d.options.learningRate *
                            (d.options.warmup > 0 ? std::min(1.0, static_cast<double>(d.step + 1) / d.options.warmup) : 1.0);
        d.trainer->setLearningRate(rate);
        const auto B = inputs.size(0);
        const auto count = targets.ne(pad).sum().item<int64_t>();
        const double value = d.trainer->backward(B, [&](const detail::BatchPart& part, double& reported) {
            const torch::Tensor logits = mi.net->forward(inputs.slice(0, part.first, part.first + part.count));
            const torch::Tensor loss =
                torch::nn::functional::cross_entropy(
                    logits.reshape({-1, logits.size(2)}), targets.slice(0, part.first, part.first + part.count).reshape({-1}),
                    torch::nn::functional::CrossEntropyFuncOptions().ignore_index(pad).reduction(torch::kSum)) /
                static_cast<double>(std::max<int64_t>(1, count));
            reported = loss.item<double>();
            return loss;
        });
        if (!std::isfinite(value)) throw TrainingDiverged(d.epoch, d.step + 1, "the loss became " + std::to_string(value));
        if (d.options.clip > 0) d.trainer->clipGradNorm(d.options.clip);
        d.trainer->step();
        ++d.step;
        lossSum += value;
        ++lossSteps;
        tokens += count;
        if (afterBatch) {
            afterBatch();
            mi.net->train();
        }
        if (d.step % d.options.evaluateEvery == 0 || d.step == d.options.steps) {
            const double trainSeconds = elapsed(since);
            LmStepMetrics m = evaluate();
            m.trainLoss = lossSum / std::max(1, lossSteps);
            m.tokensPerSecond = trainSeconds > 0 ? static_cast<double>(tokens) / trainSeconds : 0;
            m.seconds = elapsed(start);
            lossSum = 0;
            lossSteps = 0;
            tokens = 0;
            if (onReport) onReport(m);
            since = std::chrono::steady_clock::now();
            mi.net->train();
        }
    }
    epochDone(d.epoch);
    return Outcome::Finished;
}

}  // namespace attnlab
