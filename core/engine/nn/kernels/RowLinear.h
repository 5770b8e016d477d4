#pragma once
// A Linear layer applied to x [..., in], with one special case: a single row goes
// through a matrix-vector product. OpenBLAS's sgemm packs (copies) the whole weight
// matrix on every call, and for one row that copy costs more than the product itself
// (two thirds of a one-token decoding step here); sgemv reads the weights in place.
#include <torch/torch.h>

namespace attnlab::nn {

inline torch::Tensor rowLinear(torch::nn::Linear& layer, const torch::Tensor& x) {
    const int64_t in = x.size(-1);
    if (x.numel() != in) return layer->forward(x);
    std::vector<int64_t> shape = x.sizes().vec();
    shape.back() = layer->weight.size(0);
    const torch::Tensor& bias = layer->bias;
    torch::Tensor y = bias.defined() ? torch::addmv(bias, layer->weight, x.reshape({in}))
                                     : torch::mv(layer->weight, x.reshape({in}));
    return y.view(shape);
}

}  // namespace attnlab::nn
