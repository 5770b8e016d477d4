// Image files (core/base/ImageFiles.h) against pictures written here with libpng and libjpeg, the
// folder layout DIR/CLASS/*.png, resizing against hand computation, and the glyphs dataset's ground
// truth (core/base/ImageDatasets.h).
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <png.h>
#include <jpeglib.h>
#include <zlib.h>

#include "base/vision/ImageDatasets.h"
#include "base/vision/ImageFiles.h"
#include "base/InputError.h"
#include "InputErrors.h"
#include "TempDir.h"

using namespace attnlab;
namespace fs = std::filesystem;

namespace {

std::string pngBytes(int width, int height, int channels, const std::vector<std::uint8_t>& pixels) {
    png_image png{};
    png.version = PNG_IMAGE_VERSION;
    png.width = static_cast<png_uint_32>(width);
    png.height = static_cast<png_uint_32>(height);
    png.format = channels == 1 ? PNG_FORMAT_GRAY : channels == 3 ? PNG_FORMAT_RGB : PNG_FORMAT_RGBA;
    png_alloc_size_t size = 0;
    REQUIRE(png_image_write_to_memory(&png, nullptr, &size, 0, pixels.data(), 0, nullptr));
    std::string out(size, '\0');
    REQUIRE(png_image_write_to_memory(&png, out.data(), &size, 0, pixels.data(), 0, nullptr));
    out.resize(size);
    return out;
}

std::string jpegBytes(int width, int height, std::uint8_t value) {
    jpeg_compress_struct info;
    jpeg_error_mgr error;
    info.err = jpeg_std_error(&error);
    jpeg_create_compress(&info);
    unsigned char* buffer = nullptr;
    unsigned long size = 0;
    jpeg_mem_dest(&info, &buffer, &size);
    info.image_width = static_cast<JDIMENSION>(width);
    info.image_height = static_cast<JDIMENSION>(height);
    info.input_components = 1;
    info.in_color_space = JCS_GRAYSCALE;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, 95, TRUE);
    jpeg_start_compress(&info, TRUE);
    std::vector<std::uint8_t> row(static_cast<std::size_t>(width), value);
    while (info.next_scanline < info.image_height) {
        JSAMPROW r = row.data();
        jpeg_write_scanlines(&info, &r, 1);
    }
    jpeg_finish_compress(&info);
    std::string out(reinterpret_cast<char*>(buffer), size);
    jpeg_destroy_compress(&info);
    std::free(buffer);
    return out;
}

}  // namespace

TEST_CASE("PNG and JPEG decode to grey or RGB pixels", "[images]") {
    const Image grey = decodeImage(pngBytes(3, 2, 1, {0, 100, 200, 10, 20, 255}), "g.png", 1);
    CHECK(grey.width == 3);
    CHECK(grey.height == 2);
    CHECK(grey.pixels == std::vector<std::uint8_t>{0, 100, 200, 10, 20, 255});
    const Image rgb = decodeImage(pngBytes(1, 1, 3, {255, 0, 0}), "r.png", 3);
    CHECK(rgb.pixels == std::vector<std::uint8_t>{255, 0, 0});
    // Grey from colour by libpng's own luminance (in linear light): green brighter than red, red
    // brighter than blue, white stays white.
    const Image asGrey = decodeImage(pngBytes(4, 1, 3, {255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255}), "c.png", 1);
    CHECK(asGrey.pixels[1] > asGrey.pixels[0]);
    CHECK(asGrey.pixels[0] > asGrey.pixels[2]);
    CHECK(asGrey.pixels[3] == 255);
    // A transparent pixel is composited onto black.
    CHECK(decodeImage(pngBytes(1, 1, 4, {255, 255, 255, 0}), "a.png", 1).pixels[0] == 0);
    const Image jpeg = decodeImage(jpegBytes(16, 8, 128), "j.jpg", 1);
    CHECK(jpeg.width == 16);
    CHECK(jpeg.height == 8);
    for (std::uint8_t v : jpeg.pixels) CHECK(std::abs(static_cast<int>(v) - 128) <= 2);
    CHECK(decodeImage(jpegBytes(4, 4, 50), "j.jpg", 3).pixels.size() == 4u * 4u * 3u);
}

