// attnlab-cli look --model M [--json] [--beam K] IMAGE: what a vision model makes of one image and
// where it looked. A ViT: the label, the probabilities, every layer's and head's attention over
// [CLS] + the patches and the rollout of [CLS] over the patches; a captioner: the caption and each
// word's attention over the grid cells.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "ArgParser.h"
#include "Commands.h"
#include "ImageSources.h"
#include "base/InputError.h"
#include "base/TaskIds.h"
#include "engine/vision/ImageModels.h"

namespace attnlab::cli {

namespace {

nlohmann::json rows(const AttentionMap& map) {
    nlohmann::json out = nlohmann::json::array();
    for (int r = 0; r < map.rows; ++r)
        out.push_back(std::vector<float>(map.weights.begin() + static_cast<std::ptrdiff_t>(r) * map.cols,
                                         map.weights.begin() + static_cast<std::ptrdiff_t>(r + 1) * map.cols));
    return out;
}

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
            for (const auto& head : layer) heads.push_back(rows(head));
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

int lookCaptioner(const std::string& modelPath, const std::string& imagePath, bool json, int beam) {
    const ImageCaptioner model = ImageCaptioner::load(modelPath);
    const Captioning c = model.caption(readImageFile(imagePath, model.config().channels), beam);
    if (json) {
        nlohmann::ordered_json out;
        out["caption_tokens"] = c.tokens;
        out["image_size"] = {c.imageHeight, c.imageWidth};
        out["grid"] = {c.gridRows, c.gridCols};
        out["attention"] = {{"cross", c.attention}};
        out["log_probability"] = c.logProbability;
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
                  << a[static_cast<std::size_t>(peak)] << ")\n";
    }
    return kOk;
}

}  // namespace

int runLook(const Args& argv) {
    ArgParser args(argv, {"--model", "--beam"}, {"--json"});
    if (args.positionals().size() != 1)
        throw UsageError(args.positionals().empty() ? "give one IMAGE file" : "give one IMAGE file, got " +
                                                                                   std::to_string(args.positionals().size()));
    const std::string model = args.required("--model");
    const int beam = static_cast<int>(args.integer("--beam", 1, 1, 16));
    const std::string task = visionTaskOf(model);
    if (task.empty()) throw ModelFileError(model, "holds no vision model (look reads image classifiers and captioners)");
    if (task == tasks::kImageClassify) {
        if (args.has("--beam")) throw UsageError("--beam applies to a captioner");
        return lookClassifier(model, args.positionals().front(), args.has("--json"));
    }
    return lookCaptioner(model, args.positionals().front(), args.has("--json"), beam);
}

}  // namespace attnlab::cli
