#include "Random.h"

namespace attnlab::nn {

namespace {
thread_local c10::optional<at::Generator> threadGenerator;
}

ScopedGenerator::ScopedGenerator(at::Generator generator) : previous_(threadGenerator) {
    threadGenerator = std::move(generator);
}

ScopedGenerator::~ScopedGenerator() { threadGenerator = previous_; }

c10::optional<at::Generator> currentGenerator() { return threadGenerator; }

torch::Tensor applyDropout(const torch::Tensor& x, double p, bool training) {
    // As ATen's _dropout_impl (LibTorch 1.13) does it.
    if (!training || p == 0 || x.numel() == 0) return x;
    if (p == 1) return x * torch::zeros({}, x.options());
    torch::Tensor noise = torch::empty_like(x).bernoulli_(1 - p, threadGenerator);
    noise.div_(1 - p);
    return x * noise;
}

}  // namespace attnlab::nn
