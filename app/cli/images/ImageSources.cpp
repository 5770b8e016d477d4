#include "images/ImageSources.h"

#include "base/InputError.h"

#include <cmath>

#include "ArgParser.h"
#include "base/vision/ImageDatasets.h"

namespace attnlab::cli {

Args takeIdxFlag(const Args& args, IdxFiles* idx) {
    Args rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] != "--idx") {
            rest.push_back(args[i]);
            continue;
        }
        if (i + 2 >= args.size() || args[i + 1].rfind("--", 0) == 0 || args[i + 2].rfind("--", 0) == 0)
            throw UsageError("--idx expects two files: IMAGES LABELS");
        *idx = std::make_pair(args[i + 1], args[i + 2]);
        i += 2;
    }
    return rest;
}

const std::set<std::string>& imageDataFlags() {
    static const std::set<std::string> flags{"--dataset", "--split", "--images", "--channels", "--image-size", "--size", "--data-seed"};
    return flags;
}

namespace {

int channelsFlag(const ArgParser& p, int fallback) {
    const int channels = static_cast<int>(p.integer("--channels", fallback, 1, 3));
    if (channels == 2) throw UsageError("--channels must be 1 (grey) or 3 (RGB), got 2");
    return channels;
}

}  // namespace

ImageDataset loadImageDataset(const ArgParser& p, const IdxFiles& idx, const std::string& split, ImageFolderReport* report) {
    const int sources = (idx ? 1 : 0) + (p.has("--dataset") ? 1 : 0) + (p.has("--images") ? 1 : 0);
    if (sources != 1) throw UsageError("give one of --images DIR, --idx IMAGES LABELS or --dataset fashion-mnist|glyphs");
    const std::string dataset = p.text("--dataset", "");
    if (p.has("--split") && dataset != "fashion-mnist") throw UsageError("--split applies to --dataset fashion-mnist");
    if ((p.has("--size") || p.has("--data-seed")) && dataset != "glyphs")
        throw UsageError("--size and --data-seed apply to --dataset glyphs");
    if ((p.has("--channels") || p.has("--image-size")) && !p.has("--images"))
        throw UsageError("--channels and --image-size apply to --images DIR");
    if (idx) return readIdxDataset(idx->first, idx->second);
    if (p.has("--images")) {
        const int channels = channelsFlag(p, 1);
        const int side = static_cast<int>(p.integer("--image-size", 32, 4, 1024));
        return readImageFolder(p.text("--images", ""), channels, side, side, report);
    }
    if (dataset == "fashion-mnist") return readFashionMnist(split == "train");
    if (dataset == "glyphs")
        return makeGlyphs(static_cast<std::size_t>(p.integer("--size", static_cast<long long>(kDefaultGlyphCount), 2, 1000000)),
                          static_cast<std::uint64_t>(p.integer("--data-seed", 1, 0, 1LL << 62)));
    throw UsageError("--dataset: unknown image dataset '" + dataset + "' (known: fashion-mnist, glyphs)");
}

const std::set<std::string>& captionDataFlags() {
    static const std::set<std::string> flags{"--captions", "--dataset", "--channels", "--image-size", "--size", "--data-seed",
                                             "--objects", "--noise"};
    return flags;
}

std::vector<SceneObject> sceneObjectsOf(const ArgParser& args, const std::string& image) {
    if (const auto tsv = args.value("--objects")) {
        const auto guess = objectsFileFor(image);
        const std::string file = guess.second.empty() ? image : guess.second;
        std::vector<SceneObject> objects = readSceneObjects(*tsv, file);
        if (objects.empty()) throw InputError(*tsv, 0, "lists no object for " + file);
        return objects;
    }
    if (const auto found = objectsFileFor(image); !found.first.empty()) return readSceneObjects(found.first, found.second);
    return {};
}

CaptionWords captionWordsOf(const ArgParser& args, const std::string& image) {
    std::string tsv;
    if (const auto given = args.value("--objects")) tsv = *given;
    else tsv = objectsFileFor(image).first;
    CaptionWords words;
    if (tsv.empty()) return words;
    for (const auto& [file, objects] : readObjectsByFile(tsv)) words.add(objects);
    return words;
}

SceneOptions sceneOptionsOf(const ArgParser& p) {
    SceneOptions o;
    o.noise = p.real("--noise", o.noise, 0.0, 0.5);
    const auto text = p.value("--objects");
    if (!text) return o;
    const std::size_t dash = text->find('-');
    auto number = [&](const std::string& part) {
        if (part.size() != 1 || part[0] < '1' || part[0] > '4')
            throw UsageError("--objects: expected N or MIN-MAX with numbers 1..4, got '" + *text + "'");
        return part[0] - '0';
    };
    o.minObjects = number(text->substr(0, dash));
    o.maxObjects = dash == std::string::npos ? o.minObjects : number(text->substr(dash + 1));
    if (o.maxObjects < o.minObjects) throw UsageError("--objects: MIN is above MAX in '" + *text + "'");
    return o;
}

CaptionDataset loadCaptionDataset(const ArgParser& p) {
    if (p.has("--captions") == p.has("--dataset")) throw UsageError("give either --captions F.tsv or --dataset scenes");
    if (p.has("--captions")) {
        if (p.has("--size") || p.has("--data-seed") || p.has("--objects") || p.has("--noise"))
            throw UsageError("--size, --data-seed, --objects and --noise apply to --dataset scenes");
        const int channels = channelsFlag(p, 3);
        const int side = static_cast<int>(p.integer("--image-size", 48, 4, 1024));
        return readCaptionTsv(p.text("--captions", ""), channels, side, side);
    }
    if (p.text("--dataset", "") != "scenes")
        throw UsageError("--dataset: unknown caption dataset '" + p.text("--dataset", "") + "' (known: scenes)");
    if (p.has("--channels") || p.has("--image-size")) throw UsageError("--channels and --image-size apply to --captions");
    return makeScenes(static_cast<std::size_t>(p.integer("--size", static_cast<long long>(kDefaultSceneCount), 1, 1000000)),
                      static_cast<std::uint64_t>(p.integer("--data-seed", 1, 0, 1LL << 62)), sceneOptionsOf(p));
}

nlohmann::json groundingJson(const std::map<std::string, GroundingShare>& shares) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    auto share = [](double v) { return std::isfinite(v) ? nlohmann::json(std::round(v * 10000.0) / 10000.0) : nlohmann::json(nullptr); };
    for (const std::string& key : groundingKeys()) {
        const auto it = shares.find(key);
        const GroundingShare s = it == shares.end() ? GroundingShare{} : it->second;
        out[key] = {{"words", s.words}, {"peak_near", share(s.nearShare())}, {"peak_inside", share(s.insideShare())}};
    }
    return out;
}

}  // namespace attnlab::cli

#include "base/io/FileUtil.h"

namespace attnlab::cli {

Image readImageFile(const std::string& path, int channels) {
    return decodeImage(readFileLimited(path, kMaxImageFileBytes), path, channels);
}

}  // namespace attnlab::cli
