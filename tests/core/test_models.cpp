// Models end to end through the public engine API: captured map shapes, learning,
// determinism, beam search and checkpoint round trips.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

#include "base/translation/Datasets.h"
#include "base/InputError.h"
#include "engine/translation/TranslationTrainer.h"

#include "TempDir.h"
#include "TinyModels.h"

using namespace attnlab;
using Catch::Matchers::WithinAbs;
using test::tinyGru;
using test::tinyTransformer;

namespace {

// The test program's scratch directory (TempDir.h), removed at exit.
const test::TempDir& scratch() {
    static test::TempDir dir;
    return dir;
}

std::string tempPath(const std::string& name) { return scratch() / name; }

ParallelCorpus smallDataset(const std::string& name, std::size_t size = 200, int maxLen = 6) {
    DatasetOptions o;
    o.size = size;
    o.seed = 3;
    o.maxLen = maxLen;
    return generateDataset(name, o);
}

TranslationTrainingOptions quickOptions(int epochs = 1) {
    TranslationTrainingOptions o;
    o.epochs = epochs;
    o.batchSize = 16;
    o.learningRate = 0.01;
    o.seed = 7;
    return o;
}

TEST_CASE("every GRU attention variant captures one [target x source] map", "[models]") {
    ParallelCorpus corpus = smallDataset("reverse", 60);
    for (auto kind : {AttentionKind::Dot, AttentionKind::General, AttentionKind::ScaledDot, AttentionKind::Additive,
                      AttentionKind::LocalM, AttentionKind::LocalP}) {
        INFO(toString(kind));
        TranslationTrainer trainer(corpus, tinyGru(kind), quickOptions());
        Translation t = trainer.model().translate("a b c d", {1, 6, true});
        REQUIRE(t.sourceTokens.size() == 5);  // four tokens and </s>
        REQUIRE(t.attention.count(MapKind::Cross) == 1);
        const LayeredAttention& cross = t.attention.at(MapKind::Cross);
        REQUIRE(cross.size() == 1);
        REQUIRE(cross[0].size() == 1);
        const AttentionMap& m = cross[0][0];
        CHECK(m.cols == 5);
        CHECK(m.rows == static_cast<int>(t.outputTokens.size()));
        for (int r = 0; r < m.rows; ++r) {
            double sum = 0;
            for (int c = 0; c < m.cols; ++c) sum += m.at(r, c);
            CHECK_THAT(sum, WithinAbs(1.0, 1e-5));
        }
    }
}

TEST_CASE("attention none has no map: the decoder sees one fixed context", "[models]") {
    TranslationTrainer trainer(smallDataset("copy", 60), tinyGru(AttentionKind::None), quickOptions());
    Translation t = trainer.model().translate("a b c", {1, 5, true});
    CHECK(t.attention.count(MapKind::Cross) == 0);
    CHECK(t.outputTokens.size() <= 5);
}

TEST_CASE("the Transformer captures every layer and head of each kind", "[models]") {
    TranslationTrainer trainer(smallDataset("reverse", 60), tinyTransformer(2, 4), quickOptions());
    Translation t = trainer.model().translate("a b c", {1, 4, true});
    const int S = static_cast<int>(t.sourceTokens.size());
    const int T = static_cast<int>(t.outputTokens.size());
    REQUIRE(T > 0);
    for (const MapKind kind : {MapKind::Encoder, MapKind::Decoder, MapKind::Cross}) {
        INFO(toString(kind));
        REQUIRE(t.attention.count(kind) == 1);
        const LayeredAttention& maps = t.attention.at(kind);
        REQUIRE(maps.size() == 2);
        for (const auto& layer : maps) {
            REQUIRE(layer.size() == 4);
            for (const auto& m : layer) {
                CHECK(m.rows == (kind == MapKind::Encoder ? S : T));
                CHECK(m.cols == (kind == MapKind::Encoder ? S : kind == MapKind::Decoder ? T : S));
            }
        }
    }
    // Decoder self-attention is causal: no weight on later positions.
    const AttentionMap& self = t.attention.at(MapKind::Decoder)[0][0];
    for (int r = 0; r < self.rows; ++r)
        for (int c = r + 1; c < self.cols; ++c) CHECK(self.at(r, c) == 0.0f);
}

TEST_CASE("loss falls when training on copy", "[models]") {
    TranslationTrainingOptions o = quickOptions(3);
    TranslationTrainer trainer(smallDataset("copy", 300), tinyGru(AttentionKind::Additive, 32), o);
    const double untrained = trainer.evaluate().validationLoss;
    std::vector<double> losses;
    trainer.run(nullptr, [&](const TranslationEpochMetrics& m) { losses.push_back(m.validationLoss); });
    REQUIRE(losses.size() == 3);
    CHECK(losses[0] < untrained);
    CHECK(losses[2] < losses[0]);
    CHECK(losses[2] < untrained * 0.8);
}

TEST_CASE("AER scores attention against the gold links over the tokens the model sees", "[models]") {
    // One English word to one two-character Chinese word, linked word to word. With a single
    // source token every attention row's largest weight is on it, whatever the weights, so the
    // AER is known: 0 when the gold covers every target token, 1 - 2/3 if a per-character
    // model were scored against the unmapped word link (one of two rows).
    ParallelCorpus corpus;
    corpus.name = "names";
    corpus.hasAlignments = true;
    const char* names[][2] = {{"tom", "汤姆"}, {"jerry", "杰瑞"}, {"mary", "玛丽"}, {"lily", "莉莉"}};
    for (int i = 0; i < 40; ++i) {
        SentencePair p;
        p.source = names[i % 4][0];
        p.target = names[i % 4][1];
        p.alignment = {{0, 0}};
        corpus.pairs.push_back(p);
    }
    for (bool splitCjk : {true, false}) {
        INFO("splitCjkCharacters " << splitCjk);
        TranslationTrainingOptions o = quickOptions();
        o.validationFraction = 0.5;
        o.tokenizer.splitCjkCharacters = splitCjk;
        TranslationTrainer trainer(corpus, tinyGru(AttentionKind::Additive), o);
        CHECK(trainer.model().targetVocabulary().contains(splitCjk ? "汤" : "汤姆"));
        CHECK_THAT(trainer.evaluate().alignmentErrorRate, WithinAbs(0.0, 1e-12));
    }
    // A link to a word the sentence lacks is no gold at all, not a wrong one.
    for (auto& p : corpus.pairs) p.alignment = {{0, 1}};
    TranslationTrainingOptions o = quickOptions();
    o.validationFraction = 0.5;
    TranslationTrainer trainer(corpus, tinyGru(AttentionKind::Additive), o);
    CHECK(std::isnan(trainer.evaluate().alignmentErrorRate));
}

TEST_CASE("AER counts possible links as Och and Ney do, over the whole validation set", "[models]") {
    // One source word, so every row's argmax is on it: the predicted links are (0,0) and (0,1).
    // Gold: "0-0" sure and "0?1" possible. |A| = 2, |S| = 1, |A∩S| = 1, |A∩P| = 2, so
    // AER = 1 - (1 + 2) / (2 + 1) = 0, precision = 2/2, recall = 1/1. Without the possible link,
    // (0,1) is wrong: AER = 1 - (1 + 1) / 3 = 1/3, precision 1/2, recall 1.
    ParallelCorpus corpus;
    corpus.name = "names";
    corpus.hasAlignments = true;
    const char* names[][2] = {{"tom", "汤姆 来"}, {"jerry", "杰瑞 来"}, {"mary", "玛丽 来"}, {"lily", "莉莉 来"}};
    for (int i = 0; i < 40; ++i) {
        SentencePair p;
        p.source = names[i % 4][0];
        p.target = names[i % 4][1];
        p.alignment = {{0, 0}};
        p.possibleAlignment = {{0, 1}};
        corpus.pairs.push_back(p);
    }
    TranslationTrainingOptions o = quickOptions();
    o.validationFraction = 0.5;
    o.tokenizer.splitCjkCharacters = false;
    {
        TranslationTrainer trainer(corpus, tinyGru(AttentionKind::Additive), o);
        const TranslationEpochMetrics m = trainer.evaluate();
        CHECK_THAT(m.alignmentErrorRate, WithinAbs(0.0, 1e-12));
        CHECK_THAT(m.alignmentPrecision, WithinAbs(1.0, 1e-12));
        CHECK_THAT(m.alignmentRecall, WithinAbs(1.0, 1e-12));
    }
    for (auto& p : corpus.pairs) p.possibleAlignment.clear();
    TranslationTrainer trainer(corpus, tinyGru(AttentionKind::Additive), o);
    const TranslationEpochMetrics m = trainer.evaluate();
    CHECK_THAT(m.alignmentErrorRate, WithinAbs(1.0 / 3.0, 1e-12));
    CHECK_THAT(m.alignmentPrecision, WithinAbs(0.5, 1e-12));
    CHECK_THAT(m.alignmentRecall, WithinAbs(1.0, 1e-12));
}

TEST_CASE("training is deterministic on one thread", "[models]") {
    auto once = [] {
        TranslationTrainer trainer(smallDataset("reverse", 80), tinyGru(AttentionKind::Additive), quickOptions(1));
        std::vector<double> losses;
        trainer.run([&](const BatchReport& r) { losses.push_back(r.loss); }, nullptr);
        return losses;
    };
    auto a = once(), b = once();
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i] == b[i]);
}

