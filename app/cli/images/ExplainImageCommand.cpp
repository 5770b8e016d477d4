// The explanation lab for images from the CLI: `explain --model VIT IMAGE` (the five maps, their
// agreement, integrated gradients' completeness and the deletion test of one image) and
// `experiment deletion --model VIT (--images DIR | --dataset NAME)` (the same over a set).
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <iostream>
#include <nlohmann/json.hpp>

#include "support/Interrupt.h"
#include "support/JsonOut.h"
#include "ArgParser.h"
#include "Commands.h"
#include "images/ImageSources.h"
#include "base/InputError.h"
#include "base/vision/Captions.h"
#include "base/vision/ImageAttention.h"
#include "base/vision/ImageExplanation.h"
#include "base/vision/ImageFiles.h"
#include "engine/vision/ImageModels.h"

namespace attnlab::cli {

namespace {

int classOf(const ImageClassifier& model, const ArgParser& args) {
    const auto label = args.value("--class");
    if (!label) return -1;
    const auto& classes = model.classes();
    for (std::size_t k = 0; k < classes.size(); ++k)
        if (classes[k] == *label) return static_cast<int>(k);
    std::string list;
    for (const auto& c : classes) list += (list.empty() ? "" : ", ") + c;
    throw UsageError("--class: the model has no class '" + *label + "' (its classes: " + list + ")");
}

// Every method either model has, in display order.
const std::vector<std::string>& knownMethods() {
    static const std::vector<std::string> all{"rollout", "attention", "gradient", "grad_x_input", "integrated_gradients",
                                              "grad_rollout"};
    return all;
}

// The methods in their display order, then the random baseline.
std::vector<std::string> curveNames(const DeletionCurves& d) {
    std::vector<std::string> names;
    for (const auto& m : knownMethods())
        if (d.probability.count(m)) names.push_back(m);
    if (d.probability.count("random")) names.push_back("random");
    return names;
}

nlohmann::ordered_json deletionJson(const DeletionCurves& d) {
    nlohmann::ordered_json curves;
    curves["fractions"] = d.fractions;
    for (const auto& name : curveNames(d)) curves[name] = finiteOrNullList<nlohmann::ordered_json>(d.probability.at(name));
    nlohmann::ordered_json area;
    for (const auto& name : curveNames(d)) area[name] = finiteOrNull<nlohmann::ordered_json>(d.areaOverCurve.at(name));
    curves["area_over_curve"] = std::move(area);
    return curves;
}

nlohmann::ordered_json tauJson(const std::map<std::string, std::map<std::string, double>>& tau) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const auto& a : knownMethods()) {
        const auto row = tau.find(a);
        if (row == tau.end()) continue;
        nlohmann::ordered_json r = nlohmann::ordered_json::object();
        for (const auto& b : knownMethods())
            if (const auto v = row->second.find(b); v != row->second.end()) r[b] = finiteOrNull<nlohmann::ordered_json>(v->second);
        out[a] = std::move(r);
    }
    return out;
}

void printText(const ImageExplanation& ex) {
    if (ex.caption.empty())
        std::printf("%s (p = %.3f), %dx%d patches of a %dx%d image\n", ex.label.c_str(), ex.probability, ex.gridRows,
                    ex.gridCols, ex.imageHeight, ex.imageWidth);
    else {
        std::string caption;
        for (std::size_t i = 0; i < ex.caption.size(); ++i)
            caption += (i ? " " : "") + (static_cast<int>(i) == ex.wordIndex ? "[" + ex.caption[i] + "]" : ex.caption[i]);
        std::printf("%s: word %d \"%s\" (p = %.3f), %dx%d cells of a %dx%d image\n", caption.c_str(), ex.wordIndex,
                    ex.label.c_str(), ex.probability, ex.gridRows, ex.gridCols, ex.imageHeight, ex.imageWidth);
    }
    const std::string reference = ex.caption.empty() ? "rollout" : "attention";
    std::printf("\n%-22s %8s %10s %12s\n", "method", "AOPC", ex.hasBox ? "in box" : "", ("tau/" + reference).c_str());
    for (const auto& name : curveNames(ex.deletion)) {
        std::printf("%-22s %8.3f", name.c_str(), ex.deletion.areaOverCurve.at(name));
        if (ex.hasBox && ex.massInBox.count(name)) std::printf(" %10.3f", ex.massInBox.at(name));
        else std::printf(" %10s", "");
        const auto row = ex.kendallTau.find(reference);
        if (row != ex.kendallTau.end() && row->second.count(name)) std::printf(" %12.3f", row->second.at(name));
        std::printf("\n");
    }
    if (ex.hasBox && !ex.boxObject.empty())
        std::printf("(the box is the %s's, the object the word belongs to: %.3f of the image, what uniform weights "
                    "would put on it)\n",
                    ex.boxObject.c_str(), ex.boxShare);
    else if (ex.hasBox)
        std::printf("(the box is %.3f of the image: uniform weights would put that on it)\n", ex.boxShare);
    std::printf("\nintegrated gradients (%d steps): attributions sum to %.4f, logit difference %.4f (%.1f%% off)\n",
                ex.igSteps, ex.igAttributionSum, ex.igOutputDifference, 100.0 * igCompletenessError(ex));
}

