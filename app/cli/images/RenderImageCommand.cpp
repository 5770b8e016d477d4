// attnlab-cli render --model M --image IMG --out FILE.png|svg|pdf: the image with the attention a
// vision model used overlaid, drawn by the Images views' own painter (render/ImageOverlay.h).
//   a ViT:        --rollout (the default: [CLS]'s rollout over the patches), --layer L (its [CLS]
//                 row, heads averaged) or --layer L --head H (both counted from 1);
//   a captioner:  --token all (the default: one overlay per word, as in the captioning papers) or
//                 --token I (the I-th word alone).
#include <stdexcept>
#include <string>

#include "ArgParser.h"
#include "Commands.h"
#include "support/RenderOutput.h"
#include "images/ImagesCli.h"

#ifdef ATTNLAB_HAVE_RENDER
#include <iostream>

#include "images/ImageSources.h"
#include "base/InputError.h"
#include "base/TaskIds.h"
#include "engine/vision/ImageModels.h"
#include "render/ImageOverlay.h"
#endif

namespace attnlab::cli {

#ifndef ATTNLAB_HAVE_RENDER

int runRenderImage(const Args&) {
    throw std::runtime_error("render is not available: this attnlab-cli was built without the GUI "
                             "(configure with -DATTNLAB_BUILD_GUI=ON)");
}

#else

namespace {

std::vector<float> renormalised(std::vector<float> w) {
    double s = 0;
    for (float v : w) s += v;
    if (s > 0)
        for (float& v : w) v = static_cast<float>(v / s);
    return w;
}

}  // namespace

int runRenderImage(const Args& argv) {
    ArgParser args(argv, {"--model", "--image", "--out", "--token", "--layer", "--head", "--colormap", "--opacity",
                          "--scale", "--beam", "--size"},
                   {"--rollout", "--nearest"});
    if (!args.positionals().empty()) throw UsageError("unexpected argument '" + args.positionals().front() + "'");
    const std::string modelPath = args.required("--model");
    const std::string imagePath = args.required("--image");
    const std::string out = args.outputFile("--out");
    const std::optional<ExportFormat> format = FigureWriter::formatForPath(QString::fromStdString(out));
    if (!format || !FigureWriter::isImage(*format))
        throw UsageError("--out must end in .png, .svg or .pdf for an image, got '" + out + "'");
    OverlayStyle style;
    style.opacity = args.real("--opacity", style.opacity, 0.0, 1.0);
    style.smooth = !args.has("--nearest");
    if (auto name = args.value("--colormap")) {
        auto id = Colormap::fromName(QString::fromStdString(*name));
        if (!id)
            throw UsageError("--colormap must be one of " + Colormap::names().join(QStringLiteral(", ")).toStdString() +
                             ", got '" + *name + "'");
        style.colormap = *id;
    }
    const double scale = args.real("--scale", 1.0, 0.1, 16.0);
    if (args.has("--scale") && *format != ExportFormat::Png) throw UsageError("--scale applies to .png only");
    const int side = static_cast<int>(args.integer("--size", 320, 32, 2048));

    const std::string task = visionTaskOf(modelPath);
    if (task.empty()) throw ModelFileError(modelPath, "holds no vision model (render --image draws image classifiers and captioners)");
    Figure figure;
    if (task == tasks::kImageClassify) {
        for (const char* flag : {"--token", "--beam"})
            if (args.has(flag)) throw UsageError(std::string(flag) + " applies to a captioner");
        if (args.has("--rollout") && (args.has("--layer") || args.has("--head")))
            throw UsageError("--rollout and --layer/--head exclude each other");
        if (args.has("--head") && !args.has("--layer")) throw UsageError("--head needs --layer");
        const ImageClassifier model = ImageClassifier::load(modelPath);
        const VitConfig& c = model.config();
        const Image image = readImageFile(imagePath, c.channels);
        const ImageClassification result = model.classify(image);
        std::vector<float> weights = result.rollout;
        std::string what = "rollout";
        if (args.has("--layer")) {
            const int layer = static_cast<int>(args.integer("--layer", 1, 1, c.layers));
            weights = result.clsRows[static_cast<std::size_t>(layer - 1)];
            what = "layer " + std::to_string(layer);
            if (args.has("--head")) {
                const int head = static_cast<int>(args.integer("--head", 1, 1, c.heads));
                const AttentionMap& map =
                    result.encoder[static_cast<std::size_t>(layer - 1)][static_cast<std::size_t>(head - 1)];
                weights.assign(map.weights.begin() + 1, map.weights.begin() + map.cols);  // [CLS]'s row over the patches
                weights = renormalised(weights);
                what += ", head " + std::to_string(head);
            } else {
                what += ", heads averaged";
            }
        }
        const auto p = result.probabilities[static_cast<std::size_t>(result.labelIndex)];
        const QString caption = QStringLiteral("%1 (%2), [CLS] %3")
                                    .arg(QString::fromStdString(result.label))
                                    .arg(p, 0, 'f', 2)
                                    .arg(QString::fromStdString(what));
        const auto app = makeRenderApplication();
        figure = imageAttentionFigure(toModelInput(image, c.channels, c.imageSize), weights, result.gridRows,
                                      result.gridCols, style, caption, side);
        writeFigure(out, figure, scale);
    } else {
        for (const char* flag : {"--layer", "--head", "--rollout"})
            if (args.has(flag)) throw UsageError(std::string(flag) + " applies to a vision Transformer");
        const int beam = static_cast<int>(args.integer("--beam", 1, 1, 16));
        const ImageCaptioner model = ImageCaptioner::load(modelPath);
        const CaptionerConfig& c = model.config();
        const Image image = readImageFile(imagePath, c.channels);
        const Captioning result = model.caption(image, beam);
        const Image input = toModelInput(image, c.channels, c.imageSize);
        const std::string token = args.text("--token", "all");
        const auto app = makeRenderApplication();
        if (token == "all") {
            QStringList words;
            for (const auto& w : result.tokens) words << QString::fromStdString(w);
            figure = imageAttentionStrip(input, result.attention, words, result.gridRows, result.gridCols, style,
                                         args.has("--size") ? side : 160);
        } else {
            const int last = static_cast<int>(result.tokens.size()) - 1;
            if (token.empty() || token.size() > 4 || token.find_first_not_of("0123456789") != std::string::npos ||
                std::stoi(token) > last)
                throw UsageError("--token must be a word of the caption from 0 to " + std::to_string(last) +
                                 " or 'all', got '" + token + "'");
            const auto i = static_cast<std::size_t>(std::stoi(token));
            std::string caption;
            for (std::size_t k = 0; k < result.tokens.size(); ++k)
                caption += (k ? " " : "") + (k == i ? "[" + result.tokens[k] + "]" : result.tokens[k]);
            figure = imageAttentionFigure(input, result.attention[i], result.gridRows, result.gridCols, style,
                                          QString::fromStdString(caption), side);
        }
        writeFigure(out, figure, scale);
    }
    std::cerr << "wrote " << out << "\n";
    return kOk;
}

#endif

}  // namespace attnlab::cli
