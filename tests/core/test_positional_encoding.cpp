// The sinusoidal positional encoding as plain numbers: hand-computed entries, the position
// similarity matrix, and equality with the table the Transformer itself adds to its embeddings.
#include "engine/nn/networks/TransformerSeq2Seq.h"
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "base/PositionalEncoding.h"

using namespace attnlab;
using Catch::Matchers::WithinAbs;

namespace {

TEST_CASE("sinusoidal frequencies are 1 / 10000^(2i/d)", "[positions]") {
    CHECK(sinusoidalFrequency(0, 128) == 1.0f);
    CHECK_THAT(sinusoidalFrequency(1, 4), WithinAbs(0.01, 1e-8));        // 10000^(-2/4)
    CHECK_THAT(sinusoidalFrequency(2, 5), WithinAbs(6.309573e-4, 1e-9));  // 10000^(-4/5)
    CHECK_THAT(sinusoidalFrequency(32, 128), WithinAbs(0.01, 1e-8));      // 10000^(-64/128)
}

TEST_CASE("positional encoding entries equal the formula by hand", "[positions]") {
    const AttentionMap pe = sinusoidalEncoding(3, 4);
    REQUIRE(pe.rows == 3);
    REQUIRE(pe.cols == 4);
    // Position 0: sin 0 = 0, cos 0 = 1 in every pair.
    CHECK(pe.at(0, 0) == 0.0f);
    CHECK(pe.at(0, 1) == 1.0f);
    CHECK(pe.at(0, 2) == 0.0f);
    CHECK(pe.at(0, 3) == 1.0f);
    // Position 1: sin 1, cos 1, sin 0.01, cos 0.01.
    CHECK_THAT(pe.at(1, 0), WithinAbs(0.8414710, 1e-6));
    CHECK_THAT(pe.at(1, 1), WithinAbs(0.5403023, 1e-6));
    CHECK_THAT(pe.at(1, 2), WithinAbs(0.0099998, 1e-6));
    CHECK_THAT(pe.at(1, 3), WithinAbs(0.9999500, 1e-6));
    // Position 2: sin 2, cos 2, sin 0.02, cos 0.02.
    CHECK_THAT(pe.at(2, 0), WithinAbs(0.9092974, 1e-6));
    CHECK_THAT(pe.at(2, 1), WithinAbs(-0.4161468, 1e-6));
    CHECK_THAT(pe.at(2, 2), WithinAbs(0.0199987, 1e-6));
    CHECK_THAT(pe.at(2, 3), WithinAbs(0.9998000, 1e-6));
    // An odd width ends with a sine: d = 5, dimension 4 is sin(pos * 10000^(-4/5)).
    const AttentionMap odd = sinusoidalEncoding(2, 5);
    CHECK_THAT(odd.at(1, 2), WithinAbs(std::sin(std::pow(10000.0, -0.4)), 1e-7));
    CHECK_THAT(odd.at(1, 3), WithinAbs(std::cos(std::pow(10000.0, -0.4)), 1e-7));
    CHECK_THAT(odd.at(1, 4), WithinAbs(6.3095734e-4, 1e-9));  // sin(x) = x - x^3/6: 4e-11 below x
    // Every value is in [-1, 1].
    for (float v : sinusoidalEncoding(100, 64).weights) CHECK(std::abs(v) <= 1.0f);
    CHECK(sinusoidalEncoding(0, 8).weights.empty());
    CHECK_THROWS_AS(sinusoidalEncoding(-1, 8), std::invalid_argument);
    CHECK_THROWS_AS(sinusoidalEncoding(4, 0), std::invalid_argument);
}

TEST_CASE("position similarity is cos(p - q) for d = 2 and constant along diagonals", "[positions]") {
    // d = 2: PE(p) = (sin p, cos p), unit length, so cos-sim = sin p sin q + cos p cos q = cos(p - q).
    const AttentionMap s2 = cosineSimilarity(sinusoidalEncoding(5, 2));
    REQUIRE(s2.rows == 5);
    REQUIRE(s2.cols == 5);
    CHECK_THAT(s2.at(0, 1), WithinAbs(std::cos(1.0), 1e-6));
    CHECK_THAT(s2.at(1, 3), WithinAbs(std::cos(2.0), 1e-6));
    CHECK_THAT(s2.at(4, 0), WithinAbs(std::cos(4.0), 1e-6));
    for (int p = 0; p < 5; ++p) CHECK_THAT(s2.at(p, p), WithinAbs(1.0, 1e-6));
    // d = 64: similarity depends on p - q only (a Toeplitz matrix) and is symmetric.
    const AttentionMap s = cosineSimilarity(sinusoidalEncoding(40, 64));
    for (int p = 0; p + 7 < 40; ++p) {
        CHECK_THAT(s.at(p, p + 7), WithinAbs(s.at(0, 7), 1e-5));
        CHECK(s.at(p + 7, p) == s.at(p, p + 7));
    }
    // Nearer positions are more alike than far ones (for offsets well below the slowest period).
    CHECK(s.at(10, 11) > s.at(10, 14));
    CHECK(s.at(10, 14) > s.at(10, 30));
    // A zero row has similarity 0; a bad shape is refused.
    const AttentionMap withZero = cosineSimilarity(AttentionMap{2, 2, {0, 0, 1, 0}});
    CHECK(withZero.at(0, 0) == 0.0f);
    CHECK(withZero.at(1, 1) == 1.0f);
    CHECK_THROWS_AS(cosineSimilarity(AttentionMap{2, 2, {1}}), std::invalid_argument);
}

TEST_CASE("the positional table equals the Transformer's own", "[positions]") {
    for (const auto& [positions, d] : {std::pair{256, 128}, std::pair{64, 7}, std::pair{33, 2}}) {
        INFO("positions " << positions << ", d " << d);
        // The frequencies: the same single-precision operations; LibTorch's vectorised exp may round
        // the other way, at most one unit in the last place.
        const torch::Tensor div = torch::exp(torch::arange(0, d, 2, torch::kFloat) * (-std::log(10000.0) / d));
        for (int i = 0; i < div.size(0); ++i) {
            const float theirs = div[i].item<float>();
            const float ours = sinusoidalFrequency(i, d);
            CHECK((ours == theirs || std::nextafter(ours, 2.0f) == theirs || std::nextafter(ours, 0.0f) == theirs));
        }
        const torch::Tensor model = nn::sinusoidalPositions(positions, d).contiguous();
        const AttentionMap ours = sinusoidalEncoding(positions, d);
        REQUIRE(model.size(0) == positions);
        REQUIRE(model.size(1) == d);
        const float* expected = model.data_ptr<float>();
        double worst = 0.0;
        for (std::size_t i = 0; i < ours.weights.size(); ++i)
            worst = std::max(worst, static_cast<double>(std::abs(ours.weights[i] - expected[i])));
        // One ulp of a frequency below 1 (6e-8) times position 255 moves the angle by 1.5e-5 at most.
        INFO("largest difference " << worst);
        CHECK(worst < 2e-5);
    }
}

}  // namespace
