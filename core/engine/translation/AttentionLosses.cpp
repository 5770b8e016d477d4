// Coverage (Xu et al. 2015, eq. 14) and guided alignment (Garg et al. 2019) as training losses.
#include "engine/detail/AttentionLosses.h"

namespace attnlab {

bool hasAttentionLoss(const TranslationTrainingOptions& o) { return o.coveragePenalty > 0 || o.guidedAlignment > 0; }

torch::Tensor goldTargets(const std::vector<SentenceAlignment>& gold, const Batch& batch, double* linkedRows) {
    const std::int64_t B = batch.size, T = batch.targetLen, S = batch.sourceLen;
    std::vector<float> g(static_cast<std::size_t>(B * T * S), 0.0f);
    for (std::int64_t b = 0; b < B; ++b)
        for (const AlignmentLink& link : allLinks(gold[batch.indices[static_cast<std::size_t>(b)]]))
            if (link.target >= 0 && link.target < T && link.source >= 0 && link.source < S)
                g[static_cast<std::size_t>((b * T + link.target) * S + link.source)] = 1.0f;
    torch::Tensor targets = torch::tensor(g).view({B, T, S});
    torch::Tensor rows = targets.sum(2, /*keepdim=*/true);
    if (linkedRows) *linkedRows = static_cast<double>(rows.gt(0).sum().item<std::int64_t>());
    return targets / rows.clamp_min(1.0f);
}

torch::Tensor guidedMap(const nn::Captured& captured, const TranslationTrainingOptions& o) {
    const torch::Tensor& w = captured.at(MapKind::Cross);
    const std::int64_t layer = o.alignmentLayer < 0 ? w.size(1) - 1 : o.alignmentLayer;
    return w.select(1, layer).select(1, o.alignmentHead);
}

torch::Tensor coverageMap(const nn::Captured& captured) {
    const torch::Tensor& w = captured.at(MapKind::Cross);
    return w.select(1, w.size(1) - 1).mean(1);
}

torch::Tensor attentionLoss(const nn::Captured& captured, const torch::Tensor& tgt, const torch::Tensor& src,
                            const torch::Tensor& gold, const TranslationTrainingOptions& o, const AttentionLossScale& scale) {
    torch::Tensor loss = torch::zeros({});
    if (captured.find(MapKind::Cross) == captured.end()) return loss;  // attention none: nothing to pull
    if (o.guidedAlignment > 0 && scale.linkedRows > 0 && gold.defined()) {
        const torch::Tensor a = guidedMap(captured, o);
        loss = loss - o.guidedAlignment * (gold * (a + 1e-8).log()).sum() / scale.linkedRows;
    }
    if (o.coveragePenalty > 0 && scale.sentences > 0) {
        const torch::Tensor a = coverageMap(captured);
        const torch::Tensor rows = tgt.ne(Vocabulary::kPad).to(a.scalar_type());  // [B, T]
        const torch::Tensor cols = src.ne(Vocabulary::kPad).to(a.scalar_type());  // [B, S]
        const torch::Tensor received = (a * rows.unsqueeze(2)).sum(1);           // [B, S]
        const torch::Tensor tau = (rows.sum(1) / cols.sum(1)).unsqueeze(1);      // [B, 1]
        loss = loss + o.coveragePenalty * ((tau - received).pow(2) * cols).sum() / scale.sentences;
    }
    return loss;
}

}  // namespace attnlab
