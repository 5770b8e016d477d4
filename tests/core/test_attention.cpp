// Every GRU attention variant against a hand computation on tiny tensors.
#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

#include "base/InputError.h"
#include "engine/AttentionMath.h"

using namespace attnlab;
using Catch::Matchers::WithinAbs;

namespace {

// Keys h0 = (1, 0), h1 = (0, 1), h2 = (1, 1); query s = (2, 1).
AttentionStepInput tinyInput(AttentionKind kind) {
    AttentionStepInput in;
    in.kind = kind;
    in.hidden = 2;
    in.query = {2, 1};
    in.keys = {1, 0, 0, 1, 1, 1};
    in.sourceLength = 3;
    return in;
}

std::vector<double> softmax(const std::vector<double>& x) {
    double m = *std::max_element(x.begin(), x.end()), sum = 0;
    std::vector<double> e;
    for (double v : x) sum += e.emplace_back(std::exp(v - m));
    for (double& v : e) v /= sum;
    return e;
}

void checkWeights(const AttentionStepResult& r, const std::vector<double>& expected) {
    REQUIRE(r.weights.size() == expected.size());
    for (std::size_t j = 0; j < expected.size(); ++j) CHECK_THAT(r.weights[j], WithinAbs(expected[j], 1e-6));
    CHECK_THAT(std::accumulate(r.weights.begin(), r.weights.end(), 0.0), WithinAbs(1.0, 1e-6));
}

TEST_CASE("dot attention is softmax of s·h", "[attention]") {
    auto r = computeAttentionStep(tinyInput(AttentionKind::Dot));
    CHECK_THAT(r.rawScores[0], WithinAbs(2.0, 1e-6));
    CHECK_THAT(r.rawScores[1], WithinAbs(1.0, 1e-6));
    CHECK_THAT(r.rawScores[2], WithinAbs(3.0, 1e-6));
    checkWeights(r, softmax({2, 1, 3}));
    // context = sum_j w_j h_j
    auto w = softmax({2, 1, 3});
    CHECK_THAT(r.context[0], WithinAbs(w[0] + w[2], 1e-6));
    CHECK_THAT(r.context[1], WithinAbs(w[1] + w[2], 1e-6));
}

TEST_CASE("scaled dot attention divides by sqrt(d)", "[attention]") {
    auto r = computeAttentionStep(tinyInput(AttentionKind::ScaledDot));
    const double k = 1.0 / std::sqrt(2.0);
    CHECK_THAT(r.scores[2], WithinAbs(3.0 * k, 1e-6));
    checkWeights(r, softmax({2 * k, 1 * k, 3 * k}));
}

TEST_CASE("padding gets exactly zero weight", "[attention]") {
    for (auto kind : {AttentionKind::Dot, AttentionKind::ScaledDot, AttentionKind::General, AttentionKind::Additive,
                      AttentionKind::LocalM, AttentionKind::LocalP}) {
        auto in = tinyInput(kind);
        in.sourceLength = 2;
        in.W = {1, 0, 0, 1};
        in.U = {1, 0, 0, 1};
        in.bU = {0, 0};
        in.v = {1, 1};
        in.Wp = {0, 0, 0, 0};
        in.vp = {0, 0};
        auto r = computeAttentionStep(in);
        INFO(toString(kind));
        CHECK(r.weights[2] == 0.0f);
        CHECK(std::isinf(r.scores[2]));
        CHECK_THAT(r.weights[0] + r.weights[1], WithinAbs(1.0, 1e-6));
    }
    auto dot = tinyInput(AttentionKind::Dot);
    dot.sourceLength = 2;
    checkWeights(computeAttentionStep(dot), {softmax({2, 1})[0], softmax({2, 1})[1], 0.0});
}

TEST_CASE("general attention scores s·(W h)", "[attention]") {
    auto in = tinyInput(AttentionKind::General);
    in.W = {1, 0, 0, 2};  // W h0 = (1, 0), W h1 = (0, 2), W h2 = (1, 2)
    auto r = computeAttentionStep(in);
    CHECK_THAT(r.rawScores[0], WithinAbs(2.0, 1e-6));
    CHECK_THAT(r.rawScores[1], WithinAbs(2.0, 1e-6));
    CHECK_THAT(r.rawScores[2], WithinAbs(4.0, 1e-6));
    checkWeights(r, softmax({2, 2, 4}));
}

TEST_CASE("additive attention scores v·tanh(W s + U h + b)", "[attention]") {
    auto in = tinyInput(AttentionKind::Additive);
    in.W = {1, 0, 0, 1};
    in.U = {1, 0, 0, 1};
    in.bU = {0, 0};
    in.v = {1, 1};
    auto r = computeAttentionStep(in);
    // s + h0 = (3, 1), s + h1 = (2, 2), s + h2 = (3, 2)
    const std::vector<double> expected{std::tanh(3) + std::tanh(1), 2 * std::tanh(2), std::tanh(3) + std::tanh(2)};
    for (int j = 0; j < 3; ++j) CHECK_THAT(r.rawScores[j], WithinAbs(expected[j], 1e-6));
    checkWeights(r, softmax(expected));

    in.bU = {-1, 0.5};  // the bias moves every score: (2,1.5), (1,2.5), (2,2.5)
    r = computeAttentionStep(in);
    CHECK_THAT(r.rawScores[0], WithinAbs(std::tanh(2) + std::tanh(1.5), 1e-6));
}

AttentionStepInput longInput(AttentionKind kind, int length) {
    AttentionStepInput in;
    in.kind = kind;
    in.hidden = 1;
    in.query = {1};
    for (int j = 0; j < 7; ++j) in.keys.push_back(0.1f * static_cast<float>(j));
    in.sourceLength = length;
    in.window = 1;
    in.W = {1};
    in.Wp = {0};
    in.vp = {0};
    return in;
}

TEST_CASE("local-m attends only inside the window around p_t = t", "[attention]") {
    auto in = longInput(AttentionKind::LocalM, 7);
    in.step = 2;
    auto r = computeAttentionStep(in);
    CHECK_THAT(r.center, WithinAbs(2.0, 1e-9));
    for (int j : {0, 4, 5, 6}) CHECK(r.weights[j] == 0.0f);
    checkWeights(r, {0, softmax({0.1, 0.2, 0.3})[0], softmax({0.1, 0.2, 0.3})[1], softmax({0.1, 0.2, 0.3})[2], 0, 0, 0});

    in.step = 10;  // past the end: p_t is clamped to the last real position
    in.sourceLength = 5;
    r = computeAttentionStep(in);
    CHECK_THAT(r.center, WithinAbs(4.0, 1e-9));
    for (int j : {0, 1, 2, 5, 6}) CHECK(r.weights[j] == 0.0f);
    CHECK_THAT(r.weights[3] + r.weights[4], WithinAbs(1.0, 1e-6));
}

TEST_CASE("local-p centres a Gaussian on the predicted p_t", "[attention]") {
    auto in = longInput(AttentionKind::LocalP, 6);
    in.window = 2;  // sigma = D / 2 = 1
    // W_p = 0: p_t = S * sigmoid(0) = 3
    auto r = computeAttentionStep(in);
    CHECK_THAT(r.center, WithinAbs(3.0, 1e-6));
    for (int j : {0, 6}) CHECK(r.weights[j] == 0.0f);
    std::vector<double> scores;
    for (int j = 1; j <= 5; ++j) scores.push_back(0.1 * j - (j - 3.0) * (j - 3.0) / 2.0);
    auto w = softmax(scores);
    checkWeights(r, {0, w[0], w[1], w[2], w[3], w[4], 0});

    in.vp = {10};  // sigmoid(v_p tanh(W_p s)) with W_p = 0 stays 0.5 whatever v_p
    CHECK_THAT(computeAttentionStep(in).center, WithinAbs(3.0, 1e-6));
    in.Wp = {1};  // p_t = 6 * sigmoid(10 tanh(1)) ≈ 6, clamped to the last position 5
    CHECK_THAT(computeAttentionStep(in).center, WithinAbs(5.0, 1e-6));
}

TEST_CASE("mismatched sizes are refused", "[attention]") {
    auto in = tinyInput(AttentionKind::General);
    in.W = {1, 2, 3};
    CHECK_THROWS_AS(computeAttentionStep(in), ConfigError);
    CHECK_THROWS_AS(computeAttentionStep(tinyInput(AttentionKind::None)), ConfigError);
    auto bad = tinyInput(AttentionKind::Dot);
    bad.query = {1};
    CHECK_THROWS_AS(computeAttentionStep(bad), ConfigError);
}

}  // namespace
