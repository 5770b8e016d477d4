// The model-free half of the explanation lab for images (core/base/vision/ImageExplanation.h):
// the deletion test against a hand-built model whose output depends on one patch, AOPC by hand,
// patch ranking and filling, the summary over images; and the box and object files it reads.
#include <catch2/catch.hpp>

#include <cmath>

#include "base/vision/Captions.h"
#include "base/vision/ImageExplanation.h"
#include "base/vision/ImageFiles.h"
#include "InputErrors.h"
#include "TempDir.h"

using namespace attnlab;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;

namespace {

// 8x8 grey, a 2x2 grid of 4x4 patches; patch `bright` is 200, the rest 40.
Image fourPatches(int bright) {
    Image im;
    im.height = im.width = 8;
    im.pixels.assign(64, 40);
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x)
            if ((y / 4) * 2 + x / 4 == bright) im.pixels[static_cast<std::size_t>(y * 8 + x)] = 200;
    return im;
}

// A model that looks at patch 3 only: its probability is that patch's mean brightness / 255.
std::vector<double> patchThreeModel(const std::vector<Image>& images) {
    std::vector<double> p;
    for (const Image& im : images) {
        double sum = 0;
        for (int y = 4; y < 8; ++y)
            for (int x = 4; x < 8; ++x) sum += im.pixels[static_cast<std::size_t>(y * 8 + x)];
        p.push_back(sum / 16.0 / 255.0);
    }
    return p;
}

}  // namespace

TEST_CASE("deletion: the order that removes the patch the model reads first drops at once", "[explain-image]") {
    const Image image = fourPatches(3);
    const std::vector<std::uint8_t> mean = meanColour(image);
    REQUIRE(mean == std::vector<std::uint8_t>{80});  // (200 + 3 * 40) / 4
    const std::map<std::string, std::vector<double>> maps{
        {"right", {0.1, 0.1, 0.1, 0.7}},  // patch 3 first
        {"wrong", {0.4, 0.3, 0.2, 0.1}},  // patch 3 last
    };
    const DeletionCurves d = deletionTest(image, 2, 2, maps, patchThreeModel, 8, 3);
    REQUIRE(d.fractions == std::vector<double>{0, 0.25, 0.5, 0.75, 1});
    const double full = 200.0 / 255, removed = 80.0 / 255;
    const auto& right = d.probability.at("right");
    const auto& wrong = d.probability.at("wrong");
    REQUIRE(right.size() == 5);
    CHECK_THAT(right[0], WithinAbs(full, 1e-12));
    for (int k = 1; k <= 4; ++k) CHECK_THAT(right[static_cast<std::size_t>(k)], WithinAbs(removed, 1e-12));
    for (int k = 0; k <= 3; ++k) CHECK_THAT(wrong[static_cast<std::size_t>(k)], WithinAbs(full, 1e-12));
    CHECK_THAT(wrong[4], WithinAbs(removed, 1e-12));
    // AOPC = mean over k = 0..N of p_0 - p_k.
    CHECK_THAT(d.areaOverCurve.at("right"), WithinAbs(4 * (full - removed) / 5, 1e-12));
    CHECK_THAT(d.areaOverCurve.at("wrong"), WithinAbs((full - removed) / 5, 1e-12));
    // Random orders fall between: the mean of 8 orders, each removing patch 3 at some step.
    const auto& random = d.probability.at("random");
    CHECK_THAT(random[0], WithinAbs(full, 1e-12));
    CHECK_THAT(random[4], WithinAbs(removed, 1e-12));
    CHECK(d.areaOverCurve.at("random") > d.areaOverCurve.at("wrong"));
    CHECK(d.areaOverCurve.at("random") < d.areaOverCurve.at("right"));
    // The same seed, the same random curve.
    CHECK(deletionTest(image, 2, 2, maps, patchThreeModel, 8, 3).probability.at("random") == random);

    CHECK_THROWS_AS(deletionTest(image, 3, 3, maps, patchThreeModel), ConfigError);  // 8 is not a multiple of 3
    CHECK_THROWS_AS(deletionTest(image, 2, 2, {{"short", {1, 0}}}, patchThreeModel), ConfigError);
}

TEST_CASE("patches: ranked most important first, filled with a colour, AOPC by hand", "[explain-image]") {
    CHECK(rankPatches({0.1, 0.5, 0.5, 0.2}) == std::vector<int>{1, 2, 3, 0});  // ties: the lower index first
    const Image filled = withPatchesReplaced(fourPatches(0), 2, 2, {0, 3}, {7});
    CHECK(filled.pixels[0] == 7);           // patch 0
    CHECK(filled.pixels[4] == 40);          // patch 1 untouched
    CHECK(filled.pixels[63] == 7);          // patch 3
    CHECK_THROWS_AS(withPatchesReplaced(filled, 2, 2, {4}, {7}), ConfigError);
    CHECK_THAT(areaOverCurve({1.0, 0.5, 0.5}), WithinAbs(1.0 / 3.0, 1e-12));
    CHECK(magnitudeDistribution({-1, 3, 0}) == std::vector<double>{0.25, 0.75, 0});
    CHECK(magnitudeDistribution({0, 0}) == std::vector<double>{0, 0});
}

