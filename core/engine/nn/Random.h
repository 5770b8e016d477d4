#pragma once
// Where training's random draws (dropout masks, scheduled sampling) come from: LibTorch's
// global generator, unless the calling thread installed its own (ScopedGenerator). The
// Trainer's parts of a batch train on parallel threads, each with its own generator, so
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

// F::dropout: the same computation and, with the global generator, the same draws.
torch::Tensor applyDropout(const torch::Tensor& x, double p, bool training);

}  // namespace attnlab::nn
