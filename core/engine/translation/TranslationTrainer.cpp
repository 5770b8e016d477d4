#include "TranslationTrainer.h"

#include "engine/Runtime.h"

#include <sstream>
#include <ATen/CPUGeneratorImpl.h>

#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <random>
#include <thread>

#include "engine/detail/AttentionLosses.h"
#include "engine/detail/ModelAccess.h"
#include "engine/detail/ParallelBatch.h"
#include "base/translation/Alignments.h"
#include "base/translation/Batching.h"
#include "engine/translation/TranslationBatch.h"
#include "base/InputError.h"
#include "base/Memory.h"
#include "base/analysis/Metrics.h"
#include "base/translation/ModelSize.h"
#include "engine/nn/kernels/Random.h"

namespace attnlab {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

void checkOptions(const TranslationTrainingOptions& o) {
    auto text = [](double v) {
        std::ostringstream out;
        out << v;  // shortest: 0.9, 1e+06, 64
        return out.str();
    };
    auto range = [&](Setting setting, double v, double lo, double hi, bool lowOpen = false) {
        if ((lowOpen ? v > lo : v >= lo) && v <= hi) return;
        SettingProblem p;
        p.setting = setting;
        p.value = text(v);
        p.low = text(lo);
        p.high = text(hi);
        p.lowOpen = lowOpen;
        throw ConfigError(p);
    };
    range(Setting::Epochs, o.epochs, 1, 100000);
    range(Setting::BatchSize, o.batchSize, 1, 4096);
    range(Setting::LearningRate, o.learningRate, 0, 10, true);
    range(Setting::Clip, o.clip, 0, 1e6);
    range(Setting::TeacherForcing, o.teacherForcing, 0, 1);
    range(Setting::Threads, o.threads, 1, 64);
    range(Setting::ValidationFraction, o.validationFraction, 0, 0.9);
    range(Setting::MinFrequency, o.minFrequency, 1, 1000000);
    range(Setting::CoveragePenalty, o.coveragePenalty, 0, 100);
    range(Setting::GuidedAlignment, o.guidedAlignment, 0, 100);
}

// Rows [first, first + count) of a batch, their padding trimmed to the longest of them.
BatchTensors rowsOf(const Batch& b, const BatchTensors& t, std::int64_t first, std::int64_t count) {
    std::int64_t srcLen = 1, tgtLen = 1;
    for (std::int64_t i = first; i < first + count; ++i) {
        srcLen = std::max(srcLen, b.sourceLengths[static_cast<std::size_t>(i)]);
        tgtLen = std::max(tgtLen, b.targetLengths[static_cast<std::size_t>(i)]);
    }
    BatchTensors part;
    part.src = t.src.narrow(0, first, count).narrow(1, 0, srcLen);
    part.srcLen = t.srcLen.narrow(0, first, count);
    part.tgt = t.tgt.narrow(0, first, count).narrow(1, 0, tgtLen);
    part.tgtIn = t.tgtIn.narrow(0, first, count).narrow(1, 0, tgtLen);
    return part;
}

std::string humanBytes(std::int64_t bytes) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

}  // namespace

