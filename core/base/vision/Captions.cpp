#include "Captions.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>

#include "base/translation/ParallelCorpus.h"  // kMaxCorpusFileBytes
#include "base/io/FileUtil.h"
#include "ImageFiles.h"
#include "base/InputError.h"
#include "base/SeededRandom.h"
#include "base/io/TextLines.h"

namespace attnlab {

namespace {

struct Rgb {
    std::uint8_t r, g, b;
};

Rgb rgbOf(const std::string& colour) {
    if (colour == "red") return {230, 40, 40};
    if (colour == "green") return {40, 200, 60};
    if (colour == "blue") return {50, 90, 240};
    if (colour == "yellow") return {240, 220, 40};
    return {240, 240, 240};  // white
}

// Whether pixel (y, x) of the box belongs to the shape drawn in it.
bool inShape(const std::string& shape, const Box& b, int y, int x) {
    const double cy = b.top + (b.height - 1) / 2.0, cx = b.left + (b.width - 1) / 2.0;
    if (shape == "disk") {
        const double ry = b.height / 2.0, rx = b.width / 2.0;
        return std::pow((y - cy) / ry, 2) + std::pow((x - cx) / rx, 2) <= 1.0;
    }
    if (shape == "bar") return std::abs(x - cx) <= b.width / 6.0 + 0.5;  // a vertical bar, the box's height
    if (shape == "triangle") {                                            // apex up
        const double t = static_cast<double>(y - b.top + 1) / b.height;  // 0 at the apex, 1 at the base
        return std::abs(x - cx) <= t * b.width / 2.0;
    }
    return true;  // box: the whole square
}


}  // namespace

const std::vector<std::string>& sceneColours() {
    static const std::vector<std::string> colours{"red", "green", "blue", "yellow", "white"};
    return colours;
}

const std::vector<std::string>& sceneShapes() {
    static const std::vector<std::string> shapes{"disk", "box", "bar", "triangle"};
    return shapes;
}

std::vector<std::string> captionWords(const std::string& caption) {
    std::vector<std::string> out;
    std::istringstream in(caption);
    for (std::string w; in >> w;) {
        std::transform(w.begin(), w.end(), w.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        out.push_back(w);
    }
    return out;
}

const std::vector<std::string>& sceneRelations() {
    static const std::vector<std::string> relations{"left of", "right of", "above", "below"};
    return relations;
}

std::vector<std::string> relationsBetween(const Box& a, const Box& b) {
    std::vector<std::string> out;
    if (a.left + a.width <= b.left) out.emplace_back("left of");
    if (b.left + b.width <= a.left) out.emplace_back("right of");
    if (a.top + a.height <= b.top) out.emplace_back("above");
    if (b.top + b.height <= a.top) out.emplace_back("below");
    return out;
}

CaptionDataset makeScenes(std::size_t size, std::uint64_t seed, const SceneOptions& o) {
    if (size < 1 || size > 1000000) throw ConfigError("scenes: the number of images must be between 1 and 1000000");
    if (o.imageSize < 32 || o.imageSize > 256) throw ConfigError("scenes: the image size must be between 32 and 256");
    if (o.minObjects < 1 || o.maxObjects > 4 || o.minObjects > o.maxObjects)
        throw ConfigError("scenes: the objects per image must be between 1 and 4");
    if (!(o.noise >= 0 && o.noise <= 0.5)) throw ConfigError("scenes: the noise must be between 0 and 0.5");
    SeededRandom rng(seed);
    std::mt19937_64 grain(seed ^ 0x9E3779B97F4A7C15ULL);  // the noise's own stream
    auto gaussian = [&grain](double sd) {  // Box-Muller from two uniform draws of the 64-bit engine
        const double u = (static_cast<double>(grain() >> 11) + 0.5) * 0x1.0p-53;
        const double v = static_cast<double>(grain() >> 11) * 0x1.0p-53;
        return sd * std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v);
    };
    auto byte = [](double v) { return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0, 1.0) * 255.0)); };
    CaptionDataset d;
    d.name = "scenes";
    const int n = o.imageSize;
    const int gap = std::max(2, n / 24);  // pixels between two objects' boxes, so that every relation is clear
    for (std::size_t i = 0; i < size; ++i) {
        const int count = rng.range(o.minObjects, o.maxObjects);
        // Sides from an eighth of the image to a third of it (a quarter with three or more objects),
        // each object at a random spot that keeps `gap` pixels from the others; distinct colour-shape
        // pairs, so that a caption's words name one object each.
        const int largest = count >= 3 ? n / 4 : n / 3, smallest = std::max(6, n / 8);
        std::vector<SceneObject> objects;
        for (int k = 0; k < count; ++k) {
            SceneObject obj;
            for (bool placed = false; !placed;) {
                obj.colour = rng.pick(sceneColours());
                obj.shape = rng.pick(sceneShapes());
                const int side = rng.range(smallest, std::max(smallest, largest));
                obj.box = {rng.range(0, n - side), rng.range(0, n - side), side, side};
                placed = true;
                for (const SceneObject& other : objects) {
                    const Box& b = other.box;
                    const bool apart = obj.box.left + obj.box.width + gap <= b.left || b.left + b.width + gap <= obj.box.left ||
                                       obj.box.top + obj.box.height + gap <= b.top || b.top + b.height + gap <= obj.box.top;
                    if (!apart || (other.colour == obj.colour && other.shape == obj.shape)) placed = false;
                }
            }
            objects.push_back(obj);
        }
        Image im;
        im.height = im.width = n;
        im.channels = 3;
        im.pixels.assign(static_cast<std::size_t>(n) * n * 3, 0);
        if (o.noise > 0)
            for (std::size_t p = 0; p < im.pixels.size(); p += 3)
                im.pixels[p] = im.pixels[p + 1] = im.pixels[p + 2] = byte(0.08 + gaussian(o.noise));
        for (const SceneObject& obj : objects) {
            const Rgb c = rgbOf(obj.colour);
            for (int y = obj.box.top; y < obj.box.top + obj.box.height; ++y)
                for (int x = obj.box.left; x < obj.box.left + obj.box.width; ++x)
                    if (inShape(obj.shape, obj.box, y, x)) {
                        std::uint8_t* p = &im.pixels[(static_cast<std::size_t>(y) * n + x) * 3];
                        if (o.noise > 0) {
                            const double shade = gaussian(o.noise / 2);
                            p[0] = byte(c.r / 255.0 + shade);
                            p[1] = byte(c.g / 255.0 + shade);
                            p[2] = byte(c.b / 255.0 + shade);
                        } else {
                            p[0] = c.r;
                            p[1] = c.g;
                            p[2] = c.b;
                        }
                    }
        }
        // The caption names the objects in a random order, each related to the one before by a
        // relation that holds between their boxes (one of those that hold, at random): "a red disk
        // above a blue box left of a green bar". Boxes kept apart always have one.
        rng.shuffle(objects);
        std::string caption = "a " + objects.front().colour + " " + objects.front().shape;
        for (std::size_t k = 1; k < objects.size(); ++k)
            caption += " " + rng.pick(relationsBetween(objects[k - 1].box, objects[k].box)) + " a " + objects[k].colour + " " +
                       objects[k].shape;
        d.images.push_back(std::move(im));
        d.captions.push_back({caption});
        d.files.emplace_back();
        d.objects.push_back(std::move(objects));
    }
    return d;
}

