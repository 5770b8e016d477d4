// Captioning data (core/base/Captions.h): the generated scenes against their own ground truth, and
// the caption list TSV against files written here.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
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

TEST_CASE("scenes: each caption names the objects left to right, each object drawn in its box", "[captions]") {
    const CaptionDataset d = makeScenes(200, 5);
    REQUIRE(d.images.size() == 200);
    int three = 0;
    for (std::size_t i = 0; i < d.images.size(); ++i) {
        const auto& objects = d.objects[i];
        REQUIRE((objects.size() == 2 || objects.size() == 3));
        three += objects.size() == 3;
        REQUIRE(d.captions[i].size() == 1);
        std::string expected;
        for (const SceneObject& o : objects) expected += (expected.empty() ? "a " : " left of a ") + o.colour + " " + o.shape;
        CHECK(d.captions[i][0] == expected);
        for (std::size_t k = 0; k < objects.size(); ++k) {
            const Box& b = objects[k].box;
            REQUIRE((b.top >= 0 && b.left >= 0 && b.top + b.height <= 48 && b.left + b.width <= 48));
            if (k > 0) CHECK(b.left >= objects[k - 1].box.left + objects[k - 1].box.width);  // strictly left of
            // The box's centre pixel is the object's colour (every shape covers its centre).
            const int y = b.top + b.height / 2, x = b.left + b.width / 2;
            const std::uint8_t* p = &d.images[i].pixels[(static_cast<std::size_t>(y) * 48 + x) * 3];
            CHECK(int(p[0]) + p[1] + p[2] > 200);
        }
    }
    CHECK(three > 50);
    CHECK(makeScenes(3, 5).images[2].pixels == makeScenes(3, 5).images[2].pixels);
    CHECK_THROWS_AS(makeScenes(3, 5, SceneOptions{16, 2, 3}), ConfigError);
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
