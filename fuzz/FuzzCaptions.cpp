// fuzz_captions: the caption list reader (readCaptionTsv) on the bytes as a list's text, written as
// list.tsv into a folder that also holds a few tiny images (PNG and JPEG, grey and RGB, one in a
// subfolder, one with a space in its name) and files that are not images (empty, truncated, a
// header claiming 60000x60000 pixels, text, a folder named .png), and images/00001.png and
// images/00002.png as `datasets --write scenes` names them. Image names that do not exist
// must be an InputError naming the list and the line, like every other fault.
//
// Checked beyond "no crash":
//   - every error is an InputError naming list.tsv, on one line; a line number within the file,
//     and line 0 only for "no captioned image" (a missing or broken image names its line);
//   - a list that reads has one caption per non-blank line, each non-empty, lower-case, its words
//     separated by single spaces (captionWords of itself); no more images than captioned lines,
//     each of the size asked for, with exactly height * width * channels pixels, each file once
//     (however it is named: "a.png" and "./a.png" are one image);
//   - written back with writeCaptionFolder (what `datasets --write scenes` uses) and read again,
//     it gives the same captions and the same pixels.
// Image names are kept inside the folder: an input with an absolute name or ".." in a name is
// skipped (the reader follows such names on purpose; the fuzzer must not read /dev or /proc).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "FuzzCheck.h"
#include "FuzzScratch.h"
#include "base/InputError.h"
#include "base/io/TextLines.h"
#include "base/Tokenizer.h"
#include "base/vision/Captions.h"
#include "base/vision/ImageFiles.h"

namespace {

namespace fs = std::filesystem;
using attnlab::CaptionDataset;
using attnlab::Image;

// fuzz/seeds/fuzz_images/grey_8x8.jpg
const unsigned char kGreyJpeg[] = {
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
    0x00, 0x01, 0x00, 0x00, 0xff, 0xdb, 0x00, 0x43, 0x00, 0x03, 0x02, 0x02, 0x02, 0x02, 0x02, 0x03,
    0x02, 0x02, 0x02, 0x03, 0x03, 0x03, 0x03, 0x04, 0x06, 0x04, 0x04, 0x04, 0x04, 0x04, 0x08, 0x06,
    0x06, 0x05, 0x06, 0x09, 0x08, 0x0a, 0x0a, 0x09, 0x08, 0x09, 0x09, 0x0a, 0x0c, 0x0f, 0x0c, 0x0a,
    0x0b, 0x0e, 0x0b, 0x09, 0x09, 0x0d, 0x11, 0x0d, 0x0e, 0x0f, 0x10, 0x10, 0x11, 0x10, 0x0a, 0x0c,
    0x12, 0x13, 0x12, 0x10, 0x13, 0x0f, 0x10, 0x10, 0x10, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x08,
    0x00, 0x08, 0x01, 0x01, 0x11, 0x00, 0xff, 0xc4, 0x00, 0x14, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xff, 0xc4, 0x00, 0x14,
    0x10, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00, 0x0f, 0xff, 0xd9,
};
// fuzz/seeds/fuzz_images/huge_header.png: an IHDR claiming 60000 x 60000 pixels.
const unsigned char kHugePng[] = {
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0xea, 0x60, 0x00, 0x00, 0xea, 0x60, 0x08, 0x00, 0x00, 0x00, 0x00, 0xa5, 0xb9, 0x2a,
    0x9e,
};

Image pattern(int height, int width, int channels) {
    Image im;
    im.height = height;
    im.width = width;
    im.channels = channels;
    for (int i = 0; i < height * width * channels; ++i) im.pixels.push_back(static_cast<std::uint8_t>(i * 37 + 11));
    return im;
}

// The folder with its images, made once per process.
struct Folder {
    attnlab::fuzz::ScratchDir scratch;
    std::string list, out;
    Folder() {
        const std::string dir = scratch.folder("list");
        attnlab::writePng(pattern(3, 5, 3), dir + "/a.png");
        attnlab::writePng(pattern(2, 2, 1), dir + "/b.png");
        attnlab::writePng(pattern(1, 1, 3), scratch.folder("list/sub") + "/d.png");
        attnlab::writePng(pattern(4, 2, 1), dir + "/with space.png");
        // The names `datasets --write scenes` gives its images.
        attnlab::writePng(pattern(6, 6, 3), scratch.folder("list/images") + "/00001.png");
        attnlab::writePng(pattern(2, 3, 3), dir + "/images/00002.png");
        scratch.write("list/c.jpg", std::string(reinterpret_cast<const char*>(kGreyJpeg), sizeof kGreyJpeg));
        scratch.write("list/huge.png", std::string(reinterpret_cast<const char*>(kHugePng), sizeof kHugePng));
        scratch.write("list/empty.png", "");
        scratch.write("list/text.png", "not an image\n");
        scratch.folder("list/folder.png");
        // a.png cut after 40 bytes: a truncated PNG.
        std::string a;
        {
            std::FILE* f = std::fopen((dir + "/a.png").c_str(), "rb");
            if (!f) std::abort();
            char buffer[40];
            const std::size_t n = std::fread(buffer, 1, sizeof buffer, f);
            std::fclose(f);
            a.assign(buffer, n);
        }
        scratch.write("list/cut.png", a);
        list = dir + "/list.tsv";
        out = scratch.folder("out");
    }
};

// False if a line's first column could name a file outside the folder: after anything trim()
// could strip (and more: every control, space and non-ASCII byte), a '/', or ".." anywhere.
bool staysInFolder(const std::string& text) {
    for (std::size_t pos = 0; pos <= text.size();) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        const std::string_view line(text.data() + pos, end - pos);
        const std::string_view field = line.substr(0, line.find('\t'));
        if (field.find("..") != std::string_view::npos) return false;
        std::size_t k = 0;
        while (k < field.size() && (static_cast<unsigned char>(field[k]) <= 0x20 || static_cast<unsigned char>(field[k]) >= 0x80))
            ++k;
        if (k < field.size() && field[k] == '/') return false;
        pos = end + 1;
    }
    return true;
}

