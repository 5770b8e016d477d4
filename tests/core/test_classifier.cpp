// The text classifier and the explanation lab's maths: rank correlations and macro F1 against
// hand computation, the gradient against finite differences, integrated gradients' completeness,
// leave-one-out against re-running, the checkpoint.
// White-box for the rollout (engine/nn): LibTorch first, then Catch, whose CHECK glog also defines.
#include <torch/torch.h>

#include <catch2/catch.hpp>

#include "engine/nn/networks/TransformerClassifierNet.h"

#include <cmath>
#include <memory>

#include "base/text/ClassifyDatasets.h"
#include "base/translation/Datasets.h"
#include "base/InputError.h"
#include "base/analysis/RankCorrelation.h"
#include "engine/text/ClassifierTrainer.h"
#include "engine/translation/Seq2SeqModel.h"
#include "engine/text/TextClassifier.h"
#include "engine/translation/TranslationTrainer.h"

#include "TempDir.h"
#include "TinyModels.h"

using namespace attnlab;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;

namespace {

// A sentiment classifier trained briefly, shared by the tests that need learned weights.
const TextClassifier& trainedSentiment() {
    static const std::unique_ptr<ClassifierTrainer> trainer = [] {
        ClassifierConfig config;
        config.hidden = 24;
        ClassifierTrainingOptions options;
        options.epochs = 3;
        auto t = std::make_unique<ClassifierTrainer>(makeClassificationDataset("sentiment", 600, 3), config, options);
        t->run({});
        return t;
    }();
    return trainer->model();
}

Vocabulary smallVocabulary() {
    return Vocabulary::build({{"the", "film", "was", "not", "good", "but", "fun", "dull", "plot"}});
}

// grad_x_input[i] is d logit / d s_i at s = 1, s_i scaling word i's embedding: central differences.
void checkGradXInputByFiniteDifferences(const TextClassifier& model, const std::string& text) {
    const Explanation ex = model.explain(text);
    const auto ids = model.ids(text);
    REQUIRE(ids.size() == ex.tokens.size());
    const auto& gxi = ex.methods.at("grad_x_input");
    const double h = 1e-2;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        std::vector<double> up(ids.size(), 1.0), down(ids.size(), 1.0);
        up[i] += h;
        down[i] -= h;
        const double numeric = (model.logit(ids, ex.classIndex, up) - model.logit(ids, ex.classIndex, down)) / (2 * h);
        INFO("word " << i << " '" << ex.tokens[i] << "': autograd " << gxi[i] << ", finite difference " << numeric);
        CHECK_THAT(gxi[i], WithinAbs(numeric, 2e-3 + 1e-2 * std::fabs(numeric)));
    }
}

std::string without(const std::vector<std::string>& words, std::size_t drop) {
    std::string text;
    for (std::size_t i = 0; i < words.size(); ++i)
        if (i != drop) text += (text.empty() ? "" : " ") + words[i];
    return text;
}

}  // namespace

TEST_CASE("Kendall tau-b, Spearman rho and macro F1 match hand computation", "[classifier]") {
    // 5 concordant pairs, 1 discordant of 6: tau = 4/6; rank differences 0, 1, -1, 0: rho = 1 - 6*2/(4*15).
    CHECK_THAT(kendallTau({1, 2, 3, 4}, {1, 3, 2, 4}), WithinAbs(4.0 / 6.0, 1e-12));
    CHECK_THAT(spearmanRho({1, 2, 3, 4}, {1, 3, 2, 4}), WithinAbs(0.8, 1e-12));
    CHECK_THAT(kendallTau({1, 2, 3}, {3, 2, 1}), WithinAbs(-1.0, 1e-12));
    // A tie in the first list: 2 concordant pairs, tau-b = 2 / sqrt((3 - 1) * 3).
    CHECK_THAT(kendallTau({1, 1, 2}, {1, 2, 3}), WithinAbs(2.0 / std::sqrt(6.0), 1e-12));
    CHECK(averageRanks({10, 20, 10, 5}) == std::vector<double>{2.5, 4, 2.5, 1});
    CHECK(std::isnan(kendallTau({1, 1, 1}, {1, 2, 3})));
    CHECK(std::isnan(spearmanRho({1}, {1})));
    CHECK(std::isnan(kendallTau({1, 2}, {1, 2, 3})));
    // Class 0: tp 1, fp 1, fn 0 -> F1 2/3; class 1: tp 2, fp 0, fn 1 -> 4/5.
    CHECK_THAT(macroF1({0, 0, 1, 1}, {0, 1, 1, 1}, 2), WithinAbs((2.0 / 3.0 + 0.8) / 2.0, 1e-12));
    CHECK_THAT(macroF1({0, 1}, {0, 1}, 3), WithinAbs(1.0, 1e-12));  // class 2 never occurs: left out
}

