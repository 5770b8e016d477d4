// The GRU decoder's query order (ModelConfig::query) against the maths done by hand: a tiny
// network (H = E = 2, dot attention) with fixed weights, whose encoder, decoder steps, attention
// and output this file recomputes with plain loops over the same numbers. `after` (Luong):
// s_t = GRU(emb(y_{t-1}), s_{t-1}), a = softmax(s_t · h_j), c = Σ a_j h_j,
// logits = W_o tanh(W_c [s_t; c] + b_c) + b_o. `before` (Bahdanau) is checked the same way.
#include <torch/torch.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "engine/nn/networks/GruSeq2Seq.h"

#include "TinyModels.h"

using namespace attnlab;
using torch::Tensor;
using Vec = std::vector<double>;

namespace {

constexpr int kHidden = 2;

ModelConfig handConfig(QueryOrder query) {
    ModelConfig c = test::tinyGru(AttentionKind::Dot, kHidden);
    c.embedding = kHidden;
    c.bidirectional = false;
    c.query = query;
    c.dropout = 0.0f;
    c.sourceVocab = 6;
    c.targetVocab = 6;
    return c;
}

// Every parameter gets fixed, distinct values of moderate size (so no gate saturates).
std::map<std::string, Tensor> fixWeights(nn::GruSeq2Seq& net) {
    torch::NoGradGuard noGrad;
    std::map<std::string, Tensor> params;
    int k = 0;
    for (auto& item : net.named_parameters()) {
        Tensor flat = item.value().view({-1});
        for (int64_t i = 0; i < flat.numel(); ++i, ++k) flat[i] = 0.6 * std::sin(1.7 * k + 0.3);
        params[item.key()] = item.value().detach().to(torch::kDouble);
    }
    return params;
}

// y = W x (+ b), W [out, in] from a parameter tensor, rows [row0, row0 + out).
Vec affine(const Tensor& W, const Tensor* b, const Vec& x, int64_t row0, int64_t out) {
    Vec y(static_cast<std::size_t>(out), 0.0);
    for (int64_t r = 0; r < out; ++r) {
        double sum = b ? (*b)[row0 + r].item<double>() : 0.0;
        for (int64_t c = 0; c < W.size(1); ++c) sum += W[row0 + r][c].item<double>() * x[static_cast<std::size_t>(c)];
        y[static_cast<std::size_t>(r)] = sum;
    }
    return y;
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// One GRU cell, PyTorch's gate order (r, z, n): gi = W_i x + b_i and gh = W_h h + b_h, each [3H].
Vec gruCell(const Vec& gi, const Vec& gh, const Vec& h) {
    Vec next(kHidden);
    for (int i = 0; i < kHidden; ++i) {
        const double r = sigmoid(gi[i] + gh[i]);
        const double z = sigmoid(gi[kHidden + i] + gh[kHidden + i]);
        const double n = std::tanh(gi[2 * kHidden + i] + r * gh[2 * kHidden + i]);
        next[i] = (1 - z) * n + z * h[i];
    }
    return next;
}

Vec row(const Tensor& embedding, int64_t token) {
    Vec v(kHidden);
    for (int i = 0; i < kHidden; ++i) v[i] = embedding[token][i].item<double>();
    return v;
}

struct HandStep {
    Vec logits;
    Vec weights;
};

// The whole computation by hand for source `src` and decoder inputs `tgtIn`.
std::vector<HandStep> byHand(std::map<std::string, Tensor>& p, QueryOrder query, const std::vector<int64_t>& src,
                             const std::vector<int64_t>& tgtIn) {
    const int64_t H3 = 3 * kHidden;
    // Encoder: h_j, and its final state as the decoder's s_0.
    std::vector<Vec> keys;
    Vec h(kHidden, 0.0);
    for (int64_t token : src) {
        const Vec x = row(p["src_embedding.weight"], token);
        h = gruCell(affine(p["encoder.weight_ih_l0"], &p["encoder.bias_ih_l0"], x, 0, H3),
                    affine(p["encoder.weight_hh_l0"], &p["encoder.bias_hh_l0"], h, 0, H3), h);
        keys.push_back(h);
    }
    auto attend = [&](const Vec& s, Vec& weights) {
        double max = -1e300;
        Vec scores;
        for (const Vec& key : keys) {
            scores.push_back(s[0] * key[0] + s[1] * key[1]);
            max = std::max(max, scores.back());
        }
        double sum = 0;
        for (double& sc : scores) sum += (sc = std::exp(sc - max));
        weights.clear();
        for (double sc : scores) weights.push_back(sc / sum);
        Vec context(kHidden, 0.0);
        for (std::size_t j = 0; j < keys.size(); ++j)
            for (int i = 0; i < kHidden; ++i) context[i] += weights[j] * keys[j][static_cast<std::size_t>(i)];
        return context;
    };
    std::vector<HandStep> steps;
    Vec s = h;
    for (int64_t token : tgtIn) {
        HandStep step;
        const Vec x = row(p["tgt_embedding.weight"], token);
        Vec gi = affine(p["dec_emb_input.weight"], &p["dec_emb_input.bias"], x, 0, H3);
        const Vec gh = affine(p["dec_hidden_0.weight"], &p["dec_hidden_0.bias"], s, 0, H3);
        Vec readout;
        if (query == QueryOrder::Before) {
            const Vec context = attend(s, step.weights);  // s_{t-1}
            const Vec fromContext = affine(p["dec_ctx_input.weight"], nullptr, context, 0, H3);
            for (int64_t i = 0; i < H3; ++i) gi[static_cast<std::size_t>(i)] += fromContext[static_cast<std::size_t>(i)];
            s = gruCell(gi, gh, s);
            readout = s;
        } else {
            s = gruCell(gi, gh, s);
            const Vec context = attend(s, step.weights);  // s_t
            const Vec both{s[0], s[1], context[0], context[1]};
            readout = affine(p["dec_combine.weight"], &p["dec_combine.bias"], both, 0, kHidden);
            for (double& v : readout) v = std::tanh(v);
        }
        step.logits = affine(p["output.weight"], &p["output.bias"], readout, 0, p["output.weight"].size(0));
        steps.push_back(step);
    }
    return steps;
}

}  // namespace

TEST_CASE("query order: the decoder's maths, before and after, equal the computation by hand", "[query]") {
    const std::vector<int64_t> src{4, 5, 3}, tgtIn{1, 4, 5};
    for (QueryOrder query : {QueryOrder::Before, QueryOrder::After}) {
        INFO("query " << toString(query));
        auto net = std::make_shared<nn::GruSeq2Seq>(handConfig(query));
        auto params = fixWeights(*net);
        // Each order has exactly its own parameters: W_c after, the context's input weights before.
        CHECK(params.count("dec_combine.weight") == (query == QueryOrder::After ? 1u : 0u));
        CHECK(params.count("dec_ctx_input.weight") == (query == QueryOrder::Before ? 1u : 0u));
        const std::vector<HandStep> expected = byHand(params, query, src, tgtIn);

        net->eval();
        torch::NoGradGuard noGrad;
        const Tensor srcT = torch::tensor(src, torch::kLong).unsqueeze(0);
        const Tensor srcLen = torch::tensor({static_cast<int64_t>(src.size())}, torch::kLong);
        nn::Captured captured;
        const Tensor logits = net->forward(srcT, srcLen, torch::tensor(tgtIn, torch::kLong).unsqueeze(0), &captured, 1.0);
        const Tensor weights = captured.at(MapKind::Cross)[0][0][0];  // [T, S]
        // The incremental decoder (the raw-loop float path translation uses) step by step.
        auto state = net->start(srcT, srcLen, nullptr);
        for (std::size_t t = 0; t < tgtIn.size(); ++t) {
            INFO("step " << t);
            nn::StepCapture stepCapture;
            const Tensor logp = net->step(*state, torch::tensor({tgtIn[t]}, torch::kLong), &stepCapture)[0];
            const Tensor stepWeights = stepCapture.at(MapKind::Cross)[0][0][0];
            double logSum = 0;
            for (double v : expected[t].logits) logSum += std::exp(v);
            logSum = std::log(logSum);
            for (std::size_t v = 0; v < expected[t].logits.size(); ++v) {
                CHECK(std::abs(logits[0][static_cast<int64_t>(t)][static_cast<int64_t>(v)].item<double>() -
                               expected[t].logits[v]) < 1e-5);
                CHECK(std::abs(logp[static_cast<int64_t>(v)].item<double>() - (expected[t].logits[v] - logSum)) <
                      1e-5);
            }
            for (std::size_t j = 0; j < src.size(); ++j) {
                CHECK(std::abs(weights[static_cast<int64_t>(t)][static_cast<int64_t>(j)].item<double>() -
                               expected[t].weights[j]) < 1e-6);
                CHECK(std::abs(stepWeights[static_cast<int64_t>(j)].item<double>() - expected[t].weights[j]) < 1e-6);
            }
        }
    }
}

TEST_CASE("query order: the two orders are different models on the same weights", "[query]") {
    // That the test above can fail: the two orders give different attention at the first step
    // (s_0 against s_1) with the weights they share set alike.
    const std::vector<int64_t> src{4, 5, 3}, tgtIn{1};
    auto beforeParams = fixWeights(*std::make_shared<nn::GruSeq2Seq>(handConfig(QueryOrder::Before)));
    auto afterParams = fixWeights(*std::make_shared<nn::GruSeq2Seq>(handConfig(QueryOrder::After)));
    const auto before = byHand(beforeParams, QueryOrder::Before, src, tgtIn);
    const auto after = byHand(afterParams, QueryOrder::After, src, tgtIn);
    double difference = 0;
    for (std::size_t j = 0; j < src.size(); ++j) difference += std::abs(before[0].weights[j] - after[0].weights[j]);
    CHECK(difference > 1e-3);
}