TEST_CASE("beam search with K = 1 is exactly greedy decoding", "[models]") {
    for (const ModelConfig& config : {tinyGru(AttentionKind::General), tinyTransformer(1, 2)}) {
        TranslationTrainer trainer(smallDataset("reverse", 100), config, quickOptions(2));
        trainer.run(nullptr, nullptr);
        const std::vector<std::string> sentences{"a b c", "d e", "f g h i", "b"};
        auto greedy = trainer.model().translateGreedy(sentences);
        for (std::size_t i = 0; i < sentences.size(); ++i) {
            Translation beam1 = trainer.model().translate(sentences[i], {1, 0, false});
            CHECK(beam1.outputTokens == greedy[i]);
            Translation beam4 = trainer.model().translate(sentences[i], {4, 0, false});
            CHECK(std::isfinite(beam4.logProbability));
        }
    }
}

TEST_CASE("save and load give identical outputs", "[models][checkpoint]") {
    for (const ModelConfig& config : {tinyGru(AttentionKind::LocalP), tinyTransformer(1, 2)}) {
        TranslationTrainer trainer(smallDataset("toy-en-fr", 80, 8), config, quickOptions(1));
        trainer.run(nullptr, nullptr);
        const std::string path = tempPath("roundtrip.safetensors");
        trainer.model().save(path);
        Seq2SeqModel loaded = Seq2SeqModel::load(path);
        std::filesystem::remove(path);
        CHECK(loaded.parameterCount() == trainer.model().parameterCount());
        CHECK(loaded.sourceVocabulary().tokens() == trainer.model().sourceVocabulary().tokens());
        Translation a = trainer.model().translate("the cat sees the red house", {2, 0, true});
        Translation b = loaded.translate("the cat sees the red house", {2, 0, true});
        CHECK(a.outputTokens == b.outputTokens);
        CHECK(a.logProbability == b.logProbability);
        REQUIRE(a.attention.count(MapKind::Cross) == 1);
        CHECK(a.attention.at(MapKind::Cross)[0][0].weights == b.attention.at(MapKind::Cross)[0][0].weights);
    }
}

