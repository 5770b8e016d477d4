#pragma once
// Engine-internal: the pieces the fused decoding steps (TransformerDecodeStep.cpp,
// GruInference.cpp) and the fused attention node (FusedHeadAttention.cpp) share: one row
// through a Linear layer as a direct sgemv, and a masked softmax in place.
#include <cblas.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace attnlab::nn::decode {

// out = W x (+ b) for a float32 Linear layer (weight [out, in], row-major). With
// accumulate, out += W x (+ b) instead.
inline void linear(const torch::nn::Linear& layer, const float* x, float* out, bool accumulate = false) {
    const torch::Tensor& w = layer->weight;
    const int rows = static_cast<int>(w.size(0)), cols = static_cast<int>(w.size(1));
    const bool bias = layer->bias.defined();
    if (!accumulate) {
        if (bias) std::memcpy(out, layer->bias.data_ptr<float>(), sizeof(float) * static_cast<size_t>(rows));
        else std::fill(out, out + rows, 0.0f);
    } else if (bias) {
        const float* b = layer->bias.data_ptr<float>();
        for (int i = 0; i < rows; ++i) out[i] += b[i];
    }
    cblas_sgemv(CblasRowMajor, CblasNoTrans, rows, cols, 1.0f, w.data_ptr<float>(), cols, x, 1, 1.0f, out, 1);
}

// Softmax of scores[0..n) in place, skipping masked positions (they become 0); a row
// with nothing visible becomes all 0. Returns false in that case.
inline bool maskedSoftmax(float* scores, int64_t n, const bool* masked) {
    float max = -std::numeric_limits<float>::infinity();
    for (int64_t j = 0; j < n; ++j)
        if (!(masked && masked[j])) max = std::max(max, scores[j]);
    if (max == -std::numeric_limits<float>::infinity()) {
        std::fill(scores, scores + n, 0.0f);
        return false;
    }
    float sum = 0.0f;
    for (int64_t j = 0; j < n; ++j) {
        scores[j] = masked && masked[j] ? 0.0f : std::exp(scores[j] - max);
        sum += scores[j];
    }
    const float inv = 1.0f / sum;
    for (int64_t j = 0; j < n; ++j) scores[j] *= inv;
    return true;
}

}  // namespace attnlab::nn::decode