std::string joined(const std::vector<std::string>& words) {
    std::string s;
    for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
    return s;
}

void checkDataset(const CaptionDataset& d, const std::string& list, const std::string& text, int channels,
                  int height, int width) {
    FUZZ_CHECK(d.name == list);
    FUZZ_CHECK(!d.images.empty());
    FUZZ_CHECK(d.captions.size() == d.images.size());
    FUZZ_CHECK(d.files.size() == d.images.size());
    FUZZ_CHECK(d.objects.empty());
    // The file read, so every line is valid: count the captioned (non-blank) ones.
    attnlab::LineCursor cursor(text, list);
    std::size_t captioned = 0;
    for (std::string line; cursor.next(line);) captioned += !attnlab::isBlank(line);
    std::size_t captions = 0;
    for (const auto& c : d.captions) {
        FUZZ_CHECK(!c.empty());  // an image is there because a line captioned it
        captions += c.size();
        for (const std::string& caption : c) {
            FUZZ_CHECK(!caption.empty());
            FUZZ_CHECK(attnlab::findInvalidUtf8(caption) == std::string::npos);
            FUZZ_CHECK(caption.front() != ' ' && caption.back() != ' ');
            FUZZ_CHECK(caption.find("  ") == std::string::npos);
            FUZZ_CHECK(caption.find_first_of("\t\r\n\v\f") == std::string::npos);
            for (char ch : caption) FUZZ_CHECK(!(ch >= 'A' && ch <= 'Z'));
            FUZZ_CHECK(joined(attnlab::captionWords(caption)) == caption);
        }
    }
    FUZZ_CHECK(captions == captioned);
    FUZZ_CHECK(d.images.size() <= captioned);
    // Each image file once, however it is named ("a.png", "./a.png", "sub/./d.png").
    for (std::size_t i = 0; i < d.files.size(); ++i)
        for (std::size_t j = i + 1; j < d.files.size(); ++j) {
            std::error_code ec;
            FUZZ_CHECK(!fs::equivalent(d.files[i], d.files[j], ec));
        }
    for (const Image& im : d.images) {
        FUZZ_CHECK(im.channels == channels && im.height == height && im.width == width);
        FUZZ_CHECK(im.pixels.size() == static_cast<std::size_t>(height) * static_cast<std::size_t>(width) *
                                           static_cast<std::size_t>(channels));
    }
}

// Lines in the text (a final newline ends the last one), counted without checking them: the
// LineCursor constructor refuses UTF-16 and gzip text.
long lineCount(const std::string& text) {
    return static_cast<long>(std::count(text.begin(), text.end(), '\n')) + (!text.empty() && text.back() != '\n');
}

void checkError(const attnlab::InputError& e, const std::string& list, const std::string& text) {
    FUZZ_CHECK(e.file() == list);
    FUZZ_CHECK(std::string(e.what()).find('\n') == std::string::npos);  // one line, as the CLI prints it
    FUZZ_CHECK(e.line() >= 0 && e.line() <= std::max(1L, lineCount(text)));
    if (e.line() == 0) FUZZ_CHECK(e.reason() == "no captioned image");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text = attnlab::fuzz::bytesOf(data, size);
    if (!staysInFolder(text)) return 0;
    static const Folder folder;
    folder.scratch.write("list/list.tsv", text);
    // The size asked for, from the input's length: grey or RGB, 1..5 x 1..5 pixels.
    const int channels = size % 2 == 0 ? 3 : 1;
    const int height = 1 + static_cast<int>(size % 5), width = 1 + static_cast<int>(size / 5 % 5);
    CaptionDataset d;
    try {
        d = attnlab::readCaptionTsv(folder.list, channels, height, width);
    } catch (const attnlab::InputError& e) {
        checkError(e, folder.list, text);
        return 0;
    }
    checkDataset(d, folder.list, text, channels, height, width);

    // Round trip through the writer.
    attnlab::writeCaptionFolder(d, folder.out);
    const std::string again = folder.out + "/captions.tsv";
    CaptionDataset e;
    try {
        e = attnlab::readCaptionTsv(again, channels, height, width);
    } catch (const attnlab::InputError& error) {
        std::fprintf(stderr, "round trip: %s\n", error.what());
        attnlab::fuzz::invariantFailed("the written caption folder reads back", __FILE__, __LINE__);
    }
    FUZZ_CHECK(e.images.size() == d.images.size());
    FUZZ_CHECK(e.captions == d.captions);
    for (std::size_t i = 0; i < d.images.size(); ++i) FUZZ_CHECK(e.images[i].pixels == d.images[i].pixels);
    return 0;
}
