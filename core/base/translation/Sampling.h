#pragma once
// The arithmetic of sampling a next token (torch-free, on explicit numbers): temperature, the
// top-k and top-p (nucleus; Holtzman et al. 2020) cut, and the draw. The engine's sampling
// decoder (core/engine/translation/Decoding.cpp) applies these to each step's distribution.
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace attnlab {

// softmax(logits / temperature) in double (temperature > 0), computed stably (the largest
// logit subtracted first). Log-probabilities are logits too: the softmax removes the constant.
// At a temperature near 0 every token but the most probable gets probability 0 (underflow).
std::vector<double> temperatureSoftmax(const std::vector<double>& logits, double temperature);

// Which tokens survive the cut. `order` ranks every token by probability, the most probable
// first (ties: the lower id first); `order[0, kept)` survive, with `keptMass` the sum of their
// probabilities (a kept token is drawn with probability p / keptMass).
struct SamplingCut {
    std::vector<std::size_t> order;
    std::size_t kept = 0;
    double keptMass = 0.0;
};

// The cut of HuggingFace's order (top-k, then top-p): the `topK` most probable tokens (0 = no
// top-k cut; more than there are = all), then of those the smallest prefix whose probability,
// renormalised over the top-k set, reaches `topP` (0 < topP <= 1; 1 = no top-p cut; "reaches"
// within 1e-9, the rounding of a sum). At least one token always survives. `probabilities`
// need not sum to 1.
SamplingCut cutDistribution(const std::vector<double>& probabilities, int topK, double topP);

// The kept token that a uniform draw u in [0, 1) picks: walks order[0, kept), each kept token
// taking a share p / keptMass of [0, 1). Returns a token id (an entry of order).
std::size_t drawFromCut(const SamplingCut& cut, const std::vector<double>& probabilities, double u);

// A uniform double in [0, 1) from the top 53 bits of one 64-bit draw: the same on every machine
// and standard library (std::uniform_real_distribution is not specified bit for bit).
inline double unitDraw(std::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * (1.0 / 9007199254740992.0);  // 2^-53
}

}  // namespace attnlab
