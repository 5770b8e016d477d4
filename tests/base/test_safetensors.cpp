#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>

#include <nlohmann/json.hpp>

#include "base/InputError.h"
#include "base/io/Safetensors.h"
#include "Skip.h"
#include "TempDir.h"

namespace {

namespace fs = std::filesystem;
using attnlab::ModelFileError;
using attnlab::SafetensorsContent;
using attnlab::TensorRecord;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

using attnlab::test::TempDir;

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
}

std::string lengthPrefix(std::uint64_t n) {
    std::string out;
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
    return out;
}

// A file with the given header text and data buffer; the header length is its real length.
std::string fileWith(const std::string& header, const std::string& buffer = {}) {
    return lengthPrefix(header.size()) + header + buffer;
}

std::string floatBytes(std::initializer_list<float> values) {
    std::string out;
    for (float v : values) out.append(reinterpret_cast<const char*>(&v), sizeof v);
    return out;
}

// The ModelFileError message parsing the bytes gives; any other exception fails the test.
std::string safetensorsParseError(const std::string& bytes) {
    try {
        attnlab::parseSafetensors(bytes, "m.safetensors");
    } catch (const ModelFileError& e) {
        return e.what();
    }
    return "(no error)";
}

std::string readError(const std::string& path) {
    try {
        attnlab::readSafetensors(path);
    } catch (const ModelFileError& e) {
        return e.what();
    }
    return "(no error)";
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

SafetensorsContent sampleContent() {
    SafetensorsContent c;
    c.tensors.push_back({"encoder.weight", {2, 3}, {1.5f, -2.0f, 0.0f, -0.0f, 1e-30f, 3.25e20f}});
    c.tensors.push_back({"scalar", {}, {42.0f}});
    c.tensors.push_back({"empty", {0, 4}, {}});
    c.tensors.push_back({"bias", {3}, {std::numeric_limits<float>::infinity(), std::nanf(""), -7.0f}});
    c.metadata["format"] = "1";
    c.metadata["config"] = R"({"hidden": 8, "name": "caf\u00e9"})";
    c.metadata["note"] = "汤姆 追逐 杰瑞";
    return c;
}

TEST_CASE("Safetensors round trip keeps names, order, shapes, bits and metadata", "[safetensors]") {
    TempDir dir;
    const std::string path = (dir / "model.safetensors");
    const SafetensorsContent original = sampleContent();
    attnlab::writeSafetensors(path, original);
    const SafetensorsContent loaded = attnlab::readSafetensors(path);

    REQUIRE(loaded.tensors.size() == original.tensors.size());
    for (std::size_t i = 0; i < original.tensors.size(); ++i) {
        INFO("tensor " << original.tensors[i].name);
        CHECK(loaded.tensors[i].name == original.tensors[i].name);
        CHECK(loaded.tensors[i].shape == original.tensors[i].shape);
        CHECK(sameBits(loaded.tensors[i].data, original.tensors[i].data));
    }
    CHECK(loaded.metadata == original.metadata);

    const TensorRecord* scalar = loaded.find("scalar");
    REQUIRE(scalar != nullptr);
    CHECK(scalar->shape.empty());
    CHECK(scalar->data == std::vector<float>{42.0f});
    CHECK(loaded.find("missing") == nullptr);

    // Overwriting an existing file replaces it.
    SafetensorsContent smaller;
    smaller.tensors.push_back({"x", {1}, {9.0f}});
    attnlab::writeSafetensors(path, smaller);
    const SafetensorsContent reloaded = attnlab::readSafetensors(path);
    REQUIRE(reloaded.tensors.size() == 1);
    CHECK(reloaded.tensors[0].data == std::vector<float>{9.0f});
    CHECK(reloaded.metadata.empty());
}

TEST_CASE("Safetensors byte layout follows the format specification", "[safetensors]") {
    TempDir dir;
    const std::string path = (dir / "model.safetensors");
    attnlab::writeSafetensors(path, sampleContent());
    const std::string bytes = readBytes(path);
    REQUIRE(bytes.size() >= 8);

    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(bytes[i]);
    CHECK((8 + n) % 8 == 0);
    REQUIRE(8 + n <= bytes.size());
    const auto header = nlohmann::json::parse(bytes.substr(8, n));  // trailing padding spaces are valid JSON
    REQUIRE(header.is_object());

    CHECK(header["encoder.weight"]["dtype"] == "F32");
    CHECK(header["encoder.weight"]["shape"] == nlohmann::json::array({2, 3}));
    CHECK(header["encoder.weight"]["data_offsets"] == nlohmann::json::array({0, 24}));
    CHECK(header["scalar"]["shape"] == nlohmann::json::array());
    CHECK(header["scalar"]["data_offsets"] == nlohmann::json::array({24, 28}));
    CHECK(header["empty"]["data_offsets"] == nlohmann::json::array({28, 28}));
    CHECK(header["bias"]["data_offsets"] == nlohmann::json::array({28, 40}));
    CHECK(header["__metadata__"]["format"] == "1");
    // The buffer holds exactly the tensors, little-endian, in order.
    CHECK(bytes.size() == 8 + n + 40);
    CHECK(bytes.substr(8 + n, 8) == floatBytes({1.5f, -2.0f}));
    CHECK(bytes.substr(8 + n + 24, 4) == floatBytes({42.0f}));
}

TEST_CASE("Safetensors reader accepts files written by other tools", "[safetensors]") {
    // Header with spaces, metadata last, tensors listed out of buffer order, no padding.
    const std::string header =
        R"({"b": {"dtype": "F32", "shape": [1], "data_offsets": [8, 12]},)"
        R"( "a": {"shape": [2], "data_offsets": [0, 8], "dtype": "F32"}, "__metadata__": {"k": "v"}}  )";
    const auto content = attnlab::parseSafetensors(fileWith(header, floatBytes({1, 2, 3})), "m.safetensors");
    REQUIRE(content.tensors.size() == 2);
    CHECK(content.tensors[0].name == "a");
    CHECK(content.tensors[0].data == std::vector<float>{1, 2});
    CHECK(content.tensors[1].name == "b");
    CHECK(content.tensors[1].data == std::vector<float>{3});
    CHECK(content.metadata.at("k") == "v");
}

const std::string kTensorA = R"("a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]})";