struct TranslationTrainer::Impl {
    TranslationTrainingOptions options;
    std::unique_ptr<Seq2SeqModel> model;
    // Adam, and each batch's forward and backward split into `parts` parts on threads of their own.
    std::unique_ptr<detail::ParallelBatchTrainer> trainer;
    std::vector<EncodedPair> pairs;
    std::vector<SentenceAlignment> gold;  // per pair, over its tokens; empty if none
    std::vector<std::vector<std::string>> targetTokens;
    std::vector<std::size_t> train, validation;
    ParallelCorpus validationCorpus;  // the validation pairs as the corpus gave them
    std::size_t skippedTooLong = 0;
    std::int64_t estimatedBytes = 0;
    std::mt19937_64 rng;
    // Parts each batch is split into; 1 = the whole batch on the calling thread.
    int parts = 1;

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

namespace {

// The gold rows of part [first, first + count) of a batch, trimmed as rowsOf trims the tensors.
torch::Tensor goldRows(const torch::Tensor& gold, const BatchTensors& part, std::int64_t first, std::int64_t count) {
    if (!gold.defined()) return gold;
    return gold.narrow(0, first, count).narrow(1, 0, part.tgt.size(1)).narrow(2, 0, part.src.size(1));
}

// Sets the network's differentiableAttention for one training step (attention losses only).
class DifferentiableAttention {
public:
    DifferentiableAttention(nn::Seq2SeqNet& net, bool on) : net_(net) { net_.differentiableAttention = on; }
    ~DifferentiableAttention() { net_.differentiableAttention = false; }
    DifferentiableAttention(const DifferentiableAttention&) = delete;
    DifferentiableAttention& operator=(const DifferentiableAttention&) = delete;

private:
    nn::Seq2SeqNet& net_;
};

// Attention losses need an attention to pull (not `none`); guided alignment also needs gold links
// among the training pairs, and on a Transformer a head that exists.
void checkAttentionLosses(const TranslationTrainingOptions& o, const ModelConfig& c, const std::vector<SentenceAlignment>& gold,
                          const std::vector<std::size_t>& train) {
    if (!hasAttentionLoss(o)) return;
    const char* what = o.guidedAlignment > 0 ? "guided alignment (--guided-alignment)" : "the coverage penalty (--coverage-penalty)";
    if (c.architecture == Architecture::Gru && c.attention == AttentionKind::None)
        throw ConfigError(std::string(what) + " needs an attention to act on: the model's attention is none");
    if (o.guidedAlignment <= 0) return;
    bool linked = false;
    for (std::size_t i : train) linked = linked || !gold[i].sure.empty() || !gold[i].possible.empty();
    if (!linked)
        throw ConfigError("guided alignment (--guided-alignment) needs gold word links, and the training pairs have "
                          "none: a built-in dataset has them; a corpus file gets them from Add Word Alignments… or "
                          "--alignments FILE");
    const int layers = c.architecture == Architecture::Transformer ? c.layers : 1;
    const int heads = c.architecture == Architecture::Transformer ? c.heads : 1;
    if (o.alignmentLayer < -1 || o.alignmentLayer >= layers || o.alignmentHead < 0 || o.alignmentHead >= heads)
        throw ConfigError("the guided head (--alignment-head) must be a cross-attention head of the model (layer 1-" +
                          std::to_string(layers) + ", head 1-" + std::to_string(heads) + "), got layer " +
                          std::to_string(o.alignmentLayer < 0 ? layers : o.alignmentLayer + 1) + ", head " + std::to_string(o.alignmentHead + 1));
}

}  // namespace

TranslationTrainer::TranslationTrainer(const ParallelCorpus& corpus, ModelConfig config, TranslationTrainingOptions options)
    : impl_(std::make_unique<Impl>()) {
    checkOptions(options);
    Impl& d = *impl_;
    d.options = options;
    d.rng.seed(options.seed);

    Tokenizer tokenizer(options.tokenizer);
    std::vector<std::vector<std::string>> src, tgt;
    std::vector<SentenceAlignment> gold;
    std::vector<const SentencePair*> kept;  // the corpus pair of each usable pair
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
        kept.push_back(&p);
        gold.push_back(goldOverTokens(p, tokenizer));  // word links onto the tokens the model sees
    }
    if (src.empty())
        throw InputError(corpus.name, 0,
                         d.skippedTooLong ? "every pair is longer than --max-len " + std::to_string(config.maxLength)
                                          : "no usable sentence pair");

    Split split = splitTrainValidation(src.size(), options.validationFraction, options.seed);
    d.train = std::move(split.train);
    d.validation = std::move(split.validation);
    d.validationCorpus.name = corpus.name + " (validation pairs)";
    for (auto i : d.validation) d.validationCorpus.pairs.push_back(*kept[i]);
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
    checkConfig(config);
    checkAttentionLosses(options, config, d.gold, d.train);
    // Several threads split each batch between them rather than share BLAS calls: with
    // the fused GRU path BLAS is only half of a batch, and these matrices are too small
    // for two BLAS threads to help much. Each part draws from its own generator, except
    // in the library GRU's dropout between encoder layers, which only knows the global
    // one: such models train whole batches, their threads going to BLAS.
    const bool globalDraws = config.architecture == Architecture::Gru && config.layers > 1 && config.dropout > 0;
    d.parts = globalDraws ? 1 : options.threads;
    setThreadCount(d.parts > 1 ? 1 : options.threads);
    d.estimatedBytes = estimateTrainingBytes(config, options.batchSize, config.maxLength);
    const std::int64_t physical = physicalMemoryBytes();
    if (physical > 0 && d.estimatedBytes > physical * 8 / 10)
        throw ConfigError("this configuration needs about " + humanBytes(d.estimatedBytes) + " but the machine has " +
                          humanBytes(physical) + "; reduce --hidden, --batch, --layers or --max-len");

    d.model = std::make_unique<Seq2SeqModel>(config, std::move(sourceVocab), std::move(targetVocab),
                                             options.tokenizer, options.seed);
    d.trainer = std::make_unique<detail::ParallelBatchTrainer>(detail::ModelAccess::impl(*d.model).net->parameters(),
                                                              d.parts, options.learningRate);
    setModel(d.model.get(), d.train.size(), d.validation.size());
    d.startEpoch();
}

TranslationTrainer::~TranslationTrainer() = default;

const TranslationTrainingOptions& TranslationTrainer::options() const { return impl_->options; }
int TranslationTrainer::batchesPerEpoch() const { return static_cast<int>(impl_->batches.size()); }

