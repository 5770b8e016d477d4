#pragma once
// Image captioning data: images, each with one or more captions (lower-case words) and, for the
// generated scenes, each object's box, colour and shape, so that a captioner's attention for a shape
// word can be checked against the object it names.
//   scenes: black RGB images with two or three coloured shapes anywhere (kept apart), named in a
//           random order, each related to the one before: "a red disk above a blue box left of a
//           green bar" ("left of", "right of", "above", "below").
// The caption list format is a TSV `image<TAB>caption`, image paths relative to the TSV's folder,
// several lines per image allowed.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
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
    std::vector<std::vector<SceneObject>> objects;   // per image, in the caption's order (empty when unknown)
};

struct SceneOptions {
    int imageSize = 48;  // square RGB, 32..256
    int minObjects = 2, maxObjects = 3;  // 1..4
    // 0 (the default): a black background and flat colours. Above 0 (at most 0.5): a dark grey
    // background (0.08) with Gaussian noise of this standard deviation on every pixel, and half as
    // much on the objects' colours (on 0..1). The noise has its own random stream: the objects, their
    // boxes and the captions are those of the clean scenes of the same seed.
    double noise = 0;
};

// How many scenes the CLI and the GUI generate unless told: with 5,400 of the two-or-three-object
// scenes for training the default captioner names every object in 0.93 of the held-out scenes at
// its tenth epoch (seed 1), with 3,600 only 0.83 (docs/vision.md).
inline constexpr std::size_t kDefaultSceneCount = 6000;

const std::vector<std::string>& sceneColours();
const std::vector<std::string>& sceneShapes();
const std::vector<std::string>& sceneRelations();  // "left of", "right of", "above", "below"
// The relations of sceneRelations() that hold from a to b: "left of" when a ends at or before b's
// left edge, "above" when a ends at or above b's top edge, and so on.
std::vector<std::string> relationsBetween(const Box& a, const Box& b);

// `size` scenes (1..1,000,000) from the seed. Throws ConfigError for an option out of range.
CaptionDataset makeScenes(std::size_t size, std::uint64_t seed, const SceneOptions& options = {});

// A caption as its words: split on white space, lower-cased (how captions are stored and read).
std::vector<std::string> captionWords(const std::string& caption);

// Reads `image<TAB>caption` lines (the corpus reader's rules: UTF-8, BOM, CRLF, blank lines skipped);
// with an objects.tsv beside the TSV (the format writeCaptionFolder writes, each image by the name
// the TSV gives it), each image's objects too (an image it does not list has none; a file that
// lists none of them leaves `objects` empty);
// captions are lower-cased and split on white space; each image is decoded (ImageFiles.h) as
// `channels` at height x width, once however many captions it has. Throws InputError naming the
// TSV's line for a line without a tab, an empty caption, or an image that is missing or cannot be
// decoded; naming the TSV for a file without captions.
CaptionDataset readCaptionTsv(const std::string& path, int channels, int height, int width);

// The dataset as DIR/images/00001.png ..., DIR/captions.tsv (the format readCaptionTsv reads) and,
// when it has objects, DIR/objects.tsv (file, object, colour, shape, top, left, height, width).
// Throws std::runtime_error("PATH: reason") for a failed write.
void writeCaptionFolder(const CaptionDataset& dataset, const std::string& dir);

// The object (an index into `objects`) that caption word `t` names: a shape after its colour, a
// colour before its shape, or the article before them; -1 for another word.
int namedObject(const std::vector<std::string>& words, std::size_t t, const std::vector<SceneObject>& objects);

// The objects of one image from an objects.tsv that writeCaptionFolder wrote (file, object,
// colour, shape, top, left, height, width; `file` as written there, e.g. "images/00001.png"), in
// the object column's order; empty if the file lists none for it. Throws InputError naming the
// TSV's line for a line with other than eight columns or a number that is not one.
std::vector<SceneObject> readSceneObjects(const std::string& objectsTsv, const std::string& file);
// Every image's objects from an objects.tsv, by the file name it gives (errors as readSceneObjects).
std::map<std::string, std::vector<SceneObject>> readObjectsByFile(const std::string& objectsTsv);
// The objects.tsv that lists an image written by writeCaptionFolder (DIR/images/NAME ->
// DIR/objects.tsv, "images/NAME"), or an empty path if there is none.
std::pair<std::string, std::string> objectsFileFor(const std::string& imagePath);

}  // namespace attnlab
