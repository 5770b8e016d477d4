#pragma once
// Engine-internal: a one-layer, one-direction GRU over padded sequences as ONE autograd
// node with a hand-written backward, for training. Same results as torch::nn::GRU on a
// packed sequence: rows stop at their length, outputs past it are 0, and the final state
// of each row is its state at its last token.
//
// LibTorch runs a packed GRU as per-step autograd cells, each with its own input and
// hidden matmul and a handful of gate operations recorded for the backward; at hidden 128
// and batch 32 that bookkeeping costs more than the arithmetic. Here the input projection
// of all steps is one matmul (outside, through autograd), the recurrence runs unrecorded,
// and the backward collects the hidden-side gate gradients of all steps for one weight
// matmul.
#include <torch/torch.h>

namespace attnlab::nn {

class FusedGruEncoder : public torch::autograd::Function<FusedGruEncoder> {
public:
    // inputProj [B, S, 3H] = W_ih x + b_ih for every step; valid [B, S] bool, true up to
    // each row's length (at least 1). initial [B, H] is the state before the first step (a
    // decoder's, which then gets its gradient too); undefined = zeros (an encoder's).
    // `reversed`: each row runs from its last token back to its first (a bidirectional GRU's
    // backward direction), its outputs still at their tokens' positions.
    // Returns {outputs [B, S, H], final state [B, H]}.
    static std::pair<torch::Tensor, torch::Tensor> run(const torch::Tensor& inputProj, const torch::Tensor& valid,
                                                       const torch::Tensor& hiddenWeight,
                                                       const torch::Tensor& hiddenBias,
                                                       const torch::Tensor& initial = {}, bool reversed = false);

    static torch::autograd::variable_list forward(torch::autograd::AutogradContext* ctx, torch::Tensor inputProj,
                                                  torch::Tensor valid, torch::Tensor hiddenWeight,
                                                  torch::Tensor hiddenBias, torch::Tensor initial, bool reversed);
    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list gradOutputs);
};

// One layer of `gru` (its l0 weights, and l0_reverse when bidirectional) over padded rows
// emb [B, S, E] with valid [B, S] (true up to each row's length), each direction a
// FusedGruEncoder; the backward one runs over each row reversed within its length (inside the
// node: no gather of the inputs or outputs).
// -> {outputs [B, S, H * dirs] (0 past each length), final states [dirs, B, H]}
std::pair<torch::Tensor, torch::Tensor> runGruLayerFused(torch::nn::GRU& gru, const torch::Tensor& emb,
                                                         const torch::Tensor& valid, bool bidirectional);

}  // namespace attnlab::nn