const ParallelCorpus& TranslationTrainer::validationCorpus() const { return impl_->validationCorpus; }
std::size_t TranslationTrainer::skippedTooLong() const { return impl_->skippedTooLong; }
std::int64_t TranslationTrainer::estimatedBytes() const { return impl_->estimatedBytes; }
int TranslationTrainer::partsPerBatch() const { return impl_->parts; }
bool TranslationTrainer::epochComplete() const { return impl_->cursor >= impl_->batches.size(); }
bool TranslationTrainer::finished() const { return impl_->completedEpochs >= impl_->options.epochs; }

BatchReport TranslationTrainer::trainBatch() {
    Impl& d = *impl_;
    if (epochComplete()) throw std::logic_error("trainBatch() called at the end of an epoch");
    const auto start = Clock::now();
    const Batch& batch = d.batches[d.cursor];
    BatchReport report;
    report.epoch = d.completedEpochs + 1;
    report.batch = static_cast<int>(d.cursor) + 1;
    report.batchesPerEpoch = static_cast<int>(d.batches.size());
    report.pairs = batch.size;

    nn::Seq2SeqNet& net = *detail::ModelAccess::impl(*d.model).net;
    net.train();
    BatchTensors t = toTensors(batch);
    ++d.globalBatch;
    const bool injectNonFinite = d.globalBatch == d.options.injectNonFiniteAtBatch;
    // Attention losses: the batch's gold targets and what the losses are divided by.
    const bool attentionLosses = hasAttentionLoss(d.options);
    const DifferentiableAttention differentiable(net, attentionLosses);
    torch::Tensor gold;
    AttentionLossScale scale;
    if (attentionLosses) {
        scale.sentences = static_cast<double>(batch.size);
        if (d.options.guidedAlignment > 0) gold = goldTargets(d.gold, batch, &scale.linkedRows);
    }
    // Each part's loss is its share of the batch's mean token loss (its summed token losses over
    // the batch's token count), so the parts' losses and gradients add up to the whole batch's.
    const double tokens = static_cast<double>(t.tgt.ne(Vocabulary::kPad).sum().item<std::int64_t>());
    const double lossValue = d.trainer->backward(batch.size, [&](const detail::BatchPart& part, double& reported) {
        const bool whole = part.count == batch.size;
        const BatchTensors mine = whole ? t : rowsOf(batch, t, part.first, part.count);
        nn::Captured captured;
        torch::Tensor logits = net.forward(mine.src, mine.srcLen, mine.tgtIn, attentionLosses ? &captured : nullptr,
                                           d.options.teacherForcing);
        torch::Tensor loss = torch::nn::functional::cross_entropy(
                                 logits.reshape({-1, logits.size(2)}), mine.tgt.reshape({-1}),
                                 torch::nn::functional::CrossEntropyFuncOptions()
                                     .ignore_index(Vocabulary::kPad)
                                     .reduction(torch::kSum)) /
                             tokens;
        if (part.index == 0 && injectNonFinite) loss = loss * std::nan("");
        reported = loss.item<double>();  // the cross-entropy: what the curves show
        if (!attentionLosses || !std::isfinite(reported)) return loss;
        return loss + attentionLoss(captured, mine.tgt, mine.src,
                                    whole ? gold : goldRows(gold, mine, part.first, part.count), d.options, scale);
    }, [&](std::int64_t first, std::int64_t count) {
        // A part's recurrences and products run over its longest source and target: the rows are
        // sorted by source length, so the middle row would leave the first part the longer one.
        std::int64_t src = 1, tgt = 1;
        for (std::int64_t i = first; i < first + count; ++i) {
            src = std::max(src, batch.sourceLengths[static_cast<std::size_t>(i)]);
            tgt = std::max(tgt, batch.targetLengths[static_cast<std::size_t>(i)]);
        }
        return static_cast<double>(count * (src + tgt));
    });
    if (!std::isfinite(lossValue)) throw TrainingDiverged(report.epoch, report.batch, "the loss is not finite");
    // A non-finite attention loss shows in the gradient's norm.
    const double norm = d.trainer->clipGradNorm(d.options.clip);
    if (!std::isfinite(norm)) throw TrainingDiverged(report.epoch, report.batch, "a gradient is not finite");
    d.trainer->step();
    ++d.cursor;
    d.lossSum += lossValue;
    d.epochPairs += batch.size;
    d.trainSeconds += secondsSince(start);
    report.loss = lossValue;
    return report;
}

