#pragma once
// One GRU attention step on explicit numbers, computed by the same module the models
// use: for checking the maths by hand and for the step-by-step view.
#include <limits>
#include <vector>

#include "base/translation/ModelConfig.h"

namespace attnlab {

struct AttentionStepInput {
    AttentionKind kind = AttentionKind::Dot;
    int hidden = 0;              // H
    int window = 3;              // D (local attention)
    int step = 0;                // t (local-m centres on it)
    int sourceLength = 0;        // true length; positions >= it are padding
    std::vector<float> query;    // [H]  decoder state s
    std::vector<float> keys;     // [S * H] encoder states h_j, row-major; S = keys.size() / H
    // Parameters, row-major [out][in]; only those the kind uses are read.
    std::vector<float> W;        // general/local: [H][H] key projection; additive: [H][H] query projection
    std::vector<float> U;        // additive: [H][H] key projection
    std::vector<float> bU;       // additive: [H] bias of U
    std::vector<float> v;        // additive: [H]
    std::vector<float> Wp;       // local-p: [H][H]
    std::vector<float> vp;       // local-p: [H]
};

struct AttentionStepResult {
    std::vector<float> rawScores;  // [S] score(s, h_j) before scaling and masks
    std::vector<float> scores;     // [S] after scaling, Gaussian and masks (-inf where excluded)
    std::vector<float> weights;    // [S] softmax
    std::vector<float> context;    // [H] sum_j weights_j h_j
    double center = std::numeric_limits<double>::quiet_NaN();  // p_t for local attention
};

// Throws ConfigError if sizes disagree or the kind is `none`.
AttentionStepResult computeAttentionStep(const AttentionStepInput& input);

}  // namespace attnlab
