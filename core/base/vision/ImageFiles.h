#pragma once
// Image files for the vision tasks: PNG (libpng's simplified API) and JPEG (libjpeg-turbo) decoded by
// those libraries, converted to grey or RGB, resized to a model's input, and the common folder
// layout DIR/CLASS/*.png|*.jpg (the class is the folder's name). The size in a file's header is
// checked before any pixel is decoded, so a header claiming 60000x60000 pixels costs nothing.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ImageData.h"

namespace attnlab {

inline constexpr int kMaxDecodedSide = 8192;  // a larger width or height is refused from the header

// PNG or JPEG bytes (told apart by their signatures, whatever the file is called) as `channels`
// (1 = grey, 3 = RGB) 8-bit pixels; an alpha channel is composited onto black. Throws
// InputError(name, 0, reason) for anything else, a damaged or truncated file, or a side over
// kMaxDecodedSide.
Image decodeImage(const std::string& bytes, const std::string& name, int channels);

// Bilinear resampling (pixel centres aligned, as OpenCV's INTER_LINEAR and PIL's BILINEAR without
// antialiasing); a box filter first when shrinking by 2x or more, so that thin strokes survive.
Image resizeImage(const Image& image, int height, int width);

struct ImageFolderReport {
    std::size_t read = 0;
    std::vector<std::pair<std::string, std::string>> skipped;  // file, reason (not an image, damaged, ...)
};

// Every class folder's PNG and JPEG files (.png .jpg .jpeg, any case), in name order, as
// `channels` x height x width images. A file that cannot be decoded is skipped and reported. Throws
// InputError naming DIR for a missing folder, fewer than two class folders, an empty class folder,
// or no usable image in a class.
ImageDataset readImageFolder(const std::string& dir, int channels, int height, int width,
                             ImageFolderReport* report = nullptr);

// Writes a PNG (libpng), atomically: the old file is untouched if writing fails. Throws
// std::runtime_error("FILE: reason").
void writePng(const Image& image, const std::string& path);

// The dataset as an image folder DIR/CLASS/00001.png ... (the layout readImageFolder reads and
// PyTorch's ImageFolder too), and DIR/boxes.tsv (file, top, left, height, width) when it has boxes.
// DIR is created; throws std::runtime_error("PATH: reason") for a failed write.
void writeImageFolder(const ImageDataset& dataset, const std::string& dir);

// The box of one image from a boxes.tsv that writeImageFolder wrote (file, top, left, height,
// width; `file` as written there, e.g. "ring/00001.png"), or nothing if the file lists none for
// it. Throws InputError naming the TSV's line for a line with other than five columns or a number
// that is not one.
std::optional<Box> readImageBox(const std::string& boxesTsv, const std::string& file);
// The boxes.tsv that lists an image written by writeImageFolder (DIR/CLASS/NAME -> DIR/boxes.tsv,
// "CLASS/NAME"), or an empty path if there is none.
std::pair<std::string, std::string> boxesFileFor(const std::string& imagePath);

}  // namespace attnlab
