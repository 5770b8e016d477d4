// The fused multi-head attention node (FusedHeadAttention: scores, mask, softmax,
// dropout and the weighted sum as one autograd node over direct sgemm calls) against
// the operation-by-operation path that MultiHeadAttention takes when a trace is asked
// for: same output, same weights, same gradient for the inputs and every parameter,
// with padding, the causal mask and dropout.
#include <torch/torch.h>
#include <catch2/catch.hpp>

#include "core/AutogradGraph.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "engine/nn/nodes/AdditiveScores.h"
#include "engine/nn/nodes/AttentionPooling.h"
#include "engine/nn/kernels/BatchMatmul.h"
#include "engine/nn/nodes/FusedFeedForward.h"
#include "engine/nn/nodes/FusedHeadAttention.h"
#include "engine/nn/networks/MultiHeadAttention.h"
#include "engine/nn/kernels/Random.h"
#include "engine/nn/kernels/VectorKernels.h"

using torch::Tensor;
namespace nn = attnlab::nn;
using attnlab::test::graphContains;
using attnlab::nn::HeadTrace;
using attnlab::nn::MultiHeadAttention;

namespace {

struct Run {
    Tensor out, weights;
    std::vector<Tensor> grads;  // query input, memory input (cross only), then every parameter
};

// One forward and backward; fused unless `composite` (a trace forces the other path).
Run run(MultiHeadAttention& mha, const Tensor& query, const Tensor& memory, const Tensor& padMask, bool causal,
        bool composite, uint64_t seed) {
    mha->zero_grad();
    Tensor x = query.detach().clone().requires_grad_(true);
    Tensor m = memory.is_same(query) ? x : memory.detach().clone().requires_grad_(true);
    torch::manual_seed(seed);  // the dropout mask's draw
    HeadTrace trace;
    Run r;
    r.out = mha->forward(x, m, padMask, causal, &r.weights, composite ? &trace : nullptr);
    CHECK(graphContains(r.out, "HeadAttentionFunction") == !composite);
    torch::manual_seed(99);
    Tensor probe = torch::randn(r.out.sizes());
    (r.out * probe).sum().backward();
    r.grads.push_back(x.grad().clone());
    if (!m.is_same(x)) r.grads.push_back(m.grad().clone());
    for (const auto& p : mha->parameters()) r.grads.push_back(p.grad().clone());
    return r;
}

void requireSame(const Run& fused, const Run& composite) {
    REQUIRE(fused.out.sizes() == composite.out.sizes());
    CHECK(torch::allclose(fused.out, composite.out, 1e-5, 1e-6));
    REQUIRE(fused.weights.sizes() == composite.weights.sizes());
    CHECK(torch::allclose(fused.weights, composite.weights, 1e-5, 1e-6));
    REQUIRE(fused.grads.size() == composite.grads.size());
    for (size_t i = 0; i < fused.grads.size(); ++i) {
        INFO("gradient " << i);
        CHECK(torch::allclose(fused.grads[i], composite.grads[i], 1e-4, 1e-6));
    }
}

Tensor padding(const std::vector<int64_t>& lengths, int64_t T) {
    Tensor mask = torch::zeros({static_cast<int64_t>(lengths.size()), T}, torch::kBool);
    for (size_t b = 0; b < lengths.size(); ++b)
        for (int64_t t = lengths[b]; t < T; ++t) mask[b][t] = true;
    return mask;
}

}  // namespace

TEST_CASE("fused attention: decoder self-attention with causal and padding masks, dropout on", "[fused_attention]") {
    torch::manual_seed(3);
    MultiHeadAttention mha(16, 4, 0.3);
    mha->train();
    Tensor y = torch::randn({3, 6, 16});
    Tensor pad = padding({6, 4, 2}, 6);
    Run fused = run(mha, y, y, pad, true, false, 11);
    Run composite = run(mha, y, y, pad, true, true, 11);
    requireSame(fused, composite);
    // Dropout really was on: another seed gives another output.
    Run other = run(mha, y, y, pad, true, false, 12);
    CHECK_FALSE(torch::allclose(other.out, fused.out));
    // Masked keys get exactly zero weight: the future and the padding.
    CHECK(fused.weights[0][0][1][2].item<float>() == 0.0f);
    CHECK(fused.weights[2][3][4][3].item<float>() == 0.0f);
    CHECK(torch::allclose(fused.weights.sum(-1), torch::ones({3, 4, 6}), 1e-5, 1e-6));
}

