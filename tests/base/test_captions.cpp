// Captioning data (core/base/Captions.h): the generated scenes against their own ground truth, and
// the caption list TSV against files written here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <png.h>
#include <sstream>

#include "base/vision/Captions.h"
#include "base/InputError.h"
#include "InputErrors.h"
#include "TempDir.h"

using namespace attnlab;
namespace fs = std::filesystem;

namespace {

std::string greyPng(int side, std::uint8_t value) {
    png_image png{};
    png.version = PNG_IMAGE_VERSION;
    png.width = png.height = static_cast<png_uint_32>(side);
    png.format = PNG_FORMAT_GRAY;
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(side) * side, value);
    png_alloc_size_t size = 0;
    png_image_write_to_memory(&png, nullptr, &size, 0, pixels.data(), 0, nullptr);
    std::string out(size, '\0');
    png_image_write_to_memory(&png, out.data(), &size, 0, pixels.data(), 0, nullptr);
    out.resize(size);
    return out;
}

}  // namespace

TEST_CASE("scenes: each caption names the objects in order, each related truly to the one before", "[captions]") {
    const CaptionDataset d = makeScenes(300, 5);
    REQUIRE(d.images.size() == 300);
    int three = 0, firstNotLeftmost = 0;
    std::map<std::string, int> relations;
    for (std::size_t i = 0; i < d.images.size(); ++i) {
        const auto& objects = d.objects[i];
        REQUIRE((objects.size() == 2 || objects.size() == 3));
        three += objects.size() == 3;
        REQUIRE(d.captions[i].size() == 1);
        // "a C S" then "REL a C S" for each further object, REL one word ("above") or two ("left of").
        const std::vector<std::string> words = captionWords(d.captions[i][0]);
        std::size_t w = 0;
        for (std::size_t k = 0; k < objects.size(); ++k) {
            if (k > 0) {
                std::string relation = words.at(w++);
                if (relation == "left" || relation == "right") relation += " " + words.at(w++);
                ++relations[relation];
                const auto holds = relationsBetween(objects[k - 1].box, objects[k].box);
                CHECK(std::find(holds.begin(), holds.end(), relation) != holds.end());
            }
            CHECK(words.at(w++) == "a");
            CHECK(words.at(w++) == objects[k].colour);
            CHECK(words.at(w++) == objects[k].shape);
        }
        CHECK(w == words.size());
        int leftmost = 0;
        for (std::size_t k = 0; k < objects.size(); ++k) {
            const Box& b = objects[k].box;
            if (b.left < objects[static_cast<std::size_t>(leftmost)].box.left) leftmost = static_cast<int>(k);
            REQUIRE((b.top >= 0 && b.left >= 0 && b.top + b.height <= 48 && b.left + b.width <= 48));
            // The box's centre pixel is the object's colour (every shape covers its centre).
            const int y = b.top + b.height / 2, x = b.left + b.width / 2;
            const std::uint8_t* p = &d.images[i].pixels[(static_cast<std::size_t>(y) * 48 + x) * 3];
            CHECK(int(p[0]) + p[1] + p[2] > 200);
            for (std::size_t j = 0; j < k; ++j) {  // apart, and no two alike
                CHECK_FALSE(relationsBetween(b, objects[j].box).empty());
                CHECK_FALSE((objects[j].colour == objects[k].colour && objects[j].shape == objects[k].shape));
            }
        }
        firstNotLeftmost += leftmost != 0;
    }
    CHECK(three > 50);
    CHECK(firstNotLeftmost > 100);
    for (const std::string& r : sceneRelations()) CHECK(relations[r] > 40);
    CHECK(relationsBetween(Box{0, 0, 4, 4}, Box{0, 4, 4, 4}) == std::vector<std::string>{"left of"});
    CHECK(relationsBetween(Box{10, 10, 4, 4}, Box{0, 0, 4, 4}) == std::vector<std::string>{"right of", "below"});
    CHECK(relationsBetween(Box{0, 0, 4, 4}, Box{2, 2, 4, 4}).empty());
    CHECK(makeScenes(3, 5).images[2].pixels == makeScenes(3, 5).images[2].pixels);
    CHECK_THROWS_AS(makeScenes(3, 5, SceneOptions{16, 2, 3}), ConfigError);
}

TEST_CASE("noisy scenes: the same objects and captions on a noisy dark grey background", "[captions]") {
    SceneOptions noisy;
    noisy.noise = 0.1;
    const CaptionDataset clean = makeScenes(40, 3), d = makeScenes(40, 3, noisy);
    REQUIRE(d.images.size() == clean.images.size());
    double sum = 0, squares = 0;
    std::size_t background = 0;
    for (std::size_t i = 0; i < d.images.size(); ++i) {
        CHECK(d.captions[i] == clean.captions[i]);
        REQUIRE(d.objects[i].size() == clean.objects[i].size());
        for (std::size_t k = 0; k < d.objects[i].size(); ++k) CHECK(d.objects[i][k].box == clean.objects[i][k].box);
        const Image& im = d.images[i];
        for (std::size_t p = 0; p < im.pixels.size(); p += 3) {
            if (clean.images[i].pixels[p] + clean.images[i].pixels[p + 1] + clean.images[i].pixels[p + 2] != 0) {
                // An object's pixel: its colour, shaded by at most a few noise deviations.
                for (int ch = 0; ch < 3; ++ch) CHECK(std::abs(int(im.pixels[p + ch]) - clean.images[i].pixels[p + ch]) < 80);
                continue;
            }
            CHECK((im.pixels[p] == im.pixels[p + 1] && im.pixels[p] == im.pixels[p + 2]));  // grey
            const double v = im.pixels[p] / 255.0;
            sum += v;
            squares += v * v;
            ++background;
        }
    }
    // Grey 0.08 with noise 0.1, clipped at 0: the mean rises a little, the spread falls a little.
    const double mean = sum / background, sd = std::sqrt(squares / background - mean * mean);
    CHECK(mean == Approx(0.1).margin(0.03));
    CHECK(sd == Approx(0.08).margin(0.025));
    CHECK(makeScenes(2, 3, noisy).images[1].pixels == d.images[1].pixels);  // the same seed, the same noise
    noisy.noise = 0.6;
    CHECK_THROWS_AS(makeScenes(3, 5, noisy), ConfigError);
    noisy.noise = -0.1;
    CHECK_THROWS_AS(makeScenes(3, 5, noisy), ConfigError);
}

