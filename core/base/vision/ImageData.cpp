#include "ImageData.h"

#include <algorithm>
#include <filesystem>
#include <zlib.h>

#include "base/io/FileUtil.h"
#include "base/InputError.h"

namespace attnlab {

namespace {

std::uint32_t bigEndian32(const std::string& b, std::size_t at) {
    return (static_cast<std::uint32_t>(static_cast<unsigned char>(b[at])) << 24) |
           (static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 1])) << 16) |
           (static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 2])) << 8) |
           static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 3]));
}

std::string hex(std::uint32_t v) {
    static const char* digits = "0123456789abcdef";
    std::string out = "0x";
    for (int shift = 28; shift >= 0; shift -= 4) out += digits[(v >> shift) & 0xF];
    return out;
}

// The sizes of an IDX file of unsigned bytes with `dims` dimensions, checked against the data.
std::vector<std::uint32_t> idxHeader(const std::string& b, const std::string& name, int dims, const char* what) {
    const std::uint32_t expected = 0x00000800u | static_cast<std::uint32_t>(dims);
    if (b.size() < 4) throw InputError(name, 0, "not an IDX file (" + std::to_string(b.size()) + " bytes)");
    const std::uint32_t magic = bigEndian32(b, 0);
    if ((magic >> 16) != 0 || ((magic >> 8) & 0xFF) < 0x08 || ((magic >> 8) & 0xFF) > 0x0E)
        throw InputError(name, 0, "not an IDX file (magic number " + hex(magic) + ")");
    if (((magic >> 8) & 0xFF) != 0x08)
        throw InputError(name, 0, std::string("IDX element type ") + hex((magic >> 8) & 0xFF) + ": " + what +
                                      " must be unsigned bytes (0x08)");
    if (magic != expected)
        throw InputError(name, 0, "IDX file of " + std::to_string(magic & 0xFF) + " dimensions; " + what + " have " +
                                      std::to_string(dims) + " (magic number " + hex(expected) + ")");
    const std::size_t header = 4 + 4 * static_cast<std::size_t>(dims);
    if (b.size() < header) throw InputError(name, 0, "truncated IDX header");
    std::vector<std::uint32_t> sizes;
    std::uint64_t elements = 1;
    for (int d = 0; d < dims; ++d) {
        const std::uint32_t s = bigEndian32(b, 4 + 4 * static_cast<std::size_t>(d));
        if (s == 0) throw InputError(name, 0, "IDX dimension " + std::to_string(d + 1) + " is 0");
        sizes.push_back(s);
        elements *= s;
    }
    if (sizes[0] > kMaxIdxItems)
        throw InputError(name, 0, std::to_string(sizes[0]) + " " + what + ": more than " + std::to_string(kMaxIdxItems));
    for (std::size_t d = 1; d < sizes.size(); ++d)
        if (sizes[d] > static_cast<std::uint32_t>(kMaxImageSide))
            throw InputError(name, 0, "images of side " + std::to_string(sizes[d]) + ": more than " +
                                          std::to_string(kMaxImageSide));
    const std::uint64_t have = b.size() - header;
    if (have != elements) {
        std::string shape = std::to_string(sizes[0]) + " " + what;
        if (dims == 3) shape += " of " + std::to_string(sizes[1]) + "x" + std::to_string(sizes[2]);
        throw InputError(name, 0, std::string(have < elements ? "truncated" : "longer than its header") + ": the header says " +
                                      shape + " (" + std::to_string(elements) + " bytes), the file has " +
                                      std::to_string(have));
    }
    return sizes;
}

}  // namespace

