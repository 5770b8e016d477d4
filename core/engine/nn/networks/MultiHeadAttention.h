#pragma once
// Multi-head scaled dot-product attention, written out so that every head's
// weights can be captured (torch::nn::MultiheadAttention averages them).
#include <torch/torch.h>

#include "engine/nn/networks/AttentionPatterns.h"

namespace attnlab::nn {

// Intermediate numbers of every head, for the step-by-step maths view.
struct HeadTrace {
    torch::Tensor query;         // [B, H, Tq, d_k]  Q of each head
    torch::Tensor key;           // [B, H, Tk, d_k]  K
    torch::Tensor value;         // [B, H, Tk, d_k]  V
    torch::Tensor rawScores;     // [B, H, Tq, Tk]  Q·Kᵀ
    torch::Tensor scaledScores;  // [B, H, Tq, Tk]  Q·Kᵀ/√d_k, before the mask
    torch::Tensor maskedScores;  // [B, H, Tq, Tk]  after the mask (-inf)
    torch::Tensor weights;       // [B, H, Tq, Tk]  softmax
    torch::Tensor headOutput;    // [B, H, Tq, d_k] weights·V (after attention dropout, none in eval mode)
    torch::Tensor keyPadMask;    // [B, Tk] bool as given (may be undefined)
    bool causal = false;
    double scale = 1.0;          // 1/√d_k
};

class MultiHeadAttentionImpl : public torch::nn::Module {
public:
    // pattern: which keys each query scores (AttentionPatterns.h); Full by default. randomInit false:
    // the projections' parameters are allocated but not initialised (a loader sets them all).
    MultiHeadAttentionImpl(int dModel, int heads, double dropout, PatternSpec pattern = {}, bool randomInit = true);

    // query [B, Tq, D], memory [B, Tk, D]; keyPadMask [B, Tk] bool (true = padding);
    // causal masks keys after the query position. Returns [B, Tq, D]; with
    // weightsOut set, stores the attention weights [B, H, Tq, Tk].
    torch::Tensor forward(const torch::Tensor& query, const torch::Tensor& memory, const torch::Tensor& keyPadMask,
                          bool causal, torch::Tensor* weightsOut = nullptr, HeadTrace* trace = nullptr);

    // Incremental decoding, one query row at a time. keysValues: the keys and values of
    // memory [B, Tk, D], split into heads [B, H, Tk, dk] (cross-attention: once per
    // sentence). appendKeysValues: x's own key and value [B, 1, D] appended to a cache
    // (decoder self-attention; undefined caches start empty). forwardStep: x [B, 1, D]
    // against keys/values [B or 1, H, Tk, dk], no causal mask (a cache holds only the
    // past); returns [B, 1, D] and, with weightsOut set, the weights [B, H, 1, Tk]. With a
    // pattern other than Full the step is the query at position Tk - 1 of a causal pattern.
    std::pair<torch::Tensor, torch::Tensor> keysValues(const torch::Tensor& memory);
    void appendKeysValues(const torch::Tensor& x, torch::Tensor& keys, torch::Tensor& values);
    torch::Tensor forwardStep(const torch::Tensor& x, const torch::Tensor& keys, const torch::Tensor& values,
                              const torch::Tensor& keyPadMask, torch::Tensor* weightsOut);

    // The four projections, for the fused decoding step.
    struct Projections {
        torch::nn::Linear q, k, v, out;
    };
    Projections projections() const { return {q_, k_, v_, out_}; }
    int heads() const { return heads_; }
    const PatternSpec& pattern() const { return pattern_; }

    // Head gates (head ablation and importance, Michel et al. 2019): each head's output
    // weights·V is multiplied by its gate before the output projection. gate: float [H] (one
    // per head, every row) or [B, H] (one per batch row: per-sentence gradients), or undefined
    // (all heads on, the default: no multiplication at all). Not a parameter: never saved,
    // never trained. The weights a pass captures are the softmax's, gated or not.
    void setHeadGate(torch::Tensor gate) { gate_ = std::move(gate); }
    const torch::Tensor& headGate() const { return gate_; }
    bool gated() const { return gate_.defined(); }

    // Whether forward's weights must carry gradients (an attention loss in training): the fused
    // node, whose weights do not, is then not used.
    void setDifferentiableWeights(bool on) { differentiableWeights_ = on; }

private:
    int dModel_, heads_, headDim_;
    double dropout_;
    PatternSpec pattern_;
    torch::nn::Linear q_{nullptr}, k_{nullptr}, v_{nullptr}, out_{nullptr};
    torch::Tensor gate_;  // see setHeadGate
    bool differentiableWeights_ = false;
    // q, k and v's weights as one [3D, D] matrix and their biases as one [3D]: outside grad mode, a
    // view when the three lie one after the other in one storage (a Hugging Face GPT-2 as opened:
    // c_attn's block), else (and always under autograd) their concatenation.
    std::pair<torch::Tensor, torch::Tensor> fusedQkv() const;
    // heads [B, H, T, dk] times the gates (unchanged when there are none).
    torch::Tensor gateHeads(const torch::Tensor& heads) const;
    // The same for heads merged as [B, T, D] (head h in columns h·dk..).
    torch::Tensor gateMerged(const torch::Tensor& merged) const;
};
TORCH_MODULE(MultiHeadAttention);

}  // namespace attnlab::nn
