#pragma once
// Images for the vision tasks (a ViT, a captioner): plain 8-bit pixels and the datasets made of them.
// This part reads MNIST-format IDX files (LeCun's layout: a big-endian magic number whose third byte
// is the element type and fourth the number of dimensions, then one big-endian 32-bit size per
// dimension, then the elements), plain or gzip-compressed (zlib), and Debian's Fashion-MNIST
// (package dataset-fashion-mnist). Every file problem is an InputError naming the file.
#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

struct Image {
    int height = 0, width = 0, channels = 1;  // 1 = grey, 3 = RGB
    std::vector<std::uint8_t> pixels;         // row-major, channels interleaved: height * width * channels
};

// Where something is in an image, in pixels (a glyph's mark, a scene's object).
struct Box {
    int top = 0, left = 0, height = 0, width = 0;
    bool operator==(const Box& o) const { return top == o.top && left == o.left && height == o.height && width == o.width; }
};

struct ImageDataset {
    std::string name;                  // "fashion-mnist", "glyphs", or the images file or folder
    std::vector<Image> images;
    std::vector<Box> boxes;            // per image, where the class is decided (empty when unknown)
    std::vector<int> labels;           // one per image, an index into classes
    std::vector<std::string> classes;  // the class names
};

// Limits: beyond them a file is refused rather than read.
inline constexpr std::uint64_t kMaxImageFileBytes = 1ULL << 30;  // also for the decompressed size
inline constexpr int kMaxImageSide = 4096;
inline constexpr std::uint32_t kMaxIdxItems = 10000000;

// The file's bytes, gunzipped when they start with gzip's magic bytes (whatever the file is called).
// Throws InputError(path, 0, reason) for a missing or unreadable file, a corrupt or truncated gzip
// stream, or more than kMaxImageFileBytes.
std::string readPossiblyGzipped(const std::string& path);

// IDX parsing from memory; `name` is used in messages. Images: unsigned bytes, 3 dimensions
// (count, rows, columns); labels: unsigned bytes, 1 dimension. Throws InputError for a wrong magic
// number (naming what it found), an element type other than unsigned byte, a size of zero or over the
// limits, and data shorter or longer than the header says.
std::vector<Image> parseIdxImages(const std::string& bytes, const std::string& name);
std::vector<int> parseIdxLabels(const std::string& bytes, const std::string& name);

// Images and labels from two IDX files (either may be .gz); classes are "0".."K-1" unless given
// (then every label must be below their count). Throws InputError when the counts differ or every
// label is the same.
ImageDataset readIdxDataset(const std::string& imagesPath, const std::string& labelsPath,
                            const std::vector<std::string>& classes = {});

// Where Debian's dataset-fashion-mnist puts the data, and its ten classes in label order.
inline constexpr const char* kFashionMnistDir = "/usr/share/datasets/fashion-mnist";
const std::vector<std::string>& fashionMnistClasses();
// The training (60,000 images) or test (10,000) split from `dir` (train-images-idx3-ubyte.gz and
// the like). Throws InputError naming the folder, and saying how to install the package, when the
// files are not there.
ImageDataset readFashionMnist(bool training, const std::string& dir = kFashionMnistDir);

}  // namespace attnlab
