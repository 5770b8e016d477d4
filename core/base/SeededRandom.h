#pragma once
// Internal to core/base: the random draws of the built-in datasets and the splits, the same on
// every machine and standard library (std::uniform_int_distribution is not specified bit for bit,
// std::mt19937_64 is).
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace attnlab {

// Uniform in [0, bound) (bound > 0): rejects the low 2^64 mod bound values so every residue is
// equally likely.
inline std::uint64_t uniformBelow(std::mt19937_64& rng, std::uint64_t bound) {
    const std::uint64_t threshold = (0 - bound) % bound;
    for (;;) {
        const std::uint64_t r = rng();
        if (r >= threshold) return r % bound;
    }
}

class SeededRandom {
public:
    explicit SeededRandom(std::uint64_t seed) : engine_(seed) {}
    std::uint64_t below(std::uint64_t n) { return uniformBelow(engine_, n); }
    int range(int lo, int hi) { return lo + static_cast<int>(below(static_cast<std::uint64_t>(hi - lo) + 1)); }
    bool percent(int p) { return static_cast<int>(below(100)) < p; }
    template <typename T>
    const T& pick(const std::vector<T>& items) {
        return items[static_cast<std::size_t>(below(items.size()))];
    }
    template <typename T>
    void shuffle(std::vector<T>& items) {  // Fisher-Yates from the end
        for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[static_cast<std::size_t>(below(i))]);
    }

private:
    std::mt19937_64 engine_;
};

}  // namespace attnlab
