#include "ImageFiles.h"

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <filesystem>
#include <png.h>
#include <jpeglib.h>

#include "base/io/FileUtil.h"
#include "base/InputError.h"
#include "base/io/TextLines.h"

namespace attnlab {

namespace {

bool isPng(const std::string& b) { return b.size() >= 8 && b.compare(0, 8, "\x89PNG\r\n\x1a\n", 8) == 0; }
bool isJpeg(const std::string& b) {
    return b.size() >= 3 && static_cast<unsigned char>(b[0]) == 0xFF && static_cast<unsigned char>(b[1]) == 0xD8 &&
           static_cast<unsigned char>(b[2]) == 0xFF;
}

void checkSide(unsigned width, unsigned height, const std::string& name) {
    if (width == 0 || height == 0) throw InputError(name, 0, "an image of 0 pixels");
    if (width > static_cast<unsigned>(kMaxDecodedSide) || height > static_cast<unsigned>(kMaxDecodedSide))
        throw InputError(name, 0, "an image of " + std::to_string(width) + "x" + std::to_string(height) +
                                      " pixels: larger than " + std::to_string(kMaxDecodedSide) + " on a side");
}

std::uint32_t bigEndianAt(const std::string& b, std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
    return v;
}

Image decodePng(const std::string& bytes, const std::string& name, int channels) {
    // The size first, from the IHDR chunk the format puts right after the signature: a header claiming
    // a huge image is refused before libpng reads any further.
    if (bytes.size() >= 24 && bytes.compare(12, 4, "IHDR") == 0) checkSide(bigEndianAt(bytes, 16), bigEndianAt(bytes, 20), name);
    png_image png{};
    png.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&png, bytes.data(), bytes.size())) {
        const std::string why = png.message;
        png_image_free(&png);
        throw InputError(name, 0, "damaged PNG (" + why + ")");
    }
    try {
        checkSide(png.width, png.height, name);
    } catch (...) {
        png_image_free(&png);
        throw;
    }
    png.format = channels == 1 ? PNG_FORMAT_GRAY : PNG_FORMAT_RGB;  // alpha composited onto the background
    Image im;
    im.width = static_cast<int>(png.width);
    im.height = static_cast<int>(png.height);
    im.channels = channels;
    im.pixels.resize(PNG_IMAGE_SIZE(png));
    png_color black{0, 0, 0};
    if (!png_image_finish_read(&png, &black, im.pixels.data(), 0, nullptr)) {
        const std::string why = png.message;
        png_image_free(&png);
        throw InputError(name, 0, "damaged PNG (" + why + ")");
    }
    return im;
}

