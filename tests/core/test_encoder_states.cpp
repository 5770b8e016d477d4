// encoderStates and nearestTokens (engine/translation/EncoderStates.h): the states' shape, the
// last layer's states against the keys the cross-attention trace shows (the decoder's memory:
// the GRU's keys are its encoder states, a Transformer's are W_k times them), the cosine
// against hand computation, and the search's order and errors.
#include <catch2/catch.hpp>

#include <cmath>

#include "TinyModels.h"
#include "base/InputError.h"
#include "engine/detail/ModelAccess.h"
#include "engine/nn/networks/TransformerSeq2Seq.h"
#include "engine/translation/AttentionTrace.h"
#include "engine/translation/EncoderStates.h"

using namespace attnlab;
using Catch::Matchers::WithinAbs;

namespace {

const std::string kSentence = "d a l f";

}  // namespace

TEST_CASE("cosineSimilarity against hand computation", "[core]") {
    CHECK(cosineSimilarity({1.f, 2.f, 3.f}, {1.f, 2.f, 3.f}) == 1.0);
    CHECK_THAT(cosineSimilarity({1.f, 0.f}, {1.f, 1.f}), WithinAbs(1.0 / std::sqrt(2.0), 1e-12));
    CHECK_THAT(cosineSimilarity({1.f, 2.f}, {-2.f, -4.f}), WithinAbs(-1.0, 1e-12));
    CHECK(cosineSimilarity({0.f, 0.f}, {1.f, 2.f}) == 0.0);
    CHECK_THAT(cosineSimilarity({3.f, 4.f}, {4.f, 3.f}), WithinAbs(24.0 / 25.0, 1e-12));
    CHECK_THROWS_AS(cosineSimilarity({1.f}, {1.f, 2.f}), std::invalid_argument);
}

TEST_CASE("GRU encoder states are the keys its cross-attention reads", "[core]") {
    auto trainer = test::trainedOnReverse(test::tinyGru(AttentionKind::Dot), 120, 4);
    const Seq2SeqModel& model = trainer->model();
    const auto states = encoderStates(model, kSentence);
    const std::size_t tokens = model.sourceTokens(kSentence).size();
    REQUIRE(states.size() == tokens);  // 4 letters + </s>
    REQUIRE(tokens == 5);
    for (const auto& s : states) REQUIRE(s.size() == 16);
    CHECK(encoderStates(model, kSentence, 1) == states);
    CHECK_THROWS_AS(encoderStates(model, kSentence, 2), ConfigError);

    TraceRequest request;
    const AttentionTrace t = traceAttention(model, kSentence, request);
    REQUIRE(t.keys.size() == tokens * 16);
    for (std::size_t i = 0; i < tokens; ++i)
        for (std::size_t d = 0; d < 16; ++d) CHECK_THAT(states[i][d], WithinAbs(t.keys[i * 16 + d], 1e-5));
}

TEST_CASE("Transformer: one state per token and layer; the last layer is the decoder's memory", "[core]") {
    auto trainer = test::trainedOnReverse(test::tinyTransformer(2, 2), 120, 4);
    const Seq2SeqModel& model = trainer->model();
    const std::size_t tokens = model.sourceTokens(kSentence).size();
    const auto first = encoderStates(model, kSentence, 1), last = encoderStates(model, kSentence, 2);
    REQUIRE(first.size() == tokens);
    REQUIRE(last.size() == tokens);
    for (std::size_t i = 0; i < tokens; ++i) {
        REQUIRE(first[i].size() == 16);
        REQUIRE(last[i].size() == 16);
    }
    CHECK(encoderStates(model, kSentence) == last);
    CHECK(first != last);
    CHECK_THROWS_AS(encoderStates(model, kSentence, 3), ConfigError);
    CHECK_THROWS_AS(encoderStates(model, kSentence, -1), ConfigError);

    // The cross-attention keys of decoder layer 0, head h, as the trace shows them, are head h of
    // W_k times the memory: project the last layer's states with that module's key projection.
    // Layer 1's states are what layer 2's self-attention reads: its keys likewise.
    auto& net = static_cast<nn::TransformerSeq2Seq&>(*attnlab::detail::ModelAccess::impl(model).net);
    torch::NoGradGuard noGrad;
    auto asTensor = [&](const std::vector<std::vector<float>>& rows) {
        std::vector<float> flat;
        for (const auto& r : rows) flat.insert(flat.end(), r.begin(), r.end());
        return torch::tensor(flat).view({1, static_cast<int64_t>(rows.size()), 16});
    };
    const std::vector<std::pair<MapKind, int>> checks{{MapKind::Cross, 0}, {MapKind::Encoder, 1}};
    for (const auto& [kind, layer] : checks) {
        const auto& states = kind == MapKind::Cross ? last : first;
        const torch::Tensor keys = net.attentionModule(kind, static_cast<std::size_t>(layer))->keysValues(asTensor(states)).first;
        for (int h = 0; h < 2; ++h) {
            TraceRequest request;
            request.kind = kind;
            request.layer = layer;
            request.head = h;
            const AttentionTrace t = traceAttention(model, kSentence, request);
            const torch::Tensor mine = keys[0][h].contiguous();  // [S, 8]
            REQUIRE(t.keys.size() == static_cast<std::size_t>(mine.numel()));
            const float* m = mine.data_ptr<float>();
            for (std::size_t i = 0; i < t.keys.size(); ++i) CHECK_THAT(m[i], WithinAbs(t.keys[i], 1e-5));
        }
    }
}