TEST_CASE("a file that is no image, or a damaged one, is one InputError naming it", "[images]") {
    CHECK(test::inputErrorOf([] { decodeImage("GIF89a....", "x.gif", 1); }) == "x.gif: not a PNG or JPEG image");
    const std::string png = pngBytes(8, 8, 1, std::vector<std::uint8_t>(64, 7));
    CHECK(test::inputErrorOf([&] { decodeImage(png.substr(0, png.size() / 2), "cut.png", 1); }).find("cut.png: damaged PNG") == 0);
    const std::string jpeg = jpegBytes(16, 16, 9);
    CHECK(test::inputErrorOf([&] { decodeImage(jpeg.substr(0, 40), "cut.jpg", 1); }).find("cut.jpg: damaged JPEG") == 0);
    // A header claiming 60000 x 60000 pixels is refused before any pixel is decoded.
    std::string ihdr = std::string("IHDR") + std::string("\x00\x00\xea\x60\x00\x00\xea\x60\x08\x00\x00\x00\x00", 13);
    const uLong crc = crc32(0, reinterpret_cast<const Bytef*>(ihdr.data()), static_cast<uInt>(ihdr.size()));
    std::string huge = std::string("\x89PNG\r\n\x1a\n", 8) + std::string("\x00\x00\x00\x0d", 4) + ihdr;
    for (int shift : {24, 16, 8, 0}) huge += static_cast<char>((crc >> shift) & 0xFF);
    CHECK(test::inputErrorOf([&] { decodeImage(huge, "huge.png", 1); }) ==
          "huge.png: an image of 60000x60000 pixels: larger than 8192 on a side");
}

TEST_CASE("writePng writes what decodeImage reads back, pixel for pixel", "[images]") {
    test::TempDir dir;
    for (int channels : {1, 3}) {
        Image im;
        im.height = 3;
        im.width = 5;
        im.channels = channels;
        for (int i = 0; i < 15 * channels; ++i) im.pixels.push_back(static_cast<std::uint8_t>(i * 17));
        const std::string path = (dir.path / ("w" + std::to_string(channels) + ".png")).string();
        writePng(im, path);
        std::ifstream in(path, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), {});
        CHECK(decodeImage(bytes, path, channels).pixels == im.pixels);
    }
}

TEST_CASE("resizing averages boxes when shrinking and interpolates between pixel centres", "[images]") {
    Image im;
    im.height = im.width = 4;
    im.pixels = {0, 0, 100, 100, 0, 0, 100, 100, 40, 40, 200, 200, 40, 40, 200, 200};
    const Image half = resizeImage(im, 2, 2);
    CHECK(half.pixels == std::vector<std::uint8_t>{0, 100, 40, 200});
    Image two;
    two.height = 1;
    two.width = 2;
    two.pixels = {0, 200};
    // Output pixel centres at 0.25 and 0.75 of the input's 2 pixels: clamped to 0, 0.25, 0.75, 1.
    CHECK(resizeImage(two, 1, 4).pixels == std::vector<std::uint8_t>{0, 50, 150, 200});
}

