#include "engine/nn/networks/MultiHeadAttention.h"

#include "engine/nn/nodes/FusedHeadAttention.h"
#include "engine/nn/nodes/PackedLinear.h"
#include "engine/nn/kernels/Random.h"
#include "engine/nn/kernels/RowLinear.h"

namespace attnlab::nn {

namespace {

// A dModel x dModel Linear, or one whose parameters are allocated but not initialised (built 1 x 1,
// its random init then costing nothing, and given its size).
torch::nn::Linear mhaProjection(int dModel, bool randomInit) {
    if (randomInit) return torch::nn::Linear(dModel, dModel);
    torch::nn::Linear layer(1, 1);
    torch::NoGradGuard noGrad;
    layer->weight.set_(torch::empty({dModel, dModel}));
    layer->bias.set_(torch::empty({dModel}));
    layer->options.in_features(dModel).out_features(dModel);
    return layer;
}

// Whether b and c continue a along its first dimension in one storage (same sizes, strides and
// type, b's first element a's first plus a.size(0) steps, c's two such): the three stacked are then
// one strided view of that storage.
bool mhaStacked(const torch::Tensor& a, const torch::Tensor& b, const torch::Tensor& c) {
    if (a.dim() < 1 || !a.has_storage() || !b.has_storage() || !c.has_storage()) return false;
    if (!a.storage().is_alias_of(b.storage()) || !a.storage().is_alias_of(c.storage())) return false;
    if (a.sizes() != b.sizes() || a.sizes() != c.sizes() || a.strides() != b.strides() || a.strides() != c.strides() ||
        a.scalar_type() != b.scalar_type() || a.scalar_type() != c.scalar_type())
        return false;
    const int64_t step = a.size(0) * a.stride(0);
    return b.storage_offset() == a.storage_offset() + step && c.storage_offset() == a.storage_offset() + 2 * step;
}

// a, b and c stacked along the first dimension, as a view (mhaStacked must hold).
torch::Tensor mhaStackedView(const torch::Tensor& a) {
    std::vector<int64_t> sizes = a.sizes().vec();
    sizes[0] *= 3;
    return a.as_strided(sizes, a.strides(), a.storage_offset());
}

}  // namespace

MultiHeadAttentionImpl::MultiHeadAttentionImpl(int dModel, int heads, double dropout, PatternSpec pattern, bool randomInit)
    : dModel_(dModel), heads_(heads), headDim_(dModel / heads), dropout_(dropout), pattern_(pattern) {
    q_ = register_module("q", mhaProjection(dModel, randomInit));
    k_ = register_module("k", mhaProjection(dModel, randomInit));
    v_ = register_module("v", mhaProjection(dModel, randomInit));
    out_ = register_module("out", mhaProjection(dModel, randomInit));
}

std::pair<torch::Tensor, torch::Tensor> MultiHeadAttentionImpl::fusedQkv() const {
    const torch::Tensor &qw = q_->weight, &kw = k_->weight, &vw = v_->weight;
    const torch::Tensor &qb = q_->bias, &kb = k_->bias, &vb = v_->bias;
    if (!torch::GradMode::is_enabled() && mhaStacked(qw, kw, vw) && mhaStacked(qb, kb, vb))
        return {mhaStackedView(qw), mhaStackedView(qb)};
    return {torch::cat({qw, kw, vw}), torch::cat({qb, kb, vb})};
}

torch::Tensor MultiHeadAttentionImpl::forward(const torch::Tensor& query, const torch::Tensor& memory,
                                              const torch::Tensor& keyPadMask, bool causal, torch::Tensor* weightsOut,
                                              HeadTrace* trace) {
    const int64_t B = query.size(0), Tq = query.size(1), Tk = memory.size(1);
    auto split = [&](const torch::Tensor& x, int64_t T) {  // [B, T, D] -> [B, H, T, dk]
        return x.reshape({B, T, heads_, headDim_}).transpose(1, 2);
    };
    // One projection matmul instead of three (self-attention) or two (cross-attention):
    // these layers are small, so fewer, larger operations are what makes them fast.
    torch::Tensor q, k, v;  // [B, T, D] each
    if (query.is_same(memory)) {
        const auto [weight, bias] = fusedQkv();
        auto qkv = linear(query, weight, bias).chunk(3, -1);
        q = qkv[0];
        k = qkv[1];
        v = qkv[2];
    } else {
        auto kv = linear(memory, torch::cat({k_->weight, v_->weight}), torch::cat({k_->bias, v_->bias}))
                      .chunk(2, -1);
        q = linear(q_, query);
        k = kv[0];
        v = kv[1];
    }
    if (pattern_.pattern != AttentionPattern::Full) {
        // Only the pattern's scores (AttentionPatterns.h); its map only when asked for.
        q = split(q, Tq);
        k = split(k, Tk);
        v = split(v, Tk);
        torch::Tensor map;
        torch::Tensor heads = patternAttention(pattern_, q, k, v, keyPadMask, causal, 0, dropout_, is_training(),
                                               weightsOut || trace ? &map : nullptr);
        if (weightsOut) *weightsOut = map;
        if (trace) {  // for display: the dense scores, -inf where the pattern has no weight
            torch::NoGradGuard noGrad;
            trace->query = q;
            trace->key = k;
            trace->value = v;
            trace->rawScores = torch::matmul(q, k.transpose(-2, -1));
            trace->scaledScores = trace->rawScores / std::sqrt(static_cast<double>(headDim_));
            trace->maskedScores =
                trace->scaledScores.masked_fill(map.eq(0), -std::numeric_limits<double>::infinity());
            trace->weights = map;
            trace->headOutput = heads;
            trace->keyPadMask = keyPadMask;
            trace->causal = causal;
            trace->scale = 1.0 / std::sqrt(static_cast<double>(headDim_));
        }
        return linear(out_, gateHeads(heads).transpose(1, 2).reshape({B, Tq, dModel_}));
    }
    // Training and evaluation take the fused node; the maths view's trace needs every
    // intermediate, so it takes the operation-by-operation path below (same numbers).
    if (!trace && !(weightsOut && differentiableWeights_) && canFuseHeadAttention(q, k, v)) {
        auto [heads, w] = fusedHeadAttention(q, k, v, keyPadMask, causal, heads_, dropout_, is_training());
        if (weightsOut) *weightsOut = w;
        return linear(out_, gateMerged(heads));
    }
    q = split(q, Tq);
    k = split(k, Tk);
    v = split(v, Tk);
    torch::Tensor raw = torch::matmul(q, k.transpose(-2, -1));
    torch::Tensor scores = raw / std::sqrt(static_cast<double>(headDim_));
    torch::Tensor masked = scores;
    const double negInf = -std::numeric_limits<double>::infinity();
    if (keyPadMask.defined()) masked = masked.masked_fill(keyPadMask.view({B, 1, 1, Tk}), negInf);
    if (causal) {
        torch::Tensor future = torch::ones({Tq, Tk}, torch::kBool).triu(1);  // key j > query i
        masked = masked.masked_fill(future, negInf);
    }
    torch::Tensor w = torch::softmax(masked, -1);  // [B, H, Tq, Tk]
    if (weightsOut) *weightsOut = w;
    torch::Tensor wd = applyDropout(w, dropout_, is_training());
    torch::Tensor heads = torch::matmul(wd, v);  // [B, H, Tq, dk]
    if (trace) {
        trace->query = q;
        trace->key = k;
        trace->value = v;
        trace->rawScores = raw;
        trace->scaledScores = scores;
        trace->maskedScores = masked;
        trace->weights = w;
        trace->headOutput = heads;
        trace->keyPadMask = keyPadMask;
        trace->causal = causal;
        trace->scale = 1.0 / std::sqrt(static_cast<double>(headDim_));
    }
    torch::Tensor ctx = gateHeads(heads).transpose(1, 2).reshape({B, Tq, dModel_});
    return linear(out_, ctx);
}

torch::Tensor MultiHeadAttentionImpl::gateHeads(const torch::Tensor& heads) const {
    if (!gate_.defined()) return heads;
    const int64_t rows = gate_.dim() == 2 ? gate_.size(0) : 1;
    return heads * gate_.to(heads.scalar_type()).view({rows, heads_, 1, 1});
}

torch::Tensor MultiHeadAttentionImpl::gateMerged(const torch::Tensor& merged) const {
    if (!gate_.defined()) return merged;
    const int64_t B = merged.size(0), T = merged.size(1);
    const int64_t rows = gate_.dim() == 2 ? gate_.size(0) : 1;
    return (merged.reshape({B, T, heads_, headDim_}) * gate_.to(merged.scalar_type()).view({rows, 1, heads_, 1}))
        .reshape({B, T, dModel_});
}

std::pair<torch::Tensor, torch::Tensor> MultiHeadAttentionImpl::keysValues(const torch::Tensor& memory) {
    const int64_t B = memory.size(0), Tk = memory.size(1);
    auto kv = torch::linear(memory, torch::cat({k_->weight, v_->weight}), torch::cat({k_->bias, v_->bias}))
                  .view({B, Tk, 2, heads_, headDim_})
                  .permute({2, 0, 3, 1, 4})  // [2, B, H, Tk, dk]
                  .contiguous();
    return {kv[0], kv[1]};
}

void MultiHeadAttentionImpl::appendKeysValues(const torch::Tensor& x, torch::Tensor& keys, torch::Tensor& values) {
    const int64_t B = x.size(0);
    torch::Tensor k = rowLinear(k_, x).view({B, 1, heads_, headDim_}).transpose(1, 2);  // [B, H, 1, dk]
    torch::Tensor v = rowLinear(v_, x).view({B, 1, heads_, headDim_}).transpose(1, 2);
    keys = keys.defined() ? torch::cat({keys, k}, 2) : k.contiguous();
    values = values.defined() ? torch::cat({values, v}, 2) : v.contiguous();
}

torch::Tensor MultiHeadAttentionImpl::forwardStep(const torch::Tensor& x, const torch::Tensor& keys,
                                                  const torch::Tensor& values, const torch::Tensor& keyPadMask,
                                                  torch::Tensor* weightsOut) {
    const int64_t B = x.size(0), Tk = keys.size(2);
    torch::Tensor q = rowLinear(q_, x).view({B, 1, heads_, headDim_}).transpose(1, 2);  // [B, H, 1, dk]
    if (pattern_.pattern != AttentionPattern::Full) {
        torch::Tensor heads = patternAttention(pattern_, q, keys, values, keyPadMask, true, Tk - 1, dropout_,
                                               is_training(), weightsOut);
        return rowLinear(out_, gateHeads(heads).transpose(1, 2).reshape({B, 1, dModel_}));
    }
    // One query row: products and sums over small tensors, cheaper here than batched
    // sgemm calls that pack their operands for every head.
    torch::Tensor scores = (keys * q).sum(-1).unsqueeze(2) / std::sqrt(static_cast<double>(headDim_));
    if (keyPadMask.defined())
        scores = scores.masked_fill(keyPadMask.view({keyPadMask.size(0), 1, 1, Tk}),
                                    -std::numeric_limits<double>::infinity());
    torch::Tensor w = torch::softmax(scores, -1);  // [B, H, 1, Tk]
    if (weightsOut) *weightsOut = w;
    torch::Tensor wd = applyDropout(w, dropout_, is_training());
    torch::Tensor context = (wd.transpose(-2, -1) * values).sum(2);  // [B, H, dk]
    if (gate_.defined()) context = gateHeads(context.unsqueeze(2)).squeeze(2);
    return rowLinear(out_, context.reshape({B, 1, dModel_}));
}

}  // namespace attnlab::nn
