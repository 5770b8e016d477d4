#include "HeadImportance.h"

#include <algorithm>
#include <cmath>

#include "base/InputError.h"
#include "base/analysis/Metrics.h"
#include "base/Tokenizer.h"
#include "base/translation/Batching.h"
#include "engine/translation/TranslationBatch.h"
#include "engine/detail/HeadGates.h"
#include "engine/detail/HeadStudyRunner.h"
#include "engine/detail/ModelAccess.h"
#include "engine/nn/networks/TransformerClassifierNet.h"  // attentionRollout

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

EvalSet prepare(const Seq2SeqModel& model, const ParallelCorpus& corpus, std::size_t limit) {
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

// The translation model as a head study's subject (engine/detail/HeadStudyRunner.h): every head of
// the three kinds, scored by BLEU, the loss the summed token cross-entropy (teacher forced).
template <class Run>
auto withTranslationSubject(const Seq2SeqModel& model, nn::Seq2SeqNet& net, const EvalSet& set, std::size_t batch,
                            Run&& run) {
    nn::TransformerSeq2Seq& transformer = transformerOrThrow(net);
    detail::HeadSubject s;
    s.heads = allHeads(model.config().layers, model.config().heads);
    s.headsPerLayer = model.config().heads;
    s.module = [&transformer](MapKind kind, int layer) -> nn::MultiHeadAttention& {
        return transformer.attentionModule(kind, static_cast<std::size_t>(layer));
    };
    s.score = [&] {
        const AblationScore a = evaluate(model, net, set, batch);
        return HeadScore{a.loss, a.bleu, a.exact};
    };
    s.forEachBatch = [&](const detail::HeadSubject::Visit& visit) {
        for (const Batch& b : makeBatches(set.pairs, set.order, batch)) {
            const BatchTensors t = toTensors(b);
            visit(b.size, [&] { return tokenLosses(net.forward(t.src, t.srcLen, t.tgtIn, nullptr, 1.0), t.tgt).sum(); });
        }
    };
    return run(s);
}

AblationScore toAblationScore(const HeadScore& s) { return {s.loss, s.metric, s.exact}; }

}  // namespace

AblationScore scoreWithAblation(const Seq2SeqModel& model, const ParallelCorpus& corpus, const std::vector<HeadId>& off,
                                std::size_t limit) {
    nn::Seq2SeqNet& net = *detail::ModelAccess::impl(model).net;
    const EvalModeGuard evalMode(net);
    const EvalSet set = prepare(model, corpus, limit);
    if (off.empty()) return evaluate(model, net, set, 64);  // a GRU too
    return withTranslationSubject(model, net, set, 64,
                                  [&](const detail::HeadSubject& s) { return toAblationScore(detail::scoreWith(s, off)); });
}

std::vector<double> headGateGradients(const Seq2SeqModel& model, const ParallelCorpus& corpus, std::size_t limit) {
    nn::Seq2SeqNet& net = *detail::ModelAccess::impl(model).net;
    transformerOrThrow(net);
    const EvalModeGuard evalMode(net);
    const EvalSet set = prepare(model, corpus, limit);
    return withTranslationSubject(model, net, set, 64, [](const detail::HeadSubject& s) { return detail::gateGradients(s); });
}

HeadImportanceReport measureHeadImportance(const Seq2SeqModel& model, const ParallelCorpus& corpus,
                                           const HeadImportanceOptions& options,
                                           const std::function<void(int, int)>& progress) {
    nn::Seq2SeqNet& net = *detail::ModelAccess::impl(model).net;
    transformerOrThrow(net);
    const EvalModeGuard evalMode(net);
    const EvalSet set = prepare(model, corpus, options.limit);
    const std::size_t batch = std::max<std::size_t>(1, options.batchSize);
    const HeadStudyReport study = withTranslationSubject(
        model, net, set, batch, [&](const detail::HeadSubject& s) { return detail::runHeadStudy(s, options, progress); });

    HeadImportanceReport report;
    report.study = study;
    report.study.metric = "BLEU";
    report.study.higherIsBetter = true;
    report.study.items = set.pairs.size();
    report.study.skipped = set.skipped;
    report.pairs = set.pairs.size();
    report.skipped = set.skipped;
    report.baseline = toAblationScore(study.baseline);
    for (const HeadStudyEffect& e : study.heads) {
        HeadEffect h;
        h.head = e.head;
        h.loss = e.score.loss;
        h.bleu = e.score.metric;
        h.exact = e.score.exact;
        h.deltaLoss = e.deltaLoss;
        h.deltaMetric = e.deltaMetric;
        h.gradient = e.gradient;
        h.importance = e.importance;
        report.heads.push_back(h);
    }
    report.pruningCurve = study.pruningCurve;
    report.randomCurve = study.randomCurve;
    report.pruningOrder = study.pruningOrder;
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
