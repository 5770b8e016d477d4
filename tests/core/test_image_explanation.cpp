// The explanation lab for a ViT (ImageClassifier::explain): gradient x input per patch against
// central finite differences of the class logit, integrated gradients' completeness, the five maps
// as distributions, tau in [-1, 1], and the deletion curves' shape.
#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

#include "base/InputError.h"
#include "base/vision/ImageExplanation.h"
#include "engine/detail/ModelAccess.h"
#include "base/Vocabulary.h"
#include "engine/vision/ImageModels.h"

using namespace attnlab;
using Catch::Matchers::WithinAbs;

namespace {

VitConfig smallVit() {
    VitConfig c;
    c.imageSize = 16;
    c.patch = 4;
    c.hidden = 16;
    c.heads = 2;
    c.layers = 2;
    c.classes = 3;
    return c;
}

Image pattern(int side, unsigned seed) {
    Image im;
    im.height = im.width = side;
    im.pixels.resize(static_cast<std::size_t>(side) * side);
    for (std::size_t i = 0; i < im.pixels.size(); ++i) im.pixels[i] = static_cast<std::uint8_t>((i * 2654435761u + seed * 97u) >> 9);
    return im;
}

const ImageClassifier& sharedVit() {
    static const ImageClassifier model(smallVit(), {"a", "b", "c"}, 5);
    return model;
}

}  // namespace

TEST_CASE("explain: gradient x input per patch is the finite-difference slope times the pixel", "[explain-image]") {
    const ImageClassifier& model = sharedVit();
    const Image image = pattern(16, 2);
    const ImageExplanation ex = model.explain(image, 1, 16);
    REQUIRE(ex.classIndex == 1);
    REQUIRE(ex.raw.at("grad_x_input").size() == 16);

    // The class logit in double precision, one batch of images with one pixel moved by +-h each.
    nn::VitNet net = attnlab::detail::ModelAccess::impl(model).net;
    torch::NoGradGuard noGrad;
    const bool training = net->is_training();
    net->eval();
    net->to(torch::kDouble);
    torch::Tensor x = torch::empty({1, 1, 16, 16}, torch::kDouble);
    for (int i = 0; i < 256; ++i) x.view(-1)[i] = image.pixels[static_cast<std::size_t>(i)] / 255.0;
    const double h = 1e-4;
    torch::Tensor batch = x.repeat({512, 1, 1, 1});
    for (int i = 0; i < 256; ++i) {
        batch[2 * i].view(-1)[i] += h;
        batch[2 * i + 1].view(-1)[i] -= h;
    }
    const torch::Tensor logits = net->forward(batch).logits.select(1, 1);
    std::vector<double> expected(16, 0.0);
    for (int i = 0; i < 256; ++i) {
        const double slope = (logits[2 * i].item<double>() - logits[2 * i + 1].item<double>()) / (2 * h);
        const int patch = (i / 16 / 4) * 4 + (i % 16) / 4;
        expected[static_cast<std::size_t>(patch)] += slope * x.view(-1)[i].item<double>();
    }
    net->to(torch::kFloat);
    if (training) net->train();
    double scale = 0;
    for (double v : expected) scale = std::max(scale, std::abs(v));
    REQUIRE(scale > 0);
    for (std::size_t p = 0; p < 16; ++p) CHECK_THAT(ex.raw.at("grad_x_input")[p], WithinAbs(expected[p], 1e-3 * scale));
}

TEST_CASE("explain: five distributions over the patches, taus in [-1, 1], complete IG, deletion curves", "[explain-image]") {
    const ImageClassifier& model = sharedVit();
    const ImageExplanation ex = model.explain(pattern(20, 7), -1, 64);  // resized to 16
    CHECK(ex.gridRows == 4);
    CHECK(ex.label == model.classes()[static_cast<std::size_t>(ex.classIndex)]);
    for (const auto& method : imageExplanationMethods()) {
        INFO(method);
        REQUIRE(ex.maps.count(method));
        const auto& map = ex.maps.at(method);
        REQUIRE(map.size() == 16);
        CHECK_THAT(std::accumulate(map.begin(), map.end(), 0.0), WithinAbs(1.0, 1e-9));
        for (double w : map) CHECK(w >= 0);
    }
    for (const auto& [a, row] : ex.kendallTau)
        for (const auto& [b, tau] : row) {
            CHECK(a != b);
            CHECK(tau >= -1.0);
            CHECK(tau <= 1.0);
        }
    CHECK(ex.kendallTau.at("rollout").size() == 4);
    CHECK(igCompletenessError(ex) < 0.05);
    for (const auto& [name, curve] : ex.deletion.probability) {
        INFO(name);
        REQUIRE(curve.size() == 17);
        CHECK_THAT(curve.front(), WithinAbs(ex.probability, 1e-5));
    }
    CHECK(ex.deletion.probability.count("random"));
    // Every curve ends at the same image: all patches the mean colour.
    CHECK_THAT(ex.deletion.probability.at("rollout").back(), WithinAbs(ex.deletion.probability.at("random").back(), 1e-6));
    CHECK_THROWS_AS(model.explain(pattern(16, 1), 3), ConfigError);
    CHECK_THROWS_AS(model.explain(pattern(16, 1), -1, 0), ConfigError);
}

TEST_CASE("explain: a ViT with a local attention pattern still gives its maps", "[explain-image]") {
    VitConfig c = smallVit();
    c.pattern = AttentionPattern::Local;
    c.window = 2;
    const ImageClassifier model(c, {"a", "b", "c"}, 2);
    const ImageExplanation ex = model.explain(pattern(16, 3), -1, 8);
    CHECK(ex.maps.size() >= 4);  // gradient-weighted rollout when the pattern's maps are in the graph
    for (const auto& [method, map] : ex.maps) {
        INFO(method);
        CHECK_THAT(std::accumulate(map.begin(), map.end(), 0.0), WithinAbs(1.0, 1e-9));
    }
    CHECK(ex.deletion.probability.count("random"));
}

TEST_CASE("explain a caption's word: its attention beside the gradient methods, per cell; complete IG", "[explain-image]") {
    CaptionerConfig c;
    c.features = 16;
    c.hidden = 24;
    c.embedding = 12;
    c.attentionSize = 10;
    c.maxLength = 4;
    const ImageCaptioner model(c, Vocabulary::build({{"a", "red", "disk", "left", "of"}}), 3);
    Image scene = pattern(48, 5);
    scene.channels = 1;  // read as RGB by the model
    const Captioning caption = model.caption(scene);
    REQUIRE(!caption.tokens.empty());
    const int last = static_cast<int>(caption.tokens.size()) - 1;
    const ImageExplanation ex = model.explainWord(scene, last, 64);
    CHECK(ex.caption == caption.tokens);
    CHECK(ex.label == caption.tokens.back());
    CHECK(ex.gridRows == 6);
    CHECK(methodsOf(ex) == captionExplanationMethods());
    for (const auto& [method, map] : ex.maps) {
        INFO(method);
        REQUIRE(map.size() == 36);
        CHECK_THAT(std::accumulate(map.begin(), map.end(), 0.0), WithinAbs(1.0, 1e-9));
    }
    // The attention is the caption's own row for the word.
    for (std::size_t i = 0; i < 36; ++i) CHECK_THAT(ex.maps.at("attention")[i], WithinAbs(caption.attention.back()[i], 1e-6));
    CHECK(igCompletenessError(ex) < 0.05);
    CHECK_THAT(ex.deletion.probability.at("attention").front(), WithinAbs(ex.probability, 1e-5));
    CHECK_THROWS_AS(model.explainWord(scene, last + 1), ConfigError);
}