TEST_CASE("a caption word's object: its phrase's, the article's too", "[captions]") {
    const std::vector<SceneObject> objects{{Box{0, 0, 8, 8}, "red", "disk"}, {Box{20, 20, 8, 8}, "blue", "box"}};
    const std::vector<std::string> words{"a", "blue", "box", "above", "a", "red", "disk"};
    const std::vector<int> expected{1, 1, 1, -1, 0, 0, 0};
    for (std::size_t t = 0; t < words.size(); ++t) CHECK(namedObject(words, t, objects) == expected[t]);
    CHECK(namedObject({"a", "green", "box"}, 0, objects) == -1);  // names no object of the scene
}

TEST_CASE("a caption list reads image<TAB>caption with paths relative to it", "[captions]") {
    test::TempDir dir;
    dir.file("img/a.png", greyPng(10, 30));
    dir.file("img/b.png", greyPng(20, 200));
    const std::string tsv = dir.file("captions.tsv", "\xEF\xBB\xBFimg/a.png\tA dark Square\r\n\nimg/b.png\ta light one\nimg/a.png\tthe same dark square\n");
    const CaptionDataset d = readCaptionTsv(tsv, 1, 8, 8);
    REQUIRE(d.images.size() == 2);
    CHECK(d.captions[0] == std::vector<std::string>{"a dark square", "the same dark square"});
    CHECK(d.captions[1] == std::vector<std::string>{"a light one"});
    CHECK(d.images[1].height == 8);
    CHECK(d.images[1].pixels[0] == 200);

    CHECK(test::inputErrorOf([&] { readCaptionTsv(dir.file("m.tsv", "img/a.png\tfine\nimg/gone.png\ta missing file\n"), 1, 8, 8); }) ==
          (dir.path / "m.tsv").string() + ":2: image img/gone.png: no such file");
    CHECK(test::inputErrorOf([&] { readCaptionTsv(dir.file("t.tsv", "img/a.png a caption without a tab\n"), 1, 8, 8); })
              .find("t.tsv:1: no tab between image and caption") != std::string::npos);
    CHECK(test::inputErrorOf([&] { readCaptionTsv(dir.file("e.tsv", "img/a.png\t  \n"), 1, 8, 8); }).find("e.tsv:1: empty caption") !=
          std::string::npos);
    CHECK(test::inputErrorOf([&] { readCaptionTsv(dir.file("n.tsv", "captions.tsv\tnot an image\n"), 1, 8, 8); })
              .find("n.tsv:1: image captions.tsv: not a PNG or JPEG image") != std::string::npos);
    CHECK(test::inputErrorOf([&] { readCaptionTsv(dir.file("z.tsv", "\n\n"), 1, 8, 8); }).find("no captioned image") != std::string::npos);
}

TEST_CASE("a caption list with an objects.tsv beside it reads each image's objects by its name", "[captions]") {
    test::TempDir dir;
    dir.file("images/a.png", greyPng(8, 30));
    dir.file("images/b.png", greyPng(8, 200));
    dir.file("images/c.png", greyPng(8, 90));
    dir.file("objects.tsv",
             "images/b.png\t1\tblue\tbox\t4\t5\t2\t2\nimages/a.png\t0\tred\tdisk\t1\t2\t3\t3\nimages/b.png\t0\tgreen\twedge\t0\t0\t4\t4\n");
    const std::string tsv = dir.file("captions.tsv", "images/a.png\ta red disk\nimages/b.png\ta green wedge above a blue box\n"
                                                     "images/c.png\tnothing listed\n");
    const CaptionDataset d = readCaptionTsv(tsv, 1, 8, 8);
    REQUIRE(d.objects.size() == 3);
    REQUIRE(d.objects[0].size() == 1);
    CHECK(d.objects[0][0].colour == "red");
    CHECK(d.objects[0][0].box.height == 3);
    REQUIRE(d.objects[1].size() == 2);  // in the object column's order
    CHECK(d.objects[1][0].shape == "wedge");
    CHECK(d.objects[1][1].shape == "box");
    CHECK(d.objects[2].empty());
    // A malformed objects.tsv names its line.
    dir.file("objects.tsv", "images/a.png\t0\tred\tdisk\t1\t2\t3\n");
    CHECK(test::inputErrorOf([&] { readCaptionTsv(tsv, 1, 8, 8); }).find("objects.tsv:1: expected 8 tab-separated columns") !=
          std::string::npos);
}
