#pragma once
// Image captioning data: images, each with one or more captions (lower-case words) and, for the
// generated scenes, each object's box, colour and shape, so that a captioner's attention for a shape
// word can be checked against the object it names.
//   scenes: black RGB images with two or three coloured shapes side by side, captioned left to right,
//           e.g. "a red disk left of a blue box left of a green bar".
// The caption list format is a TSV `image<TAB>caption`, image paths relative to the TSV's folder,
// several lines per image allowed.
#include <cstdint>
#include <string>
#include <vector>

#include "ImageData.h"

namespace attnlab {

struct SceneObject {
    Box box;
    std::string colour;  // "red", "green", "blue", "yellow", "white"
    std::string shape;   // "disk", "box", "bar", "triangle"
};

struct CaptionDataset {
    std::string name;                               // "scenes", or the TSV
    std::vector<Image> images;
    std::vector<std::vector<std::string>> captions;  // per image, one or more
    std::vector<std::string> files;                  // per image, the file it came from (empty if generated)
    std::vector<std::vector<SceneObject>> objects;   // per image, left to right (empty when unknown)
};

struct SceneOptions {
    int imageSize = 48;  // square RGB, 32..256
    int minObjects = 2, maxObjects = 3;  // 1..4
};

// How many scenes the CLI and the GUI generate unless told: with 3,600 for training the default
// captioner names every object in over 0.9 of held-out scenes from its fifth epoch (docs/vision.md).
inline constexpr std::size_t kDefaultSceneCount = 4000;

const std::vector<std::string>& sceneColours();
const std::vector<std::string>& sceneShapes();

// `size` scenes (1..1,000,000) from the seed. Throws ConfigError for an option out of range.
CaptionDataset makeScenes(std::size_t size, std::uint64_t seed, const SceneOptions& options = {});

// A caption as its words: split on white space, lower-cased (how captions are stored and read).
std::vector<std::string> captionWords(const std::string& caption);

// Reads `image<TAB>caption` lines (the corpus reader's rules: UTF-8, BOM, CRLF, blank lines skipped);
// captions are lower-cased and split on white space; each image is decoded (ImageFiles.h) as
// `channels` at height x width, once however many captions it has. Throws InputError naming the
// TSV's line for a line without a tab, an empty caption, or an image that is missing or cannot be
// decoded; naming the TSV for a file without captions.
CaptionDataset readCaptionTsv(const std::string& path, int channels, int height, int width);

// The dataset as DIR/images/00001.png ..., DIR/captions.tsv (the format readCaptionTsv reads) and,
// when it has objects, DIR/objects.tsv (file, object, colour, shape, top, left, height, width).
// Throws std::runtime_error("PATH: reason") for a failed write.
void writeCaptionFolder(const CaptionDataset& dataset, const std::string& dir);

}  // namespace attnlab
