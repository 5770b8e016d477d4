// fuzz_idx: the IDX readers (MNIST's image and label files) on the raw bytes, as images and as labels.
// A damaged file must be an InputError naming the file on one line, never a crash, an allocation the
// header alone asks for, or a read outside the input; a file that reads must give what its header
// promises: that many images, all of the same size within the limits, every pixel from the input.
#include <cstdint>
#include <string>

#include "FuzzCheck.h"
#include "base/ImageData.h"
#include "base/InputError.h"

namespace {

void checkError(const attnlab::InputError& e, const char* name) {
    FUZZ_CHECK(e.file() == name);
    FUZZ_CHECK(e.line() == 0);
    FUZZ_CHECK(std::string(e.what()).find('\n') == std::string::npos);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes = attnlab::fuzz::bytesOf(data, size);
    try {
        const auto images = attnlab::parseIdxImages(bytes, "fuzz-images");
        FUZZ_CHECK(!images.empty());
        const std::size_t each = images.front().pixels.size();
        FUZZ_CHECK(16 + images.size() * each == bytes.size());  // every byte is a pixel or the header
        for (const auto& im : images) {
            FUZZ_CHECK(im.channels == 1 && im.height >= 1 && im.width >= 1);
            FUZZ_CHECK(im.height <= attnlab::kMaxImageSide && im.width <= attnlab::kMaxImageSide);
            FUZZ_CHECK(im.pixels.size() == static_cast<std::size_t>(im.height) * static_cast<std::size_t>(im.width));
            FUZZ_CHECK(im.pixels.size() == each);
        }
    } catch (const attnlab::InputError& e) {
        checkError(e, "fuzz-images");
    }
    try {
        const auto labels = attnlab::parseIdxLabels(bytes, "fuzz-labels");
        FUZZ_CHECK(8 + labels.size() == bytes.size());
        for (int l : labels) FUZZ_CHECK(l >= 0 && l < 256);
    } catch (const attnlab::InputError& e) {
        checkError(e, "fuzz-labels");
    }
    return 0;
}