namespace {
std::map<std::string, std::vector<SceneObject>> objectsByFile(const std::string& objectsTsv, const std::string& file);
}  // namespace

CaptionDataset readCaptionTsv(const std::string& path, int channels, int height, int width) {
    namespace fs = std::filesystem;
    const std::string text = readFileLimited(path, kMaxCorpusFileBytes);
    const fs::path folder = fs::path(path).parent_path();
    CaptionDataset d;
    d.name = path;
    // Image file -> its position. Keyed by the file's device and inode, so that one file named two
    // ways ("a.png", "./a.png", "sub/../a.png", a link) is one image, decoded once; by its name if
    // it cannot be stat'ed (then reading it fails and names the line).
    std::map<std::string, std::size_t> index;
    std::vector<std::string> names;  // per image, as the TSV names it
    std::vector<std::string> warnings;
    readTwoColumns(
        text, path, "no tab between image and caption", [](long) {},
        [&](long line, const std::string& rawImage, const std::string& rawCaption) {
            const std::string file = trim(rawImage);
            const std::vector<std::string> caption = captionWords(trim(rawCaption));
            if (file.empty()) throw InputError(path, line, "empty image name");
            if (caption.empty()) throw InputError(path, line, "empty caption");
            const std::string resolved = fs::path(file).is_absolute() ? file : (folder / file).string();
            struct stat st {};
            const std::string key = ::stat(resolved.c_str(), &st) == 0
                                        ? std::string(1, '\0') + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino)
                                        : resolved;  // a path holds no NUL: the two kinds of key never meet
            auto found = index.find(key);
            if (found == index.end()) {
                Image im;
                try {
                    im = resizeImage(decodeImage(readFileLimited(resolved, kMaxImageFileBytes), resolved, channels), height, width);
                } catch (const InputError& e) {
                    throw InputError(path, line, "image " + file + ": " + e.reason());
                }
                found = index.emplace(key, d.images.size()).first;
                d.images.push_back(std::move(im));
                d.files.push_back(resolved);
                names.push_back(file);
                d.captions.emplace_back();
            }
            std::string joined;
            for (const auto& w : caption) joined += (joined.empty() ? "" : " ") + w;
            d.captions[found->second].push_back(joined);
        },
        warnings);
    if (d.images.empty()) throw InputError(path, 0, "no captioned image");
    // The objects of the scenes when an objects.tsv lies beside the TSV (as datasets --write scenes
    // writes it), by the image names the TSV gives.
    const fs::path objectsTsv = folder / "objects.tsv";
    std::error_code ec;
    if (fs::is_regular_file(objectsTsv, ec)) {
        const auto byFile = objectsByFile(objectsTsv.string(), "");
        std::vector<std::vector<SceneObject>> objects(d.images.size());
        bool any = false;
        for (std::size_t i = 0; i < d.images.size(); ++i) {
            const auto found = byFile.find(names[i]);
            if (found == byFile.end()) continue;
            objects[i] = found->second;
            any = true;
        }
        if (any) d.objects = std::move(objects);
    }
    return d;
}

