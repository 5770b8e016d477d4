// The caption grounding (base/vision/CaptionGrounding.h) against hand-made maps: each word's class,
// the object it belongs to, and the per-class shares of peaks near / inside that object.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "base/vision/CaptionGrounding.h"

using namespace attnlab;

namespace {

// A 6 x 6 map (8-pixel cells of a 48 x 48 image) with these weights at (row, col).
std::vector<float> map(std::initializer_list<std::pair<std::pair<int, int>, float>> cells) {
    std::vector<float> m(36, 0.0f);
    for (const auto& [at, w] : cells) m[static_cast<std::size_t>(at.first * 6 + at.second)] = w;
    return m;
}

const std::vector<SceneObject> kScene{{Box{8, 8, 8, 8}, "red", "disk"}, {Box{32, 32, 8, 8}, "blue", "box"}};

}  // namespace

TEST_CASE("grounding: each word's class and object, and the shares per class and per phrase", "[captions]") {
    const std::vector<std::string> tokens{"a", "red", "disk", "left", "of", "a", "blue", "box"};
    const std::vector<std::vector<float>> attention{
        map({{{1, 1}, 1.0f}}),                    // a: on the red disk
        map({{{1, 1}, 1.0f}}),                    // red: on it
        map({{{3, 3}, 0.6f}, {{1, 1}, 0.4f}}),    // disk: between the objects, off both
        map({{{4, 4}, 1.0f}}),                    // left: on the blue box (one of its two objects)
        map({{{0, 5}, 1.0f}}),                    // of: on neither
        map({{{4, 4}, 1.0f}}),                    // a: on the blue box
        map({{{0, 0}, 0.9f}, {{4, 4}, 0.1f}}),    // blue: in the corner
        map({{{4, 4}, 1.0f}}),                    // box: on it
    };
    const CaptionGrounding g = groundCaption(tokens, attention, 6, 6, 48, 48, kScene, CaptionWords{});
    REQUIRE(g.words.size() == 8);
    CHECK(g.objectsNamed == 2);
    CHECK(g.words[0].wordClass == CaptionWordClass::Article);
    CHECK(g.words[1].wordClass == CaptionWordClass::Colour);
    CHECK(g.words[2].wordClass == CaptionWordClass::Shape);
    CHECK(g.words[3].wordClass == CaptionWordClass::Relation);
    CHECK(g.words[0].objects == std::vector<int>{0});
    CHECK(g.words[3].objects == std::vector<int>{0, 1});
    CHECK(g.words[7].objects == std::vector<int>{1});
    CHECK(g.words[2].peakNear == false);
    CHECK(g.words[3].peakNear == true);
    CHECK(g.words[4].peakNear == false);

    const auto& s = g.shares;
    CHECK(s.at("article").words == 2);
    CHECK(s.at("article").near == 2);
    CHECK(s.at("article").inside == 2);
    CHECK(s.at("colour").near == 1);
    CHECK(s.at("shape").near == 1);
    CHECK(s.at("relation").words == 2);
    CHECK(s.at("relation").near == 1);
    // The phrases' mean maps: "red disk" peaks at (1, 1) (0.7 against 0.3), "blue box" at (4, 4)
    // (0.55 against 0.45): both on their objects although one of each phrase's words is not.
    CHECK(s.at("phrase").words == 2);
    CHECK(s.at("phrase").near == 2);
    CHECK(s.at("shape").nearShare() == Approx(0.5));
}

TEST_CASE("grounding: a phrase that names no object belongs to none; a wrong colour is still a colour",
          "[captions]") {
    const std::vector<std::string> tokens{"a", "green", "disk", "above", "a", "blue", "box"};
    std::vector<std::vector<float>> attention(tokens.size(), map({{{4, 4}, 1.0f}}));
    CaptionWords words;
    words.colours = {"green"};
    const CaptionGrounding g = groundCaption(tokens, attention, 6, 6, 48, 48, kScene, words);
    CHECK(g.objectsNamed == 1);
    CHECK(g.words[1].wordClass == CaptionWordClass::Colour);
    CHECK(g.words[1].objects.empty());
    CHECK(g.words[2].objects.empty());
    CHECK(g.words[0].objects.empty());
    CHECK(g.words[3].objects == std::vector<int>{1});  // only the phrase after it names an object
    CHECK(g.shares.at("colour").words == 1);
    CHECK(std::isnan(GroundingShare{}.nearShare()));
    // A box smaller than a cell: near, but no cell's centre inside.
    const std::vector<SceneObject> tiny{{Box{33, 33, 3, 3}, "blue", "box"}};
    const CaptionGrounding t = groundCaption({"a", "blue", "box"}, {map({{{4, 4}, 1.0f}}), map({{{4, 4}, 1.0f}}),
                                             map({{{4, 4}, 1.0f}})}, 6, 6, 48, 48, tiny, CaptionWords{});
    CHECK(t.shares.at("shape").near == 1);
    CHECK(t.shares.at("shape").inside == 0);
}
