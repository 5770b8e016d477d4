#include "Trainer.h"

#include <chrono>
#include <cmath>
#include <random>

#include "ModelImpl.h"
#include "base/Batching.h"
#include "base/InputError.h"
#include "base/Metrics.h"
#include "base/ModelSize.h"

namespace attnlab {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

struct BatchTensors {
    torch::Tensor src, srcLen, tgt, tgtIn;
};

BatchTensors toTensors(const Batch& b) {
    BatchTensors t;
    t.src = torch::tensor(b.source, torch::kLong).view({b.size, b.sourceLen});
    t.srcLen = torch::tensor(b.sourceLengths, torch::kLong);
    t.tgt = torch::tensor(b.target, torch::kLong).view({b.size, b.targetLen});
    // Decoder input: <s> followed by the target shifted right.
    using torch::indexing::Slice;
    t.tgtIn = torch::cat({torch::full({b.size, 1}, Vocabulary::kBos, torch::kLong),
                          t.tgt.index({Slice(), Slice(0, b.targetLen - 1)})},
                         1);
    return t;
}

void checkOptions(const TrainingOptions& o) {
    auto range = [](const char* flag, double v, double lo, double hi) {
        if (!(v >= lo && v <= hi))
            throw ConfigError(std::string(flag) + " must be between " + std::to_string(lo) + " and " +
                              std::to_string(hi) + ", got " + std::to_string(v));
    };
    range("--epochs", o.epochs, 1, 100000);
    range("--batch", o.batchSize, 1, 4096);
    if (!(o.learningRate > 0 && o.learningRate <= 10)) throw ConfigError("--lr must be in (0, 10]");
    range("--clip", o.clip, 0, 1e6);
    range("--teacher-forcing", o.teacherForcing, 0, 1);
    range("--threads", o.threads, 1, 64);
    range("--val-fraction", o.validationFraction, 0, 0.9);
    range("--min-freq", o.minFrequency, 1, 1000000);
}

std::string humanBytes(std::int64_t bytes) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

}  // namespace

struct Trainer::Impl {
    TrainingOptions options;
    std::unique_ptr<Seq2SeqModel> model;
    std::unique_ptr<torch::optim::Adam> optimizer;
    std::vector<EncodedPair> pairs;
    std::vector<std::vector<AlignmentLink>> gold;  // per pair; empty if none
    std::vector<std::vector<std::string>> targetTokens;
    std::vector<std::size_t> train, validation;
    std::size_t skippedTooLong = 0;
    std::int64_t estimatedBytes = 0;
    std::mt19937_64 rng;

    int completedEpochs = 0;
    std::vector<Batch> batches;
    std::size_t cursor = 0;
    std::int64_t globalBatch = 0;
    double lossSum = 0.0;
    std::int64_t epochPairs = 0;
    double trainSeconds = 0.0;
    Clock::time_point epochStart;

    void startEpoch() {
        std::vector<std::size_t> order = train;
        for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
        batches = makeBatches(pairs, order, static_cast<std::size_t>(options.batchSize));
        cursor = 0;
        lossSum = 0.0;
        epochPairs = 0;
        trainSeconds = 0.0;
        epochStart = Clock::now();
    }
};

Trainer::Trainer(const Corpus& corpus, ModelConfig config, TrainingOptions options)
    : impl_(std::make_unique<Impl>()) {
    checkOptions(options);
    Impl& d = *impl_;
    d.options = options;
    d.rng.seed(options.seed);
    setThreadCount(options.threads);

    Tokenizer tokenizer(options.tokenizer);
    std::vector<std::vector<std::string>> src, tgt;
    std::vector<std::vector<AlignmentLink>> gold;
    const std::size_t limit = static_cast<std::size_t>(std::max(2, config.maxLength)) - 1;  // room for </s>
    for (const auto& p : corpus.pairs) {
        auto s = tokenizer.tokenize(p.source);
        auto t = tokenizer.tokenize(p.target);
        if (s.empty() || t.empty()) continue;
        if (s.size() > limit || t.size() > limit) {
            ++d.skippedTooLong;
            continue;
        }
        src.push_back(std::move(s));
        tgt.push_back(std::move(t));
        gold.push_back(alignmentOverTokens(p, tokenizer));  // word links onto the tokens the model sees
    }
    if (src.empty())
        throw InputError(corpus.name, 0,
                         d.skippedTooLong ? "every pair is longer than --max-len " + std::to_string(config.maxLength)
                                          : "no usable sentence pair");

    Split split = splitTrainValidation(src.size(), options.validationFraction, options.seed);
    d.train = std::move(split.train);
    d.validation = std::move(split.validation);
    std::vector<std::vector<std::string>> trainSrc, trainTgt;
    for (auto i : d.train) {
        trainSrc.push_back(src[i]);
        trainTgt.push_back(tgt[i]);
    }
    Vocabulary sourceVocab = Vocabulary::build(trainSrc, options.minFrequency, options.maxVocabulary);
    Vocabulary targetVocab = Vocabulary::build(trainTgt, options.minFrequency, options.maxVocabulary);
    for (std::size_t i = 0; i < src.size(); ++i) {
        EncodedPair e;
        e.source = sourceVocab.encode(src[i]);
        e.source.push_back(Vocabulary::kEos);
        e.target = targetVocab.encode(tgt[i]);
        e.target.push_back(Vocabulary::kEos);
        d.pairs.push_back(std::move(e));
    }
    d.gold = std::move(gold);
    d.targetTokens = std::move(tgt);

    config.sourceVocab = static_cast<std::int64_t>(sourceVocab.size());
    config.targetVocab = static_cast<std::int64_t>(targetVocab.size());
    if (std::string problem = validate(config); !problem.empty()) throw ConfigError(problem);
    d.estimatedBytes = estimateTrainingBytes(config, options.batchSize, config.maxLength);
    const std::int64_t physical = physicalMemoryBytes();
    if (physical > 0 && d.estimatedBytes > physical * 8 / 10)
        throw ConfigError("this configuration needs about " + humanBytes(d.estimatedBytes) + " but the machine has " +
                          humanBytes(physical) + "; reduce --hidden, --batch, --layers or --max-len");

    d.model = std::make_unique<Seq2SeqModel>(config, std::move(sourceVocab), std::move(targetVocab),
                                             options.tokenizer, options.seed);
    d.optimizer = std::make_unique<torch::optim::Adam>(d.model->impl().net->parameters(),
                                                       torch::optim::AdamOptions(options.learningRate));
    d.startEpoch();
}