TEST_CASE("Safetensors reader refuses every kind of corrupt file", "[safetensors]") {
    const std::string eight = floatBytes({1, 2});
    SECTION("too short") {
        CHECK_THAT(safetensorsParseError(""), StartsWith("m.safetensors: ") && Contains("empty"));
        CHECK_THAT(safetensorsParseError("abc"), Contains("too short (3 bytes)"));
        CHECK_THAT(safetensorsParseError("1234567"), Contains("too short"));
    }
    SECTION("header length") {
        CHECK_THAT(safetensorsParseError(lengthPrefix(std::uint64_t{1} << 63) + "{}"), Contains("exceeds file size"));
        CHECK_THAT(safetensorsParseError(lengthPrefix(~std::uint64_t{0}) + "{}"), Contains("exceeds file size"));
        CHECK_THAT(safetensorsParseError(lengthPrefix(100) + "{}"), Contains("header length 100 exceeds file size"));
        // Larger than the limit although the file is large enough.
        const std::uint64_t big = attnlab::kMaxSafetensorsHeader + 8;
        CHECK_THAT(safetensorsParseError(lengthPrefix(big) + std::string(big, ' ')), Contains("exceeds the limit"));
    }
    SECTION("invalid JSON") {
        CHECK_THAT(safetensorsParseError(fileWith("{\"a\": ")), Contains("invalid header JSON"));
        CHECK_THAT(safetensorsParseError(fileWith("")), Contains("invalid header JSON"));
        CHECK_THAT(safetensorsParseError(fileWith(R"({"a": 1e999})")), Contains("invalid header JSON"));
        CHECK_THAT(safetensorsParseError(fileWith("{\"\xff\xfe\": {}}")), Contains("invalid header JSON"));  // not UTF-8
        CHECK_THAT(safetensorsParseError(fileWith(std::string(100000, '[') + std::string(100000, ']'))),
                   Contains("nested more than"));
        CHECK_THAT(safetensorsParseError(fileWith("[]")), Contains("header is not a JSON object"));
        CHECK_THAT(safetensorsParseError(fileWith(R"({"a": [1, 2]})")), Contains("tensor 'a': entry is not a JSON object"));
    }
    SECTION("dtype") {
        CHECK_THAT(safetensorsParseError(fileWith(R"({"a": {"dtype": "BF16", "shape": [2], "data_offsets": [0, 4]}})",
                                       std::string(4, '\0'))),
                   Contains("tensor 'a': unsupported dtype 'BF16'"));
        CHECK_THAT(safetensorsParseError(fileWith(R"({"a": {"shape": [2], "data_offsets": [0, 8]}})", eight)),
                   Contains("missing dtype"));
        CHECK_THAT(safetensorsParseError(fileWith(R"({"a": {"dtype": 7, "shape": [2], "data_offsets": [0, 8]}})", eight)),
                   Contains("dtype is not a string"));
    }
    SECTION("shape") {
        CHECK_THAT(safetensorsParseError(fileWith(R"({"a": {"dtype": "F32", "shape": [-2], "data_offsets": [0, 8]}})", eight)),
                   Contains("non-negative integers"));
        CHECK_THAT(safetensorsParseError(fileWith(R"({"a": {"dtype": "F32", "shape": [2.0], "data_offsets": [0, 8]}})", eight)),
                   Contains("non-negative integers"));
        CHECK_THAT(safetensorsParseError(fileWith(R"({"a": {"dtype": "F32", "shape": 2, "data_offsets": [0, 8]}})", eight)),
                   Contains("shape is not an array"));
        CHECK_THAT(safetensorsParseError(fileWith(R"({"a": {"dtype": "F32", "shape": [4294967296, 4294967296],)"
                                       R"( "data_offsets": [0, 8]}})",
                                       eight)),
                   Contains("overflows"));
        CHECK_THAT(safetensorsParseError(fileWith(R"({"a": {"dtype": "F32", "shape": [18446744073709551615],)"
                                       R"( "data_offsets": [0, 8]}})",
                                       eight)),
                   Contains("overflows"));
    }
    SECTION("data offsets") {
        CHECK_THAT(safetensorsParseError(fileWith(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 16]}})", eight)),
                   Contains("data_offsets [0, 16] outside the 8-byte data buffer"));
        CHECK_THAT(safetensorsParseError(fileWith(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [8, 0]}})", eight)),
                   Contains("outside"));
        CHECK_THAT(safetensorsParseError(fileWith(R"({"a": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}})", eight)),
                   Contains("span 8 bytes but shape [3] needs 12"));
        CHECK_THAT(safetensorsParseError(fileWith(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0]}})", eight)),
                   Contains("not [begin, end]"));
        CHECK_THAT(safetensorsParseError(fileWith(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [-8, 0]}})", eight)),
                   Contains("not [begin, end]"));
        CHECK_THAT(safetensorsParseError(fileWith(R"({"a": {"dtype": "F32", "shape": [2]}})", eight)),
                   Contains("missing data_offsets"));
    }
    SECTION("overlapping tensors") {
        const std::string header = "{" + kTensorA + R"(, "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})";
        CHECK_THAT(safetensorsParseError(fileWith(header, floatBytes({1, 2, 3}))), Contains("'a' and 'b' overlap"));
    }
    SECTION("metadata") {
        CHECK_THAT(safetensorsParseError(fileWith("{" + kTensorA + R"(, "__metadata__": {"k": 1}})", eight)),
                   Contains("__metadata__ value 'k' is not a string"));
        CHECK_THAT(safetensorsParseError(fileWith("{" + kTensorA + R"(, "__metadata__": ["k"]})", eight)),
                   Contains("__metadata__ is not a JSON object"));
    }
    SECTION("names with control characters stay on one line") {
        const std::string message =
            safetensorsParseError(fileWith(R"({"x\ny": {"dtype": "F16", "shape": [1], "data_offsets": [0, 2]}})", "ab"));
        CHECK_THAT(message, Contains("tensor 'x\\x0ay'"));
        CHECK(message.find('\n') == std::string::npos);
    }
}

