// attnlab-cli look --model M [--json] [--beam K] IMAGE: what a vision model makes of one image and
// where it looked. A ViT: the label, the probabilities, every layer's and head's attention over
// [CLS] + the patches and the rollout of [CLS] over the patches; a captioner: the caption and each
// word's attention over the grid cells, and, for a scene whose objects are known (--objects
// objects.tsv, or the objects.tsv beside the images/ folder that `datasets --write scenes` wrote),
// each word's share of attention in each object's box and whether its peak lies there, and each
// word's class, the object it belongs to and the shares per class (base/vision/CaptionGrounding.h).
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "support/JsonOut.h"
#include "ArgParser.h"
#include "Commands.h"
#include "images/ImageSources.h"
#include "base/InputError.h"
#include "base/TaskIds.h"
#include "base/vision/Captions.h"
#include "base/vision/ImageAttention.h"
#include "engine/vision/ImageModels.h"

namespace attnlab::cli {

namespace {

int lookClassifier(const std::string& modelPath, const std::string& imagePath, bool json) {
    const ImageClassifier model = ImageClassifier::load(modelPath);
    const ImageClassification c = model.classify(readImageFile(imagePath, model.config().channels));
    if (json) {
        nlohmann::ordered_json out;
        out["label"] = c.label;
        nlohmann::ordered_json probabilities = nlohmann::ordered_json::object();
        for (std::size_t k = 0; k < model.classes().size(); ++k) probabilities[model.classes()[k]] = c.probabilities[k];
        out["probabilities"] = std::move(probabilities);
        out["image_size"] = {c.imageHeight, c.imageWidth};
        out["grid"] = {c.gridRows, c.gridCols};
        nlohmann::json layers = nlohmann::json::array();
        for (const auto& layer : c.encoder) {
            nlohmann::json heads = nlohmann::json::array();
            for (const auto& head : layer) heads.push_back(attentionRows(head));
            layers.push_back(std::move(heads));
        }
        out["attention"] = {{"encoder", std::move(layers)}};
        out["rollout"] = c.rollout;
        out["cls_rows"] = c.clsRows;
        std::cout << out.dump() << "\n";
        return kOk;
    }
    std::vector<std::size_t> order(c.probabilities.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return c.probabilities[a] > c.probabilities[b]; });
    std::cout << c.label << "\n";
    for (std::size_t i = 0; i < std::min<std::size_t>(5, order.size()); ++i)
        std::cout << "  " << std::fixed << std::setprecision(3) << c.probabilities[order[i]] << "  " << model.classes()[order[i]] << "\n";
    const auto peak = static_cast<int>(std::max_element(c.rollout.begin(), c.rollout.end()) - c.rollout.begin());
    std::cout << "rollout peak: patch row " << peak / c.gridCols << ", column " << peak % c.gridCols << " of " << c.gridRows
              << "x" << c.gridCols << " (" << std::setprecision(3) << c.rollout[static_cast<std::size_t>(peak)] << ")\n";
    return kOk;
}

int lookCaptioner(const std::string& modelPath, const std::string& imagePath, bool json, int beam,
                  const std::vector<SceneObject>& objects, const CaptionWords& words) {
    const ImageCaptioner model = ImageCaptioner::load(modelPath);
    const Image image = readImageFile(imagePath, model.config().channels);
    const Captioning c = model.caption(image, beam);
    std::vector<Box> boxes;
    for (const SceneObject& o : objects) boxes.push_back(scaleBox(o.box, image.height, image.width, c.imageHeight, c.imageWidth));
    std::vector<std::vector<BoxAttention>> onBoxes;
    for (const auto& a : c.attention) onBoxes.push_back(attentionOnBoxes(a, c.gridRows, c.gridCols, c.imageHeight, c.imageWidth, boxes));
    std::vector<SceneObject> scaled = objects;  // the boxes in the model's pixels
    for (std::size_t k = 0; k < scaled.size(); ++k) scaled[k].box = boxes[k];
    const CaptionGrounding grounding =
        groundCaption(c.tokens, c.attention, c.gridRows, c.gridCols, c.imageHeight, c.imageWidth, scaled, words);
    if (json) {
        nlohmann::ordered_json out;
        out["caption_tokens"] = c.tokens;
        out["image_size"] = {c.imageHeight, c.imageWidth};
        out["grid"] = {c.gridRows, c.gridCols};
        out["attention"] = {{"cross", c.attention}};
        out["log_probability"] = c.logProbability;
        if (!objects.empty()) {
            nlohmann::ordered_json list = nlohmann::ordered_json::array();
            for (std::size_t k = 0; k < objects.size(); ++k)
                list.push_back({{"colour", objects[k].colour},
                                {"shape", objects[k].shape},
                                {"box", {boxes[k].top, boxes[k].left, boxes[k].height, boxes[k].width}},
                                {"box_share", boxShare(boxes[k], c.imageHeight, c.imageWidth)}});
            out["objects"] = std::move(list);
            nlohmann::json mass = nlohmann::json::array(), peak = nlohmann::json::array(), strict = nlohmann::json::array();
            for (const auto& word : onBoxes) {
                nlohmann::json m = nlohmann::json::array(), p = nlohmann::json::array(), q = nlohmann::json::array();
                for (const BoxAttention& b : word) {
                    m.push_back(b.mass);
                    p.push_back(b.peakNear);
                    q.push_back(b.peakInside);
                }
                mass.push_back(std::move(m));
                peak.push_back(std::move(p));
                strict.push_back(std::move(q));
            }
            out["in_box"] = std::move(mass);
            out["peak_in_box"] = std::move(peak);
            out["peak_strictly_in_box"] = std::move(strict);
            nlohmann::json classes = nlohmann::json::array(), belongs = nlohmann::json::array();
            for (const GroundedWord& w : grounding.words) {
                classes.push_back(wordClassName(w.wordClass));
                belongs.push_back(w.objects);
            }
            out["word_classes"] = std::move(classes);
            out["word_objects"] = std::move(belongs);
            out["grounding"] = groundingJson(grounding.shares);
        }
        std::cout << out.dump() << "\n";
        return kOk;
    }
    std::string caption;
    for (const auto& w : c.tokens) caption += (caption.empty() ? "" : " ") + w;
    std::cout << caption << "\n";
    for (std::size_t t = 0; t < c.tokens.size(); ++t) {
        const auto& a = c.attention[t];
        const auto peak = static_cast<int>(std::max_element(a.begin(), a.end()) - a.begin());
        std::cout << "  " << std::left << std::setw(10) << c.tokens[t] << " looks at cell row " << peak / c.gridCols
                  << ", column " << peak % c.gridCols << " (" << std::fixed << std::setprecision(3)
                  << a[static_cast<std::size_t>(peak)] << ")";
        for (std::size_t k = 0; k < objects.size(); ++k)
            std::cout << (k == 0 ? "; in " : ", ") << objects[k].colour << " " << objects[k].shape << " "
                      << std::setprecision(2) << onBoxes[t][k].mass << (onBoxes[t][k].peakNear ? " (peak)" : "");
        std::cout << "\n";
    }
    if (!objects.empty()) {
        std::cout << "peaks near the object each word belongs to:";
        for (const std::string& key : groundingKeys()) {
            const auto it = grounding.shares.find(key);
            if (it == grounding.shares.end() || it->second.words == 0) continue;
            std::cout << " " << key << " " << it->second.near << "/" << it->second.words;
        }
        std::cout << "\n";
    }
    return kOk;
}

}  // namespace

int runLook(const Args& argv) {
    ArgParser args(argv, {"--model", "--beam", "--objects"}, {"--json"});
    if (args.positionals().size() != 1)
        throw UsageError(args.positionals().empty() ? "give one IMAGE file" : "give one IMAGE file, got " +
                                                                                   std::to_string(args.positionals().size()));
    const std::string model = args.required("--model");
    const int beam = static_cast<int>(args.integer("--beam", 1, 1, 16));
    const std::string task = visionTaskOf(model);
    if (task.empty()) throw ModelFileError(model, "holds no vision model (look reads image classifiers and captioners)");
    if (task == tasks::kImageClassify) {
        if (args.has("--beam")) throw UsageError("--beam applies to a captioner");
        if (args.has("--objects")) throw UsageError("--objects applies to a captioner");
        return lookClassifier(model, args.positionals().front(), args.has("--json"));
    }
    const std::string image = args.positionals().front();
    return lookCaptioner(model, image, args.has("--json"), beam, sceneObjectsOf(args, image), captionWordsOf(args, image));
}

}  // namespace attnlab::cli
