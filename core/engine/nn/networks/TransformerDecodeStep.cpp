// DecoderLayerImpl::stepFused: one decoding step of a decoder layer for a single new
// position per row, as raw loops and direct sgemv calls.
//
// Decoding a 30-token sentence made ~60 LibTorch operations per layer and step (views,
// reshapes, small products, the masks), each a few microseconds of dispatch over a
// handful of numbers; translate + capture took 9-14 ms for the 2+2-layer Transformer.
// Here a row costs 11 sgemv calls and loops over d_model-long vectors. The arithmetic
// is step()'s, in the same order of operations where it matters (scaled dot products,
// masked softmax, post-norm residuals); tests/core/test_decoding checks the tokens,
// scores and every attention map against forward() over the whole prefix.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "engine/nn/kernels/DecodeKernels.h"
#include "engine/nn/networks/TransformerSeq2Seq.h"

namespace attnlab::nn {

using torch::Tensor;
using decode::linear;

namespace {

// out = LayerNorm(a + b) over d elements (biased variance, as torch::nn::LayerNorm).
void addNorm(const float* a, const float* b, const torch::nn::LayerNorm& norm, int64_t d, float* out) {
    double mean = 0.0;
    for (int64_t i = 0; i < d; ++i) {
        out[i] = a[i] + b[i];
        mean += out[i];
    }
    mean /= static_cast<double>(d);
    double var = 0.0;
    for (int64_t i = 0; i < d; ++i) var += (out[i] - mean) * (out[i] - mean);
    var /= static_cast<double>(d);
    const float inv = static_cast<float>(1.0 / std::sqrt(var + norm->options.eps()));
    const float m = static_cast<float>(mean);
    const float* gamma = norm->weight.data_ptr<float>();
    const float* beta = norm->bias.data_ptr<float>();
    for (int64_t i = 0; i < d; ++i) out[i] = (out[i] - m) * inv * gamma[i] + beta[i];
}

// One query row against Tk keys/values per head ([H, Tk, dk] each, contiguous):
// scaled dot products, padding masked, softmax, weighted sum into context [H·dk].
// weights (optional) receives the [H, Tk] softmax.
void attend(const float* query, const float* keys, const float* values, int64_t heads, int64_t tk, int64_t dk,
            const bool* pad, float* weights, float* context, std::vector<float>& scratch) {
    const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dk)));
    scratch.resize(static_cast<size_t>(tk));
    for (int64_t h = 0; h < heads; ++h) {
        const float* q = query + h * dk;
        const float* k = keys + h * tk * dk;
        const float* v = values + h * tk * dk;
        float* w = weights ? weights + h * tk : scratch.data();
        for (int64_t j = 0; j < tk; ++j) {
            float dot = 0.0f;
            for (int64_t c = 0; c < dk; ++c) dot += q[c] * k[j * dk + c];
            w[j] = dot * scale;
        }
        float* ctx = context + h * dk;
        std::fill(ctx, ctx + dk, 0.0f);
        if (!decode::maskedSoftmax(w, tk, pad)) continue;  // every key masked: weights and context 0
        for (int64_t j = 0; j < tk; ++j)
            for (int64_t c = 0; c < dk; ++c) ctx[c] += w[j] * v[j * dk + c];
    }
}

}  // namespace

bool DecoderLayerImpl::canStepFused(const Tensor& y) {
    return !torch::GradMode::is_enabled() && y.scalar_type() == torch::kFloat && y.device().is_cpu();
}