TEST_CASE("fused attention: cross-attention over padded memory, evaluation mode", "[fused_attention]") {
    torch::manual_seed(4);
    MultiHeadAttention mha(12, 3, 0.1);
    mha->eval();
    Tensor query = torch::randn({2, 5, 12});
    Tensor memory = torch::randn({2, 7, 12});
    Tensor pad = padding({7, 3}, 7);
    requireSame(run(mha, query, memory, pad, false, false, 5), run(mha, query, memory, pad, false, true, 5));
}

TEST_CASE("fused attention: one sentence, no padding mask, and a [1, Tk] mask", "[fused_attention]") {
    torch::manual_seed(5);
    MultiHeadAttention mha(8, 2, 0.0);
    mha->train();
    Tensor query = torch::randn({1, 4, 8});
    Tensor memory = torch::randn({1, 9, 8});
    requireSame(run(mha, query, memory, Tensor(), false, false, 1), run(mha, query, memory, Tensor(), false, true, 1));
    Tensor pad = padding({6}, 9);
    requireSame(run(mha, query, memory, pad, false, false, 1), run(mha, query, memory, pad, false, true, 1));
}

TEST_CASE("fused attention: hand-computed weights and output for one head", "[fused_attention]") {
    // q = [1, 0], keys [1, 0] and [0, 1], values [2, 0] and [0, 4], d_k = 2:
    // scores 1/√2 and 0, weights e^(1/√2) / (e^(1/√2) + 1) and the rest.
    Tensor q = torch::tensor({1.0f, 0.0f}).view({1, 1, 2});
    Tensor k = torch::tensor({1.0f, 0.0f, 0.0f, 1.0f}).view({1, 2, 2});
    Tensor v = torch::tensor({2.0f, 0.0f, 0.0f, 4.0f}).view({1, 2, 2});
    auto [heads, weights] = attnlab::nn::fusedHeadAttention(q, k, v, Tensor(), false, 1, 0.0, false);
    const double a = std::exp(1.0 / std::sqrt(2.0)) / (std::exp(1.0 / std::sqrt(2.0)) + 1.0);
    CHECK(weights[0][0][0][0].item<float>() == Approx(a).epsilon(1e-6));
    CHECK(weights[0][0][0][1].item<float>() == Approx(1 - a).epsilon(1e-6));
    CHECK(heads[0][0][0].item<float>() == Approx(2 * a).epsilon(1e-6));
    CHECK(heads[0][0][1].item<float>() == Approx(4 * (1 - a)).epsilon(1e-6));
}

TEST_CASE("the heads' softmax kernel: its exponential against std::exp, rows against double precision", "[attention]") {
    double worst = 0;
    for (int i = 0; i <= 200000; ++i) {
        const float x = -87.0f * static_cast<float>(i) / 200000.0f;
        const double exact = std::exp(static_cast<double>(x));
        worst = std::max(worst, std::abs(nn::kernels::expNonPositive(x) - exact) / exact);
    }
    INFO("largest relative error " << worst);
    CHECK(worst < 2e-7);
    CHECK(nn::kernels::expNonPositive(0.0f) == 1.0f);
    CHECK(nn::kernels::expNonPositive(-std::numeric_limits<float>::infinity()) < 1e-37f);

    const std::int64_t rows = 5, n = 19;  // not a multiple of the eight lanes
    std::vector<float> scores(rows * n);
    for (std::size_t i = 0; i < scores.size(); ++i) scores[i] = static_cast<float>(std::sin(1.7 * static_cast<double>(i)) * 6);
    bool pad[n] = {};
    pad[3] = pad[17] = true;
    for (bool causal : {false, true}) {
        INFO("causal " << causal);
        std::vector<float> w = scores;
        nn::kernels::softmaxRows(w.data(), rows, n, pad, causal);
        for (std::int64_t i = 0; i < rows; ++i) {
            const std::int64_t visible = causal ? std::min(i + 1, n) : n;
            double max = -1e300, sum = 0;
            for (std::int64_t j = 0; j < visible; ++j)
                if (!pad[j]) max = std::max(max, static_cast<double>(scores[i * n + j]));
            for (std::int64_t j = 0; j < visible; ++j)
                if (!pad[j]) sum += std::exp(scores[i * n + j] - max);
            for (std::int64_t j = 0; j < n; ++j) {
                const double expected = j < visible && !pad[j] ? std::exp(scores[i * n + j] - max) / sum : 0.0;
                CHECK(std::abs(w[i * n + j] - expected) < 1e-6);
            }
        }
    }
    // Row 0 under the causal mask sees key 0 only; with key 0 padded it sees none: all 0.
    pad[0] = true;
    std::vector<float> w(scores.begin(), scores.begin() + n);
    nn::kernels::softmaxRows(w.data(), 1, n, pad, true);
    CHECK(std::all_of(w.begin(), w.end(), [](float x) { return x == 0.0f; }));
}

