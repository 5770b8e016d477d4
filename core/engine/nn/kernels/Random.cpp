#include "engine/nn/kernels/Random.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <mutex>
#include <type_traits>

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

// "lowbias32" (C. Wellons' hash prospector): a 32-bit integer hash whose two multiplies
// vectorise, eight lanes at a time with AVX2 and sixteen with AVX-512.
inline std::uint32_t mix32(std::uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// Element i is kept when its hash, two rounds keyed by the seed's halves, is below
// keepBelow (= (1 - p) · 2^32, at most 2^32 - 1).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#endif
void fillMaskFloat(float* out, std::int64_t n, std::uint32_t key0, std::uint32_t key1, std::uint32_t keepBelow,
                   float scale) {
    for (std::int64_t i = 0; i < n; ++i) {
        const std::uint32_t r = mix32(mix32(static_cast<std::uint32_t>(i) ^ key0) + key1);
        out[i] = r < keepBelow ? scale : 0.0f;
    }
}

template <typename T>
void fillMask(T* out, std::int64_t n, std::uint64_t seed, double p) {
    const auto keepBelow = static_cast<std::uint32_t>(
        std::min<long long>(std::llround((1.0 - p) * 4294967296.0), 0xFFFFFFFFll));
    const auto key0 = static_cast<std::uint32_t>(seed), key1 = static_cast<std::uint32_t>(seed >> 32);
    if constexpr (std::is_same_v<T, float>) {
        fillMaskFloat(out, n, key0, key1, keepBelow, static_cast<float>(1.0 / (1.0 - p)));
    } else {
        const T scale = static_cast<T>(1.0 / (1.0 - p));
        for (std::int64_t i = 0; i < n; ++i)
            out[i] = mix32(mix32(static_cast<std::uint32_t>(i) ^ key0) + key1) < keepBelow ? scale : T(0);
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