// libjpeg reports errors through a callback that must not return: it jumps back to decodeJpeg.
struct JpegError {
    jpeg_error_mgr manager;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

void jpegFailed(j_common_ptr info) {
    auto* e = reinterpret_cast<JpegError*>(info->err);
    (*info->err->format_message)(info, e->message);
    std::longjmp(e->jump, 1);
}

void jpegWarning(j_common_ptr, int) {}  // corrupt data warnings: libjpeg goes on, so do we

// Plain C data only between setjmp and longjmp: the pixels go into a caller's buffer.
bool decodeJpegInto(const std::string& bytes, int channels, unsigned maxSide, std::vector<std::uint8_t>* pixels,
                    unsigned* width, unsigned* height, bool* tooLarge, char* message) {
    jpeg_decompress_struct info;
    JpegError error;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = jpegFailed;
    error.manager.emit_message = jpegWarning;
    if (setjmp(error.jump)) {
        std::snprintf(message, JMSG_LENGTH_MAX, "%s", error.message);
        jpeg_destroy_decompress(&info);
        return false;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<unsigned long>(bytes.size()));
    jpeg_read_header(&info, TRUE);
    *width = info.image_width;
    *height = info.image_height;
    if (info.image_width == 0 || info.image_height == 0 || info.image_width > maxSide || info.image_height > maxSide) {
        *tooLarge = true;
        jpeg_destroy_decompress(&info);
        return false;
    }
    info.out_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_start_decompress(&info);
    const std::size_t stride = static_cast<std::size_t>(info.output_width) * static_cast<std::size_t>(channels);
    pixels->resize(stride * info.output_height);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels->data() + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return true;
}

Image decodeJpeg(const std::string& bytes, const std::string& name, int channels) {
    Image im;
    im.channels = channels;
    unsigned width = 0, height = 0;
    bool tooLarge = false;
    char message[JMSG_LENGTH_MAX] = {0};
    if (!decodeJpegInto(bytes, channels, static_cast<unsigned>(kMaxDecodedSide), &im.pixels, &width, &height, &tooLarge,
                        message)) {
        if (tooLarge) checkSide(width, height, name);
        throw InputError(name, 0, std::string("damaged JPEG (") + message + ")");
    }
    im.width = static_cast<int>(width);
    im.height = static_cast<int>(height);
    return im;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

}  // namespace

Image decodeImage(const std::string& bytes, const std::string& name, int channels) {
    if (channels != 1 && channels != 3) throw std::invalid_argument("decodeImage: channels must be 1 or 3");
    if (isPng(bytes)) return decodePng(bytes, name, channels);
    if (isJpeg(bytes)) return decodeJpeg(bytes, name, channels);
    throw InputError(name, 0, "not a PNG or JPEG image");
}

Image resizeImage(const Image& in, int height, int width) {
    if (height < 1 || width < 1) throw std::invalid_argument("resizeImage: empty target");
    if (in.height == height && in.width == width) return in;
    const int c = in.channels;
    // Shrinking by 2x or more: average f x f boxes first (f the whole factor), then interpolate.
    const int f = std::max(1, std::min(in.height / height, in.width / width));
    Image src = in;
    if (f >= 2) {
        Image box;
        box.height = in.height / f;
        box.width = in.width / f;
        box.channels = c;
        box.pixels.assign(static_cast<std::size_t>(box.height) * box.width * c, 0);
        for (int y = 0; y < box.height; ++y)
            for (int x = 0; x < box.width; ++x)
                for (int k = 0; k < c; ++k) {
                    int sum = 0;
                    for (int dy = 0; dy < f; ++dy)
                        for (int dx = 0; dx < f; ++dx)
                            sum += in.pixels[(static_cast<std::size_t>(y * f + dy) * in.width + (x * f + dx)) * c + k];
                    box.pixels[(static_cast<std::size_t>(y) * box.width + x) * c + k] =
                        static_cast<std::uint8_t>((sum + f * f / 2) / (f * f));
                }
        src = std::move(box);
    }
    Image out;
    out.height = height;
    out.width = width;
    out.channels = c;
    out.pixels.resize(static_cast<std::size_t>(height) * width * c);
    const double sy = static_cast<double>(src.height) / height, sx = static_cast<double>(src.width) / width;
    for (int y = 0; y < height; ++y) {
        const double fy = std::clamp((y + 0.5) * sy - 0.5, 0.0, static_cast<double>(src.height - 1));
        const int y0 = static_cast<int>(fy), y1 = std::min(y0 + 1, src.height - 1);
        const double wy = fy - y0;
        for (int x = 0; x < width; ++x) {
            const double fx = std::clamp((x + 0.5) * sx - 0.5, 0.0, static_cast<double>(src.width - 1));
            const int x0 = static_cast<int>(fx), x1 = std::min(x0 + 1, src.width - 1);
            const double wx = fx - x0;
            for (int k = 0; k < c; ++k) {
                const auto at = [&](int yy, int xx) {
                    return static_cast<double>(src.pixels[(static_cast<std::size_t>(yy) * src.width + xx) * c + k]);
                };
                const double v = (1 - wy) * ((1 - wx) * at(y0, x0) + wx * at(y0, x1)) + wy * ((1 - wx) * at(y1, x0) + wx * at(y1, x1));
                out.pixels[(static_cast<std::size_t>(y) * width + x) * c + k] = static_cast<std::uint8_t>(std::lround(v));
            }
        }
    }
    return out;
}

ImageDataset readImageFolder(const std::string& dir, int channels, int height, int width, ImageFolderReport* report) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw InputError(dir, 0, "no such folder");
    std::vector<fs::path> classDirs;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_directory(ec)) classDirs.push_back(it->path());
    std::sort(classDirs.begin(), classDirs.end());
    if (classDirs.size() < 2)
        throw InputError(dir, 0, std::to_string(classDirs.size()) + " class folder" + (classDirs.size() == 1 ? "" : "s") +
                                     ": an image folder needs one folder per class, two or more (DIR/CLASS/*.png)");
    ImageFolderReport local;
    ImageFolderReport& r = report ? *report : local;
    ImageDataset d;
    d.name = dir;
    for (const fs::path& classDir : classDirs) {
        std::vector<fs::path> files;
        const std::size_t skippedBefore = r.skipped.size();
        for (fs::directory_iterator it(classDir, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string ext = lower(it->path().extension().string());
            if (!it->is_regular_file(ec)) continue;
            if (ext == ".png" || ext == ".jpg" || ext == ".jpeg") {
                files.push_back(it->path());
            } else if (ext == ".pgm" || ext == ".ppm" || ext == ".pnm" || ext == ".bmp" || ext == ".gif" || ext == ".tif" ||
                       ext == ".tiff" || ext == ".webp") {
                // An image in a format we have no decoding library for: said, not silently left out.
                r.skipped.emplace_back(it->path().string(), "a " + ext.substr(1) +
                                                                " image: only PNG and JPEG are read (convert it, e.g. pnmtopng)");
            }
        }
        std::sort(files.begin(), files.end());
        if (files.empty())
            throw InputError(classDir.string(), 0, "an empty class folder (no .png or .jpg file" +
                                                       std::string(r.skipped.size() == skippedBefore ? ")" : "; " + r.skipped.back().second + ")"));
        const int label = static_cast<int>(d.classes.size());
        d.classes.push_back(classDir.filename().string());
        std::size_t usable = 0;
        for (const fs::path& file : files) {
            try {
                const std::string bytes = readFileLimited(file.string(), kMaxImageFileBytes);
                d.images.push_back(resizeImage(decodeImage(bytes, file.string(), channels), height, width));
                d.labels.push_back(label);
                ++usable;
                ++r.read;
            } catch (const InputError& e) {
                r.skipped.emplace_back(file.string(), e.reason());
            }
        }
        if (usable == 0)
            throw InputError(classDir.string(), 0, "no usable image (" + std::to_string(files.size()) + " skipped: " +
                                                       r.skipped.back().second + ", for one)");
    }
    return d;
}