Trainer::~Trainer() = default;

Seq2SeqModel& Trainer::model() { return *impl_->model; }
const Seq2SeqModel& Trainer::model() const { return *impl_->model; }
const TrainingOptions& Trainer::options() const { return impl_->options; }
int Trainer::completedEpochs() const { return impl_->completedEpochs; }
int Trainer::batchesPerEpoch() const { return static_cast<int>(impl_->batches.size()); }
std::size_t Trainer::trainingPairs() const { return impl_->train.size(); }
std::size_t Trainer::validationPairs() const { return impl_->validation.size(); }
std::size_t Trainer::skippedTooLong() const { return impl_->skippedTooLong; }
std::int64_t Trainer::estimatedBytes() const { return impl_->estimatedBytes; }
bool Trainer::epochComplete() const { return impl_->cursor >= impl_->batches.size(); }
bool Trainer::finished() const { return impl_->completedEpochs >= impl_->options.epochs; }

BatchReport Trainer::trainBatch() {
    Impl& d = *impl_;
    if (epochComplete()) throw std::logic_error("trainBatch() called at the end of an epoch");
    const auto start = Clock::now();
    const Batch& batch = d.batches[d.cursor];
    BatchReport report;
    report.epoch = d.completedEpochs + 1;
    report.batch = static_cast<int>(d.cursor) + 1;
    report.batchesPerEpoch = static_cast<int>(d.batches.size());
    report.pairs = batch.size;

    nn::Seq2SeqNet& net = *d.model->impl().net;
    net.train();
    BatchTensors t = toTensors(batch);
    d.optimizer->zero_grad();
    torch::Tensor logits = net.forward(t.src, t.srcLen, t.tgtIn, nullptr, d.options.teacherForcing);
    torch::Tensor loss = torch::nn::functional::cross_entropy(
        logits.reshape({-1, logits.size(2)}), t.tgt.reshape({-1}),
        torch::nn::functional::CrossEntropyFuncOptions().ignore_index(Vocabulary::kPad));
    ++d.globalBatch;
    if (d.globalBatch == d.options.injectNonFiniteAtBatch) loss = loss * std::nan("");
    const double lossValue = loss.item<double>();
    if (!std::isfinite(lossValue)) throw TrainingDiverged(report.epoch, report.batch, "the loss is not finite");
    loss.backward();
    auto params = net.parameters();
    double norm = 0.0;
    if (d.options.clip > 0) {
        norm = torch::nn::utils::clip_grad_norm_(params, d.options.clip);
    } else {
        for (auto& p : params)
            if (p.grad().defined()) norm += p.grad().pow(2).sum().item<double>();
    }
    if (!std::isfinite(norm)) {
        d.optimizer->zero_grad();
        throw TrainingDiverged(report.epoch, report.batch, "a gradient is not finite");
    }
    d.optimizer->step();
    ++d.cursor;
    d.lossSum += lossValue;
    d.epochPairs += batch.size;
    d.trainSeconds += secondsSince(start);
    report.loss = lossValue;
    return report;
}