TEST_CASE("the summary over images: mean curves and areas, taus, mass in the box", "[explain-image]") {
    auto one = [](double p1, double tau, double mass) {
        ImageExplanation ex;
        ex.gridRows = ex.gridCols = 1;
        ex.deletion.fractions = {0, 1};
        ex.deletion.probability["rollout"] = {1, p1};
        ex.deletion.areaOverCurve["rollout"] = areaOverCurve({1, p1});
        ex.kendallTau["rollout"]["gradient"] = tau;
        ex.igAttributionSum = 1.0;
        ex.igOutputDifference = 1.0 + tau;
        ex.hasBox = true;
        ex.massInBox["rollout"] = mass;
        ex.boxShare = 0.1;
        return ex;
    };
    const ImageExplanationSummary s = summarise({one(0.2, 0.5, 0.6), one(0.6, std::nan(""), 0.2)});
    CHECK(s.images == 2);
    CHECK_THAT(s.deletion.probability.at("rollout")[1], WithinAbs(0.4, 1e-12));
    CHECK_THAT(s.deletion.areaOverCurve.at("rollout"), WithinAbs(0.3, 1e-12));
    CHECK_THAT(s.meanTau.at("rollout").at("gradient"), WithinAbs(0.5, 1e-12));  // the NaN left out
    CHECK_THAT(s.meanMassInBox.at("rollout"), WithinAbs(0.4, 1e-12));
    CHECK_THAT(s.meanBoxShare, WithinAbs(0.1, 1e-12));
    CHECK(s.withBoxes == 2);
    CHECK_THROWS_AS(summarise({}), ConfigError);
}

TEST_CASE("box and object files: the rows of one image, every bad line named", "[explain-image]") {
    const test::TempDir dir;
    const std::string boxes = dir.file("glyphs/boxes.tsv", "ring/00001.png\t1\t2\t6\t6\nplus/00001.png\t10\t11\t6\t6\n");
    dir.file("glyphs/ring/00001.png", "");
    const auto found = boxesFileFor(dir / "glyphs/ring/00001.png");
    CHECK(found.first == boxes);
    CHECK(found.second == "ring/00001.png");
    const auto box = readImageBox(found.first, found.second);
    REQUIRE(box);
    CHECK(box->top == 1);
    CHECK(box->left == 2);
    CHECK(box->height == 6);
    CHECK_FALSE(readImageBox(boxes, "slash/00009.png"));
    CHECK(boxesFileFor(dir / "elsewhere.png").first.empty());
    const std::string broken = dir.file("broken.tsv", "ring/00001.png\t1\t2\t6\t6\nplus/00001.png\t1\tx\t6\t6\n");
    CHECK_THAT(test::inputErrorOf([&] { readImageBox(broken, "ring/00001.png"); }),
               Contains("broken.tsv:2") && Contains("column 3: 'x' is not a whole number"));
    const std::string short_ = dir.file("short.tsv", "ring/00001.png\t1\t2\t6\n");
    CHECK_THAT(test::inputErrorOf([&] { readImageBox(short_, "ring/00001.png"); }),
               Contains("short.tsv:1") && Contains("expected 5 tab-separated columns"));

    const std::string objects = dir.file("scenes/objects.tsv", "images/00001.png\t1\tblue\tbox\t20\t20\t8\t8\n"
                                                               "images/00001.png\t0\tred\tdisk\t1\t2\t10\t10\n"
                                                               "images/00002.png\t0\tgreen\tbar\t1\t2\t10\t4\n");
    const auto scene = objectsFileFor(dir / "scenes/images/00001.png");
    CHECK(scene.first == objects);
    CHECK(scene.second == "images/00001.png");
    const auto list = readSceneObjects(scene.first, scene.second);
    REQUIRE(list.size() == 2);
    CHECK(list[0].colour == "red");  // in the object column's order
    CHECK(list[1].shape == "box");
    CHECK(list[1].box.top == 20);
    const std::string badObjects = dir.file("objects-bad.tsv", "images/00001.png\t0\tred\tdisk\t1\t2\t10\n");
    CHECK_THAT(test::inputErrorOf([&] { readSceneObjects(badObjects, "images/00001.png"); }),
               Contains("objects-bad.tsv:1") && Contains("expected 8 tab-separated columns"));
}