std::string readPossiblyGzipped(const std::string& path) {
    std::string raw;
    try {
        raw = readFileLimited(path, kMaxImageFileBytes);
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& e) {
        throw InputError(path, 0, e.what());
    }
    if (raw.size() < 2 || static_cast<unsigned char>(raw[0]) != 0x1f || static_cast<unsigned char>(raw[1]) != 0x8b)
        return raw;
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw InputError(path, 0, "cannot start gzip decompression");
    z.next_in = reinterpret_cast<Bytef*>(raw.data());
    z.avail_in = static_cast<uInt>(raw.size());
    std::string out;
    char buffer[1 << 16];
    int status = Z_OK;
    while (status == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof buffer;
        status = inflate(&z, Z_NO_FLUSH);
        if (status != Z_OK && status != Z_STREAM_END) break;
        out.append(buffer, sizeof buffer - z.avail_out);
        if (out.size() > kMaxImageFileBytes) {
            inflateEnd(&z);
            throw InputError(path, 0, "decompresses to more than " + std::to_string(kMaxImageFileBytes >> 20) + " MiB");
        }
        if (status == Z_OK && z.avail_in == 0 && z.avail_out != 0) {
            status = Z_BUF_ERROR;  // input ended before the stream did
            break;
        }
    }
    inflateEnd(&z);
    if (status != Z_STREAM_END)
        throw InputError(path, 0, status == Z_BUF_ERROR ? "truncated gzip data" : "corrupt gzip data");
    return out;
}

std::vector<Image> parseIdxImages(const std::string& bytes, const std::string& name) {
    const auto sizes = idxHeader(bytes, name, 3, "images");
    const int rows = static_cast<int>(sizes[1]), cols = static_cast<int>(sizes[2]);
    const std::size_t each = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
    std::vector<Image> images(sizes[0]);
    for (std::size_t i = 0; i < images.size(); ++i) {
        Image& im = images[i];
        im.height = rows;
        im.width = cols;
        im.channels = 1;
        const auto begin = bytes.begin() + static_cast<std::ptrdiff_t>(16 + i * each);
        im.pixels.assign(begin, begin + static_cast<std::ptrdiff_t>(each));
    }
    return images;
}

std::vector<int> parseIdxLabels(const std::string& bytes, const std::string& name) {
    const auto sizes = idxHeader(bytes, name, 1, "labels");
    std::vector<int> labels(sizes[0]);
    for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = static_cast<unsigned char>(bytes[8 + i]);
    return labels;
}

ImageDataset readIdxDataset(const std::string& imagesPath, const std::string& labelsPath,
                            const std::vector<std::string>& classes) {
    ImageDataset d;
    d.name = imagesPath;
    d.images = parseIdxImages(readPossiblyGzipped(imagesPath), imagesPath);
    d.labels = parseIdxLabels(readPossiblyGzipped(labelsPath), labelsPath);
    if (d.images.size() != d.labels.size())
        throw InputError(labelsPath, 0, std::to_string(d.labels.size()) + " labels for " + std::to_string(d.images.size()) +
                                            " images in " + imagesPath);
    int top = 0, bottom = 255;
    for (int l : d.labels) {
        top = std::max(top, l);
        bottom = std::min(bottom, l);
    }
    if (top == bottom)
        throw InputError(labelsPath, 0, "every label is " + std::to_string(top) + ": an image classifier needs two classes or more");
    if (!classes.empty()) {
        if (top >= static_cast<int>(classes.size()))
            throw InputError(labelsPath, 0, "label " + std::to_string(top) + " but only " + std::to_string(classes.size()) +
                                                " classes");
        d.classes = classes;
    } else {
        for (int k = 0; k <= top; ++k) d.classes.push_back(std::to_string(k));
    }
    return d;
}

const std::vector<std::string>& fashionMnistClasses() {
    static const std::vector<std::string> classes{"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                                  "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
    return classes;
}

ImageDataset readFashionMnist(bool training, const std::string& dir) {
    namespace fs = std::filesystem;
    const std::string prefix = training ? "train" : "t10k";
    const fs::path images = fs::path(dir) / (prefix + "-images-idx3-ubyte.gz");
    const fs::path labels = fs::path(dir) / (prefix + "-labels-idx1-ubyte.gz");
    std::error_code ec;
    if (!fs::exists(images, ec) || !fs::exists(labels, ec))
        throw InputError(dir, 0, "Fashion-MNIST is not installed here (no " + images.filename().string() +
                                     "); install Debian's package: apt-get install dataset-fashion-mnist");
    ImageDataset d = readIdxDataset(images.string(), labels.string(), fashionMnistClasses());
    d.name = "fashion-mnist";
    return d;
}

}  // namespace attnlab
