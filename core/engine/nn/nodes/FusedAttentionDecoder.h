#pragma once
// Engine-internal: the teacher-forced training loop of a one-layer GRU decoder with
// attention as ONE autograd node with a hand-written backward (BPTT).
//
// Through autograd a decoder step is ~20 small operations forward and ~40 backward,
// and at hidden 128 / batch 32 their fixed cost outweighs their arithmetic. Here the
// forward runs without recording a graph, keeps what the backward needs in buffers
// indexed by step, and the backward walks the steps in reverse, collecting per-step
// gate and query gradients so that every weight gradient is one matmul after the loop.
// W_q and W_hh share one matmul per step; W_ctx c_t is computed as Σ_s a_d[s] (W_ctx
// keys[s]) with the keys projected once per batch, so it costs no matmul per step.
//
// Per step (GruSeq2Seq::decodeStep, Bahdanau order), s = s_{t-1}:
//   additive  score = v · tanh(U h + b + W_q s)      dot kinds  score = scale · (K s)
//   a = softmax(score masked at padding), a_d = dropout(a), c = a_d · keys
//   gi = embProj_t + W_ctx c,  gh = W_hh s + b_hh,  r, z = sigmoid, n = tanh(gi_n + r gh_n)
//   s_t = n + z (s - n)
// GruSeq2Seq keeps the autograd path (every step recorded) as the reference; it uses
// this one only to train (grad mode on, teacher forcing 1, one layer, additive or dot,
// general, scaled-dot attention).
#include <torch/torch.h>

namespace attnlab::nn {

struct FusedDecoderInputs {
    torch::Tensor embProj;        // [B, T, 3H] embedding half of the input projection, b_ih included
    torch::Tensor keys;           // [B, S, H] encoder outputs (the attention's values)
    torch::Tensor scoreKeys;      // [B, S, H] U h + b (additive); keys or W h (dot, scaled-dot, general)
    torch::Tensor padMask;        // [B, S] bool, true at padding
    torch::Tensor initial;        // [B, H] s_0
    torch::Tensor queryWeight;    // [H, H] W_q (additive only)
    torch::Tensor scoreWeight;    // [1, H] v (additive only)
    torch::Tensor contextWeight;  // [3H, H] W_ctx
    torch::Tensor hiddenWeight;   // [3H, H] W_hh
    torch::Tensor hiddenBias;     // [3H] b_hh
    bool additive = true;
    double scale = 1.0;    // dot kinds: score = scale · (K s)
    double dropout = 0.0;  // on the attention weights; masks drawn per step as applyDropout draws them
};

struct FusedDecoderOutputs {
    torch::Tensor states;   // [B, T, H] s_1..s_T
    torch::Tensor weights;  // [B, T, S] attention weights before dropout (no gradient)
};

class FusedAttentionDecoder : public torch::autograd::Function<FusedAttentionDecoder> {
public:
    static FusedDecoderOutputs run(const FusedDecoderInputs& in);

    static torch::autograd::variable_list forward(torch::autograd::AutogradContext* ctx, torch::Tensor embProj,
                                                  torch::Tensor keys, torch::Tensor scoreKeys,
                                                  torch::Tensor initial, c10::optional<torch::Tensor> queryWeight,
                                                  c10::optional<torch::Tensor> scoreWeight,
                                                  torch::Tensor contextWeight, torch::Tensor hiddenWeight,
                                                  torch::Tensor hiddenBias, torch::Tensor padMask, bool additive,
                                                  double scale, double dropout);
    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list gradOutputs);
};

// Process-wide switch (default on) for FusedAttentionDecoder and FusedGruEncoder, so that
// tests and benchmarks can run the autograd reference path on the same model.
bool fusedTrainingEnabled();
void setFusedTrainingEnabled(bool enabled);

}  // namespace attnlab::nn