void writeCaptionFolder(const CaptionDataset& d, const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(fs::path(dir) / "images", ec);
    if (ec) throw std::runtime_error(dir + ": cannot create the folder (" + ec.message() + ")");
    std::string captions, objects;
    for (std::size_t i = 0; i < d.images.size(); ++i) {
        char name[40];
        std::snprintf(name, sizeof name, "images/%05zu.png", i + 1);
        writePng(d.images[i], (fs::path(dir) / name).string());
        for (const std::string& c : d.captions[i]) captions += std::string(name) + "\t" + c + "\n";
        if (i < d.objects.size())
            for (std::size_t k = 0; k < d.objects[i].size(); ++k) {
                const SceneObject& o = d.objects[i][k];
                objects += std::string(name) + "\t" + std::to_string(k) + "\t" + o.colour + "\t" + o.shape + "\t" +
                           std::to_string(o.box.top) + "\t" + std::to_string(o.box.left) + "\t" +
                           std::to_string(o.box.height) + "\t" + std::to_string(o.box.width) + "\n";
            }
    }
    writeFileAtomically((fs::path(dir) / "captions.tsv").string(), captions);
    if (!d.objects.empty()) writeFileAtomically((fs::path(dir) / "objects.tsv").string(), objects);
}

int namedObject(const std::vector<std::string>& words, std::size_t t, const std::vector<SceneObject>& objects) {
    if (t >= words.size()) return -1;
    for (std::size_t k = 0; k < objects.size(); ++k) {
        const SceneObject& o = objects[k];
        if (t > 0 && words[t - 1] == o.colour && words[t] == o.shape) return static_cast<int>(k);
        if (t + 1 < words.size() && words[t] == o.colour && words[t + 1] == o.shape) return static_cast<int>(k);
    }
    // The article just before a phrase belongs to its object (as CaptionGrounding counts it).
    const std::string& w = words[t];
    if ((w == "a" || w == "an" || w == "the") && t + 1 < words.size()) return namedObject(words, t + 1, objects);
    return -1;
}

namespace {

// The rows of an objects.tsv for `file` (empty: every file), by file then by the object column.
std::map<std::string, std::vector<SceneObject>> objectsByFile(const std::string& objectsTsv, const std::string& file) {
    const std::string text = readFileLimited(objectsTsv, kMaxCorpusFileBytes);
    auto rows = tsvRowsFor(text, objectsTsv, 8, "file, object, colour, shape, top, left, height, width", {1, 4, 5, 6, 7}, file);
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return tsvNumber(a[1]) < tsvNumber(b[1]); });
    std::map<std::string, std::vector<SceneObject>> out;
    for (const auto& r : rows) {
        SceneObject o;
        o.colour = r[2];
        o.shape = r[3];
        o.box = {tsvNumber(r[4]), tsvNumber(r[5]), tsvNumber(r[6]), tsvNumber(r[7])};
        out[r[0]].push_back(std::move(o));
    }
    return out;
}

}  // namespace

std::map<std::string, std::vector<SceneObject>> readObjectsByFile(const std::string& objectsTsv) {
    return objectsByFile(objectsTsv, "");
}

std::vector<SceneObject> readSceneObjects(const std::string& objectsTsv, const std::string& file) {
    if (file.empty()) return {};
    auto byFile = objectsByFile(objectsTsv, file);
    return byFile.empty() ? std::vector<SceneObject>{} : std::move(byFile.begin()->second);
}

std::pair<std::string, std::string> objectsFileFor(const std::string& imagePath) {
    namespace fs = std::filesystem;
    const fs::path image(imagePath);
    const fs::path folder = image.parent_path();
    if (folder.filename() != "images") return {};
    const fs::path tsv = folder.parent_path() / "objects.tsv";
    std::error_code ec;
    if (!fs::is_regular_file(tsv, ec)) return {};
    return {tsv.string(), "images/" + image.filename().string()};
}

}  // namespace attnlab