TEST_CASE("the classifier config round-trips through JSON and refuses what it cannot build", "[classifier]") {
    ClassifierConfig c;
    c.pooling = Pooling::ScaledDot;
    c.hops = 3;
    c.penalty = 0.5f;
    c.bidirectional = false;
    c.vocabulary = 40;
    c.classes = 4;
    const ClassifierConfig back = classifierConfigFromJson(toJson(c));
    CHECK(back.pooling == Pooling::ScaledDot);
    CHECK(back.hops == 3);
    CHECK(back.penalty == 0.5f);
    CHECK_FALSE(back.bidirectional);
    CHECK(back.classes == 4);
    CHECK_THROWS_WITH(classifierConfigFromJson("{"), Contains("invalid JSON"));
    CHECK_THROWS_WITH(parsePooling("max"), Contains("expected one of: additive, dot, scaled-dot, none, mean"));
    c.pooling = Pooling::Mean;
    CHECK_THAT(validate(c), Contains("one hop"));
}

TEST_CASE("each pooling gives the parameter count its config predicts and rows that sum to 1", "[classifier]") {
    for (Pooling pooling : {Pooling::Additive, Pooling::Dot, Pooling::ScaledDot, Pooling::None, Pooling::Mean}) {
        for (bool bidirectional : {true, false}) {
            ClassifierConfig c;
            c.pooling = pooling;
            c.hops = poolingAttends(pooling) ? 2 : 1;
            c.hidden = 8;
            c.bidirectional = bidirectional;
            const TextClassifier model(c, smallVocabulary(), {"neg", "pos"}, {}, 1);
            INFO(toString(pooling) << (bidirectional ? " bidirectional" : ""));
            CHECK(model.parameterCount() == parameterCount(model.config()));
            const Classification r = model.classify("the film was not good");
            CHECK(r.tokens == std::vector<std::string>{"the", "film", "was", "not", "good"});
            CHECK_THAT(r.probabilities[0] + r.probabilities[1], WithinAbs(1.0, 1e-6));
            REQUIRE(r.pooling.size() == (poolingAttends(pooling) ? 2u : 0u));
            for (const auto& hop : r.pooling) {
                double sum = 0;
                for (float w : hop) sum += w;
                CHECK_THAT(sum, WithinAbs(1.0, 1e-5));
            }
        }
    }
}

TEST_CASE("grad x input is the derivative of the logit along each word's embedding (finite differences)",
          "[classifier]") {
    const TextClassifier& model = trainedSentiment();
    checkGradXInputByFiniteDifferences(model, "the service was not good but the staff was friendly");
}

TEST_CASE("integrated gradients are complete to 5% at the default steps", "[classifier]") {
    const TextClassifier& model = trainedSentiment();
    for (const std::string text : {"the food was never bad", "a dull plot but the cast was wonderful",
                                   "the staff was rude and the room was not clean"}) {
        const Explanation ex = model.explain(text);
        INFO(text << ": sum " << ex.igAttributionSum << ", logit difference " << ex.igOutputDifference);
        CHECK(ex.igSteps == kDefaultIgSteps);
        const auto ids = model.ids(text);
        const double difference =
            model.logit(ids, ex.classIndex) - model.logit(ids, ex.classIndex, std::vector<double>(ids.size(), 0.0));
        CHECK_THAT(ex.igOutputDifference, WithinAbs(difference, 1e-4 + 1e-4 * std::fabs(difference)));
        CHECK(std::fabs(ex.igAttributionSum - ex.igOutputDifference) <= 0.05 * std::fabs(ex.igOutputDifference) + 1e-3);
    }
}

TEST_CASE("leave-one-out equals re-running the model without the word", "[classifier]") {
    const TextClassifier& model = trainedSentiment();
    const std::vector<std::string> words{"the", "film", "was", "not", "good", "but", "the", "cast", "was", "fun"};
    const std::string text = without(words, words.size());
    const Explanation ex = model.explain(text);
    const auto& loo = ex.methods.at("leave_one_out");
    REQUIRE(loo.size() == words.size());
    for (std::size_t i = 0; i < words.size(); ++i) {
        const Classification rerun = model.classify(without(words, i));
        CHECK_THAT(loo[i], WithinAbs(ex.probability - rerun.probabilities[static_cast<std::size_t>(ex.classIndex)], 1e-5));
    }
    CHECK(ex.kendallTau.count("leave_one_out"));
    CHECK(ex.kendallTau.count("integrated_gradients"));
}

TEST_CASE("a classifier checkpoint round-trips, and each task's loader refuses the other's file", "[classifier]") {
    test::TempDir dir;
    const TextClassifier& model = trainedSentiment();
    const std::string path = (dir.path / "sentiment.safetensors").string();
    model.save(path);
    REQUIRE(TextClassifier::isClassifierFile(path));
    const TextClassifier back = TextClassifier::load(path);
    const std::string text = "the room was not clean";
    const Classification a = model.classify(text), b = back.classify(text);
    CHECK(a.label == b.label);
    CHECK(a.probabilities == b.probabilities);
    CHECK(a.pooling == b.pooling);
    CHECK(back.labels() == model.labels());
    CHECK_THROWS_WITH(Seq2SeqModel::load(path), Contains("not a translation model"));

    DatasetOptions o;
    o.size = 20;
    o.maxLen = 4;
    TranslationTrainer translation(generateDataset("copy", o), test::tinyGru(AttentionKind::Dot, 8), [] {
        TranslationTrainingOptions t;
        t.epochs = 1;
        return t;
    }());
    const std::string translator = (dir.path / "copy.safetensors").string();
    translation.model().save(translator);
    CHECK_FALSE(TextClassifier::isClassifierFile(translator));
    CHECK_THROWS_WITH(TextClassifier::load(translator), Contains("holds a translation model, not a text classifier"));
}