// The box of the image from --boxes, or from the boxes.tsv beside its class folder.
std::optional<Box> boxOf(const ArgParser& args, const std::string& image) {
    if (auto tsv = args.value("--boxes")) {
        const auto guess = boxesFileFor(image);
        const std::string file = guess.second.empty() ? std::filesystem::path(image).filename().string() : guess.second;
        const auto box = readImageBox(*tsv, file);
        if (!box) throw InputError(*tsv, 0, "lists no box for " + file);
        return box;
    }
    if (const auto found = boxesFileFor(image); !found.first.empty()) return readImageBox(found.first, found.second);
    return std::nullopt;
}

}  // namespace

namespace {

// A captioner's word: the explanation, measured on the box of the object the word names when the
// scene's objects are known (--objects, or the objects.tsv beside images/).
ImageExplanation explainCaptionWord(const ArgParser& args, const std::string& modelPath, const std::string& path, int steps) {
    if (!args.has("--word"))
        throw UsageError(modelPath + " is a captioner: say which word of its caption to explain with --word I (0 = the first)");
    if (args.has("--class")) throw UsageError("--class applies to an image classifier; a captioner takes --word");
    if (args.has("--boxes")) throw UsageError("--boxes applies to an image classifier; a captioner reads --objects");
    const ImageCaptioner model = ImageCaptioner::load(modelPath);
    const Image image = readImageFile(path, model.config().channels);
    ImageExplanation ex;
    try {
        ex = model.explainWord(image, static_cast<int>(args.integer("--word", 0, 0, 1000)), steps);
    } catch (const ConfigError& e) {
        throw UsageError(std::string("--word: ") + e.what());
    }
    const std::vector<SceneObject> objects = sceneObjectsOf(args, path);
    if (const auto box = namedObjectBox(ex, objects))
        measureOnBox(ex, scaleBox(*box, image.height, image.width, ex.imageHeight, ex.imageWidth));
    return ex;
}

}  // namespace

int explainImage(const ArgParser& args, const std::string& modelPath, bool captioner) {
    const char* kind = captioner ? " is a captioner" : " is an image classifier";
    if (args.has("--output-token")) throw UsageError("--output-token applies to a translation model; " + modelPath + kind);
    if (args.positionals().size() != 1) throw UsageError("give exactly one IMAGE file");
    const int steps = static_cast<int>(args.integer("--steps", kDefaultImageIgSteps, 1, 10000));
    const std::string path = args.positionals().front();
    ImageExplanation ex;
    if (captioner) {
        ex = explainCaptionWord(args, modelPath, path, steps);
    } else {
        if (args.has("--word")) throw UsageError("--word applies to a captioner; " + modelPath + kind);
        if (args.has("--objects")) throw UsageError("--objects applies to a captioner; " + modelPath + kind);
        const ImageClassifier model = ImageClassifier::load(modelPath);
        const Image image = readImageFile(path, model.config().channels);
        const std::optional<Box> box = boxOf(args, path);
        ex = model.explain(image, classOf(model, args), steps);
        if (box) measureOnBox(ex, scaleBox(*box, image.height, image.width, ex.imageHeight, ex.imageWidth));
    }
    if (!args.has("--json")) {
        printText(ex);
        return kOk;
    }
    nlohmann::ordered_json out;
    out["label"] = ex.label;
    if (captioner) {
        out["caption"] = ex.caption;
        out["word"] = ex.wordIndex;
    } else {
        out["class_index"] = ex.classIndex;
    }
    out["probability"] = ex.probability;
    out["grid"] = {ex.gridRows, ex.gridCols};
    nlohmann::ordered_json methods;
    for (const auto& m : methodsOf(ex)) methods[m] = finiteOrNullList<nlohmann::ordered_json>(ex.maps.at(m));
    out["methods"] = std::move(methods);
    out["tau"] = tauJson(ex.kendallTau);
    // As the text classifier's explain, with the relative error beside the two sums.
    out["ig_completeness"] = {{"attribution_sum", finiteOrNull<nlohmann::ordered_json>(ex.igAttributionSum)},
                              {"output_difference", finiteOrNull<nlohmann::ordered_json>(ex.igOutputDifference)},
                              {"steps", ex.igSteps},
                              {"relative_error", finiteOrNull<nlohmann::ordered_json>(igCompletenessError(ex))}};
    out["deletion"] = deletionJson(ex.deletion);
    if (ex.hasBox) {
        nlohmann::ordered_json mass;
        for (const auto& m : methodsOf(ex))
            if (ex.massInBox.count(m)) mass[m] = finiteOrNull<nlohmann::ordered_json>(ex.massInBox.at(m));
        out["mass_in_box"] = std::move(mass);
        out["box_share"] = ex.boxShare;
        if (!ex.boxObject.empty()) out["box_object"] = ex.boxObject;
    }
    std::cout << out.dump() << std::endl;
    return kOk;
}

