// attnlab-cli's vision tasks, front end (no LibTorch): inspect --task image-classify|caption, the
// image datasets in `datasets` and their writer, their parts of train's help.
#include <iostream>
#include <limits>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "ArgParser.h"
#include "CliTasks.h"
#include "base/InputError.h"
#include "base/TaskIds.h"
#include "base/vision/Captions.h"
#include "base/vision/ImageData.h"
#include "base/vision/ImageDatasets.h"
#include "base/vision/ImageFiles.h"
#include "images/ImageSources.h"
#include "images/ImagesCli.h"

namespace attnlab::cli {

namespace {

// inspect --task image-classify: images and labels from a folder (--images DIR: DIR/CLASS/*.png|jpg,
// as --channels 1|3 and --image-size N), IDX files (--idx IMAGES LABELS, plain or .gz), Debian's
// Fashion-MNIST (--dataset fashion-mnist [--split train|test]) or the generated glyphs (--dataset
// glyphs [--size N] [--data-seed S]).
int inspectImages(const Args& args) {
    IdxFiles idx;
    std::set<std::string> flags = imageDataFlags();
    flags.insert("--task");
    ArgParser p(takeIdxFlag(args, &idx), flags, {});
    if (!p.positionals().empty()) throw UsageError("unexpected argument '" + p.positionals().front() + "'");
    const std::string split = p.text("--split", "train");
    if (split != "train" && split != "test") throw UsageError("--split must be train or test, got '" + split + "'");
    ImageFolderReport report;
    const ImageDataset d = loadImageDataset(p, idx, split, &report);
    std::vector<std::size_t> perClass(d.classes.size(), 0);
    double sum = 0;
    std::size_t pixels = 0;
    for (std::size_t i = 0; i < d.images.size(); ++i) {
        ++perClass[static_cast<std::size_t>(d.labels[i])];
        for (std::uint8_t v : d.images[i].pixels) sum += v;
        pixels += d.images[i].pixels.size();
    }
    nlohmann::ordered_json classes = nlohmann::ordered_json::object();
    for (std::size_t k = 0; k < d.classes.size(); ++k) classes[d.classes[k]] = perClass[k];
    nlohmann::ordered_json out;
    out["name"] = d.name;
    out["images"] = d.images.size();
    out["height"] = d.images.front().height;
    out["width"] = d.images.front().width;
    out["channels"] = d.images.front().channels;
    out["classes"] = std::move(classes);
    out["mean_pixel"] = pixels ? sum / static_cast<double>(pixels) / 255.0 : 0.0;
    out["has_boxes"] = !d.boxes.empty();
    if (p.has("--images")) {
        nlohmann::ordered_json skipped = nlohmann::ordered_json::array();
        for (const auto& [file, reason] : report.skipped) skipped.push_back({{"file", file}, {"reason", reason}});
        out["skipped"] = std::move(skipped);
    }
    std::cout << out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return kOk;
}

// inspect --task caption: a caption list (--captions F.tsv, images relative to it, read as --channels
// 1|3 at --image-size N) or the generated scenes (--dataset scenes [--size N] [--data-seed S]).
int inspectCaptions(const Args& args) {
    std::set<std::string> flags = captionDataFlags();
    flags.insert("--task");
    ArgParser p(args, flags, {});
    if (!p.positionals().empty()) throw UsageError("unexpected argument '" + p.positionals().front() + "'");
    const CaptionDataset d = loadCaptionDataset(p);
    std::set<std::string> vocabulary;
    std::size_t captions = 0, longest = 0;
    for (const auto& list : d.captions)
        for (const std::string& c : list) {
            ++captions;
            std::size_t n = 0;
            std::istringstream in(c);
            for (std::string w; in >> w; ++n) vocabulary.insert(w);
            longest = std::max(longest, n);
        }
    nlohmann::ordered_json out;
    out["name"] = d.name;
    out["images"] = d.images.size();
    out["captions"] = captions;
    out["height"] = d.images.front().height;
    out["width"] = d.images.front().width;
    out["channels"] = d.images.front().channels;
    out["vocabulary"] = vocabulary.size();
    out["max_caption_words"] = longest;
    out["has_boxes"] = !d.objects.empty();
    std::cout << out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return kOk;
}

std::vector<DatasetRow> imageDatasetRows() {
    std::vector<DatasetRow> rows(3);
    rows[0].name = "glyphs";
    rows[0].description = {"32x32 grey: a 6x6 mark (plus, ring, slash, corner) among distractor dashes; the mark's box is known."};
    rows[1].name = "scenes";
    rows[1].description = {"48x48 RGB: two or three coloured shapes anywhere, each related to the one named before",
                           "(left of, right of, above, below); each object's box is known."};
    rows[2].name = "fashion-mnist";
    rows[2].description = {"28x28 grey garments in 10 classes, from Debian's dataset-fashion-mnist."};
    return rows;
}

bool writeImageDataset(const ArgParser& p, const std::string& name, const std::string& out) {
    if (name != "glyphs" && name != "scenes" && name != "fashion-mnist") return false;
    refuseFlags(p, {"--period", "--second-period", "--lag"}, "applies to the series seasonal, echo and regime");
    if (p.has("--noise") && name != "scenes") throw UsageError("--noise applies to scenes and the series seasonal, echo and regime");
    for (const char* flag : {"--max-len", "--alignments", "--split-cjk", "--no-split-cjk", "--length"})
        if (p.has(flag)) throw UsageError(std::string(flag) + " applies to text datasets");
    checkOutputFolder("--out", out);
    const std::string split = p.text("--split", "train");
    if (p.has("--split") && name != "fashion-mnist") throw UsageError("--split applies to fashion-mnist");
    if (split != "train" && split != "test") throw UsageError("--split must be train or test, got '" + split + "'");
    const long long fallback = name == "fashion-mnist" ? 60000
                               : name == "glyphs"      ? static_cast<long long>(kDefaultGlyphCount)
                                                       : static_cast<long long>(kDefaultSceneCount);
    const auto size = static_cast<std::size_t>(p.integer("--size", fallback, 1, 1000000));
    const auto seed = static_cast<std::uint64_t>(p.integer("--seed", 1, 0, std::numeric_limits<long long>::max()));
    if (p.has("--objects") && name != "scenes") throw UsageError("--objects applies to scenes");
    if (name == "scenes") {
        const CaptionDataset d = makeScenes(size, seed, sceneOptionsOf(p));
        writeCaptionFolder(d, out);
        std::cerr << "wrote " << d.images.size() << " scenes to " << out << " (captions.tsv, objects.tsv, images/)\n";
        return true;
    }
    ImageDataset d;
    if (name == "glyphs") {
        if (size < 2) throw UsageError("--size must be at least 2 for glyphs");
        d = makeGlyphs(size, seed);
    } else {  // the first --size images of Debian's package (a split), for reference trainers that read folders
        if (p.has("--seed")) throw UsageError("--seed does not apply to fashion-mnist (its images are fixed)");
        d = readFashionMnist(split == "train");
        if (size < d.images.size()) {
            d.images.resize(size);
            d.labels.resize(size);
        }
    }
    writeImageFolder(d, out);
    std::cerr << "wrote " << d.images.size() << " images in " << d.classes.size() << " class folders to " << out
              << (d.boxes.empty() ? "" : " (boxes in boxes.tsv)") << "\n";
    return true;
}

const char* kImageTrainHelp = R"(Images: attnlab-cli train --task image-classify (--images DIR | --idx IMAGES LABELS |
                         --dataset fashion-mnist|glyphs) --arch vit --out MODEL.safetensors
  data as for inspect --task image-classify (--channels, --image-size, --size, --data-seed);
  Fashion-MNIST trains on its 60,000 training images and tests on its 10,000 test images,
  the others hold --val-fraction out. A vision Transformer: P x P patches, [CLS], positions,
  pre-norm encoder layers (GELU), a linear head on [CLS].
  --patch P (4)  --hidden N (64)  --heads N (4)  --layers N (3)  --ff N (4 x hidden)
  --positions learned|sinusoidal (learned)  --dropout F (0: off)
  --attention-pattern P [--window W (3)] [--chunk C (0 = ceil(sqrt(1 + patches)))] as for
  translation, not causal, over [CLS] then the patches row-major: [CLS] is position 0, so
  under local, strided or chunked its row and column see only what the pattern allows
  --epochs N (8)  --batch N (32)  --lr F (0.001)  --clip F (1.0)  --seed N  --threads N
  --lr-schedule constant|cosine   the learning rate kept, or decayed to 0 along a cosine
  Each epoch's JSON: epoch, train_loss, val_loss, val_accuracy, pairs_per_sec and
  images_per_sec (training images per second), seconds; with boxes (glyphs):
  rollout_on_box (the [CLS] rollout's mass on the mark) beside box_share (uniform's).
)";
const char* kCaptionTrainHelp = R"(Captions: attnlab-cli train --task caption (--captions FILE.tsv | --dataset scenes)
                         --arch cnn-gru --out MODEL.safetensors
  A CNN's (S/8) x (S/8) grid of features and a GRU decoder that attends over the cells.
  --attention dot|additive (dot)  --doubly-stochastic L (1; 0: off; Xu et al.'s
  L * sum over cells of (1 - sum over words of alpha)^2)  --hidden N (128)  --embedding N (64)
  --features N (64)  --max-len N (16 words)  --epochs N (12)  --lr F (0.003)  --batch N (16)
  --query current|previous (current: the decoder reads the word it just wrote, then asks over
                       the cells; previous: it asks first, as Bahdanau et al. and Xu et al.)
  --encoder image|cell (image: the convolutions see the whole image; cell: each 8x8 cell alone)
  --initial-state mean|zero (the decoder's first state: tanh(W mean(features)), or zeros)
  --gate               Xu et al.'s gate: the context scaled by sigmoid(w . h + b)
  --input-feeding on|off  with --query current: the decoder also reads the previous context with
                       the word it just wrote (on), or only the word (off, the default: each
                       word's map is then where that word was read)
  --sentinel           Lu et al.'s visual sentinel, one more key drawn from the state (additive)
  --objects N|MIN-MAX  with --dataset scenes: objects per scene (1..4; default 2-3)
  --noise X            with --dataset scenes: a noisy dark grey background (0..0.5; default 0)
  Each epoch's JSON: epoch, train_loss, val_loss, val_bleu (0-100), val_exact, pairs_per_sec,
  seconds; with objects (scenes): objects_named (held-out images whose caption names every
  object, "red disk"), peak_in_box (shape words whose attention peak cell has its centre in that
  object's box or within half a cell of it), peak_strictly_in_box (in the box itself) and
  grounding (the same per word class and per noun phrase, as look --json prints it).
)";

}  // namespace

FrontTask imageClassifierFrontTask() {
    FrontTask t;
    t.id = tasks::kImageClassify;
    t.datasetsHeading =
        "Images (inspect --task image-classify|caption --dataset NAME; --write NAME --out DIR writes a folder):";
    t.datasets = imageDatasetRows;  // the Images task's, the captioner's scenes among them
    t.writeDataset = writeImageDataset;
    t.inspect = inspectImages;
    t.trainHelp = kImageTrainHelp;
    return t;
}

FrontTask captionerFrontTask() {
    FrontTask t;
    t.id = tasks::kCaption;
    t.inspect = inspectCaptions;
    t.trainHelp = kCaptionTrainHelp;
    return t;
}

}  // namespace attnlab::cli