TEST_CASE("an image folder reads DIR/CLASS/*.png|*.jpg, skipping and counting what it cannot use", "[images]") {
    test::TempDir dir;
    dir.file("cats/a.png", pngBytes(8, 8, 1, std::vector<std::uint8_t>(64, 10)));
    dir.file("cats/b.PNG", pngBytes(4, 4, 3, std::vector<std::uint8_t>(48, 200)));
    dir.file("cats/broken.png", "not really a png");
    dir.file("cats/notes.txt", "ignored");
    dir.file("dogs/c.jpg", jpegBytes(16, 16, 90));
    ImageFolderReport report;
    const ImageDataset d = readImageFolder(dir.path.string(), 1, 8, 8, &report);
    CHECK(d.classes == std::vector<std::string>{"cats", "dogs"});
    CHECK(d.labels == std::vector<int>{0, 0, 1});
    CHECK(report.read == 3);
    REQUIRE(report.skipped.size() == 1);
    CHECK(report.skipped[0].first.find("broken.png") != std::string::npos);
    for (const Image& im : d.images) CHECK((im.height == 8 && im.width == 8 && im.channels == 1));
    CHECK(d.images[1].pixels[0] == 200);  // the RGB file as grey, resized up

    dir.file("birds/empty.txt", "");
    CHECK(test::inputErrorOf([&] { readImageFolder(dir.path.string(), 1, 8, 8); }).find("birds: an empty class folder") !=
          std::string::npos);
    test::TempDir one;
    one.file("only/a.png", pngBytes(2, 2, 1, {1, 2, 3, 4}));
    CHECK(test::inputErrorOf([&] { readImageFolder(one.path.string(), 1, 8, 8); }).find("1 class folder:") != std::string::npos);
    test::TempDir bad;
    bad.file("x/a.png", "junk");
    bad.file("y/b.png", pngBytes(2, 2, 1, {1, 2, 3, 4}));
    CHECK(test::inputErrorOf([&] { readImageFolder(bad.path.string(), 1, 8, 8); }).find("x: no usable image") != std::string::npos);
    CHECK(test::inputErrorOf([&] { readImageFolder((dir.path / "missing").string(), 1, 8, 8); }).find("no such folder") != std::string::npos);
    // A format with no decoding library here is listed as skipped, not silently left out.
    bad.file("y/c.pgm", "P5 2 2 255\n\x01\x02\x03\x04");
    ImageFolderReport pgm;
    bad.file("x/a.png", pngBytes(2, 2, 1, {1, 2, 3, 4}));
    readImageFolder(bad.path.string(), 1, 8, 8, &pgm);
    REQUIRE(pgm.skipped.size() == 1);
    CHECK(pgm.skipped[0].second.find("a pgm image: only PNG and JPEG are read") != std::string::npos);
    test::TempDir pgmOnly;
    pgmOnly.file("x/a.png", pngBytes(2, 2, 1, {1, 2, 3, 4}));
    pgmOnly.file("y/b.pgm", "P5 2 2 255\n\x01\x02\x03\x04");
    CHECK(test::inputErrorOf([&] { readImageFolder(pgmOnly.path.string(), 1, 8, 8); }).find("y: an empty class folder (no .png or .jpg file; a pgm image") !=
          std::string::npos);
}

TEST_CASE("glyphs: one mark per image in its box, distractors kept off it, classes balanced, seeded", "[images]") {
    const ImageDataset d = makeGlyphs(400, 7);
    REQUIRE(d.images.size() == 400);
    REQUIRE(d.boxes.size() == 400);
    std::vector<int> perClass(4, 0);
    for (std::size_t i = 0; i < d.images.size(); ++i) {
        const Image& im = d.images[i];
        const Box& b = d.boxes[i];
        ++perClass[static_cast<std::size_t>(d.labels[i])];
        REQUIRE((b.top >= 0 && b.left >= 0 && b.top + b.height <= 32 && b.left + b.width <= 32));
        int inside = 0, ring = 0;
        for (int y = 0; y < 32; ++y)
            for (int x = 0; x < 32; ++x) {
                const bool lit = im.pixels[static_cast<std::size_t>(y) * 32 + x] != 0;
                const bool inBox = y >= b.top && y < b.top + b.height && x >= b.left && x < b.left + b.width;
                const bool nearBox = y >= b.top - 2 && y < b.top + b.height + 2 && x >= b.left - 2 && x < b.left + b.width + 2;
                inside += lit && inBox;
                ring += lit && nearBox && !inBox;
            }
        CHECK(inside >= 6);  // the mark
        CHECK(ring == 0);    // nothing else within two pixels of it
    }
    CHECK(perClass == std::vector<int>{100, 100, 100, 100});
    CHECK(makeGlyphs(20, 7).images[3].pixels == makeGlyphs(20, 7).images[3].pixels);
    CHECK(makeGlyphs(20, 8).images[3].pixels != makeGlyphs(20, 7).images[3].pixels);
    CHECK_THROWS_AS(makeGlyphs(10, 1, GlyphOptions{32, 20, 6}), ConfigError);
}
