#include "ClassifierHeadStudy.h"

#include <algorithm>

#include "base/InputError.h"
#include "base/text/ClassifyCorpus.h"
#include "engine/detail/HeadStudyRunner.h"
#include "engine/detail/ModelAccess.h"
#include "engine/nn/networks/TransformerClassifierNet.h"

namespace attnlab {

using torch::Tensor;

namespace {

using detail::appendHeads;
using detail::batchOf;
using detail::encoderSubject;
using detail::studyReport;

// ---- Text classifier --------------------------------------------------------------------------

struct StudyTexts {
    std::vector<std::vector<std::int64_t>> ids;
    std::vector<std::int64_t> labels;
    std::size_t skipped = 0;
};

StudyTexts prepareTexts(const TextClassifier& model, const ClassificationCorpus& corpus, std::size_t limit) {
    StudyTexts set;
    for (const LabeledText& e : corpus.examples) {
        if (limit && set.ids.size() >= limit) break;
        const int label = model.labelIndex(e.label);
        std::vector<std::int64_t> ids = model.ids(e.text);
        if (label < 0 || ids.empty()) {
            ++set.skipped;
            continue;
        }
        set.ids.push_back(std::move(ids));
        set.labels.push_back(label);
    }
    if (set.ids.empty())
        throw InputError(corpus.name, 0, "no text the model can classify (every label is one the model does not know)");
    return set;
}

struct StudyTextBatch {
    Tensor ids, lengths, labels;
};

StudyTextBatch studyTextBatch(const StudyTexts& set, std::size_t first, std::size_t last) {
    std::size_t longest = 0;
    for (std::size_t i = first; i < last; ++i) longest = std::max(longest, set.ids[i].size());
    const auto B = static_cast<std::int64_t>(last - first);
    StudyTextBatch b;
    b.ids = torch::zeros({B, static_cast<std::int64_t>(longest)}, torch::kLong);
    b.lengths = torch::empty({B}, torch::kLong);
    auto ids = b.ids.accessor<std::int64_t, 2>();
    auto lengths = b.lengths.accessor<std::int64_t, 1>();
    for (std::int64_t r = 0; r < B; ++r) {
        const auto& row = set.ids[first + static_cast<std::size_t>(r)];
        for (std::size_t i = 0; i < row.size(); ++i) ids[r][static_cast<std::int64_t>(i)] = row[i];
        lengths[r] = static_cast<std::int64_t>(row.size());
    }
    b.labels = torch::tensor(std::vector<std::int64_t>(set.labels.begin() + static_cast<std::ptrdiff_t>(first),
                                                       set.labels.begin() + static_cast<std::ptrdiff_t>(last)),
                             torch::kLong);
    return b;
}


nn::TransformerClassifierNetImpl& classifierTransformer(const TextClassifier& model) {
    auto* t = dynamic_cast<nn::TransformerClassifierNetImpl*>(detail::ModelAccess::impl(model).net.get());
    if (!t) throw ConfigError("heads needs a Transformer classifier (a GRU classifier has no attention heads)");
    return *t;
}

template <class Run>
auto withClassifierSubject(const TextClassifier& model, const ClassificationCorpus& corpus, std::size_t limit,
                           std::size_t batch, Run&& run) {
    nn::TransformerClassifierNetImpl& net = classifierTransformer(model);
    const EvalModeGuard evalMode(net);
    const StudyTexts set = prepareTexts(model, corpus, limit);
    detail::HeadSubject s = encoderSubject(net, model.config().heads);
    detail::scoreAsClassifier(s, set.ids.size(), batch, [&net, &set](std::size_t first, std::size_t last) {
        const StudyTextBatch b = studyTextBatch(set, first, last);
        return std::pair{net.forward(b.ids, b.lengths).logits, b.labels};
    });
    return run(s, set);
}

}  // namespace

Classification classifyAblated(const TextClassifier& model, const std::string& text, const std::vector<HeadId>& off) {
    if (off.empty()) return model.classify(text);
    nn::TransformerClassifierNetImpl& net = classifierTransformer(model);
    detail::HeadSubject s = encoderSubject(net, model.config().heads);
    Classification c;
    s.score = [&] {
        c = model.classify(text);
        return HeadScore{};
    };
    detail::scoreWith(s, off);  // the gates set, classify, the gates cleared
    // The rollout without the heads that are off: per layer the kept heads' mean, (A + I) / 2 with
    // rows renormalised, the layers multiplied; [CLS]'s row over the words, renormalised.
    torch::NoGradGuard noGrad;
    std::vector<Tensor> layers;
    for (std::size_t l = 0; l < c.encoder.size(); ++l) {
        std::vector<Tensor> kept;
        int n = 0;
        for (std::size_t h = 0; h < c.encoder[l].size(); ++h) {
            const AttentionMap& map = c.encoder[l][h];
            n = map.rows;
            if (std::find(off.begin(), off.end(), HeadId{MapKind::Encoder, static_cast<int>(l), static_cast<int>(h)}) !=
                off.end())
                continue;
            kept.push_back(torch::from_blob(const_cast<float*>(map.weights.data()), {map.rows, map.cols}, torch::kFloat)
                               .clone());
        }
        // Every head off: A = 0, so (A + I) / 2 renormalised is I, as the comment above promises.
        layers.push_back(kept.empty() ? torch::zeros({1, 1, n, n}) : torch::stack(kept).unsqueeze(0));
    }
    if (!layers.empty()) {
        Tensor row = nn::attentionRollout(layers)[0][0].slice(0, 1);  // [CLS] over the words
        row = (row / row.sum().clamp_min(1e-12)).contiguous();
        c.rollout.assign(row.data_ptr<float>(), row.data_ptr<float>() + row.numel());
    }
    return c;
}


HeadStudyReport measureClassifierHeads(const TextClassifier& model, const ClassificationCorpus& corpus,
                                       const HeadStudyOptions& options, const HeadStudyProgress& progress) {
    return withClassifierSubject(model, corpus, options.limit, batchOf(options), [&](auto& s, const StudyTexts& set) {
        return studyReport(s, set, set.ids.size(), "accuracy", true, options, progress);
    });
}

HeadScore scoreClassifierWithAblation(const TextClassifier& model, const ClassificationCorpus& corpus,
                                      const std::vector<HeadId>& off, std::size_t limit) {
    return withClassifierSubject(model, corpus, limit, 64, [&](auto& s, auto&) { return detail::scoreWith(s, off); });
}

std::vector<double> classifierHeadGradients(const TextClassifier& model, const ClassificationCorpus& corpus,
                                            std::size_t limit) {
    return withClassifierSubject(model, corpus, limit, 64, [&](auto& s, auto&) { return detail::gateGradients(s); });
}

}  // namespace attnlab