TEST_CASE("batchMatmul: torch::bmm's product and gradients, transposed and sliced operands included", "[attention]") {
    torch::manual_seed(8);
    using View = std::function<torch::Tensor(const torch::Tensor&)>;
    const View same = [](const torch::Tensor& t) { return t; };
    const View transposed = [](const torch::Tensor& t) { return t.transpose(1, 2); };
    const View sliced = [](const torch::Tensor& t) { return t.narrow(1, 1, 7).narrow(2, 2, 4); };
    struct Case {
        std::string name;
        torch::Tensor a, b;  // the leaves
        View viewA, viewB;   // what the product reads of them
    };
    const std::vector<Case> cases = {
        {"contiguous", torch::randn({5, 3, 7}), torch::randn({5, 7, 4}), same, same},
        {"a row per item (a captioner's step)", torch::randn({5, 1, 7}), torch::randn({5, 7, 6}), same, same},
        {"b transposed", torch::randn({5, 3, 7}), torch::randn({5, 4, 7}), same, transposed},
        {"a transposed, b sliced", torch::randn({5, 7, 3}), torch::randn({5, 9, 7}), transposed, sliced},
        {"an empty inner dimension", torch::randn({5, 3, 0}), torch::randn({5, 0, 4}), same, same},
    };
    for (const auto& c : cases) {
        INFO(c.name);
        const torch::Tensor a1 = c.a.clone().requires_grad_(), b1 = c.b.clone().requires_grad_();
        const torch::Tensor a2 = c.a.clone().requires_grad_(), b2 = c.b.clone().requires_grad_();
        const torch::Tensor out = nn::batchMatmul(c.viewA(a1), c.viewB(b1)), expected = torch::bmm(c.viewA(a2), c.viewB(b2));
        REQUIRE(out.sizes() == expected.sizes());
        CHECK(torch::allclose(out, expected, 1e-5, 1e-6));
        const torch::Tensor weights = torch::randn(expected.sizes());
        (out * weights).sum().backward();
        (expected * weights).sum().backward();
        CHECK(torch::allclose(a1.grad(), a2.grad(), 1e-5, 1e-6));
        CHECK(torch::allclose(b1.grad(), b2.grad(), 1e-5, 1e-6));
    }
    // Double precision takes torch::bmm's path and its numbers.
    const torch::Tensor a = torch::randn({2, 3, 4}, torch::kDouble), b = torch::randn({2, 4, 5}, torch::kDouble);
    CHECK(torch::equal(nn::batchMatmul(a, b), torch::bmm(a, b)));
}

TEST_CASE("sigmoidFast: the logistic function within 3e-7 relatively, 0 and 1 at the ends", "[attention]") {
    double worst = 0;
    for (int i = -200000; i <= 200000; ++i) {
        const float x = static_cast<float>(i) * 1e-4f;
        const double exact = 1.0 / (1.0 + std::exp(-static_cast<double>(x)));
        worst = std::max(worst, std::abs(static_cast<double>(nn::kernels::sigmoidFast(x)) - exact) / exact);
    }
    INFO("largest relative error of sigmoidFast " << worst);
    CHECK(worst < 3e-7);
    CHECK(nn::kernels::sigmoidFast(100.0f) == 1.0f);
    CHECK(nn::kernels::sigmoidFast(-100.0f) < 1e-30f);
    CHECK(nn::kernels::sigmoidFast(0.0f) == 0.5f);
    float row[3] = {-1.0f, 0.0f, 2.0f};
    nn::kernels::sigmoidInPlace(row, 3);
    CHECK(row[0] == nn::kernels::sigmoidFast(-1.0f));
    CHECK(row[2] == nn::kernels::sigmoidFast(2.0f));
}

