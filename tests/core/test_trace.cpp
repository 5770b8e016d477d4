// The step-by-step trace of one attention row (engine/AttentionTrace.h) against the
// translation's own heatmap and against the maths redone by hand from the vectors the
// trace returns: scores, scaling, masks, softmax and the weighted sum.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <numeric>

#include "base/translation/Datasets.h"
#include "base/InputError.h"
#include "engine/translation/AttentionTrace.h"
#include "engine/translation/TranslationTrainer.h"

#include "TinyModels.h"

using namespace attnlab;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;

namespace {

constexpr const char* kSentence = "a b c d e";

ParallelCorpus reverseCorpus() {
    DatasetOptions o;
    o.size = 200;
    o.seed = 3;
    o.maxLen = 6;
    return generateDataset("reverse", o);
}

TranslationTrainingOptions traceOptions() {
    TranslationTrainingOptions o;
    o.epochs = 2;
    o.batchSize = 16;
    o.learningRate = 0.01;
    o.seed = 7;
    return o;
}

ModelConfig gruConfig(AttentionKind kind) {
    ModelConfig c = test::tinyGru(kind);
    c.query = QueryOrder::Before;  // the query-after test sets its own
    c.dropout = 0.2f;  // the trace runs in eval mode: dropout must not show up in it
    return c;
}

ModelConfig transformerConfig() {
    ModelConfig c = test::tinyTransformer(2, 2);
    c.dropout = 0.2f;
    return c;
}

double dot(const float* a, const float* b, int n) {
    double s = 0;
    for (int i = 0; i < n; ++i) s += static_cast<double>(a[i]) * b[i];
    return s;
}

std::vector<double> softmax(const std::vector<float>& x) {
    double m = -std::numeric_limits<double>::infinity();
    for (float v : x) m = std::max(m, static_cast<double>(v));
    std::vector<double> e;
    double sum = 0;
    for (float v : x) sum += e.emplace_back(std::isinf(v) ? 0.0 : std::exp(v - m));
    for (double& v : e) v /= sum;
    return e;
}

// What every trace satisfies, whatever the model: the heatmap row, the softmax, the masks,
// the scaling and the weighted sum.
void checkCommon(const AttentionTrace& t, const AttentionMap& heatmap) {
    const int K = t.keyCount(), d = t.dimension;
    REQUIRE(K == heatmap.cols);
    REQUIRE(t.step < heatmap.rows);
    REQUIRE(t.keyTokens.size() == static_cast<std::size_t>(K));
    REQUIRE(t.queryTokens.size() == static_cast<std::size_t>(heatmap.rows));
    REQUIRE(t.query.size() == static_cast<std::size_t>(d));
    REQUIRE(t.keys.size() == static_cast<std::size_t>(K * d));
    REQUIRE(t.values.size() == static_cast<std::size_t>(K * d));
    REQUIRE(t.scaledScores.size() == static_cast<std::size_t>(K));
    REQUIRE(t.scores.size() == static_cast<std::size_t>(K));
    REQUIRE(t.weights.size() == static_cast<std::size_t>(K));
    REQUIRE(t.mask.size() == static_cast<std::size_t>(K));
    REQUIRE(t.context.size() == static_cast<std::size_t>(d));
    CHECK_FALSE(t.formula.empty());

    for (int j = 0; j < K; ++j) CHECK_THAT(t.weights[j], WithinAbs(heatmap.at(t.step, j), 1e-5));
    const std::vector<double> expected = softmax(t.scores);
    for (int j = 0; j < K; ++j) CHECK_THAT(t.weights[j], WithinAbs(expected[j], 1e-5));
    CHECK_THAT(std::accumulate(t.weights.begin(), t.weights.end(), 0.0), WithinAbs(1.0, 1e-5));

    int kept = 0;
    for (int j = 0; j < K; ++j) {
        CHECK_THAT(t.scaledScores[j], WithinAbs(t.rawScores[j] * t.scale, 1e-4));
        if (t.mask[j] == TraceMask::Kept) {
            ++kept;
            const double gaussian = t.gaussian.empty() ? 0.0 : t.gaussian[j];
            CHECK_THAT(t.scores[j], WithinAbs(t.scaledScores[j] + gaussian, 1e-4));
        } else {
            CHECK(std::isinf(t.scores[j]));
            CHECK(t.scores[j] < 0);
            CHECK(t.weights[j] == 0.0f);
        }
    }
    CHECK(kept >= 1);

    for (int i = 0; i < d; ++i) {
        double c = 0;
        for (int j = 0; j < K; ++j) c += static_cast<double>(t.weights[j]) * t.values[j * d + i];
        CHECK_THAT(t.context[i], WithinAbs(c, 1e-4));
    }
}

TEST_CASE("a GRU trace is the heatmap row, and its scores follow the formula by hand", "[trace]") {
    const ParallelCorpus corpus = reverseCorpus();
    for (auto kind : {AttentionKind::Dot, AttentionKind::ScaledDot, AttentionKind::General, AttentionKind::Additive,
                      AttentionKind::LocalM, AttentionKind::LocalP}) {
        INFO(toString(kind));
        TranslationTrainer trainer(corpus, gruConfig(kind), traceOptions());
        trainer.run(nullptr, nullptr);
        const Seq2SeqModel& model = trainer.model();
        const Translation translation = model.translate(kSentence);
        REQUIRE_FALSE(translation.outputTokens.empty());
        const AttentionMap& heatmap = translation.attention.at(MapKind::Cross)[0][0];
        const int H = model.config().hidden;

        for (int step = 0; step < heatmap.rows; ++step) {
            INFO("step " << step);
            TraceRequest request;
            request.step = step;
            const AttentionTrace t = traceAttention(model, kSentence, request);
            CHECK(t.architecture == Architecture::Gru);
            CHECK(t.attention == kind);
            CHECK(t.layerCount == 1);
            CHECK(t.headCount == 1);
            CHECK(t.sourceTokens == translation.sourceTokens);
            CHECK(t.outputTokens == translation.outputTokens);
            CHECK(t.keyTokens == translation.sourceTokens);
            CHECK(t.dimension == H);
            checkCommon(t, heatmap);
            CHECK(t.values == t.keys);  // a GRU's attention averages the encoder states it scores

            const int K = t.keyCount();
            for (int j = 0; j < K; ++j) {
                const float* h = &t.keys[static_cast<std::size_t>(j) * H];
                double raw = 0;
                switch (kind) {
                case AttentionKind::Dot:
                case AttentionKind::ScaledDot:
                    raw = dot(t.query.data(), h, H);
                    break;
                case AttentionKind::General:
                case AttentionKind::LocalM:
                case AttentionKind::LocalP:
                    REQUIRE(t.projectedKeys.size() == t.keys.size());
                    raw = dot(t.query.data(), &t.projectedKeys[static_cast<std::size_t>(j) * H], H);
                    break;
                case AttentionKind::Additive:
                    REQUIRE(t.projectedKeys.size() == t.keys.size());
                    REQUIRE(t.projectedQuery.size() == static_cast<std::size_t>(H));
                    REQUIRE(t.scoreVector.size() == static_cast<std::size_t>(H));
                    for (int i = 0; i < H; ++i)
                        raw += t.scoreVector[i] *
                               std::tanh(static_cast<double>(t.projectedQuery[i]) +
                                         t.projectedKeys[static_cast<std::size_t>(j) * H + i]);
                    break;
                case AttentionKind::None:
                    break;
                }
                CHECK_THAT(t.rawScores[j], WithinAbs(raw, 1e-4));
            }

            CHECK_THAT(t.scale, WithinAbs(kind == AttentionKind::ScaledDot ? 1.0 / std::sqrt(H) : 1.0, 1e-12));
            const bool local = kind == AttentionKind::LocalM || kind == AttentionKind::LocalP;
            CHECK(std::isnan(t.center) == !local);
            CHECK(t.gaussian.empty() == (kind != AttentionKind::LocalP));
            for (int j = 0; j < K; ++j) {
                TraceMask expected = TraceMask::Kept;  // one sentence: no padding
                if (local && std::abs(j - t.center) > t.window) expected = TraceMask::OutsideWindow;
                CHECK(t.mask[j] == expected);
                if (kind == AttentionKind::LocalP) {
                    const double sigma = t.window / 2.0;
                    CHECK_THAT(t.gaussian[j], WithinAbs(-(j - t.center) * (j - t.center) / (2 * sigma * sigma), 1e-4));
                }
            }
            if (local) {
                CHECK(t.window == model.config().localWindow);
                CHECK(t.center >= 0.0);
                CHECK(t.center <= K - 1);
            }
            if (kind == AttentionKind::LocalM) CHECK(t.center == std::min(step, K - 1));
        }
    }
}

TEST_CASE("a GRU trace with a deep bidirectional encoder matches its heatmap", "[trace]") {
    ModelConfig config = gruConfig(AttentionKind::Additive);
    config.layers = 2;
    config.bidirectional = true;
    TranslationTrainer trainer(reverseCorpus(), config, traceOptions());
    trainer.run(nullptr, nullptr);
    const Translation translation = trainer.model().translate(kSentence);
    REQUIRE_FALSE(translation.outputTokens.empty());
    const AttentionMap& heatmap = translation.attention.at(MapKind::Cross)[0][0];
    TraceRequest request;
    request.step = heatmap.rows - 1;
    checkCommon(traceAttention(trainer.model(), kSentence, request), heatmap);
}

TEST_CASE("a GRU trace of a query-after model: its heatmap row, scored with the state that read the last token",
          "[trace]") {
    for (auto kind : {AttentionKind::Dot, AttentionKind::LocalP}) {
        INFO(toString(kind));
        ModelConfig config = gruConfig(kind);
        config.query = QueryOrder::After;
        TranslationTrainer trainer(reverseCorpus(), config, traceOptions());
        trainer.run(nullptr, nullptr);
        const Translation translation = trainer.model().translate(kSentence);
        REQUIRE_FALSE(translation.outputTokens.empty());
        const AttentionMap& heatmap = translation.attention.at(MapKind::Cross)[0][0];
        for (int step = 0; step < heatmap.rows; ++step) {
            INFO("step " << step);
            TraceRequest request;
            request.step = step;
            const AttentionTrace t = traceAttention(trainer.model(), kSentence, request);
            CHECK(t.queryOrder == QueryOrder::After);
            CHECK_THAT(t.formula, Contains("s = GRU(emb(y_t−1), s_t−1)") && Contains("tanh(W_c [s; c])"));
            checkCommon(t, heatmap);
            if (kind == AttentionKind::Dot)
                for (int j = 0; j < t.keyCount(); ++j)
                    CHECK_THAT(t.rawScores[j], WithinAbs(dot(t.query.data(), &t.keys[static_cast<std::size_t>(j) * t.dimension],
                                                             t.dimension),
                                                         1e-4));
        }
    }
}

TEST_CASE("a Transformer head's trace is its heatmap row: Q·Kᵀ, /√d_k, masks, softmax, weights·V", "[trace]") {
    TranslationTrainingOptions options = traceOptions();
    options.epochs = 8;  // a Transformer this small first learns to stop at once
    TranslationTrainer trainer(reverseCorpus(), transformerConfig(), options);
    trainer.run(nullptr, nullptr);
    const Seq2SeqModel& model = trainer.model();
    const Translation translation = model.translate(kSentence);
    INFO("output: " << translation.outputTokens.size() << " tokens");
    REQUIRE(translation.outputTokens.size() >= 2);  // the decoder's causal mask shows from the second step
    const int dk = model.config().hidden / model.config().heads;
    REQUIRE(dk == 8);

    for (const MapKind kind : kMapKinds) {
        for (int layer = 0; layer < model.config().layers; ++layer) {
            for (int head = 0; head < model.config().heads; ++head) {
                const AttentionMap& heatmap = translation.attention.at(kind)[layer][head];
                for (int step = 0; step < heatmap.rows; ++step) {
                    INFO(toString(kind) << " layer " << layer << " head " << head << " step " << step);
                    TraceRequest request;
                    request.kind = kind;
                    request.layer = layer;
                    request.head = head;
                    request.step = step;
                    const AttentionTrace t = traceAttention(model, kSentence, request);
                    CHECK(t.architecture == Architecture::Transformer);
                    CHECK(t.kind == kind);
                    CHECK(t.layer == layer);
                    CHECK(t.head == head);
                    CHECK(t.layerCount == 2);
                    CHECK(t.headCount == 2);
                    CHECK(t.dimension == dk);
                    CHECK_THAT(t.scale, WithinAbs(1.0 / std::sqrt(8.0), 1e-12));
                    CHECK(std::isnan(t.center));
                    checkCommon(t, heatmap);

                    const int K = t.keyCount();
                    for (int j = 0; j < K; ++j)
                        CHECK_THAT(t.rawScores[j],
                                   WithinAbs(dot(t.query.data(), &t.keys[static_cast<std::size_t>(j) * dk], dk), 1e-4));
                    for (int j = 0; j < K; ++j) {
                        const bool future = kind == MapKind::Decoder && j > step;
                        CHECK(t.mask[j] == (future ? TraceMask::Future : TraceMask::Kept));
                    }
                    if (kind == MapKind::Encoder) {
                        CHECK(t.queryTokens == translation.sourceTokens);
                        CHECK(t.keyTokens == translation.sourceTokens);
                    } else {
                        CHECK(t.queryTokens == translation.outputTokens);
                    }
                    if (kind == MapKind::Decoder) {
                        REQUIRE(t.keyTokens.size() == translation.outputTokens.size());
                        CHECK(t.keyTokens[0] == "<s>");
                        for (std::size_t j = 1; j < t.keyTokens.size(); ++j)
                            CHECK(t.keyTokens[j] == translation.outputTokens[j - 1]);
                    }
                }
            }
        }
    }
}

TEST_CASE("a trace replays the beam search output when asked to", "[trace]") {
    TranslationTrainer trainer(reverseCorpus(), gruConfig(AttentionKind::General), traceOptions());
    trainer.run(nullptr, nullptr);
    DecodeOptions beam;
    beam.beam = 4;
    const Translation translation = trainer.model().translate(kSentence, beam);
    REQUIRE_FALSE(translation.outputTokens.empty());
    TraceRequest request;
    request.beam = 4;
    request.step = static_cast<int>(translation.outputTokens.size()) - 1;
    const AttentionTrace t = traceAttention(trainer.model(), kSentence, request);
    CHECK(t.outputTokens == translation.outputTokens);
    checkCommon(t, translation.attention.at(MapKind::Cross)[0][0]);
}

TEST_CASE("a trace of a step, layer, head or kind the model lacks is a one-line ConfigError", "[trace]") {
    TranslationTrainingOptions none = traceOptions();
    none.epochs = 1;
    TranslationTrainer gru(reverseCorpus(), gruConfig(AttentionKind::Dot), none);
    const Translation translation = gru.model().translate(kSentence);
    const int rows = static_cast<int>(translation.outputTokens.size());
    REQUIRE(rows > 0);
    auto trace = [&](const Seq2SeqModel& m, MapKind kind, int step, int layer = 0, int head = 0) {
        TraceRequest r;
        r.kind = kind;
        r.step = step;
        r.layer = layer;
        r.head = head;
        return traceAttention(m, kSentence, r);
    };
    CHECK_THROWS_MATCHES(trace(gru.model(), MapKind::Cross, rows), ConfigError,
                         Catch::Matchers::Message("output step " + std::to_string(rows) +
                                                  " does not exist: the translation has " + std::to_string(rows) +
                                                  (rows == 1 ? " token (0)" : " tokens (0 to " + std::to_string(rows - 1) + ")")));
    CHECK_THROWS_AS(trace(gru.model(), MapKind::Cross, -1), ConfigError);
    CHECK_THROWS_WITH(trace(gru.model(), MapKind::Encoder, 0), Contains("only cross attention"));
    CHECK_FALSE(parseMapKind("sideways"));  // a kind outside the enum cannot be asked for
    CHECK_THROWS_WITH(traceAttention(gru.model(), "  ", TraceRequest{}), Contains("empty"));

    TranslationTrainer bottleneck(reverseCorpus(), gruConfig(AttentionKind::None), none);
    CHECK_THROWS_WITH(trace(bottleneck.model(), MapKind::Cross, 0), Contains("attention 'none'"));

    TranslationTrainer transformer(reverseCorpus(), transformerConfig(), none);
    CHECK_THROWS_WITH(trace(transformer.model(), MapKind::Cross, 0, 2), "layer 2 does not exist: the model has 2 layers (0 to 1)");
    CHECK_THROWS_WITH(trace(transformer.model(), MapKind::Encoder, 0, 0, 2),
                      "head 2 does not exist: the model has 2 heads per layer (0 to 1)");
    CHECK_THROWS_WITH(trace(transformer.model(), MapKind::Encoder, 6),  // "a b c d e </s>"
                      "source position 6 does not exist: the sentence has 6 tokens (0 to 5)");
    CHECK_NOTHROW(trace(transformer.model(), MapKind::Encoder, 5));
}

}  // namespace