TranslationEpochMetrics TranslationTrainer::evaluate() {
    Impl& d = *impl_;
    TranslationEpochMetrics m;
    m.epoch = d.completedEpochs;
    if (d.validation.empty()) return m;
    nn::Seq2SeqNet& net = *detail::ModelAccess::impl(*d.model).net;
    const EvalModeGuard evalMode(net);
    c10::InferenceMode inference;
    const Vocabulary& tv = d.model->targetVocabulary();

    double lossSum = 0.0, entropySum = 0.0;
    std::int64_t tokenCount = 0, entropyRows = 0, correct = 0, refTokens = 0, exact = 0, sourceWords = 0, uncovered = 0;
    // Argmax attention links and gold of the validation pairs that have gold, for AER.
    std::vector<std::vector<AlignmentLink>> predictedLinks;
    std::vector<SentenceAlignment> goldLinks;
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

        if (auto it = captured.find(MapKind::Cross); it != captured.end()) {
            torch::Tensor w = it->second.select(1, it->second.size(1) - 1).mean(1);  // last layer, mean of heads [B,T,S]
            // With guided alignment, AER scores the head it pulls.
            const torch::Tensor linked = d.options.guidedAlignment > 0 ? guidedMap(captured, d.options) : w;
            torch::Tensor rowEntropy = -(w * w.clamp_min(1e-12).log()).sum(-1);        // [B, T]
            torch::Tensor rowMask = t.tgt.ne(Vocabulary::kPad);
            entropySum += rowEntropy.masked_select(rowMask).sum().item<double>();
            entropyRows += rowMask.sum().item<int64_t>();
            {
                torch::Tensor received = (w * rowMask.unsqueeze(2).to(w.scalar_type())).sum(1);  // [B, S]
                auto rec = received.accessor<float, 2>();
                for (int64_t b = 0; b < batch.size; ++b)
                    for (int64_t s = 0; s + 1 < batch.sourceLengths[static_cast<std::size_t>(b)]; ++s) {
                        ++sourceWords;
                        if (rec[b][s] < 0.1f) ++uncovered;
                    }
            }
            for (int64_t b = 0; b < batch.size; ++b) {
                const SentenceAlignment& gold = d.gold[batch.indices[b]];
                if (gold.sure.empty() && gold.possible.empty()) continue;
                const int rows = static_cast<int>(batch.targetLengths[b]) - 1;  // without </s>
                const int cols = static_cast<int>(batch.sourceLengths[b]) - 1;
                if (rows <= 0 || cols <= 0) continue;
                using torch::indexing::Slice;
                AttentionMap map = toAttentionMap(linked[b].index({Slice(0, rows), Slice(0, cols)}));
                predictedLinks.push_back(argmaxLinks(map, rows, cols));
                goldLinks.push_back(gold);
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
    m.validationLoss = tokenCount ? lossSum / static_cast<double>(tokenCount) : 0.0;
    m.tokenAccuracy = refTokens ? static_cast<double>(correct) / static_cast<double>(refTokens) : 0.0;
    m.exactMatch = static_cast<double>(exact) / static_cast<double>(d.validation.size());
    m.bleu = corpusBleu(hypotheses, references);
    if (entropyRows) m.attentionEntropy = entropySum / static_cast<double>(entropyRows);
    if (sourceWords) m.uncoveredShare = static_cast<double>(uncovered) / static_cast<double>(sourceWords);
    if (!goldLinks.empty()) {
        const AlignmentScore score = scoreAlignments(predictedLinks, goldLinks);  // over the whole set
        m.alignmentErrorRate = score.aer;
        m.alignmentPrecision = score.precision;
        m.alignmentRecall = score.recall;
    }
    return m;
}

TranslationEpochMetrics TranslationTrainer::finishEpoch() {
    Impl& d = *impl_;
    TranslationEpochMetrics m = evaluate();
    ++d.completedEpochs;
    epochDone(d.completedEpochs);
    m.epoch = d.completedEpochs;
    m.trainLoss = d.batches.empty() ? 0.0 : d.lossSum / static_cast<double>(d.cursor ? d.cursor : 1);
    m.pairsPerSecond = d.trainSeconds > 0 ? static_cast<double>(d.epochPairs) / d.trainSeconds : 0.0;
    m.seconds = secondsSince(d.epochStart);
    d.startEpoch();
    releaseFreeMemory();  // evaluation's and checkpointing's one-off blocks; costs the next batch a few page faults
    return m;
}

TranslationTrainer::Outcome TranslationTrainer::run(const std::function<void(const BatchReport&)>& onBatch,
                              const std::function<void(const TranslationEpochMetrics&)>& onEpoch,
                              const std::atomic<bool>* stop) {
    while (!finished()) {
        while (!epochComplete()) {
            BatchReport r = trainBatch();
            if (onBatch) onBatch(r);
            if (stop && stop->load()) return Outcome::Stopped;
        }
        TranslationEpochMetrics m = finishEpoch();
        if (onEpoch) onEpoch(m);
        if (stop && stop->load() && !finished()) return Outcome::Stopped;
    }
    return Outcome::Finished;
}

}  // namespace attnlab
