#include "Random.h"

#include <ATen/CPUGeneratorImpl.h>

#include <mutex>

namespace attnlab::nn {

namespace {
thread_local c10::optional<at::Generator> threadGenerator;
}

ScopedGenerator::ScopedGenerator(at::Generator generator) : previous_(threadGenerator) {
    threadGenerator = std::move(generator);
}

ScopedGenerator::~ScopedGenerator() { threadGenerator = previous_; }

c10::optional<at::Generator> currentGenerator() { return threadGenerator; }

namespace {

std::uint64_t drawSeed() {
    at::Generator generator = threadGenerator ? *threadGenerator : at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(generator.mutex());
    return generator.get<at::CPUGeneratorImpl>()->random64();
}

inline std::uint64_t splitMix64(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

template <typename T>
void fillMask(T* out, std::int64_t n, std::uint64_t seed, double p) {
    // Keep an element when its 32-bit uniform number is below (1 - p) * 2^32.
    const auto keepBelow = static_cast<std::uint64_t>(std::llround((1.0 - p) * 4294967296.0));
    const T scale = static_cast<T>(1.0 / (1.0 - p));
    for (std::int64_t i = 0; i < n; i += 2) {
        const std::uint64_t r = splitMix64(seed + static_cast<std::uint64_t>(i / 2) * 0x9E3779B97F4A7C15ull);
        out[i] = (r & 0xFFFFFFFFull) < keepBelow ? scale : T(0);
        if (i + 1 < n) out[i + 1] = (r >> 32) < keepBelow ? scale : T(0);
    }
}

}  // namespace

void fillDropoutMask(torch::Tensor& mask, double p) {
    TORCH_CHECK(mask.is_contiguous(), "fillDropoutMask needs a contiguous tensor");
    if (p >= 1) {
        mask.zero_();
        return;
    }
    const std::uint64_t seed = drawSeed();
    AT_DISPATCH_FLOATING_TYPES(mask.scalar_type(), "fillDropoutMask",
                               [&] { fillMask<scalar_t>(mask.data_ptr<scalar_t>(), mask.numel(), seed, p); });
}

torch::Tensor applyDropout(const torch::Tensor& x, double p, bool training) {
    // As ATen's _dropout_impl (LibTorch 1.13) does it, with fillDropoutMask's mask.
    if (!training || p == 0 || x.numel() == 0) return x;
    if (p == 1) return x * torch::zeros({}, x.options());
    torch::Tensor noise = torch::empty_like(x, at::MemoryFormat::Contiguous);
    fillDropoutMask(noise, p);
    return x * noise;
}

torch::Tensor addDropout(const torch::Tensor& residual, const torch::Tensor& x, double p, bool training) {
    if (!training || p == 0 || x.numel() == 0 || p >= 1) return residual + applyDropout(x, p, training);
    torch::Tensor noise = torch::empty_like(x, at::MemoryFormat::Contiguous);
    fillDropoutMask(noise, p);
    return torch::addcmul(residual, x, noise);
}

}  // namespace attnlab::nn
