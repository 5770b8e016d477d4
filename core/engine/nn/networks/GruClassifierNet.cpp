#include "engine/nn/networks/GruClassifierNet.h"

#include <cmath>
#include <limits>

#include "engine/nn/nodes/AttentionPooling.h"
#include "engine/nn/kernels/BatchMatmul.h"
#include "engine/nn/nodes/FusedGruEncoder.h"
#include "engine/nn/nodes/PackedLinear.h"
#include "engine/nn/kernels/Random.h"

namespace attnlab::nn {

namespace F = torch::nn::functional;
using torch::nn::Linear;
using torch::nn::LinearOptions;

GruClassifierNetImpl::GruClassifierNetImpl(const ClassifierConfig& c) : config_(c) {
    const int E = c.embedding > 0 ? c.embedding : c.hidden, D = stateSize(c);
    const int A = c.attentionSize > 0 ? c.attentionSize : c.hidden;
    embedding_ = register_module("embedding", torch::nn::Embedding(
                                                  torch::nn::EmbeddingOptions(c.vocabulary, E).padding_idx(0)));
    gru_ = register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(E, c.hidden).batch_first(true).bidirectional(
                                      c.bidirectional)));
    if (c.pooling == Pooling::Additive) {
        poolW_ = register_module("pool_w", Linear(LinearOptions(D, A).bias(true)));
        poolV_ = register_module("pool_v", Linear(LinearOptions(A, c.hops).bias(false)));
    } else if (c.pooling == Pooling::Dot || c.pooling == Pooling::ScaledDot) {
        // Unit-variance queries: scores of order sqrt(D) at the start, as for the keys' dot products.
        queries_ = register_parameter("pool_queries", torch::randn({c.hops, D}) / std::sqrt(static_cast<double>(D)));
    }
    const int pooled = poolingAttends(c.pooling) ? c.hops * D : D;
    output_ = register_module("output", Linear(pooled, c.classes));
}

torch::Tensor GruClassifierNetImpl::embed(const torch::Tensor& ids) { return embedding_(ids); }

ClassifierOutput GruClassifierNetImpl::forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& lengths,
                                                      const torch::Tensor& pooling) {
    const int64_t S = embedded.size(1);
    torch::Tensor emb = applyDropout(embedded, config_.dropout, is_training());
    torch::Tensor valid = torch::arange(S, lengths.options()).unsqueeze(0) < lengths.unsqueeze(1);  // [B, S]
    auto [states, finals] = runGruLayerFused(gru_, emb, valid, config_.bidirectional);    // [B, S, D], [dirs, B, H]
    ClassifierOutput out;
    torch::Tensor pooled;
    switch (config_.pooling) {
    case Pooling::None:
        pooled = finals.permute({1, 0, 2}).reshape({embedded.size(0), -1});  // [B, D]: each direction's last state
        break;
    case Pooling::Mean:
        pooled = states.sum(1) / lengths.unsqueeze(1).to(states.scalar_type());  // padding outputs are 0
        break;
    default: {
        if (config_.pooling == Pooling::Additive && !pooling.defined() && is_training() &&
            additivePoolingFusable(states, poolW_->weight, poolW_->bias, poolV_->weight)) {
            // Training: one node for the scores, their softmax and the weighted sum (the same numbers).
            auto [pooledHops, attention] = additivePooling(states, valid, poolW_->weight, poolW_->bias, poolV_->weight);
            out.attention = attention;
            pooled = pooledHops.reshape({embedded.size(0), -1});
            break;
        }
        torch::Tensor scores;  // [B, S, R]
        if (config_.pooling == Pooling::Additive) {
            scores = linear(poolV_, torch::tanh(linear(poolW_, states)));
        } else {
            scores = torch::matmul(states, queries_.t());
            if (config_.pooling == Pooling::ScaledDot) scores = scores / std::sqrt(static_cast<double>(states.size(2)));
        }
        scores = scores.transpose(1, 2).masked_fill(valid.logical_not().unsqueeze(1),
                                                    -std::numeric_limits<float>::infinity());  // [B, R, S]
        out.attention = pooling.defined() ? pooling : torch::softmax(scores, 2);
        pooled = batchMatmul(out.attention, states).reshape({embedded.size(0), -1});  // [B, R * D]
    }
    }
    out.logits = output_(pooled);
    return out;
}

torch::Tensor GruClassifierNetImpl::redundancyPenalty(const torch::Tensor& attention) {
    const int64_t R = attention.size(1);
    torch::Tensor gram = batchMatmul(attention, attention.transpose(1, 2)) - torch::eye(R, attention.options());
    return gram.pow(2).sum({1, 2}).mean();
}

}  // namespace attnlab::nn