TEST_CASE("Safetensors reader refuses a truncated file", "[safetensors]") {
    TempDir dir;
    const std::string path = (dir / "model.safetensors");
    attnlab::writeSafetensors(path, sampleContent());
    const std::string bytes = readBytes(path);
    writeBytes(path, bytes.substr(0, bytes.size() - 4));
    CHECK_THAT(readError(path), StartsWith(path + ": ") && Contains("outside the 36-byte data buffer"));
    writeBytes(path, bytes.substr(0, 20));  // inside the header
    CHECK_THAT(readError(path), Contains("exceeds file size"));
}

TEST_CASE("Safetensors reader names a missing file, a directory and a special file", "[safetensors]") {
    TempDir dir;
    CHECK(readError((dir / "nope.safetensors")) == (dir / "nope.safetensors") + ": no such file");
    CHECK(readError(dir.path.string()) == dir.path.string() + ": is a directory");
    CHECK(readError("/dev/null") == "/dev/null: not a regular file");
    CHECK_THAT(readError(""), Contains("no such file"));
}

TEST_CASE("Safetensors reader survives random and mutated bytes", "[safetensors]") {
    std::mt19937 rng(20240611);
    std::uniform_int_distribution<int> byte(0, 255);
    for (int i = 0; i < 200; ++i) {
        std::string bytes(static_cast<std::size_t>(i * 7 % 300), '\0');
        for (auto& b : bytes) b = static_cast<char>(byte(rng));
        if (i % 2 == 0 && bytes.size() > 8) {  // a plausible header length makes the JSON parser run
            std::string prefix = lengthPrefix(bytes.size() - 8 - static_cast<std::size_t>(i % 5));
            bytes.replace(0, 8, prefix);
        }
        INFO("buffer " << i);
        CHECK_THAT(safetensorsParseError(bytes), StartsWith("m.safetensors: "));
    }

    // Flipping bytes of a valid file: it either still loads or is refused cleanly.
    TempDir dir;
    const std::string path = (dir / "model.safetensors");
    attnlab::writeSafetensors(path, sampleContent());
    const std::string valid = readBytes(path);
    std::uniform_int_distribution<std::size_t> position(0, valid.size() - 1);
    int refused = 0;
    for (int i = 0; i < 500; ++i) {
        std::string bytes = valid;
        for (int k = 0; k < 1 + i % 3; ++k) bytes[position(rng)] = static_cast<char>(byte(rng));
        try {
            attnlab::parseSafetensors(bytes, "m.safetensors");
        } catch (const ModelFileError&) {
            ++refused;
        }
    }
    CHECK(refused > 0);
}

