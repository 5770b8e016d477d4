// The vision models: the weight counts a checkpoint is checked against, the ViT's attention and its
// rollout against hand computation, the box measures, images as the models read them, checkpoints,
// captions with one attention row per word, and short trainings that learn.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numeric>

#include "base/vision/Captions.h"
#include "base/vision/ImageAttention.h"
#include "base/vision/ImageDatasets.h"
#include "base/io/CheckpointMetadata.h"
#include "base/InputError.h"
#include "base/io/Safetensors.h"
#include "engine/vision/ImageModels.h"
#include "engine/vision/VisionTrainer.h"

#include "TempDir.h"
#include "TinyModels.h"

using namespace attnlab;
using attnlab::test::tinyCaptioner;
using attnlab::test::tinyVit;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;

namespace {



Image noise(int side, int channels, unsigned seed) {
    Image im;
    im.height = im.width = side;
    im.channels = channels;
    im.pixels.resize(static_cast<std::size_t>(side) * side * channels);
    for (std::size_t i = 0; i < im.pixels.size(); ++i) im.pixels[i] = static_cast<std::uint8_t>((i * 2654435761u + seed * 97u) >> 7);
    return im;
}

double sum(const std::vector<float>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

const std::vector<std::string> kFour{"a", "b", "c", "d"};

}  // namespace

TEST_CASE("the weight count a checkpoint is checked against is the network's", "[vision]") {
    VitConfig vit = tinyVit();
    vit.classes = 4;
    CHECK(ImageClassifier(vit, kFour, 1).parameterCount() == parameterCount(vit));
    vit.positions = PatchPositions::Sinusoidal;
    vit.channels = 3;
    vit.feedForward = 20;
    CHECK(ImageClassifier(vit, kFour, 1).parameterCount() == parameterCount(vit));
    for (CaptionAttention a : {CaptionAttention::Additive, CaptionAttention::Dot})
        for (int variant = 0; variant < 7; ++variant) {
            CaptionerConfig c = tinyCaptioner();
            c.attention = a;
            c.query = variant == 1 ? CaptionQuery::Previous : CaptionQuery::Current;
            c.encoder = variant == 2 ? CaptionEncoder::Cell : CaptionEncoder::Image;
            c.initialState = variant == 3 ? CaptionInitialState::Zero : CaptionInitialState::Mean;
            c.gate = variant == 4;
            c.sentinel = variant == 5 && a == CaptionAttention::Additive;
            c.inputFeeding = variant != 6;
            INFO(toJson(c));
            const ImageCaptioner model(c, Vocabulary::build({{"a", "red", "disk"}}), 1);
            c.vocabulary = static_cast<std::int64_t>(model.vocabulary().size());
            CHECK(model.parameterCount() == parameterCount(c));
            const Captioning caption = model.caption(noise(48, 3, 2));  // every variant decodes
            CHECK(caption.attention.size() == caption.tokens.size());
        }
}

TEST_CASE("a captioner's choices go through its config; older checkpoints read as they were built", "[vision]") {
    CaptionerConfig c = tinyCaptioner();
    c.vocabulary = 9;
    c.query = CaptionQuery::Previous;
    c.encoder = CaptionEncoder::Cell;
    c.initialState = CaptionInitialState::Zero;
    c.sentinel = true;
    c.gate = true;
    c.attention = CaptionAttention::Additive;  // the sentinel's
    c.inputFeeding = true;
    c.doublyStochastic = 0.5f;
    const CaptionerConfig back = captionerConfigFromJson(toJson(c));
    CHECK(toJson(back) == toJson(c));
    // Written before the choices existed: the previous state asks, the whole-image encoder, the mean
    // state, no sentinel, no gate.
    nlohmann::json older = nlohmann::json::parse(toJson(CaptionerConfig{}));
    for (const char* key : {"query", "encoder", "initial_state", "sentinel", "gate", "input_feeding"}) older.erase(key);
    older["vocabulary"] = 9;
    const CaptionerConfig old = captionerConfigFromJson(older.dump());
    CHECK(old.query == CaptionQuery::Previous);
    CHECK(old.encoder == CaptionEncoder::Image);
    CHECK(old.initialState == CaptionInitialState::Mean);
    CHECK_FALSE(old.sentinel);
    CHECK_FALSE(old.gate);
    CHECK(old.inputFeeding);
    CHECK(CaptionerConfig{}.query == CaptionQuery::Current);  // new models: the current state asks,
    CHECK(CaptionerConfig{}.attention == CaptionAttention::Dot);  // scores by a dot product,
    CHECK_FALSE(CaptionerConfig{}.inputFeeding);               // reads only the word it wrote,
    CHECK(CaptionerConfig{}.doublyStochastic == 1.0f);         // every cell looked at about once
    nlohmann::json wrong = nlohmann::json::parse(toJson(c));
    wrong["query"] = "next";
    CHECK_THROWS_WITH(captionerConfigFromJson(wrong.dump()), Contains("unknown query 'next'"));
    wrong["query"] = "current";
    wrong["sentinel"] = "yes";
    CHECK_THROWS_WITH(captionerConfigFromJson(wrong.dump()), Contains("'sentinel' must be true or false"));
    c.attention = CaptionAttention::Dot;
    CHECK_THAT(validate(c), Contains("sentinel needs additive attention"));
}

TEST_CASE("a ViT's attention: rows that sum to 1, [CLS] first, and the rollout by hand", "[vision]") {
    const ImageClassifier model(tinyVit(), kFour, 3);
    const ImageClassification c = model.classify(noise(40, 3, 1));  // resized and made grey
    REQUIRE(c.gridRows == 4);
    REQUIRE(c.gridCols == 4);
    CHECK(c.imageHeight == 32);
    CHECK_THAT(std::accumulate(c.probabilities.begin(), c.probabilities.end(), 0.0), WithinAbs(1.0, 1e-6));
    REQUIRE(c.encoder.size() == 2);
    const int T = 1 + 16;
    for (const auto& layer : c.encoder) {
        REQUIRE(layer.size() == 2);
        for (const auto& head : layer) {
            REQUIRE(head.rows == T);
            REQUIRE(head.cols == T);
            for (int r = 0; r < T; ++r) {
                double s = 0;
                for (int k = 0; k < T; ++k) s += head.at(r, k);
                CHECK_THAT(s, WithinAbs(1.0, 1e-5));
            }
        }
    }
    // Abnar & Zuidema: A_l = renorm(0.5 mean_h W_l + 0.5 I), rollout = A_2 A_1, [CLS]'s row over the patches.
    std::vector<std::vector<double>> rollout;
    for (const auto& layer : c.encoder) {
        std::vector<std::vector<double>> a(T, std::vector<double>(T, 0.0));
        for (int i = 0; i < T; ++i) {
            double rowSum = 0;
            for (int j = 0; j < T; ++j) {
                a[i][j] = 0.5 * (layer[0].at(i, j) + layer[1].at(i, j)) / 2 + (i == j ? 0.5 : 0.0);
                rowSum += a[i][j];
            }
            for (int j = 0; j < T; ++j) a[i][j] /= rowSum;
        }
        if (rollout.empty()) {
            rollout = a;
            continue;
        }
        std::vector<std::vector<double>> product(T, std::vector<double>(T, 0.0));
        for (int i = 0; i < T; ++i)
            for (int j = 0; j < T; ++j)
                for (int k = 0; k < T; ++k) product[i][j] += a[i][k] * rollout[k][j];
        rollout = product;
    }
    double patchMass = 0;
    for (int j = 1; j < T; ++j) patchMass += rollout[0][j];
    REQUIRE(c.rollout.size() == 16);
    CHECK_THAT(sum(c.rollout), WithinAbs(1.0, 1e-5));
    for (int j = 1; j < T; ++j) CHECK_THAT(c.rollout[static_cast<std::size_t>(j - 1)], WithinAbs(rollout[0][j] / patchMass, 1e-5));
    REQUIRE(c.clsRows.size() == 2);
    double clsMass = 0;
    for (int j = 1; j < T; ++j) clsMass += (c.encoder[1][0].at(0, j) + c.encoder[1][1].at(0, j)) / 2;
    CHECK_THAT(c.clsRows[1][0], WithinAbs((c.encoder[1][0].at(0, 1) + c.encoder[1][1].at(0, 1)) / 2 / clsMass, 1e-5));
}

TEST_CASE("mass on a box: cells weighted by the share of them the box covers", "[vision]") {
    // A 2x2 grid over 8x8 pixels: cells of 4x4. The box (2, 2, 4, 4) covers a quarter of each cell.
    const std::vector<float> w{0.1f, 0.2f, 0.3f, 0.4f};
    const Box box{2, 2, 4, 4};
    CHECK_THAT(massOnBox(w, 2, 2, 8, 8, box), WithinAbs(0.25, 1e-6));
    CHECK_THAT(boxShare(box, 8, 8), WithinAbs(16.0 / 64.0, 1e-12));
    CHECK_THAT(massOnBox({0.25f, 0.25f, 0.25f, 0.25f}, 2, 2, 8, 8, {0, 0, 4, 8}), WithinAbs(0.5, 1e-6));  // uniform = share
    CHECK(peakInBox(w, 2, 2, 8, 8, {4, 4, 4, 4}));      // cell (1, 1), centre (6, 6)
    CHECK_FALSE(peakInBox(w, 2, 2, 8, 8, {0, 0, 4, 4}));
    // Within half a cell (2 pixels): the peak cell's centre (6, 6) is 2 pixels off the box (0, 0, 4, 4)
    // on each axis, 3 pixels off (0, 0, 3, 3); a 2x2 box between two centres holds none.
    CHECK(peakInBox(w, 2, 2, 8, 8, {0, 0, 4, 4}, kPeakMarginCells));
    CHECK_FALSE(peakInBox(w, 2, 2, 8, 8, {0, 0, 3, 3}, kPeakMarginCells));
    CHECK_FALSE(peakInBox(w, 2, 2, 8, 8, {3, 3, 2, 2}));
    CHECK(peakInBox(w, 2, 2, 8, 8, {3, 3, 2, 2}, kPeakMarginCells));
    const std::vector<BoxAttention> on = attentionOnBoxes(w, 2, 2, 8, 8, {{4, 4, 4, 4}, {0, 0, 4, 8}});
    REQUIRE(on.size() == 2);
    CHECK_THAT(on[0].mass, WithinAbs(0.4, 1e-6));
    CHECK_THAT(on[0].share, WithinAbs(0.25, 1e-12));
    CHECK((on[0].peakInside && on[0].peakNear));
    CHECK_THAT(on[1].mass, WithinAbs(0.3, 1e-6));
    CHECK((!on[1].peakInside && on[1].peakNear));  // centre (6, 6) is 2 pixels below the box's bottom edge
    const Box scaled = scaleBox({7, 14, 7, 7}, 28, 28, 56, 56);
    CHECK(scaled.top == 14);
    CHECK(scaled.left == 28);
    CHECK(scaled.height == 14);
}

TEST_CASE("images as a model reads them: grey is the mean of R, G, B; grey repeats for RGB", "[vision]") {
    Image rgb;
    rgb.height = rgb.width = 1;
    rgb.channels = 3;
    rgb.pixels = {30, 60, 90};
    const Image grey = toModelInput(rgb, 1, 1);
    REQUIRE(grey.pixels.size() == 1);
    CHECK(grey.pixels[0] == 60);
    const Image back = toModelInput(grey, 3, 2);
    CHECK(back.height == 2);
    CHECK(back.pixels == std::vector<std::uint8_t>(12, 60));
    CHECK_THROWS_AS(toModelInput(Image{}, 1, 4), ConfigError);
}

TEST_CASE("vision checkpoints: reloaded models answer the same; the wrong kind is named", "[vision]") {
    test::TempDir dir;
    const std::string vitPath = (dir.path / "vit.safetensors").string(), capPath = (dir.path / "cap.safetensors").string();
    const ImageClassifier vit(tinyVit(), kFour, 5);
    vit.save(vitPath);
    const ImageClassifier vitBack = ImageClassifier::load(vitPath);
    const Image im = noise(32, 1, 2);
    CHECK(vitBack.classify(im).probabilities == vit.classify(im).probabilities);
    CHECK(vitBack.classes() == kFour);
    CHECK(visionTaskOf(vitPath) == "image-classify");

    const ImageCaptioner cap(tinyCaptioner(), Vocabulary::build({{"a", "red", "disk", "left", "of", "blue", "box"}}), 5);
    cap.save(capPath);
    const ImageCaptioner capBack = ImageCaptioner::load(capPath);
    const Image scene = noise(48, 3, 3);
    CHECK(capBack.caption(scene).tokens == cap.caption(scene).tokens);
    CHECK(visionTaskOf(capPath) == "caption");

    CHECK_THROWS_WITH(ImageCaptioner::load(vitPath), Contains("holds a 'image-classify' model, not an image captioner"));
    CHECK_THROWS_WITH(ImageClassifier::load(capPath), Contains("not an image classifier"));

    // The format version is checked as for every task's file (base/io/CheckpointMetadata.h), naming the file.
    SafetensorsContent later = readSafetensors(vitPath);
    later.metadata["format_version"] = "2";
    const std::string laterPath = (dir.path / "later.safetensors").string();
    writeSafetensors(laterPath, later);
    CHECK_THROWS_WITH(ImageClassifier::load(laterPath),
                      laterPath + ": unsupported format version 2 (this build reads " +
                          std::to_string(kCheckpointFormatVersion) + ")");
    SafetensorsContent translation = readSafetensors(vitPath);
    translation.metadata.erase("task");
    translation.metadata["source_vocab"] = "[]";
    writeSafetensors(laterPath, translation);
    CHECK_THROWS_WITH(ImageClassifier::load(laterPath),
                      laterPath + ": holds a translation model, not an image classifier (use translate)");
}

TEST_CASE("a caption has one attention row per word, each summing to 1; beams agree on their best", "[vision]") {
    const ImageCaptioner model(tinyCaptioner(), Vocabulary::build({{"a", "red", "disk", "left", "of", "blue", "box"}}), 7);
    const Image scene = noise(48, 3, 4);
    const Captioning greedy = model.caption(scene);
    REQUIRE(!greedy.tokens.empty());
    REQUIRE(greedy.attention.size() == greedy.tokens.size());
    CHECK(greedy.gridRows == 6);
    for (const auto& row : greedy.attention) {
        REQUIRE(row.size() == 36);
        CHECK_THAT(sum(row), WithinAbs(1.0, 1e-5));
    }
    CHECK(model.caption(scene, 1).tokens == greedy.tokens);  // deterministic
    const Captioning beam = model.caption(scene, 4);
    CHECK(beam.attention.size() == beam.tokens.size());
    CHECK(static_cast<int>(beam.tokens.size()) <= model.config().maxLength);
    CHECK_THROWS_AS(model.caption(scene, 0), ConfigError);
}

TEST_CASE("a small ViT learns glyphs and its rollout moves onto the mark", "[vision][training]") {
    VitConfig config = tinyVit();
    config.patch = 4;
    config.hidden = 32;
    config.heads = 4;
    VisionTrainingOptions options;
    options.epochs = 5;
    const ImageDataset glyphs = makeGlyphs(800, 2);
    ImageClassifierTrainer trainer(glyphs, ImageDataset{}, config, options);
    std::vector<ImageEpochMetrics> epochs;
    trainer.run([&](const ImageEpochMetrics& m) { epochs.push_back(m); });
    REQUIRE(epochs.size() == 5);
    CHECK(epochs.back().trainLoss < epochs.front().trainLoss);
    CHECK(epochs.back().accuracy > 0.4);  // chance is 0.25
    CHECK(epochs.back().boxShare == Approx(36.0 / 1024.0).epsilon(0.01));
    CHECK(epochs.back().rolloutOnBox > 1.5 * epochs.back().boxShare);
    CHECK(epochs.back().imagesPerSecond > 0);
}

TEST_CASE("a small captioner learns to name scenes", "[vision][training]") {
    CaptionerConfig config = tinyCaptioner();
    VisionTrainingOptions options;
    options.epochs = 3;
    options.learningRate = 3e-3;
    const CaptionDataset scenes = makeScenes(300, 4);
    CaptionerTrainer trainer(scenes, CaptionDataset{}, config, options);
    std::vector<CaptionEpochMetrics> epochs;
    trainer.run([&](const CaptionEpochMetrics& m) { epochs.push_back(m); });
    REQUIRE(epochs.size() == 3);
    CHECK(epochs.back().trainLoss < epochs.front().trainLoss);
    CHECK(epochs.back().bleu > 0.1);
    CHECK(trainer.validationExamples() == 30);
    const Captioning c = trainer.model().caption(scenes.images.front());
    CHECK(c.attention.size() == c.tokens.size());
}

TEST_CASE("vision trainers refuse what they cannot learn from", "[vision]") {
    ImageDataset one = makeGlyphs(8, 1);
    one.classes = {"only"};
    std::fill(one.labels.begin(), one.labels.end(), 0);
    CHECK_THROWS_WITH(ImageClassifierTrainer(one, ImageDataset{}, tinyVit(), {}), Contains("two or more classes"));
    VisionTrainingOptions bad;
    bad.epochs = 0;
    CHECK_THROWS_AS(ImageClassifierTrainer(makeGlyphs(8, 1), ImageDataset{}, tinyVit(), bad), ConfigError);
    VitConfig odd = tinyVit();
    odd.patch = 5;
    CHECK_THROWS_WITH(ImageClassifierTrainer(makeGlyphs(8, 1), ImageDataset{}, odd, {}), Contains("does not divide"));
}