Tensor DecoderLayerImpl::stepFused(const Tensor& yIn, Tensor& selfKeys, Tensor& selfValues, const Tensor& tgtPadMaskIn,
                                   const Tensor& crossKeysIn, const Tensor& crossValuesIn, const Tensor& srcPadMaskIn,
                                   Tensor* selfWeights, Tensor* crossWeights) {
    const Tensor y = yIn.contiguous();
    const int64_t B = y.size(0), D = y.size(2), H = selfAttention->heads(), dk = D / H;
    const int64_t past = selfKeys.defined() ? selfKeys.size(2) : 0, Tk = past + 1;
    const Tensor crossKeys = crossKeysIn.contiguous(), crossValues = crossValuesIn.contiguous();
    const int64_t S = crossKeys.size(2);
    const Tensor tgtPad = tgtPadMaskIn.defined() ? tgtPadMaskIn.to(torch::kBool).contiguous() : Tensor();
    const Tensor srcPad = srcPadMaskIn.defined() ? srcPadMaskIn.to(torch::kBool).contiguous() : Tensor();
    const auto self = selfAttention->projections(), cross = crossAttention->projections();

    // The caches grow by one position: [B, H, past, dk] -> [B, H, past + 1, dk].
    const auto options = y.options();
    Tensor keys = torch::empty({B, H, Tk, dk}, options), values = torch::empty({B, H, Tk, dk}, options);
    const Tensor oldKeys = past ? selfKeys.contiguous() : Tensor(), oldValues = past ? selfValues.contiguous() : Tensor();
    Tensor selfW = selfWeights ? torch::empty({B, H, 1, Tk}, options) : Tensor();
    Tensor crossW = crossWeights ? torch::empty({B, H, 1, S}, options) : Tensor();
    Tensor out = torch::empty({B, 1, D}, options);

    const int64_t ff = ff1_->weight.size(0);
    std::vector<float> q(D), k(D), v(D), context(D), projected(D), h1(D), h2(D), hidden(ff), scratch;
    for (int64_t b = 0; b < B; ++b) {
        const float* x = y.data_ptr<float>() + b * D;
        // Self-attention over the prefix and the new position.
        linear(self.q, x, q.data());
        linear(self.k, x, k.data());
        linear(self.v, x, v.data());
        float* kb = keys.data_ptr<float>() + b * H * Tk * dk;
        float* vb = values.data_ptr<float>() + b * H * Tk * dk;
        for (int64_t h = 0; h < H; ++h) {
            if (past) {
                const size_t bytes = sizeof(float) * static_cast<size_t>(past * dk);
                std::memcpy(kb + h * Tk * dk, oldKeys.data_ptr<float>() + (b * H + h) * past * dk, bytes);
                std::memcpy(vb + h * Tk * dk, oldValues.data_ptr<float>() + (b * H + h) * past * dk, bytes);
            }
            std::memcpy(kb + (h * Tk + past) * dk, k.data() + h * dk, sizeof(float) * static_cast<size_t>(dk));
            std::memcpy(vb + (h * Tk + past) * dk, v.data() + h * dk, sizeof(float) * static_cast<size_t>(dk));
        }
        const bool* tgtPadRow = tgtPad.defined() ? tgtPad.data_ptr<bool>() + b * Tk : nullptr;
        attend(q.data(), kb, vb, H, Tk, dk, tgtPadRow, selfW.defined() ? selfW.data_ptr<float>() + b * H * Tk : nullptr,
               context.data(), scratch);
        linear(self.out, context.data(), projected.data());
        addNorm(x, projected.data(), norm1_, D, h1.data());

        // Cross-attention over the memory (batch 1 broadcasts to every row).
        const int64_t cb = crossKeys.size(0) > 1 ? b : 0;
        const bool* srcPadRow =
            srcPad.defined() ? srcPad.data_ptr<bool>() + (srcPad.size(0) > 1 ? b : 0) * S : nullptr;
        linear(cross.q, h1.data(), q.data());
        attend(q.data(), crossKeys.data_ptr<float>() + cb * H * S * dk, crossValues.data_ptr<float>() + cb * H * S * dk,
               H, S, dk, srcPadRow, crossW.defined() ? crossW.data_ptr<float>() + b * H * S : nullptr, context.data(),
               scratch);
        linear(cross.out, context.data(), projected.data());
        addNorm(h1.data(), projected.data(), norm2_, D, h2.data());

        // Feed-forward.
        linear(ff1_, h2.data(), hidden.data());
        for (float& a : hidden) a = std::max(a, 0.0f);
        linear(ff2_, hidden.data(), projected.data());
        addNorm(h2.data(), projected.data(), norm3_, D, out.data_ptr<float>() + b * D);
    }
    selfKeys = keys;
    selfValues = values;
    if (selfWeights) *selfWeights = selfW;
    if (crossWeights) *crossWeights = crossW;
    return out;
}

}  // namespace attnlab::nn
