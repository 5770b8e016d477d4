// The IDX readers (core/base/ImageData.h): MNIST's image and label files, plain and gzip-compressed,
// against bytes written here by hand; the errors a damaged file gives; Debian's Fashion-MNIST when
// the package is installed.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <zlib.h>

#include "base/vision/ImageData.h"
#include "base/InputError.h"
#include "InputErrors.h"
#include "Skip.h"
#include "TempDir.h"

using namespace attnlab;
namespace fs = std::filesystem;

namespace {

std::string be32(std::uint32_t v) {
    return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}

std::string idxImages(std::uint32_t n, std::uint32_t rows, std::uint32_t cols, std::size_t pixels) {
    std::string b = be32(0x803) + be32(n) + be32(rows) + be32(cols);
    for (std::size_t i = 0; i < pixels; ++i) b += static_cast<char>(i % 251);
    return b;
}

std::string writeGzip(const test::TempDir& dir, const std::string& name, const std::string& bytes) {
    const std::string p = (dir.path / name).string();
    gzFile f = gzopen(p.c_str(), "wb");
    gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
    gzclose(f);
    return p;
}

std::string idxLabels(const std::string& labels) { return be32(0x801) + be32(static_cast<std::uint32_t>(labels.size())) + labels; }

}  // namespace

TEST_CASE("IDX images and labels read as their header says, plain or gzipped", "[images]") {
    const std::string images = idxImages(2, 3, 4, 24);
    const auto parsed = parseIdxImages(images, "x");
    REQUIRE(parsed.size() == 2);
    CHECK(parsed[0].height == 3);
    CHECK(parsed[0].width == 4);
    CHECK(parsed[0].channels == 1);
    CHECK(parsed[1].pixels[0] == 12);  // row-major, image after image
    CHECK(parsed[1].pixels[11] == 23);
    CHECK(parseIdxLabels(idxLabels(std::string("\x00\x09", 2)), "y") == std::vector<int>{0, 9});

    test::TempDir dir;
    const std::string gzImages = writeGzip(dir, "images.gz", images);
    CHECK(readPossiblyGzipped(gzImages) == images);
    const ImageDataset d = readIdxDataset(gzImages, dir.file("labels.idx", idxLabels(std::string("\x01\x03", 2))));
    CHECK(d.images.size() == 2);
    CHECK(d.labels == std::vector<int>{1, 3});
    CHECK(d.classes == std::vector<std::string>{"0", "1", "2", "3"});
}

TEST_CASE("a damaged IDX file is one InputError naming the file", "[images]") {
    CHECK(test::inputErrorOf([] { parseIdxImages("PK\x03\x04 not idx at all", "a.idx"); }).find("a.idx: not an IDX file") == 0);
    CHECK(test::inputErrorOf([] { parseIdxImages(idxLabels("ab"), "l.idx"); }).find("1 dimensions; images have 3") != std::string::npos);
    CHECK(test::inputErrorOf([] { parseIdxImages(idxImages(2, 3, 4, 20), "t.idx"); }) ==
          "t.idx: truncated: the header says 2 images of 3x4 (24 bytes), the file has 20");
    CHECK(test::inputErrorOf([] { parseIdxLabels(idxLabels("abc") + "d", "l.idx"); }).find("longer than its header") != std::string::npos);
    // A header asking for 4 billion 28x28 images is refused before anything is allocated.
    CHECK(test::inputErrorOf([] { parseIdxImages(idxImages(0xFFFFFFFF, 28, 28, 0), "big.idx"); }).find("more than") != std::string::npos);
    CHECK(test::inputErrorOf([] { parseIdxImages(idxImages(1, 60000, 60000, 0), "huge.idx"); }).find("side 60000") != std::string::npos);
    CHECK(test::inputErrorOf([] { parseIdxImages(be32(0x0D03) + be32(1) + be32(1) + be32(1) + "abcd", "f.idx"); })
              .find("unsigned bytes") != std::string::npos);

    test::TempDir dir;
    const std::string images = dir.file("i.idx", idxImages(2, 2, 2, 8));
    CHECK(test::inputErrorOf([&] { readIdxDataset(images, dir.file("l.idx", idxLabels("\x01"))); }) ==
          dir.path.string() + "/l.idx: 1 labels for 2 images in " + images);
    CHECK(test::inputErrorOf([&] { readIdxDataset(images, dir.file("same.idx", idxLabels("\x02\x02"))); }).find("every label is 2") !=
          std::string::npos);
    std::string gz = writeGzip(dir, "cut.gz", idxImages(100, 28, 28, 78400));
    std::string bytes = readPossiblyGzipped(gz);
    CHECK(bytes.size() == 16 + 78400);
    {
        std::ifstream in(gz, std::ios::binary);
        std::string all((std::istreambuf_iterator<char>(in)), {});
        gz = dir.file("cut.gz", all.substr(0, all.size() / 2));
    }
    CHECK(test::inputErrorOf([&] { readPossiblyGzipped(gz); }) == gz + ": truncated gzip data");
    CHECK(test::inputErrorOf([&] { readPossiblyGzipped(dir.path.string() + "/missing.gz"); }) == dir.path.string() + "/missing.gz: no such file");
    CHECK(test::inputErrorOf([&] { readFashionMnist(true, dir.path.string()); })
              .find("apt-get install dataset-fashion-mnist") != std::string::npos);
}

TEST_CASE("Debian's Fashion-MNIST reads as 60,000 + 10,000 images of 28x28 in ten classes",
          "[images][needs-fashion-mnist]") {
    const std::string dir = test::systemDataDir("ATTNLAB_TEST_FASHION_MNIST_DIR", kFashionMnistDir);
    if (!fs::exists(dir + "/t10k-images-idx3-ubyte.gz"))
        ATTNLAB_SKIP("dataset-fashion-mnist is not installed (no " << dir << "/t10k-images-idx3-ubyte.gz)");
    const ImageDataset test = readFashionMnist(false, dir);
    CHECK(test.name == "fashion-mnist");
    CHECK(test.images.size() == 10000);
    CHECK(test.images[0].height == 28);
    CHECK(test.images[0].width == 28);
    CHECK(test.classes.size() == 10);
    CHECK(test.classes[9] == "Ankle boot");
    std::vector<int> perClass(10, 0);
    for (int l : test.labels) ++perClass[static_cast<std::size_t>(l)];
    for (int count : perClass) CHECK(count == 1000);  // the test split is balanced
    CHECK(readFashionMnist(true, dir).images.size() == 60000);
}
