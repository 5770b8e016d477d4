#include "HeadImportance.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "base/InputError.h"
#include "base/Metrics.h"
#include "base/Tokenizer.h"
#include "base/translation/Batching.h"
#include "engine/detail/HeadGates.h"
#include "engine/detail/ModelAccess.h"
#include "engine/nn/TransformerClassifierNet.h"  // attentionRollout

namespace attnlab {

namespace {

using torch::Tensor;

// The corpus as the model sees it: ids with </s>, the reference tokens for BLEU.
struct EvalSet {
    std::vector<EncodedPair> pairs;
    std::vector<Tokens> references;
    std::vector<std::size_t> order;
    std::size_t skipped = 0;
};

EvalSet prepare(const Seq2SeqModel& model, const Corpus& corpus, std::size_t limit) {
    EvalSet set;
    const Tokenizer tokenizer(model.tokenizerOptions());
    const std::size_t maxTokens = static_cast<std::size_t>(std::max(2, model.config().maxLength)) - 1;
    for (const SentencePair& p : corpus.pairs) {
        if (limit && set.pairs.size() >= limit) break;
        Tokens s = tokenizer.tokenize(p.source), t = tokenizer.tokenize(p.target);
        if (s.empty() || t.empty() || s.size() > maxTokens || t.size() > maxTokens) {
            ++set.skipped;
            continue;
        }
        EncodedPair e;
        e.source = model.sourceVocabulary().encode(s);
        e.source.push_back(Vocabulary::kEos);
        e.target = model.targetVocabulary().encode(t);
        e.target.push_back(Vocabulary::kEos);
        set.order.push_back(set.pairs.size());
        set.pairs.push_back(std::move(e));
        set.references.push_back(std::move(t));
    }
    if (set.pairs.empty())
        throw InputError(corpus.name, 0,
                         "no usable sentence pair (each side needs a token, at most " + std::to_string(maxTokens) +
                             " of them for this model)");
    return set;
}

struct BatchTensors {
    Tensor src, srcLen, tgt, tgtIn;
};

BatchTensors toTensors(const Batch& b) {
    BatchTensors t;
    t.src = torch::tensor(b.source, torch::kLong).view({b.size, b.sourceLen});
    t.srcLen = torch::tensor(b.sourceLengths, torch::kLong);
    t.tgt = torch::tensor(b.target, torch::kLong).view({b.size, b.targetLen});
    using torch::indexing::Slice;
    t.tgtIn = torch::cat({torch::full({b.size, 1}, Vocabulary::kBos, torch::kLong),
                          t.tgt.index({Slice(), Slice(0, b.targetLen - 1)})},
                         1);
    return t;
}

// Token cross-entropy [B, T] (0 at padding).
Tensor tokenLosses(const Tensor& logits, const Tensor& tgt) {
    Tensor flat = torch::nn::functional::cross_entropy(
        logits.reshape({-1, logits.size(2)}), tgt.reshape({-1}),
        torch::nn::functional::CrossEntropyFuncOptions().ignore_index(Vocabulary::kPad).reduction(torch::kNone));
    return flat.view({tgt.size(0), tgt.size(1)});
}

nn::TransformerSeq2Seq& transformerOrThrow(nn::Seq2SeqNet& net) {
    nn::TransformerSeq2Seq* t = detail::transformerOf(net);
    if (!t) throw ConfigError("heads needs a Transformer model (a GRU has no attention heads)");
    return *t;
}

// The current gates' figures on the set (the caller sets the gates).
AblationScore evaluate(const Seq2SeqModel& model, nn::Seq2SeqNet& net, const EvalSet& set, std::size_t batchSize) {
    c10::InferenceMode inference;
    double lossSum = 0.0;
    std::int64_t tokens = 0, exact = 0;
    std::vector<Tokens> hypotheses(set.pairs.size());
    const std::int64_t maxLength = model.config().maxLength;
    for (const Batch& batch : makeBatches(set.pairs, set.order, batchSize)) {
        BatchTensors t = toTensors(batch);
        Tensor logits = net.forward(t.src, t.srcLen, t.tgtIn, nullptr, 1.0);
        lossSum += tokenLosses(logits, t.tgt).sum().item<double>();
        tokens += t.tgt.ne(Vocabulary::kPad).sum().item<std::int64_t>();
        const std::int64_t maxSteps = std::min<std::int64_t>(batch.targetLen + 10, maxLength - 1);
        Tensor out = greedyDecode(net, t.src, t.srcLen, maxSteps);
        auto acc = out.accessor<std::int64_t, 2>();
        for (std::int64_t b = 0; b < batch.size; ++b) {
            const std::size_t index = batch.indices[static_cast<std::size_t>(b)];
            std::vector<std::int64_t> hyp;
            for (std::int64_t j = 0; j < out.size(1); ++j) {
                hyp.push_back(acc[b][j]);
                if (acc[b][j] == Vocabulary::kEos) break;
            }
            if (hyp == set.pairs[index].target) ++exact;
            if (!hyp.empty() && hyp.back() == Vocabulary::kEos) hyp.pop_back();
            hypotheses[index] = model.targetVocabulary().decode(hyp);
        }
    }
    AblationScore score;
    score.loss = tokens ? lossSum / static_cast<double>(tokens) : 0.0;
    score.bleu = corpusBleu(hypotheses, set.references);
    score.exact = static_cast<double>(exact) / static_cast<double>(set.pairs.size());
    return score;
}

AblationScore evaluateWith(const Seq2SeqModel& model, nn::Seq2SeqNet& net, const EvalSet& set,
                           const std::vector<HeadId>& off, std::size_t batchSize) {
    nn::TransformerSeq2Seq* t = off.empty() ? nullptr : &transformerOrThrow(net);
    const detail::AblationScope scope(t, off, model.config().layers, model.config().heads);
    return evaluate(model, net, set, batchSize);
}

// Sum over sentences of |dL(x)/d xi_h|, allHeads order. Each module's gate is [B, H], one row per
// sentence, so one backward pass gives every sentence's own derivatives.
std::vector<double> gateGradients(const Seq2SeqModel& model, nn::TransformerSeq2Seq& net, const EvalSet& set,
                                  std::size_t batchSize) {
    const int layers = model.config().layers, heads = model.config().heads;
    const std::vector<HeadId> all = allHeads(layers, heads);
    std::vector<double> sums(all.size(), 0.0);
    struct GateClear {
        nn::TransformerSeq2Seq& net;
        ~GateClear() { net.clearHeadGates(); }
    } clear{net};
    torch::AutoGradMode grad(true);
    for (const Batch& batch : makeBatches(set.pairs, set.order, batchSize)) {
        BatchTensors t = toTensors(batch);
        std::vector<Tensor> gates;  // kHeadKinds x layers, each [B, H]
        for (MapKind kind : kHeadKinds)
            for (int l = 0; l < layers; ++l) {
                gates.push_back(torch::ones({batch.size, heads}, torch::requires_grad()));
                net.attentionModule(kind, static_cast<std::size_t>(l))->setHeadGate(gates.back());
            }
        Tensor loss = tokenLosses(net.forward(t.src, t.srcLen, t.tgtIn, nullptr, 1.0), t.tgt).sum();
        std::vector<Tensor> grads = torch::autograd::grad({loss}, gates, {}, false, false, /*allow_unused=*/true);
        for (std::size_t g = 0; g < grads.size(); ++g) {
            if (!grads[g].defined()) continue;
            Tensor perHead = grads[g].abs().sum(0).to(torch::kDouble).contiguous();  // [H]
            const double* p = perHead.data_ptr<double>();
            for (int h = 0; h < heads; ++h) sums[g * static_cast<std::size_t>(heads) + static_cast<std::size_t>(h)] += p[h];
        }
    }
    return sums;
}

// Metric after removing the first k heads of `order`, for k = 0..n.
std::vector<PruningPoint> pruningCurve(const Seq2SeqModel& model, nn::Seq2SeqNet& net, const EvalSet& set,
                                       const std::vector<HeadId>& order, std::size_t batchSize,
                                       const AblationScore& baseline, const std::function<void()>& tick) {
    std::vector<PruningPoint> curve;
    const int n = static_cast<int>(order.size());
    for (int k = 0; k <= n; ++k) {
        const AblationScore s =
            k == 0 ? baseline
                   : evaluateWith(model, net, set, std::vector<HeadId>(order.begin(), order.begin() + k), batchSize);
        curve.push_back({k, n ? static_cast<double>(k) / n : 0.0, s.bleu, s.loss});
        if (k) tick();
    }
    return curve;
}

}  // namespace

std::vector<double> normalisePerLayer(const std::vector<double>& values, int heads) {
    std::vector<double> out(values.size(), 0.0);
    const std::size_t h = static_cast<std::size_t>(std::max(1, heads));
    for (std::size_t first = 0; first < values.size(); first += h) {
        const std::size_t last = std::min(values.size(), first + h);
        double norm = 0.0;
        for (std::size_t i = first; i < last; ++i) norm += values[i] * values[i];
        norm = std::sqrt(norm);
        for (std::size_t i = first; i < last; ++i) out[i] = norm > 0 ? values[i] / norm : 0.0;
    }
    return out;
}

AblationScore scoreWithAblation(const Seq2SeqModel& model, const Corpus& corpus, const std::vector<HeadId>& off,
                                std::size_t limit) {
    nn::Seq2SeqNet& net = *detail::ModelAccess::impl(model).net;
    const EvalModeGuard evalMode(net);
    const EvalSet set = prepare(model, corpus, limit);
    return evaluateWith(model, net, set, off, 64);
}

std::vector<double> headGateGradients(const Seq2SeqModel& model, const Corpus& corpus, std::size_t limit) {
    nn::Seq2SeqNet& net = *detail::ModelAccess::impl(model).net;
    nn::TransformerSeq2Seq& transformer = transformerOrThrow(net);
    const EvalModeGuard evalMode(net);
    const EvalSet set = prepare(model, corpus, limit);
    return gateGradients(model, transformer, set, 64);
}

HeadImportanceReport measureHeadImportance(const Seq2SeqModel& model, const Corpus& corpus,
                                           const HeadImportanceOptions& options,
                                           const std::function<void(int, int)>& progress) {
    nn::Seq2SeqNet& net = *detail::ModelAccess::impl(model).net;
    nn::TransformerSeq2Seq& transformer = transformerOrThrow(net);
    const EvalModeGuard evalMode(net);
    const EvalSet set = prepare(model, corpus, options.limit);
    const std::size_t batch = std::max<std::size_t>(1, options.batchSize);
    const std::vector<HeadId> all = allHeads(model.config().layers, model.config().heads);
    const int n = static_cast<int>(all.size());
    const int total = 1 + n + n + std::max(0, options.randomOrders) * n;
    int done = 0;
    auto tick = [&] {
        ++done;
        if (progress) progress(done, total);
    };

    HeadImportanceReport report;
    report.pairs = set.pairs.size();
    report.skipped = set.skipped;
    report.baseline = evaluate(model, net, set, batch);
    tick();
    const std::vector<double> gradients = gateGradients(model, transformer, set, batch);
    const std::vector<double> importance = normalisePerLayer(gradients, model.config().heads);
    for (std::size_t i = 0; i < all.size(); ++i) {
        HeadEffect e;
        e.head = all[i];
        const AblationScore s = evaluateWith(model, net, set, {all[i]}, batch);
        e.loss = s.loss;
        e.bleu = s.bleu;
        e.exact = s.exact;
        e.deltaLoss = s.loss - report.baseline.loss;
        e.deltaMetric = s.bleu - report.baseline.bleu;
        e.gradient = gradients[i];
        e.importance = importance[i];
        report.heads.push_back(e);
        tick();
    }

    // Least important first; ties by the order of allHeads.
    std::vector<std::size_t> rank(all.size());
    std::iota(rank.begin(), rank.end(), 0);
    std::stable_sort(rank.begin(), rank.end(), [&](std::size_t a, std::size_t b) { return importance[a] < importance[b]; });
    for (std::size_t i : rank) report.pruningOrder.push_back(all[i]);
    report.pruningCurve = pruningCurve(model, net, set, report.pruningOrder, batch, report.baseline, tick);

    if (options.randomOrders > 0) {
        std::mt19937_64 rng(options.seed);
        std::vector<PruningPoint> sum;
        for (int r = 0; r < options.randomOrders; ++r) {
            std::vector<HeadId> order = all;
            std::shuffle(order.begin(), order.end(), rng);
            const auto curve = pruningCurve(model, net, set, order, batch, report.baseline, tick);
            if (sum.empty()) {
                sum = curve;
            } else {
                for (std::size_t k = 0; k < curve.size(); ++k) {
                    sum[k].metric += curve[k].metric;
                    sum[k].loss += curve[k].loss;
                }
            }
        }
        for (auto& p : sum) {
            p.metric /= options.randomOrders;
            p.loss /= options.randomOrders;
        }
        report.randomCurve = std::move(sum);
    }
    return report;
}

double forcedLogProbability(const Seq2SeqModel& model, const std::string& sentence,
                            const std::vector<std::string>& output, const std::vector<HeadId>& off) {
    const Seq2SeqModel::Impl& impl = detail::ModelAccess::impl(model);
    nn::Seq2SeqNet& net = *impl.net;
    auto words = Tokenizer(impl.tokenizer).tokenize(sentence);
    if (words.empty()) throw ConfigError("the sentence is empty: type at least one word");
    const std::vector<std::int64_t> src = impl.encodeSource(words, nullptr);
    std::vector<std::int64_t> tgt = impl.target.encode(output);
    tgt.push_back(Vocabulary::kEos);
    if (static_cast<std::int64_t>(tgt.size()) > impl.config.maxLength)
        throw ConfigError("the output has more tokens than the model's maximum of " +
                          std::to_string(impl.config.maxLength - 1));
    std::vector<std::int64_t> tgtIn{Vocabulary::kBos};
    tgtIn.insert(tgtIn.end(), tgt.begin(), tgt.end() - 1);

    c10::InferenceMode inference;
    const EvalModeGuard evalMode(net);
    nn::TransformerSeq2Seq* transformer = detail::transformerOf(net);
    if (!off.empty() && !transformer)
        throw ConfigError("head ablation needs a Transformer model (a GRU has no attention heads)");
    const detail::AblationScope scope(off.empty() ? nullptr : transformer, off, impl.config.layers, impl.config.heads);
    Tensor srcT = torch::tensor(src, torch::kLong).unsqueeze(0);
    Tensor srcLen = torch::tensor({static_cast<std::int64_t>(src.size())}, torch::kLong);
    Tensor logits = net.forward(srcT, srcLen, torch::tensor(tgtIn, torch::kLong).unsqueeze(0), nullptr, 1.0);
    Tensor lp = torch::log_softmax(logits[0], 1).contiguous();  // [T, V]
    const float* data = lp.data_ptr<float>();
    const std::int64_t V = lp.size(1);
    float score = 0.0f;  // in float, as beam search accumulates
    for (std::size_t t = 0; t < tgt.size(); ++t) score = score + data[static_cast<std::int64_t>(t) * V + tgt[t]];
    return score;
}

AttentionMap encoderRollout(const Translation& translation, const std::vector<HeadId>& off) {
    const auto found = translation.attention.find(MapKind::Encoder);
    if (found == translation.attention.end() || found->second.empty()) return {};
    const LayeredAttention& layers = found->second;
    torch::NoGradGuard noGrad;
    std::vector<Tensor> perLayer;
    for (std::size_t l = 0; l < layers.size(); ++l) {
        std::vector<Tensor> kept;
        int rows = 0, cols = 0;
        for (std::size_t h = 0; h < layers[l].size(); ++h) {
            const AttentionMap& map = layers[l][h];
            rows = map.rows;
            cols = map.cols;
            const HeadId id{MapKind::Encoder, static_cast<int>(l), static_cast<int>(h)};
            if (std::find(off.begin(), off.end(), id) != off.end()) continue;
            kept.push_back(torch::from_blob(const_cast<float*>(map.weights.data()), {map.rows, map.cols}, torch::kFloat)
                               .to(torch::kDouble));
        }
        if (rows == 0 || rows != cols) return {};
        perLayer.push_back(kept.empty() ? torch::zeros({1, 1, rows, cols}, torch::kDouble)
                                        : torch::stack(kept).unsqueeze(0));  // [1, H', S, S]
    }
    Tensor r = nn::attentionRollout(perLayer)[0].to(torch::kFloat).contiguous();
    AttentionMap out{static_cast<int>(r.size(0)), static_cast<int>(r.size(1)), {}};
    out.weights.assign(r.data_ptr<float>(), r.data_ptr<float>() + r.numel());
    return out;
}

Translation translateAblated(const Seq2SeqModel& model, const std::string& sentence, const DecodeOptions& options,
                             const std::vector<HeadId>& off) {
    if (off.empty()) return model.translate(sentence, options);
    const Seq2SeqModel::Impl& impl = detail::ModelAccess::impl(model);
    nn::TransformerSeq2Seq* transformer = detail::transformerOf(*impl.net);
    if (!transformer) throw ConfigError("head ablation needs a Transformer model (a GRU has no attention heads)");
    // Gated modules take the plain decoding step, which applies the gates (DecoderLayer::step).
    const detail::AblationScope scope(transformer, off, impl.config.layers, impl.config.heads);
    return model.translate(sentence, options);
}

AblatedTranslation translateWithAblation(const Seq2SeqModel& model, const std::string& sentence,
                                         const DecodeOptions& options, const std::vector<HeadId>& off) {
    AblatedTranslation out;
    out.original = model.translate(sentence, options);
    out.ablated = translateAblated(model, sentence, options, off);
    out.originalLogProbability = forcedLogProbability(model, sentence, out.original.outputTokens);
    out.originalLogProbabilityAblated = forcedLogProbability(model, sentence, out.original.outputTokens, off);
    out.rollout = encoderRollout(out.ablated, off);
    return out;
}

}  // namespace attnlab