TEST_CASE("additiveScores: LibTorch's v . tanh(q + k) and its gradients, in one node", "[attention]") {
    double worst = 0;
    for (int i = -100000; i <= 100000; ++i) {
        const float x = static_cast<float>(i) * 1e-4f;
        worst = std::max(worst, std::abs(static_cast<double>(nn::kernels::tanhFast(x)) - std::tanh(static_cast<double>(x))));
    }
    INFO("largest absolute error of tanhFast " << worst);
    CHECK(worst < 2e-7);
    CHECK(nn::kernels::tanhFast(50.0f) == 1.0f);
    CHECK(nn::kernels::tanhFast(-50.0f) == -1.0f);

    torch::manual_seed(12);
    const torch::Tensor q = torch::randn({3, 4, 19}), k = torch::randn({3, 5, 19}), v = torch::randn({19});
    const torch::Tensor q1 = q.clone().requires_grad_(), k1 = k.clone().requires_grad_(), v1 = v.clone().requires_grad_();
    const torch::Tensor q2 = q.clone().requires_grad_(), k2 = k.clone().requires_grad_(), v2 = v.clone().requires_grad_();
    const torch::Tensor ours = nn::additiveScores(q1, k1, v1);
    const torch::Tensor expected = torch::matmul(torch::tanh(k2.unsqueeze(1) + q2.unsqueeze(2)), v2);
    REQUIRE(ours.sizes() == expected.sizes());
    CHECK(torch::allclose(ours, expected, 1e-5, 1e-5));
    // Through a masked softmax, as attention uses them: masked keys get no gradient.
    const torch::Tensor mask = torch::zeros({3, 1, 5}, torch::kBool).index_fill_(2, torch::tensor({4}), true);
    const torch::Tensor weights = torch::randn({3, 4, 5});
    (torch::softmax(ours.masked_fill(mask, -INFINITY), 2) * weights).sum().backward();
    (torch::softmax(expected.masked_fill(mask, -INFINITY), 2) * weights).sum().backward();
    CHECK(torch::allclose(q1.grad(), q2.grad(), 1e-5, 1e-5));
    CHECK(torch::allclose(k1.grad(), k2.grad(), 1e-5, 1e-5));
    CHECK(torch::allclose(v1.grad(), v2.grad(), 1e-5, 1e-5));
}

TEST_CASE("geluFast and its derivative: the exact (erf) GELU within 1e-6", "[attention]") {
    double worst = 0, worstDerivative = 0;
    for (int i = -100000; i <= 100000; ++i) {
        const double x = i * 1e-4;
        const double phi = 0.5 * (1.0 + std::erf(x / std::sqrt(2.0)));
        worst = std::max(worst, std::abs(nn::kernels::geluFast(static_cast<float>(x)) - x * phi));
        const float h = static_cast<float>(x);
        float d = 1.0f;
        nn::kernels::activationBackward(&d, &h, nullptr, 1, true);
        const double exact = phi + x * std::exp(-0.5 * x * x) / std::sqrt(2.0 * M_PI);
        worstDerivative = std::max(worstDerivative, std::abs(d - exact));
    }
    INFO("largest absolute errors: GELU " << worst << ", its derivative " << worstDerivative);
    CHECK(worst < 1e-6);
    CHECK(worstDerivative < 1e-6);
}