TEST_CASE("nearestTokens: k results, descending, the own occurrence first; errors", "[core]") {
    auto trainer = test::trainedOnReverse(test::tinyTransformer(1, 2), 120, 1);
    const Seq2SeqModel& model = trainer->model();
    const std::vector<std::string> corpus{"a b c", kSentence, "f l a d", kSentence, "l l l"};
    const auto found = nearestTokens(model, kSentence, 2, corpus, 0, 6);
    REQUIRE(found.size() == 6);
    // Both copies of the query hold the same state at position 2: similarity exactly 1, and the
    // first copy (corpus order) ahead of the second.
    CHECK(found[0].sentence == 1);
    CHECK(found[0].position == 2);
    CHECK(found[0].token == "l");
    CHECK(found[0].similarity == 1.0);
    CHECK(found[1].sentence == 3);
    CHECK(found[1].position == 2);
    const auto query = encoderStates(model, kSentence)[2];
    for (std::size_t i = 0; i < found.size(); ++i) {
        CHECK(found[i].similarity >= -1.0);
        CHECK(found[i].similarity <= 1.0);
        if (i > 0) CHECK(found[i - 1].similarity >= found[i].similarity);
        const auto states = encoderStates(model, corpus[found[i].sentence]);
        CHECK_THAT(found[i].similarity,
                   WithinAbs(cosineSimilarity(query, states[static_cast<std::size_t>(found[i].position)]), 1e-12));
    }
    // Every token: 4 + 5 + 5 + 5 + 4 with </s>.
    CHECK(nearestTokens(model, kSentence, 0, corpus, 1, 1000).size() == 23);
    CHECK_THROWS_AS(nearestTokens(model, kSentence, 5, corpus, 0, 3), ConfigError);  // 5 tokens: 0..4
    CHECK_THROWS_AS(nearestTokens(model, kSentence, -1, corpus, 0, 3), ConfigError);
    CHECK_THROWS_AS(nearestTokens(model, kSentence, 0, corpus, 2, 3), ConfigError);
    CHECK_THROWS_AS(nearestTokens(model, kSentence, 0, corpus, 0, 0), ConfigError);
}

TEST_CASE("projectEncoderStates: one point per word, its state, PCA coordinates; nearestPoints", "[core]") {
    auto trainer = test::trainedOnReverse(test::tinyTransformer(1, 2), 120, 1);
    const Seq2SeqModel& model = trainer->model();
    const std::vector<std::string> sentences{"a b c", kSentence, "f l a d"};
    const StateProjection p = projectEncoderStates(model, sentences, 0);
    REQUIRE(p.points.size() == 11);  // 3 + 4 + 4 words, </s> left out
    CHECK(p.layer == 1);
    CHECK(p.sentences == sentences);
    CHECK(p.points[3].sentence == 1);
    CHECK(p.points[3].position == 0);
    CHECK(p.points[3].token == "d");
    CHECK(p.states[3] == encoderStates(model, kSentence)[0]);
    CHECK(p.explained[0] >= p.explained[1]);
    CHECK(p.explained[0] + p.explained[1] <= 1.0 + 1e-9);
    // The coordinates are the states' projections on two orthonormal axes: their spread matches
    // the shares (sum of squares of x = share 0 of the total sum of squares about the mean).
    double total = 0.0, xx = 0.0;
    std::vector<double> mean(p.states[0].size(), 0.0);
    for (const auto& s : p.states)
        for (std::size_t j = 0; j < s.size(); ++j) mean[j] += s[j] / static_cast<double>(p.states.size());
    for (std::size_t i = 0; i < p.states.size(); ++i) {
        for (std::size_t j = 0; j < mean.size(); ++j) total += (p.states[i][j] - mean[j]) * (p.states[i][j] - mean[j]);
        xx += p.points[i].x * p.points[i].x;
    }
    CHECK_THAT(xx / total, WithinAbs(p.explained[0], 1e-4));
    const auto near = nearestPoints(p, 3, 4);
    REQUIRE(near.size() == 4);
    for (std::size_t i = 0; i < near.size(); ++i) {
        CHECK(near[i].first != 3);
        CHECK_THAT(near[i].second, WithinAbs(cosineSimilarity(p.states[3], p.states[near[i].first]), 1e-12));
        if (i > 0) CHECK(near[i - 1].second >= near[i].second);
    }
    CHECK(projectEncoderStates(model, sentences, 0, 5).points.size() == 5);
}
