#pragma once
// One step of a torch::nn::GRUCell (LibTorch's gates r, z, n and its weights) as a single autograd
// node with a hand-written backward: two matrix products and three loops forward, where the library
// cell makes a dozen LibTorch operations and as many autograd nodes. For recurrences whose input
// depends on the step before (a captioner's input feeding), which FusedGruEncoder cannot run whole.
#include <torch/torch.h>

namespace attnlab::nn {

// cell(input, h): input [B, I], h [B, H] -> [B, H], differentiable in every argument and weight.
torch::Tensor fusedGruCell(const torch::Tensor& input, const torch::Tensor& h, torch::nn::GRUCell& cell);

}  // namespace attnlab::nn