TEST_CASE("the fused feed-forward block: linear, activation, dropout, linear and every gradient in one node",
          "[attention]") {
    for (const auto activation : {nn::FeedForwardActivation::Relu, nn::FeedForwardActivation::Gelu})
        for (double dropout : {0.0, 0.3}) {
            const bool gelu = activation == nn::FeedForwardActivation::Gelu;
            INFO((gelu ? "GELU" : "ReLU") << ", dropout " << dropout);
            torch::manual_seed(21);
            torch::nn::Linear first(20, 48), second(48, 20);
            const Tensor input = torch::randn({3, 11, 20}), upstream = torch::randn({3, 11, 20});
            auto run = [&](bool fused) {
                const Tensor x = input.clone().requires_grad_();
                for (auto& p : first->parameters()) p.mutable_grad() = Tensor();
                for (auto& p : second->parameters()) p.mutable_grad() = Tensor();
                torch::manual_seed(5);  // the same dropout mask both ways
                Tensor y;
                if (fused) {
                    y = nn::feedForward(x, first, second, activation, dropout, true);
                    CHECK(graphContains(y, "FeedForward") == nn::canFuseFeedForward(x));
                } else {
                    const Tensor h = torch::linear(x, first->weight, first->bias);
                    y = torch::linear(nn::applyDropout(gelu ? torch::gelu(h) : torch::relu(h), dropout, true),
                                      second->weight, second->bias);
                }
                (y * upstream).sum().backward();
                return std::vector<Tensor>{y.detach(), x.grad(), first->weight.grad().clone(), first->bias.grad().clone(),
                                           second->weight.grad().clone(), second->bias.grad().clone()};
            };
            const auto want = run(false), got = run(true);
            for (std::size_t i = 0; i < want.size(); ++i) {
                INFO("output " << i << " (y, dx, dW1, db1, dW2, db2)");
                CHECK(torch::allclose(got[i], want[i], 1e-4, 1e-5));
            }
        }
}

TEST_CASE("the classifier's fused attention pooling: the operations' values and every gradient", "[fused]") {
    // Two hops over rows of different lengths (one full, one of a single token), with a gradient on
    // the attention as well as on the pooled vectors (the hops' redundancy penalty sends one).
    torch::manual_seed(21);
    const std::int64_t B = 4, S = 7, D = 12, A = 10, R = 2;
    const Tensor lengths = torch::tensor({7, 3, 1, 5});
    const Tensor valid = torch::arange(S).unsqueeze(0) < lengths.unsqueeze(1);  // [B, S]
    const Tensor states0 = torch::randn({B, S, D}) * valid.unsqueeze(2), w0 = torch::randn({A, D}) * 0.3,
                 b0 = torch::randn({A}) * 0.1, v0 = torch::randn({R, A});
    const Tensor gPooled = torch::randn({B, R, D}), gAttention = torch::randn({B, R, S});
    const auto leaf = [](const Tensor& t) { return t.clone().requires_grad_(true); };
    Tensor states1 = leaf(states0), w1 = leaf(w0), b1 = leaf(b0), v1 = leaf(v0);
    Tensor states2 = leaf(states0), w2 = leaf(w0), b2 = leaf(b0), v2 = leaf(v0);

    REQUIRE(nn::additivePoolingFusable(states1, w1, b1, v1));
    auto [pooled, attention] = nn::additivePooling(states1, valid, w1, b1, v1);
    ((pooled * gPooled).sum() + (attention * gAttention).sum()).backward();

    // The operations GruClassifierNet runs outside training.
    Tensor scores = torch::linear(torch::tanh(torch::linear(states2, w2, b2)), v2);  // [B, S, R]
    scores = scores.transpose(1, 2).masked_fill(valid.logical_not().unsqueeze(1), -std::numeric_limits<float>::infinity());
    const Tensor attention2 = torch::softmax(scores, 2);
    const Tensor pooled2 = torch::bmm(attention2, states2);
    ((pooled2 * gPooled).sum() + (attention2 * gAttention).sum()).backward();

    CHECK(torch::allclose(attention, attention2, 1e-5, 1e-6));
    CHECK(torch::allclose(pooled, pooled2, 1e-5, 1e-5));
    CHECK(attention.select(0, 2).select(1, 0).eq(1.0).all().item<bool>());  // one token: all its weight
    CHECK(attention.select(0, 1).narrow(1, 3, S - 3).eq(0.0).all().item<bool>());  // none on padding
    CHECK(torch::allclose(states1.grad(), states2.grad(), 1e-4, 1e-5));
    CHECK(torch::allclose(w1.grad(), w2.grad(), 1e-4, 1e-5));
    CHECK(torch::allclose(b1.grad(), b2.grad(), 1e-4, 1e-5));
    CHECK(torch::allclose(v1.grad(), v2.grad(), 1e-4, 1e-5));
    CHECK(v1.grad().abs().sum().item<double>() > 0);
}
