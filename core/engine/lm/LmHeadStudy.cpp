#include "engine/lm/LmHeadStudy.h"

#include <random>

#include "base/InputError.h"
#include "base/lm/LmTokens.h"
#include "engine/detail/EvalModeGuard.h"
#include "engine/detail/HeadStudyRunner.h"
#include "engine/lm/LmBatches.h"
#include "engine/lm/LmImpl.h"

namespace attnlab {

namespace {

struct DocumentSet {
    std::vector<const std::vector<int>*> documents;
    std::size_t skipped = 0;  // empty documents
};

}  // namespace

HeadStudyReport measureLmHeads(const LmModel& model, const std::vector<std::vector<int>>& documents,
                               const HeadStudyOptions& options, const HeadStudyProgress& progress) {
    const LmModel::Impl& impl = model.internals();
    nn::LmNetImpl& net = *impl.net;
    const EvalModeGuard evalMode(net);
    DocumentSet set;
    for (const auto& d : documents) {
        if (options.limit && set.documents.size() >= options.limit) break;
        if (d.empty()) ++set.skipped;
        else set.documents.push_back(&d);
    }
    if (set.documents.empty()) throw ConfigError("no document with a token to measure the heads on");
    const bool masked = impl.config.objective == LmObjective::Masked;
    const std::size_t batch = detail::batchOf(options);
    // The batches once, so that every figure (and every ablation) sees the same hidden positions.
    std::vector<std::pair<torch::Tensor, torch::Tensor>> batches;
    std::mt19937_64 rng(options.seed);
    detail::forEachRange(set.documents.size(), batch, [&](std::size_t first, std::size_t last) {
        const std::vector<const std::vector<int>*> docs(set.documents.begin() + static_cast<std::ptrdiff_t>(first),
                                                        set.documents.begin() + static_cast<std::ptrdiff_t>(last));
        batches.push_back(lmBatch(docs, impl.config.context, masked, rng, impl.tokenizer.specials()));
    });
    const int pad = impl.tokenizer.specials().pad;
    auto summedLoss = [&net, pad](const torch::Tensor& inputs, const torch::Tensor& targets) {
        const torch::Tensor logits = net.forward(inputs);
        return std::make_pair(torch::nn::functional::cross_entropy(
                                  logits.reshape({-1, logits.size(2)}), targets.reshape({-1}),
                                  torch::nn::functional::CrossEntropyFuncOptions().ignore_index(pad).reduction(torch::kSum)),
                              logits);
    };
    detail::HeadSubject s;
    detail::appendHeads(s.heads, MapKind::Decoder, impl.config.layers, impl.config.heads);
    s.headsPerLayer = impl.config.heads;
    s.module = [&net](MapKind, int layer) -> nn::MultiHeadAttention& { return net.attention(static_cast<std::size_t>(layer)); };
    s.score = [&] {
        c10::InferenceMode inference;
        double loss = 0;
        std::int64_t right = 0, tokens = 0;
        for (const auto& [inputs, targets] : batches) {
            const auto [l, logits] = summedLoss(inputs, targets);
            loss += l.item<double>();
            const torch::Tensor real = targets.ne(pad);
            right += logits.argmax(-1).eq(targets).logical_and(real).sum().item<std::int64_t>();
            tokens += real.sum().item<std::int64_t>();
        }
        const double n = static_cast<double>(std::max<std::int64_t>(1, tokens));
        return HeadScore{loss / n, static_cast<double>(right) / n, 0.0};
    };
    s.forEachBatch = [&](const detail::HeadSubject::Visit& visit) {
        for (const auto& [inputs, targets] : batches)
            visit(inputs.size(0), [&, in = inputs, out = targets] { return summedLoss(in, out).first; });
    };
    return detail::studyReport(s, set, set.documents.size(), "accuracy", true, options, progress);
}

}  // namespace attnlab