TEST_CASE("Safetensors writer refuses content it cannot represent", "[safetensors]") {
    TempDir dir;
    const std::string path = (dir / "model.safetensors");
    auto writeError = [&](const SafetensorsContent& c) -> std::string {
        try {
            attnlab::writeSafetensors(path, c);
        } catch (const std::runtime_error& e) {
            return e.what();
        }
        return "(no error)";
    };
    SafetensorsContent c;
    c.tensors.push_back({"a", {2, 2}, {1, 2, 3}});
    CHECK_THAT(writeError(c), StartsWith(path + ": ") && Contains("3 values do not fill shape [2, 2]"));
    c.tensors[0] = {"a", {-1}, {}};
    CHECK_THAT(writeError(c), Contains("invalid shape [-1]"));
    c.tensors[0] = {"a", {1}, {1}};
    c.tensors.push_back({"a", {1}, {2}});
    CHECK_THAT(writeError(c), Contains("used twice"));
    c.tensors[1] = {"__metadata__", {1}, {2}};
    CHECK_THAT(writeError(c), Contains("reserved"));
    c.tensors[1] = {"bad\xff", {1}, {2}};
    CHECK_THAT(writeError(c), Contains("valid UTF-8"));
    // None of the refused writes left a file or a temporary file behind.
    CHECK(fs::is_empty(dir.path));
}

