// fuzz_images: the image loading path on the raw bytes: the IDX readers (MNIST's image and label
// files) and the PNG/JPEG decoder (libpng, libjpeg-turbo) as grey and as RGB, then resizing. A damaged
// file must be an InputError naming the file on one line, never a crash, an allocation the header
// alone asks for, or a read outside the input; a file that reads must give what its header promises:
// IDX: that many images, all of the same size within the limits, every pixel from the input; a
// decoded image: its size within kMaxDecodedSide and width * height * channels pixels.
#include <cstdint>
#include <string>

#include "FuzzCheck.h"
#include "base/vision/ImageData.h"
#include "base/vision/ImageFiles.h"
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
    for (int channels : {1, 3}) {
        try {
            const attnlab::Image im = attnlab::decodeImage(bytes, "fuzz-image", channels);
            FUZZ_CHECK(im.channels == channels && im.width >= 1 && im.height >= 1);
            FUZZ_CHECK(im.width <= attnlab::kMaxDecodedSide && im.height <= attnlab::kMaxDecodedSide);
            FUZZ_CHECK(im.pixels.size() == static_cast<std::size_t>(im.width) * im.height * channels);
            if (static_cast<std::size_t>(im.width) * im.height <= 1u << 16) {
                const attnlab::Image small = attnlab::resizeImage(im, 7, 5);
                FUZZ_CHECK(small.pixels.size() == 7u * 5u * static_cast<std::size_t>(channels));
            }
        } catch (const attnlab::InputError& e) {
            checkError(e, "fuzz-image");
        }
    }
    return 0;
}
