#pragma once
// The score functions of a GRU decoder's attention over encoder states:
//   dot         score(s, h) = s·h
//   scaled-dot  score(s, h) = s·h / sqrt(d)
//   general     score(s, h) = s·(W h)                       (Luong)
//   additive    score(s, h) = v·tanh(W s + U h)             (Bahdanau; U h once per batch)
//   local-m     general score inside |j - p_t| <= D, p_t = t                (Luong local, monotonic)
//   local-p     general score - (j - p_t)^2 / (2 (D/2)^2) inside the window,
//               p_t = S_len · sigmoid(v_p·tanh(W_p s))                    (Luong local, predictive)
// For local-p the Gaussian is folded into the scores before the softmax, so that
// every row still sums to 1 (Luong multiplies after it, leaving rows short of 1).
// Padding and positions outside a local window get -inf, hence exactly 0 weight.
#include <torch/torch.h>

#include "base/translation/ModelConfig.h"

namespace attnlab::nn {

struct AttentionKeys {
    torch::Tensor keys;       // [B, S, H] encoder outputs (also the values)
    torch::Tensor projected;  // [B, S, H] W h (general, local) or U h (additive); undefined otherwise
    torch::Tensor padMask;    // [B, S] bool, true at padding
    torch::Tensor lengths;    // [B] float, true source lengths (local attention)
    bool padded = true;       // whether padMask masks anything (a single sentence: no)
};

// The intermediate numbers of one attention step, for the step-by-step maths view.
struct AttentionTrace {
    torch::Tensor query;           // [B, H] decoder state s
    torch::Tensor keys;            // [B, S, H] encoder states h_j (also the values)
    torch::Tensor projectedKeys;   // [B, S, H] W h_j (general, local) or U h_j + b (additive); else undefined
    torch::Tensor projectedQuery;  // [B, H] W s (additive); else undefined
    torch::Tensor scoreVector;     // [H] v (additive); else undefined
    torch::Tensor rawScores;       // [B, S] before scaling and masking
    torch::Tensor scaledScores;    // [B, S] after scaling (1/sqrt(H) for scaled-dot), before window and mask
    torch::Tensor gaussian;        // [B, S] -(j - p_t)^2 / (2 (D/2)^2) added by local-p; else undefined
    torch::Tensor padMask;         // [B, S] bool, true at padding
    torch::Tensor excluded;        // [B, S] bool, true where the score became -inf (padding or outside the window)
    torch::Tensor scores;          // [B, S] after scaling, window/Gaussian and mask (-inf)
    torch::Tensor center;          // [B] p_t for local attention; undefined otherwise
};

class GruAttentionImpl : public torch::nn::Module {
public:
    GruAttentionImpl(AttentionKind kind, int hidden, int window);

    // Once per batch: the key-side projection.
    AttentionKeys prepare(const torch::Tensor& keys, const torch::Tensor& padMask,
                          const torch::Tensor& lengths);
    // query [B, H] (decoder state), step t -> weights [B, S] (rows sum to 1).
    torch::Tensor weights(const torch::Tensor& query, const AttentionKeys& keys, int64_t step,
                          AttentionTrace* trace = nullptr);

    // Every step at once, for queries that do not depend on earlier weights (query after, teacher
    // forcing): queries [B, T, H] -> weights [B, T, S], the same numbers as weights() at each t.
    // Dot, scaled-dot, general and additive only (local attention's window moves with t).
    bool hasWeightsAll() const;
    torch::Tensor weightsAll(const torch::Tensor& queries, const AttentionKeys& keys);

    AttentionKind kind() const { return kind_; }
    // Additive only: W_q [H, H] and v [1, H] (the fused training decoder takes them as inputs).
    const torch::Tensor& queryWeight() const { return queryProj_->weight; }
    const torch::Tensor& scoreWeight() const { return v_->weight; }

private:
    AttentionKind kind_;
    int hidden_;
    int window_;
    torch::nn::Linear keyProj_{nullptr};    // W (general/local) or U (additive)
    torch::nn::Linear queryProj_{nullptr};  // W for additive
    torch::nn::Linear v_{nullptr};          // v for additive
    torch::nn::Linear centerProj_{nullptr}; // W_p for local-p
    torch::nn::Linear centerV_{nullptr};    // v_p for local-p
};
TORCH_MODULE(GruAttention);

}  // namespace attnlab::nn