TEST_CASE("Safetensors writer failures leave the old file and no temporary file", "[safetensors]") {
    TempDir dir;
    SECTION("missing directory") {
        const fs::path missing = dir.path / "no-such-dir";
        CHECK_THROWS_AS(attnlab::writeSafetensors((missing / "m.safetensors").string(), sampleContent()),
                        std::runtime_error);
        CHECK(!fs::exists(missing));
        CHECK(fs::is_empty(dir.path));
    }
    SECTION("target is a directory") {
        const std::string target = (dir / "taken");
        fs::create_directory(target);
        CHECK_THROWS_AS(attnlab::writeSafetensors(target, sampleContent()), std::runtime_error);
        CHECK(fs::is_directory(target));
        CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 1);
    }
    SECTION("invalid content does not clobber an existing model") {
        const std::string path = (dir / "model.safetensors");
        attnlab::writeSafetensors(path, sampleContent());
        const std::string before = readBytes(path);
        SafetensorsContent bad;
        bad.tensors.push_back({"a", {2}, {1}});
        CHECK_THROWS_AS(attnlab::writeSafetensors(path, bad), std::runtime_error);
        CHECK(readBytes(path) == before);
    }
}

TEST_CASE("Safetensors writer in a read-only directory keeps the old file", "[safetensors][needs-non-root]") {
    if (::geteuid() == 0) ATTNLAB_SKIP("running as root, which ignores directory permissions");
    TempDir dir;
    const std::string path = (dir / "model.safetensors");
    attnlab::writeSafetensors(path, sampleContent());
    const std::string before = readBytes(path);
    fs::permissions(dir.path, fs::perms::owner_read | fs::perms::owner_exec);
    SafetensorsContent other;
    other.tensors.push_back({"x", {1}, {1}});
    CHECK_THROWS_AS(attnlab::writeSafetensors(path, other), std::runtime_error);
    fs::permissions(dir.path, fs::perms::owner_all);
    CHECK(readBytes(path) == before);
    CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 1);
}