EpochMetrics Trainer::evaluate() {
    Impl& d = *impl_;
    EpochMetrics m;
    m.epoch = d.completedEpochs;
    if (d.validation.empty()) return m;
    nn::Seq2SeqNet& net = *d.model->impl().net;
    const bool wasTraining = net.is_training();
    net.eval();
    c10::InferenceMode inference;
    const Vocabulary& tv = d.model->targetVocabulary();

    double lossSum = 0.0, entropySum = 0.0, aerSum = 0.0;
    std::int64_t tokenCount = 0, entropyRows = 0, aerCount = 0, correct = 0, refTokens = 0, exact = 0;
    std::vector<Tokens> hypotheses, references;
    const int64_t maxLength = d.model->config().maxLength;
    for (const Batch& batch : makeBatches(d.pairs, d.validation, 64)) {
        BatchTensors t = toTensors(batch);
        nn::Captured captured;
        torch::Tensor logits = net.forward(t.src, t.srcLen, t.tgtIn, &captured, 1.0);
        lossSum += torch::nn::functional::cross_entropy(
                       logits.reshape({-1, logits.size(2)}), t.tgt.reshape({-1}),
                       torch::nn::functional::CrossEntropyFuncOptions().ignore_index(Vocabulary::kPad).reduction(
                           torch::kSum))
                       .item<double>();
        tokenCount += t.tgt.ne(Vocabulary::kPad).sum().item<int64_t>();

        if (auto it = captured.find("cross"); it != captured.end()) {
            torch::Tensor w = it->second.select(1, it->second.size(1) - 1).mean(1);  // last layer, mean of heads [B,T,S]
            torch::Tensor rowEntropy = -(w * w.clamp_min(1e-12).log()).sum(-1);        // [B, T]
            torch::Tensor rowMask = t.tgt.ne(Vocabulary::kPad);
            entropySum += rowEntropy.masked_select(rowMask).sum().item<double>();
            entropyRows += rowMask.sum().item<int64_t>();
            for (int64_t b = 0; b < batch.size; ++b) {
                const auto& links = d.gold[batch.indices[b]];
                if (links.empty()) continue;
                const int rows = static_cast<int>(batch.targetLengths[b]) - 1;  // without </s>
                const int cols = static_cast<int>(batch.sourceLengths[b]) - 1;
                if (rows <= 0 || cols <= 0) continue;
                using torch::indexing::Slice;
                AttentionMap map = toAttentionMap(w[b].index({Slice(0, rows), Slice(0, cols)}));
                aerSum += alignmentErrorRate(map, links, rows, cols);
                ++aerCount;
            }
        }

        const int64_t maxSteps = std::min<int64_t>(batch.targetLen + 10, maxLength - 1);
        torch::Tensor out = greedyDecode(net, t.src, t.srcLen, maxSteps);
        auto acc = out.accessor<int64_t, 2>();
        for (int64_t b = 0; b < batch.size; ++b) {
            const auto& ref = d.pairs[batch.indices[b]].target;  // ids with </s>
            std::vector<std::int64_t> hyp;
            for (int64_t j = 0; j < out.size(1); ++j) {
                hyp.push_back(acc[b][j]);
                if (acc[b][j] == Vocabulary::kEos) break;
            }
            for (std::size_t j = 0; j < ref.size(); ++j)
                if (j < hyp.size() && hyp[j] == ref[j]) ++correct;
            refTokens += static_cast<int64_t>(ref.size());
            if (hyp == ref) ++exact;
            if (!hyp.empty() && hyp.back() == Vocabulary::kEos) hyp.pop_back();
            hypotheses.push_back(tv.decode(hyp));
            references.push_back(d.targetTokens[batch.indices[b]]);
        }
    }
    net.train(wasTraining);
    m.validationLoss = tokenCount ? lossSum / static_cast<double>(tokenCount) : 0.0;
    m.tokenAccuracy = refTokens ? static_cast<double>(correct) / static_cast<double>(refTokens) : 0.0;
    m.exactMatch = static_cast<double>(exact) / static_cast<double>(d.validation.size());
    m.bleu = corpusBleu(hypotheses, references);
    if (entropyRows) m.attentionEntropy = entropySum / static_cast<double>(entropyRows);
    if (aerCount) m.alignmentErrorRate = aerSum / static_cast<double>(aerCount);
    return m;
}

EpochMetrics Trainer::finishEpoch() {
    Impl& d = *impl_;
    EpochMetrics m = evaluate();
    ++d.completedEpochs;
    m.epoch = d.completedEpochs;
    m.trainLoss = d.batches.empty() ? 0.0 : d.lossSum / static_cast<double>(d.cursor ? d.cursor : 1);
    m.pairsPerSecond = d.trainSeconds > 0 ? static_cast<double>(d.epochPairs) / d.trainSeconds : 0.0;
    m.seconds = secondsSince(d.epochStart);
    d.startEpoch();
    return m;
}

Trainer::Outcome Trainer::run(const std::function<void(const BatchReport&)>& onBatch,
                              const std::function<void(const EpochMetrics&)>& onEpoch,
                              const std::atomic<bool>* stop) {
    while (!finished()) {
        while (!epochComplete()) {
            BatchReport r = trainBatch();
            if (onBatch) onBatch(r);
            if (stop && stop->load()) return Outcome::Stopped;
        }
        EpochMetrics m = finishEpoch();
        if (onEpoch) onEpoch(m);
        if (stop && stop->load() && !finished()) return Outcome::Stopped;
    }
    return Outcome::Finished;
}

}  // namespace attnlab