int runDeletionExperiment(const Args& argv) {
    IdxFiles idx;
    const Args rest = takeIdxFlag(argv, &idx);
    std::set<std::string> flags = imageDataFlags();
    flags.insert({"--model", "--steps", "--limit"});
    ArgParser args(rest, flags, {});
    if (!args.positionals().empty()) throw UsageError("unexpected argument '" + args.positionals().front() + "'");
    const std::string modelPath = args.required("--model");
    const int steps = static_cast<int>(args.integer("--steps", kDefaultImageIgSteps, 1, 10000));
    const auto limit = static_cast<std::size_t>(args.integer("--limit", 200, 1, 100000));
    const ImageClassifier model = ImageClassifier::load(modelPath);
    const ImageDataset data = loadImageDataset(args, idx, "test", nullptr);
    const std::size_t n = std::min(limit, data.images.size());
    // Accuracy only when the data's classes are the model's (the deletion test needs no labels).
    const bool sameClasses = data.classes == model.classes() && data.labels.size() >= n;
    if (!sameClasses)
        std::cerr << "note: the data's classes are not the model's; the deletion test runs, accuracy is not reported\n";
    catchInterrupts(false);
    std::cerr << "deletion: " << modelPath << " on " << n << " images of " << data.name << " (" << steps
              << " integrated-gradient steps)\n";
    std::vector<ImageExplanation> all;
    int correct = 0;
    for (std::size_t i = 0; i < n && !interruptFlag().load(); ++i) {
        ImageExplanation ex = model.explain(data.images[i], -1, steps);
        if (i < data.boxes.size())
            measureOnBox(ex, scaleBox(data.boxes[i], data.images[i].height, data.images[i].width, ex.imageHeight, ex.imageWidth));
        correct += sameClasses && ex.classIndex == data.labels[i];
        all.push_back(std::move(ex));
        if ((i + 1) % 20 == 0 || i + 1 == n) std::cerr << "[" << i + 1 << "/" << n << "]\n";
    }
    if (all.empty()) throw UsageError("no image was explained");
    const ImageExplanationSummary s = summarise(all);
    nlohmann::ordered_json out;
    out["images"] = s.images;
    out["accuracy"] = sameClasses ? nlohmann::ordered_json(static_cast<double>(correct) / static_cast<double>(s.images))
                                  : nlohmann::ordered_json(nullptr);
    out["deletion"] = deletionJson(s.deletion);
    out["tau"] = tauJson(s.meanTau);
    out["ig_completeness"] = {{"mean_relative_error", finiteOrNull<nlohmann::ordered_json>(s.meanIgError)}, {"max_relative_error", finiteOrNull<nlohmann::ordered_json>(s.maxIgError)}};
    if (s.withBoxes > 0) {
        nlohmann::ordered_json mass;
        for (const auto& m : knownMethods())
            if (s.meanMassInBox.count(m)) mass[m] = finiteOrNull<nlohmann::ordered_json>(s.meanMassInBox.at(m));
        out["mass_in_box"] = std::move(mass);
        out["box_share"] = s.meanBoxShare;
    }
    std::cout << out.dump() << std::endl;
    return interruptFlag().load() ? kInterrupted : kOk;
}

}  // namespace attnlab::cli