TEST_CASE("Safetensors F16 and BF16 are read only when asked for, converted exactly; skipped tensors stay unread",
          "[safetensors]") {
    // F16: 1, -2, 65504 (the largest), 2^-24 (the smallest subnormal), -0, inf, NaN; BF16: 1, -3.5, 1e38-ish.
    const std::uint16_t halves[] = {0x3c00, 0xc000, 0x7bff, 0x0001, 0x8000, 0x7c00, 0x7e00};
    const std::uint16_t brains[] = {0x3f80, 0xc060, 0x7e96};
    std::string buffer(reinterpret_cast<const char*>(halves), sizeof halves);
    buffer.append(reinterpret_cast<const char*>(brains), sizeof brains);
    buffer += std::string("\x01\x00\x01\x01", 4);  // a BOOL mask [2, 2], skipped
    const std::string bytes = fileWith(
        R"({"h":{"dtype":"F16","shape":[7],"data_offsets":[0,14]},"b":{"dtype":"BF16","shape":[3],"data_offsets":[14,20]},)"
        R"("h.0.attn.bias":{"dtype":"BOOL","shape":[2,2],"data_offsets":[20,24]}})",
        buffer);
    CHECK_THAT(safetensorsParseError(bytes), Contains("unsupported dtype") && Contains("only F32 is supported"));
    attnlab::SafetensorsOptions half;
    half.halfPrecision = true;
    CHECK_THAT(safetensorsParseError(bytes), Contains("only F32"));
    try {
        attnlab::parseSafetensors(bytes, "m.safetensors", half);
        FAIL("the BOOL tensor was accepted");
    } catch (const ModelFileError& e) {
        CHECK_THAT(std::string(e.what()), Contains("'h.0.attn.bias'") && Contains("F32, F16 and BF16 are supported"));
    }
    half.skip = [](const std::string& name) { return name == "h.0.attn.bias"; };
    const SafetensorsContent c = attnlab::parseSafetensors(bytes, "m.safetensors", half);
    REQUIRE(c.tensors.size() == 2);
    CHECK(c.tensors[0].dtype == "F16");
    const std::vector<float>& h = c.tensors[0].data;
    REQUIRE(h.size() == 7);
    CHECK(h[0] == 1.0f);
    CHECK(h[1] == -2.0f);
    CHECK(h[2] == 65504.0f);
    CHECK(h[3] == std::ldexp(1.0f, -24));
    CHECK((h[4] == 0.0f && std::signbit(h[4])));
    CHECK(std::isinf(h[5]));
    CHECK(std::isnan(h[6]));
    CHECK(c.tensors[1].dtype == "BF16");
    CHECK(c.tensors[1].data == std::vector<float>{1.0f, -3.5f, std::ldexp(1.171875f, 126)});
    // A half tensor's span is checked at 2 bytes a value.
    CHECK_THAT(safetensorsParseError(fileWith(R"({"h":{"dtype":"F16","shape":[3],"data_offsets":[0,12]}})",
                                              std::string(12, '\0'))),
               Contains("unsupported dtype"));
    try {
        attnlab::parseSafetensors(fileWith(R"({"h":{"dtype":"F16","shape":[3],"data_offsets":[0,12]}})", std::string(12, '\0')),
                                  "m.safetensors", half);
        FAIL("a 12-byte span for 3 halves was accepted");
    } catch (const ModelFileError& e) {
        CHECK_THAT(std::string(e.what()), Contains("needs 6"));
    }
}

}  // namespace

TEST_CASE("Safetensors mapped: the same tensors, metadata and refusals as the reader, without copying", "[safetensors]") {
    TempDir dir;
    const std::string path = (dir / "m.safetensors");
    const SafetensorsContent written = sampleContent();
    attnlab::writeSafetensors(path, written);
    const SafetensorsContent read = attnlab::readSafetensors(path);
    const attnlab::MappedSafetensors mapped = attnlab::mapSafetensors(path);
    CHECK(mapped.metadata == read.metadata);
    CHECK(mapped.size == fs::file_size(path));
    REQUIRE(mapped.tensors.size() == read.tensors.size());
    for (std::size_t i = 0; i < read.tensors.size(); ++i) {
        const attnlab::MappedTensor& m = mapped.tensors[i];
        CHECK(m.name == read.tensors[i].name);
        CHECK(m.shape == read.tensors[i].shape);
        CHECK(m.dtype == "F32");
        REQUIRE(m.bytes == read.tensors[i].data.size() * sizeof(float));
        // The bytes are the file's own pages: inside the mapping, at the header's offset.
        CHECK(m.data == mapped.base + m.offset);
        std::vector<float> values(read.tensors[i].data.size());
        attnlab::safetensorsToFloat(m, values.data());
        // Bit for bit (a NaN included).
        CHECK(std::memcmp(values.data(), read.tensors[i].data.data(), m.bytes) == 0);
    }
    // A file the reader refuses is refused by the mapper with the same one line.
    const std::string bad = (dir / "bad.safetensors");
    std::ofstream(bad, std::ios::binary) << "not a safetensors file at all";
    std::string readError, mapError;
    try {
        (void)attnlab::readSafetensors(bad);
    } catch (const ModelFileError& e) {
        readError = e.what();
    }
    try {
        (void)attnlab::mapSafetensors(bad);
    } catch (const ModelFileError& e) {
        mapError = e.what();
    }
    CHECK_FALSE(mapError.empty());
    CHECK(mapError == readError);
}
