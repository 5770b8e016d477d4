#include "ModelSize.h"

#include <algorithm>

namespace attnlab {

namespace {

std::int64_t linear(std::int64_t in, std::int64_t out, bool bias = true) { return in * out + (bias ? out : 0); }

}  // namespace

std::int64_t parameterCount(const ModelConfig& c) {
    const std::int64_t H = c.hidden, Vs = c.sourceVocab, Vt = c.targetVocab, L = c.layers;
    if (c.architecture == Architecture::Transformer) {
        const std::int64_t d = H, ff = c.feedForward;
        const std::int64_t mha = 4 * linear(d, d);
        const std::int64_t feed = linear(d, ff) + linear(ff, d);
        const std::int64_t encoderLayer = mha + feed + 2 * (2 * d);
        const std::int64_t decoderLayer = 2 * mha + feed + 3 * (2 * d);
        const std::int64_t positions = c.positional == PositionalKind::Learned ? std::int64_t{c.maxLength} * d : 0;
        return Vs * d + Vt * d + positions + L * (encoderLayer + decoderLayer) + linear(d, Vt);
    }
    const std::int64_t E = c.embedding > 0 ? c.embedding : H;
    const std::int64_t dirs = c.bidirectional ? 2 : 1;
    std::int64_t n = Vs * E + Vt * E;
    for (std::int64_t l = 0; l < L; ++l) {
        const std::int64_t in = l == 0 ? E : H * dirs;
        n += dirs * (3 * H * in + 3 * H * H + 6 * H);
    }
    if (c.bidirectional) n += 2 * linear(2 * H, H);
    switch (c.attention) {
    case AttentionKind::General:
    case AttentionKind::LocalM: n += H * H; break;
    case AttentionKind::LocalP: n += 2 * H * H + H; break;
    case AttentionKind::Additive: n += linear(H, H) + H * H + H; break;
    default: break;
    }
    n += linear(E, 3 * H);  // decoder layer 0's embedding input
    n += c.query == QueryOrder::Before ? 3 * H * H : linear(2 * H, H);  // its context input, or W_c (after)
    n += (L - 1) * linear(H, 3 * H) + L * linear(H, 3 * H);  // upper inputs, hidden projections
    n += linear(H, Vt);
    return n;
}

std::int64_t estimateTrainingBytes(const ModelConfig& c, std::int64_t batchSize, std::int64_t maxTokens) {
    const std::int64_t params = parameterCount(c);
    const std::int64_t H = c.hidden, L = c.layers, B = batchSize, T = maxTokens;
    const std::int64_t Vt = c.targetVocab;
    std::int64_t activations = 0;
    if (c.architecture == Architecture::Transformer) {
        // Per layer: attention maps [B, heads, T, T] (weights, dropout mask, scores) and
        // ~12 [B, T, d] / 2 [B, T, ff] tensors; three attention blocks per decoder layer.
        const std::int64_t perAttention = 3 * B * c.heads * T * T + 8 * B * T * H;
        const std::int64_t perFeed = 2 * B * T * c.feedForward + 4 * B * T * H;
        // Self-attention with a pattern (nn/networks/AttentionPatterns.h): scores for M keys per query,
        // computed in blocks (scores, mask, softmax, dropout: ~5 [B, heads, T, M]) beside the
        // queries, keys and values padded to whole blocks; linear: the decoder's running
        // [d_k, d_k] sums per position. Cross-attention is full.
        const std::int64_t s = patternChunk(c), W = c.localWindow;
        std::int64_t perSelf = perAttention;
        if (c.pattern == AttentionPattern::Linear) {
            perSelf = 2 * B * T * H * (H / c.heads) + 8 * B * T * H;
        } else if (c.pattern != AttentionPattern::Full) {
            const std::int64_t M = std::min<std::int64_t>(
                T, c.pattern == AttentionPattern::Local     ? 2 * W + 1
                   : c.pattern == AttentionPattern::Strided ? 2 * W + 1 + 2 * T / s
                                                            : s + T / s + 1);
            perSelf = 5 * B * c.heads * T * M + 14 * B * T * H;
        }
        activations = L * (2 * perSelf + perAttention + 2 * perFeed);
    } else {
        // Per decoder step: ~20 [B, H]-sized tensors per layer, attention [B, S] x 4.
        activations = T * (20 * L * B * H + 4 * B * T) + 6 * B * T * H * L;
    }
    activations += 3 * B * T * Vt;  // logits, log-softmax, their gradient
    // weights + gradient + 2 Adam moments, activations kept for backward (x2 for grads).
    return 4 * (4 * params + 2 * activations);
}

}  // namespace attnlab
