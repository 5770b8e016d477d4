#pragma once
// Engine-internal: attention patterns for long inputs (ModelConfig::pattern), the heads'
// core after the projections. Each computes only what its pattern needs:
//
//   local, strided, chunked  scores for the keys the pattern allows only, a softmax over them:
//            O(N·M) with M = 2W+1, 2W+1 + 2N/s, C + N/C keys per query, never an N x N matrix.
//            Self-attention (Tq = Tk from position 0) scores in blocks whose queries share
//            their keys: local's band per block of W + 1 queries against its 3W + 1 keys,
//            strided's band so and its every-s-th keys per residue class (positions r, s + r,
//            ...), chunked chunk by chunk and every query against the chunk summaries; slots
//            outside the pattern are masked. Any other call (a decoding step: one query at
//            position Tk - 1) gathers each query's keys and values ([B, H, Tq, M, d_k]).
//            Chunked's summary of a chunk is the mean of its keys and of its values (padding
//            excluded), key Tk + chunk.
//   linear   phi(x) = elu(x) + 1, out_i = phi(q_i)ᵀ Σ_j phi(k_j) v_jᵀ / phi(q_i)ᵀ Σ_j phi(k_j):
//            the [d_k, d_k] sums once (causal: running sums over positions), O(N).
//
// Autograd runs through LibTorch operations, so the backward is the operations' own. The
// attention map (mapOut) is only made when asked for and outside autograd: the pattern's
// weights scattered into [B, H, Tq, Tk] (zero elsewhere); a chunk summary's weight spread
// evenly over the chunk's unpadded keys (its value is their mean, so the map still gives the
// output as map · V); linear's implicit phi(q_i)·phi(k_j) / Σ_j. A query row with no key
// allowed (e.g. a window that holds only padding) gets weights 0 and output 0.
#include <torch/torch.h>

#include "base/translation/ModelConfig.h"

namespace attnlab::nn {

struct PatternSpec {
    AttentionPattern pattern = AttentionPattern::Full;
    int window = 3;  // W: local's half-width, strided's band
    int chunk = 4;   // C (chunked) or s (strided), already resolved (> 0)
};

// The config's self-attention pattern (patternChunk resolves chunk 0).
PatternSpec patternSpec(const ModelConfig& config);
// Any encoder's: chunk 0 resolves to ceil(sqrt(length)), length its longest sequence.
PatternSpec patternSpec(AttentionPattern pattern, int window, int chunk, int64_t length);

// The keys query i (at position queryOffset + i) may attend to, for local/strided/chunked:
// index [Tq, M] into the keys (chunk summaries at Tk + c), valid [Tq, M] (false: filler slot),
// summaries = the number of chunks (chunked; else 0). causal allows keys at positions <= the
// query's only (chunked: the summaries of earlier chunks only).
struct KeyIndex {
    torch::Tensor index;  // int64
    torch::Tensor valid;  // bool
    int64_t summaries = 0;
};
KeyIndex patternKeyIndex(const PatternSpec& spec, int64_t Tq, int64_t Tk, bool causal, int64_t queryOffset);

// q [B, H, Tq, d_k], k and v [B, H, Tk, d_k]; keyPadMask [B or 1, Tk] bool (true = padding) or
// undefined. Returns the heads [B, H, Tq, d_k]; mapOut, if set, receives the map [B, H, Tq, Tk].
// Softmax patterns scale scores by 1/sqrt(d_k); dropout applies to their weights (linear has
// none to drop). pattern Full is the masked dense reference (the same maths as MultiHeadAttention).
torch::Tensor patternAttention(const PatternSpec& spec, const torch::Tensor& q, const torch::Tensor& k,
                               const torch::Tensor& v, const torch::Tensor& keyPadMask, bool causal,
                               int64_t queryOffset, double dropout, bool training, torch::Tensor* mapOut);

}  // namespace attnlab::nn