TEST_CASE("training the default classifier on sentiment learns the task and looks at the deciding words",
          "[classifier]") {
    ClassifierTrainingOptions options;
    options.epochs = 6;  // measured: seeds 1-5 pass 0.9 by the 4th epoch on 2,000 texts, the 5th-6th on 1,000
    ClassifierTrainer trainer(makeClassificationDataset("sentiment", 1000, 5), ClassifierConfig{}, options);
    std::vector<ClassifierEpochMetrics> epochs;
    REQUIRE(trainer.run([&](const ClassifierEpochMetrics& m) { epochs.push_back(m); }) ==
            ClassifierTrainer::Outcome::Finished);
    REQUIRE(epochs.size() == 6);
    CHECK(epochs.back().trainLoss < epochs.front().trainLoss);
    CHECK(epochs.back().accuracy >= 0.9);
    CHECK(epochs.back().rationaleMass > 2 * epochs.back().uniformRationaleMass);
    CHECK(epochs.back().attentionEntropy < epochs.back().uniformEntropy);
    CHECK(trainer.trainingExamples() + trainer.validationExamples() == 1000);
}

TEST_CASE("attention rollout is the product of the layers' head-averaged maps with the identity mixed in",
          "[classifier]") {
    // One head per layer. Layer 1: W1 = [[0.5, 0.5], [0.2, 0.8]] -> 0.5 W1 + 0.5 I = [[0.75, 0.25], [0.1, 0.9]].
    // Layer 2: two heads averaging to [[0, 1], [1, 0]] -> [[0.5, 0.5], [0.5, 0.5]]. Rollout = A2 A1.
    torch::Tensor w1 = torch::tensor({0.5f, 0.5f, 0.2f, 0.8f}).view({1, 1, 2, 2});
    torch::Tensor w2 = torch::tensor({0.f, 1.f, 1.f, 0.f, 0.f, 1.f, 1.f, 0.f}).view({1, 2, 2, 2});
    const torch::Tensor one = attnlab::nn::attentionRollout({w1});
    CHECK_THAT(one[0][0][0].item<double>(), WithinAbs(0.75, 1e-6));
    CHECK_THAT(one[0][1][0].item<double>(), WithinAbs(0.1, 1e-6));
    const torch::Tensor two = attnlab::nn::attentionRollout({w1, w2});
    // [[0.5, 0.5], [0.5, 0.5]] x [[0.75, 0.25], [0.1, 0.9]] = [[0.425, 0.575], [0.425, 0.575]]
    CHECK_THAT(two[0][0][0].item<double>(), WithinAbs(0.425, 1e-6));
    CHECK_THAT(two[0][1][1].item<double>(), WithinAbs(0.575, 1e-6));
}

TEST_CASE("the Transformer classifier reads [CLS] first, shows every layer's attention and the rollout, and its "
          "gradients match finite differences",
          "[classifier]") {
    ClassifierConfig c;
    c.architecture = ClassifierArchitecture::Transformer;
    c.hidden = 16;
    c.layers = 2;
    c.heads = 2;
    c.feedForward = 32;
    c.dropout = 0;
    const TextClassifier model(c, smallVocabulary(), {"neg", "pos"}, {}, 3);
    CHECK(model.parameterCount() == parameterCount(model.config()));
    const Classification r = model.classify("the film was not good");
    CHECK((r.tokens == std::vector<std::string>{"[CLS]", "the", "film", "was", "not", "good"}));
    CHECK(r.pooling.empty());
    REQUIRE(r.encoder.size() == 2);
    REQUIRE(r.encoder[0].size() == 2);
    CHECK(r.encoder[1][1].rows == 6);
    CHECK(r.encoder[1][1].cols == 6);
    REQUIRE(r.rollout.size() == 5);
    double sum = 0;
    for (float w : r.rollout) sum += w;
    CHECK_THAT(sum, WithinAbs(1.0, 1e-5));

    const std::string text = "the plot was dull but the film was good";
    const Explanation ex = model.explain(text);
    CHECK(ex.tokens.size() == 9);
    CHECK(ex.methods.at("attention").size() == 9);
    checkGradXInputByFiniteDifferences(model, text);

    test::TempDir dir;
    const std::string path = dir / "transformer.safetensors";
    model.save(path);
    const TextClassifier back = TextClassifier::load(path);
    CHECK(back.config().architecture == ClassifierArchitecture::Transformer);
    CHECK(back.classify("the film was not good").rollout == r.rollout);
}
