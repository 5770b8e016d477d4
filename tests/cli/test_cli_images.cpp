// attnlab-cli's image data as a script sees it: inspect --task image-classify on MNIST's IDX files
// (plain and gzipped), damaged ones (exit 3 naming the file), usage mistakes (exit 2), Debian's
// Fashion-MNIST, the glyphs; inspect --task caption on the scenes and a caption list.
#include "cli/CliSupport.h"

#include <filesystem>

namespace {

using namespace attnlab::test::cli;

std::string be32(std::uint32_t v) {
    return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}

}  // namespace

TEST_CASE("inspect --task image-classify reads IDX files and refuses damaged ones", "[cli]") {
    std::string pixels(3 * 2 * 2, '\0');
    for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<char>(i * 20);
    const std::string images = scratch().file("img.idx"), labels = scratch().file("lab.idx");
    const std::string cut = scratch().file("cut.idx"), zip = scratch().file("not-idx.idx");
    writeBytes(images, be32(0x803) + be32(3) + be32(2) + be32(2) + pixels);
    writeBytes(labels, be32(0x801) + be32(3) + std::string("\x00\x01\x01", 3));
    writeBytes(cut, be32(0x803) + be32(3) + be32(2) + be32(2) + pixels.substr(0, 5));
    writeBytes(zip, "PK\x03\x04 a zip file");
    const std::string captions = scratch().file("captions.tsv");
    writeBytes(captions, "not-idx.idx\ta zip file is no image\n");
    const bool fashion = std::filesystem::exists("/usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz");
    const std::vector<Args> runs{
        {"inspect", "--task", "image-classify", "--idx", images, labels},
        {"inspect", "--task", "image-classify", "--idx", cut, labels},
        {"inspect", "--task", "image-classify", "--idx", zip, labels},
        {"inspect", "--task", "image-classify", "--idx", images},
        {"inspect", "--task", "image-classify", "--dataset", "fashion-mnist", "--split", "test"},
        {"inspect", "--task", "image-classify", "--dataset", "cifar"},
        {"inspect", "--task", "image-classify", "--dataset", "glyphs", "--size", "40"},
        {"inspect", "--task", "image-classify", "--images", scratch().file("no-such-folder")},
        {"inspect", "--task", "image-classify", "--dataset", "glyphs", "--split", "test"},
        {"inspect", "--task", "caption", "--dataset", "scenes", "--size", "30"},
        {"inspect", "--task", "caption", "--captions", captions}};
    const auto r = cliAll(runs);
    const int expected[] = {0, 3, 3, 2, fashion ? 0 : 3, 2, 0, 3, 2, 0, 3};
    for (std::size_t i = 0; i < runs.size(); ++i) {
        INFO(describe(runs[i], r[i]));
        CHECK(r[i].exitCode == expected[i]);
        if (expected[i] != 0) CHECK(isOneErrorLine(r[i].err));
    }
    const Json j = Json::parse(r[0].out);
    CHECK(j["images"] == 3);
    CHECK(j["height"] == 2);
    CHECK(j["width"] == 2);
    CHECK(j["classes"] == Json{{"0", 1}, {"1", 2}});
    CHECK_THAT(r[1].err, Contains("cut.idx: truncated"));
    CHECK_THAT(r[2].err, Contains("not-idx.idx: not an IDX file"));
    CHECK_THAT(r[3].err, Contains("--idx"));
    if (fashion) {
        const Json f = Json::parse(r[4].out);
        CHECK(f["images"] == 10000);
        CHECK(f["classes"]["Ankle boot"] == 1000);
    } else {
        CHECK_THAT(r[4].err, Contains("apt-get install dataset-fashion-mnist"));
    }
    CHECK_THAT(r[5].err, Contains("fashion-mnist"));
    const Json g = Json::parse(r[6].out);
    CHECK(g["images"] == 40);
    CHECK(g["classes"] == Json{{"plus", 10}, {"ring", 10}, {"slash", 10}, {"corner", 10}});
    CHECK(g["has_boxes"] == true);
    CHECK_THAT(r[7].err, Contains("no-such-folder: no such folder"));
    CHECK_THAT(r[8].err, Contains("--split"));
    const Json sc = Json::parse(r[9].out);
    CHECK(sc["images"] == 30);
    CHECK(sc["captions"] == 30);
    CHECK(sc["has_boxes"] == true);
    CHECK_THAT(r[10].err, Contains("captions.tsv:1: image not-idx.idx: not a PNG or JPEG image"));
}

TEST_CASE("datasets --write glyphs|scenes writes folders the image readers read back", "[cli]") {
    const std::string glyphs = scratch().file("glyphs-folder"), scenes = scratch().file("scenes-folder");
    const std::vector<Args> runs{
        {"datasets", "--write", "glyphs", "--size", "8", "--seed", "3", "--out", glyphs},
        {"datasets", "--write", "scenes", "--size", "5", "--out", scenes},
        {"datasets", "--write", "glyphs", "--size", "8", "--length", "3", "--out", glyphs}};
    const auto r = cliAll(runs);
    for (std::size_t i = 0; i < 2; ++i) {
        INFO(describe(runs[i], r[i]));
        REQUIRE(r[i].exitCode == 0);
    }
    CHECK(r[2].exitCode == 2);
    CHECK_THAT(r[2].err, Contains("--length"));
    CHECK(lines(readBytes(glyphs + "/boxes.tsv")).size() == 8);
    CHECK(std::filesystem::exists(glyphs + "/plus/00001.png"));
    CHECK(lines(readBytes(scenes + "/captions.tsv")).size() == 5);
    const auto back = cliAll({{"inspect", "--task", "image-classify", "--images", glyphs},
                              {"inspect", "--task", "caption", "--captions", scenes + "/captions.tsv"}});
    REQUIRE(back[0].exitCode == 0);
    CHECK(Json::parse(back[0].out)["classes"] == Json{{"corner", 2}, {"plus", 2}, {"ring", 2}, {"slash", 2}});
    REQUIRE(back[1].exitCode == 0);
    CHECK(Json::parse(back[1].out)["images"] == 5);
}