void writePng(const Image& image, const std::string& path) {
    png_image png{};
    png.version = PNG_IMAGE_VERSION;
    png.width = static_cast<png_uint_32>(image.width);
    png.height = static_cast<png_uint_32>(image.height);
    png.format = image.channels == 1 ? PNG_FORMAT_GRAY : PNG_FORMAT_RGB;
    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&png, nullptr, &size, 0, image.pixels.data(), 0, nullptr))
        throw std::runtime_error(path + ": cannot encode PNG (" + png.message + ")");
    std::string bytes(size, '\0');
    if (!png_image_write_to_memory(&png, bytes.data(), &size, 0, image.pixels.data(), 0, nullptr))
        throw std::runtime_error(path + ": cannot encode PNG (" + png.message + ")");
    bytes.resize(size);
    writeFileAtomically(path, bytes);
}

void writeImageFolder(const ImageDataset& d, const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw std::runtime_error(dir + ": cannot create the folder (" + ec.message() + ")");
    std::vector<int> counts(d.classes.size(), 0);
    std::string boxes;
    for (std::size_t i = 0; i < d.images.size(); ++i) {
        const auto label = static_cast<std::size_t>(d.labels[i]);
        // Class names may hold a '/' ("T-shirt/top"): not in a folder name.
        std::string folder = d.classes[label];
        std::replace(folder.begin(), folder.end(), '/', '-');
        const fs::path classDir = fs::path(dir) / folder;
        if (counts[label] == 0) {
            fs::create_directories(classDir, ec);
            if (ec) throw std::runtime_error(classDir.string() + ": cannot create the folder (" + ec.message() + ")");
        }
        char name[24];
        std::snprintf(name, sizeof name, "%05d.png", ++counts[label]);
        writePng(d.images[i], (classDir / name).string());
        if (i < d.boxes.size()) {
            const Box& b = d.boxes[i];
            boxes += folder + "/" + name + "\t" + std::to_string(b.top) + "\t" + std::to_string(b.left) + "\t" +
                     std::to_string(b.height) + "\t" + std::to_string(b.width) + "\n";
        }
    }
    if (!d.boxes.empty()) writeFileAtomically((fs::path(dir) / "boxes.tsv").string(), boxes);
}

std::optional<Box> readImageBox(const std::string& boxesTsv, const std::string& file) {
    const std::string text = readFileLimited(boxesTsv, kMaxImageFileBytes);
    const auto rows = tsvRowsFor(text, boxesTsv, 5, "file, top, left, height, width", {1, 2, 3, 4}, file);
    if (rows.empty()) return std::nullopt;
    const auto& r = rows.front();
    return Box{tsvNumber(r[1]), tsvNumber(r[2]), tsvNumber(r[3]), tsvNumber(r[4])};
}

std::pair<std::string, std::string> boxesFileFor(const std::string& imagePath) {
    namespace fs = std::filesystem;
    const fs::path image(imagePath);
    const fs::path classDir = image.parent_path();
    if (classDir.empty() || classDir.filename().empty()) return {};
    const fs::path tsv = classDir.parent_path() / "boxes.tsv";
    std::error_code ec;
    if (!fs::is_regular_file(tsv, ec)) return {};
    return {tsv.string(), classDir.filename().string() + "/" + image.filename().string()};
}

}  // namespace attnlab
