#pragma once
// The data flags of the image commands (`inspect`, `train` with --task image-classify or caption):
//   images:   exactly one of --images DIR (DIR/CLASS/*.png|jpg, read as --channels 1|3 at
//             --image-size N), --idx IMAGES LABELS (plain or .gz), --dataset fashion-mnist
//             [--split train|test] or --dataset glyphs [--size N] [--data-seed S];
//   captions: exactly one of --captions F.tsv (--channels, --image-size) or --dataset scenes
//             [--size N] [--data-seed S].
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "ArgParser.h"
#include "Commands.h"
#include "base/vision/CaptionGrounding.h"
#include "base/vision/Captions.h"
#include "base/vision/ImageData.h"
#include "base/vision/ImageFiles.h"

namespace attnlab::cli {

using IdxFiles = std::optional<std::pair<std::string, std::string>>;

// The arguments without `--idx IMAGES LABELS` (a flag with two values), which goes to *idx.
Args takeIdxFlag(const Args& args, IdxFiles* idx);

const std::set<std::string>& imageDataFlags();
// Throws UsageError naming the flag, InputError or ConfigError. `split` is the Fashion-MNIST split
// ("train" or "test"); a folder's skipped files go to *report.
ImageDataset loadImageDataset(const ArgParser& args, const IdxFiles& idx, const std::string& split,
                              ImageFolderReport* report);

const std::set<std::string>& captionDataFlags();
CaptionDataset loadCaptionDataset(const ArgParser& args);
// The objects of a scene image for look and explain: from --objects F.tsv (the image's rows by its
// name under images/, as writeCaptionFolder lists them, else as given; InputError if it lists none),
// or from the objects.tsv beside DIR/images/ when there is one; else none.
std::vector<SceneObject> sceneObjectsOf(const ArgParser& args, const std::string& image);
// The colours and shapes of every scene in that objects file (none without one), so that a caption's
// wrong colour or shape is still a colour or a shape (CaptionGrounding.h).
CaptionWords captionWordsOf(const ArgParser& args, const std::string& image);
// The scenes' --objects N or MIN-MAX (1..4; default 2-3); UsageError naming the flag.
SceneOptions sceneOptionsOf(const ArgParser& args);
// A captioner's grounding (base/vision/CaptionGrounding.h) as look --json and train print it:
// {"article": {"words": N, "peak_near": share, "peak_inside": share}, "colour": ..., "shape": ...,
// "relation": ..., "phrase": ...}, every key present (shares null without words).
nlohmann::json groundingJson(const std::map<std::string, GroundingShare>& shares);

}  // namespace attnlab::cli

namespace attnlab::cli {

// One image file (PNG or JPEG) as `channels`; InputError("FILE: reason") when it cannot be.
Image readImageFile(const std::string& path, int channels);

}  // namespace attnlab::cli
