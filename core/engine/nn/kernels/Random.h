#pragma once
// Where training's random draws (dropout masks, scheduled sampling) come from: LibTorch's
// global generator, unless the calling thread installed its own (ScopedGenerator). The
// TranslationTrainer's parts of a batch train on parallel threads, each with its own generator, so
// that their draws do not depend on how the threads interleave.
#include <torch/torch.h>

namespace attnlab::nn {

class ScopedGenerator {
public:
    explicit ScopedGenerator(at::Generator generator);
    ~ScopedGenerator();
    ScopedGenerator(const ScopedGenerator&) = delete;
    ScopedGenerator& operator=(const ScopedGenerator&) = delete;

private:
    c10::optional<at::Generator> previous_;
};

// The calling thread's generator; nullopt means LibTorch's global one.
c10::optional<at::Generator> currentGenerator();

// Fills a contiguous float or double tensor with 0 (probability p) or 1 / (1 - p): a
// dropout mask. One 64-bit seed is drawn from currentGenerator() per call; element i
// comes from a counter-based 32-bit hash of i keyed by the seed, which vectorises.
// bernoulli_ made one 64-bit Mersenne-Twister draw and a double comparison per element,
// ~5% of a Transformer training step; a scalar SplitMix64 still took ~4%.
void fillDropoutMask(torch::Tensor& mask, double p);

// Dropout as F::dropout computes it (x times a mask of 0 and 1 / (1 - p)), with the
// mask from fillDropoutMask.
torch::Tensor applyDropout(const torch::Tensor& x, double p, bool training);

// residual + applyDropout(x, p, training) as one addcmul: one elementwise pass (and one
// temporary) fewer, forward and backward, on every residual connection.
torch::Tensor addDropout(const torch::Tensor& residual, const torch::Tensor& x, double p, bool training);

}  // namespace attnlab::nn
