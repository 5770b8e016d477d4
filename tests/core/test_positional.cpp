// The Transformer's positional option (ModelConfig::positional): learned adds a table of
// maxLength x d parameters; none leaves no positional signal, so the encoder is permutation-
// equivariant and the decoder's output does not change when the source is shuffled; the choice
// survives a checkpoint, and files from before it load as sinusoidal. And the positional
// experiment's result shape.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include "base/InputError.h"
#include "base/translation/ModelConfig.h"
#include "base/translation/ModelSize.h"
#include "engine/detail/ModelAccess.h"
#include "engine/translation/PositionalExperiment.h"
#include "engine/translation/Seq2SeqModel.h"
#include "engine/translation/TranslationTrainer.h"

#include "TempDir.h"
#include "TinyModels.h"

using namespace attnlab;

namespace {

ModelConfig withPositions(PositionalKind kind) {
    ModelConfig c = test::tinyTransformer();
    c.positional = kind;
    c.dropout = 0.0f;
    c.sourceVocab = 12;
    c.targetVocab = 12;
    return c;
}

// Logits of the network for a source and its reverse (no padding), the same target prefix.
std::pair<torch::Tensor, torch::Tensor> logitsForSourceAndShuffle(PositionalKind kind) {
    torch::manual_seed(3);
    auto net = attnlab::makeNetwork(withPositions(kind));
    net->eval();
    torch::NoGradGuard noGrad;
    const torch::Tensor src = torch::tensor({{4, 5, 6, 7, 8, 9}}, torch::kLong);
    const torch::Tensor shuffled = torch::tensor({{9, 8, 7, 6, 5, 4}}, torch::kLong);
    const torch::Tensor len = torch::tensor({6}, torch::kLong);
    const torch::Tensor tgt = torch::tensor({{1, 5, 6}}, torch::kLong);
    return {net->forward(src, len, tgt, nullptr, 1.0), net->forward(shuffled, len, tgt, nullptr, 1.0)};
}

TEST_CASE("learned positions add a maxLength x d table; none and sinusoidal add no parameter", "[positional]") {
    const ModelConfig sinusoidal = withPositions(PositionalKind::Sinusoidal);
    const ModelConfig learned = withPositions(PositionalKind::Learned);
    const ModelConfig none = withPositions(PositionalKind::None);
    CHECK(parameterCount(learned) - parameterCount(sinusoidal) == std::int64_t{sinusoidal.maxLength} * sinusoidal.hidden);
    CHECK(parameterCount(none) == parameterCount(sinusoidal));
    for (const ModelConfig& c : {sinusoidal, learned, none}) {
        INFO(toString(c.positional));
        auto net = attnlab::makeNetwork(c);
        std::int64_t n = 0;
        for (const auto& p : net->parameters()) n += p.numel();
        CHECK(n == parameterCount(c));
        CHECK(net->named_parameters().contains("positions") == (c.positional == PositionalKind::Learned));
    }
}

TEST_CASE("without positions the source's order is invisible; with them it is not", "[positional]") {
    const auto [plain, shuffled] = logitsForSourceAndShuffle(PositionalKind::None);
    CHECK(torch::allclose(plain, shuffled, 1e-5, 1e-5));
    for (PositionalKind kind : {PositionalKind::Sinusoidal, PositionalKind::Learned}) {
        INFO(toString(kind));
        const auto [a, b] = logitsForSourceAndShuffle(kind);
        CHECK((a - b).abs().max().item<float>() > 1e-3f);
    }
}

TEST_CASE("the positional choice is in the JSON and survives a checkpoint; older files load as sinusoidal",
          "[positional]") {
    for (PositionalKind kind : {PositionalKind::Sinusoidal, PositionalKind::Learned, PositionalKind::None}) {
        const ModelConfig c = withPositions(kind);
        CHECK(modelConfigFromJson(toJson(c)).positional == kind);
    }
    std::string old = toJson(withPositions(PositionalKind::Learned));
    const auto at = old.find(",\"positional\":\"learned\"");
    REQUIRE(at != std::string::npos);
    old.erase(at, std::string(",\"positional\":\"learned\"").size());
    CHECK(modelConfigFromJson(old).positional == PositionalKind::Sinusoidal);
    std::string bad = toJson(withPositions(PositionalKind::None));
    bad.replace(bad.find("\"none\""), 6, "\"cosine\"");
    CHECK_THROWS_AS(modelConfigFromJson(bad), ConfigError);
    CHECK_THROWS_AS(parsePositionalKind("cosine"), ConfigError);

    ModelConfig learned = test::tinyTransformer();
    learned.positional = PositionalKind::Learned;
    auto trainer = test::trainedOnReverse(learned, 60, 1);
    test::TempDir dir;
    const std::string path = (dir.path / "learned.safetensors").string();
    trainer->model().save(path);
    const Seq2SeqModel loaded = Seq2SeqModel::load(path);
    CHECK(loaded.config().positional == PositionalKind::Learned);
    const torch::Tensor a = attnlab::detail::ModelAccess::impl(trainer->model()).net->named_parameters()["positions"];
    const torch::Tensor b = attnlab::detail::ModelAccess::impl(loaded).net->named_parameters()["positions"];
    CHECK(torch::equal(a, b));
    CHECK(loaded.translate("a b c").outputTokens == trainer->model().translate("a b c").outputTokens);
}

TEST_CASE("token embeddings start at the positions' scale, so that a small Transformer learns order",
          "[positional]") {
    // N(0, 1/d) before the sqrt(d) of the forward pass: unit variance, as the sinusoidal table.
    ModelConfig c = withPositions(PositionalKind::Sinusoidal);
    c.sourceVocab = 400;
    c.targetVocab = 400;
    torch::manual_seed(5);
    auto net = attnlab::makeNetwork(c);
    for (const char* name : {"src_embedding.weight", "tgt_embedding.weight"}) {
        INFO(name);
        const torch::Tensor w = net->named_parameters()[name];
        CHECK(w[0].abs().max().item<float>() == 0.0f);  // padding
        const double scaled = w.slice(0, 1).std().item<double>() * std::sqrt(static_cast<double>(c.hidden));
        CHECK(scaled == Approx(1.0).margin(0.05));
    }

    // Reverse (order is everything) in a couple of CPU-seconds. With N(0, 1) embeddings times
    // sqrt(d) the same budget left the positions buried and exact match near 0.
    DatasetOptions data;
    data.size = 900;
    data.seed = 4;
    data.maxLen = 6;
    ModelConfig m = test::tinyTransformer();
    m.hidden = 32;
    m.feedForward = 64;
    m.dropout = 0.0f;
    TranslationTrainingOptions o;
    o.epochs = 8;
    o.batchSize = 32;
    o.learningRate = 0.005;
    o.seed = 2;
    o.validationFraction = 0.2;
    TranslationTrainer trainer(generateDataset("reverse", data), m, o);
    TranslationEpochMetrics last;
    trainer.run(nullptr, [&](const TranslationEpochMetrics& e) { last = e; });
    INFO("validation exact match " << last.exactMatch << ", token accuracy " << last.tokenAccuracy);
    CHECK(last.exactMatch >= 0.5);
}

TEST_CASE("the positional experiment: token accuracy and exact match per model and length", "[positional][experiments]") {
    PositionalOptions o;
    o.lengths = {3, 5};
    o.epochs = 1;
    o.pairs = 40;
    o.hidden = 8;
    o.feedForward = 16;
    o.layers = 1;
    const PositionalResult r = runPositionalExperiment(o);
    CHECK(r.lengths == o.lengths);
    for (const auto& m : o.models) {
        INFO(m);
        REQUIRE(r.tokenAccuracy.at(m).size() == 2);
        REQUIRE(r.exactMatch.at(m).size() == 2);
        for (std::size_t i = 0; i < 2; ++i) {
            CHECK(r.tokenAccuracy.at(m)[i] >= 0.0);
            CHECK(r.tokenAccuracy.at(m)[i] <= 1.0);
            CHECK(r.exactMatch.at(m)[i] <= r.tokenAccuracy.at(m)[i] + 1e-9);
        }
    }
    o.models = {"rotary"};
    CHECK_THROWS_AS(runPositionalExperiment(o), ConfigError);
    o.models = {"gru"};
    o.lengths = {101};
    CHECK_THROWS_AS(runPositionalExperiment(o), ConfigError);
}

}  // namespace
