#include "engine/nn/networks/GruAttention.h"

#include "engine/nn/nodes/AdditiveScores.h"
#include "engine/nn/kernels/BatchMatmul.h"
#include "engine/nn/nodes/PackedLinear.h"
#include "engine/nn/kernels/RowLinear.h"

namespace attnlab::nn {

namespace {
constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();
}

GruAttentionImpl::GruAttentionImpl(AttentionKind kind, int hidden, int window)
    : kind_(kind), hidden_(hidden), window_(window) {
    using torch::nn::Linear;
    using torch::nn::LinearOptions;
    switch (kind) {
    case AttentionKind::General:
    case AttentionKind::LocalM:
        keyProj_ = register_module("key_proj", Linear(LinearOptions(hidden, hidden).bias(false)));
        break;
    case AttentionKind::LocalP:
        keyProj_ = register_module("key_proj", Linear(LinearOptions(hidden, hidden).bias(false)));
        centerProj_ = register_module("center_proj", Linear(LinearOptions(hidden, hidden).bias(false)));
        centerV_ = register_module("center_v", Linear(LinearOptions(hidden, 1).bias(false)));
        break;
    case AttentionKind::Additive:
        keyProj_ = register_module("key_proj", Linear(LinearOptions(hidden, hidden).bias(true)));
        queryProj_ = register_module("query_proj", Linear(LinearOptions(hidden, hidden).bias(false)));
        v_ = register_module("v", Linear(LinearOptions(hidden, 1).bias(false)));
        break;
    case AttentionKind::Dot:
    case AttentionKind::ScaledDot:
    case AttentionKind::None:
        break;
    }
}

AttentionKeys GruAttentionImpl::prepare(const torch::Tensor& keys, const torch::Tensor& padMask,
                                        const torch::Tensor& lengths) {
    AttentionKeys k;
    k.keys = keys;
    k.padMask = padMask;
    k.lengths = lengths.to(torch::kFloat);
    k.padded = padMask.any().item<bool>();
    if (keyProj_) k.projected = linear(keyProj_, keys);  // [B, S, H], once per batch
    return k;
}

torch::Tensor GruAttentionImpl::weights(const torch::Tensor& query, const AttentionKeys& k, int64_t step,
                                        AttentionTrace* trace) {
    torch::Tensor raw;             // [B, S]
    torch::Tensor projectedQuery;  // [B, H] additive only
    switch (kind_) {
    case AttentionKind::Dot:
    case AttentionKind::ScaledDot:
        raw = torch::bmm(k.keys, query.unsqueeze(2)).squeeze(2);
        break;
    case AttentionKind::General:
    case AttentionKind::LocalM:
    case AttentionKind::LocalP:
        raw = torch::bmm(k.projected, query.unsqueeze(2)).squeeze(2);
        break;
    case AttentionKind::Additive:
        // [B, S, H] + [B, 1, H] -> tanh -> v -> [B, S]
        // v as a vector: one matrix-vector product per sentence instead of an sgemm
        // with one output column.
        projectedQuery = rowLinear(queryProj_, query);
        raw = torch::matmul(torch::tanh(k.projected + projectedQuery.unsqueeze(1)), v_->weight.view({hidden_}));
        break;
    case AttentionKind::None:
        throw std::logic_error("attention 'none' has no weights");
    }

    torch::Tensor scores = raw;
    if (kind_ == AttentionKind::ScaledDot) scores = raw / std::sqrt(static_cast<double>(hidden_));
    const torch::Tensor scaled = scores;
    torch::Tensor gaussian;

    torch::Tensor mask = k.padded ? k.padMask : torch::Tensor();  // [B, S] true = excluded
    torch::Tensor center;
    if (kind_ == AttentionKind::LocalM || kind_ == AttentionKind::LocalP) {
        const int64_t S = k.keys.size(1);
        torch::Tensor lastIndex = (k.lengths - 1).clamp_min(0);  // [B]
        if (kind_ == AttentionKind::LocalM) {
            center = torch::full_like(lastIndex, static_cast<double>(step)).minimum(lastIndex);
        } else {
            torch::Tensor g = rowLinear(centerV_, torch::tanh(rowLinear(centerProj_, query))).squeeze(1);  // [B]
            center = (k.lengths * torch::sigmoid(g)).minimum(lastIndex);
        }
        torch::Tensor positions = torch::arange(S, k.keys.options()).unsqueeze(0);  // [1, S]
        torch::Tensor distance = positions - center.unsqueeze(1);                    // [B, S]
        // Outside the window [p_t - D, p_t + D]; at least one position is always inside,
        // since p_t lies in [0, len-1] and D >= 1.
        torch::Tensor outside = distance.abs() > static_cast<double>(window_);
        mask = mask.defined() ? mask.logical_or(outside) : outside;
        if (kind_ == AttentionKind::LocalP) {
            const double sigma = window_ / 2.0;
            gaussian = -distance.pow(2) / (2.0 * sigma * sigma);
            scores = scores + gaussian;
        }
    }
    if (mask.defined()) scores = scores.masked_fill(mask, kMinusInfinity);
    if (trace) {
        trace->query = query;
        trace->keys = k.keys;
        trace->projectedKeys = k.projected;
        trace->projectedQuery = projectedQuery;
        if (v_) trace->scoreVector = v_->weight[0];
        trace->rawScores = raw;
        trace->scaledScores = scaled;
        trace->gaussian = gaussian;
        trace->padMask = k.padMask;
        // Without padding or a window nothing is excluded; the trace still reports a full mask.
        trace->excluded = mask.defined() ? mask : torch::zeros_like(k.padMask);
        trace->scores = scores;
        trace->center = center;
    }
    return torch::softmax(scores, 1);
}

bool GruAttentionImpl::hasWeightsAll() const {
    return kind_ == AttentionKind::Dot || kind_ == AttentionKind::ScaledDot || kind_ == AttentionKind::General ||
           kind_ == AttentionKind::Additive;
}

torch::Tensor GruAttentionImpl::weightsAll(const torch::Tensor& queries, const AttentionKeys& k) {
    torch::Tensor scores;  // [B, T, S]
    switch (kind_) {
    case AttentionKind::Dot:
        scores = batchMatmul(queries, k.keys.transpose(1, 2));
        break;
    case AttentionKind::ScaledDot:
        scores = batchMatmul(queries, k.keys.transpose(1, 2)) / std::sqrt(static_cast<double>(hidden_));
        break;
    case AttentionKind::General:
        scores = batchMatmul(queries, k.projected.transpose(1, 2));
        break;
    case AttentionKind::Additive:
        // v · tanh(U k_s + W q_t) -> [B, T, S], one autograd node (additiveScores)
        scores = additiveScores(linear(queryProj_, queries), k.projected, v_->weight.view({hidden_}));
        break;
    default:
        throw std::logic_error("weightsAll: attention '" + toString(kind_) + "' scores step by step");
    }
    if (k.padded) scores = scores.masked_fill(k.padMask.unsqueeze(1), kMinusInfinity);
    return torch::softmax(scores, 2);
}

}  // namespace attnlab::nn