TEST_CASE("unknown words stay visible as <unk>", "[models]") {
    TranslationTrainer trainer(smallDataset("copy", 60), tinyGru(AttentionKind::Dot), quickOptions());
    Translation t = trainer.model().translate("a zebra b", {1, 5, true});
    CHECK(t.sourceTokens == std::vector<std::string>{"a", "<unk>", "b", "</s>"});
    CHECK_THROWS_AS(trainer.model().translate("   ", {}), ConfigError);
}

TEST_CASE("a sentence longer than the model's maximum is truncated, not refused", "[models]") {
    TranslationTrainer trainer(smallDataset("copy", 60), tinyGru(AttentionKind::Dot), quickOptions());
    std::string longSentence;
    for (int i = 0; i < 5000; ++i) longSentence += "a ";
    Translation t = trainer.model().translate(longSentence, {1, 3, true});
    CHECK(t.truncated);
    CHECK(t.sourceTokens.size() == 32);  // maxLength - 1 tokens and </s>
}

TEST_CASE("a non-finite loss stops training and keeps the last good weights", "[models]") {
    TranslationTrainingOptions o = quickOptions(1);
    o.injectNonFiniteAtBatch = 3;
    TranslationTrainer trainer(smallDataset("copy", 100), tinyGru(AttentionKind::Dot), o);
    trainer.trainBatch();
    trainer.trainBatch();
    Translation before = trainer.model().translate("a b c", {1, 5, true});
    try {
        trainer.trainBatch();
        FAIL("expected TrainingDiverged");
    } catch (const TrainingDiverged& e) {
        CHECK(e.epoch() == 1);
        CHECK(e.batch() == 3);
        CHECK(std::string(e.what()).find("epoch 1, batch 3") != std::string::npos);
    }
    Translation after = trainer.model().translate("a b c", {1, 5, true});
    CHECK(before.attention.at(MapKind::Cross)[0][0].weights == after.attention.at(MapKind::Cross)[0][0].weights);
}

TEST_CASE("invalid configurations are refused before any work", "[models]") {
    ParallelCorpus corpus = smallDataset("copy", 20);
    ModelConfig c = tinyTransformer(1, 3);  // 3 heads do not divide 16
    CHECK_THROWS_AS(TranslationTrainer(corpus, c, quickOptions()), ConfigError);
    ModelConfig z = tinyGru(AttentionKind::Dot);
    z.hidden = 0;
    CHECK_THROWS_AS(TranslationTrainer(corpus, z, quickOptions()), ConfigError);
    TranslationTrainingOptions o = quickOptions();
    o.batchSize = 0;
    CHECK_THROWS_AS(TranslationTrainer(corpus, tinyGru(AttentionKind::Dot), o), ConfigError);
    ModelConfig huge = tinyGru(AttentionKind::Additive, 4096);
    huge.layers = 16;
    huge.maxLength = 8192;
    TranslationTrainingOptions big = quickOptions();
    big.batchSize = 4096;
    try {
        TranslationTrainer t(corpus, huge, big);
        FAIL("expected the memory estimate to refuse this");
    } catch (const ConfigError& e) {
        CHECK(std::string(e.what()).find("GiB") != std::string::npos);
    }
}

}  // namespace
