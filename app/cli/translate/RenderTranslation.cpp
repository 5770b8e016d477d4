// attnlab-cli render for a translation model: one attention map (cross, encoder or decoder
// self-attention, a layer's head or their mean) or every head of a layer as a grid, as the window
// draws them, to PNG, SVG, PDF, CSV or NPY (RenderOutput.h writes the figure).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "ArgParser.h"
#include "Commands.h"
#include "support/RenderOutput.h"
#include "translate/TranslationCli.h"

#ifdef ATTNLAB_HAVE_RENDER
#include <QGuiApplication>

#include <cstdlib>
#include <iostream>
#include <memory>

#include "render/Colormap.h"
#include "render/FigureWriter.h"
#include "render/HeadGridRenderer.h"
#include "render/HeatmapRenderer.h"
#include "base/InputError.h"
#include "engine/translation/Seq2SeqModel.h"
#endif

namespace attnlab::cli {

#ifndef ATTNLAB_HAVE_RENDER

int renderTranslation(const Args&) {
    throw std::runtime_error("render is not available: this attnlab-cli was built without the GUI "
                             "(configure with -DATTNLAB_BUILD_GUI=ON)");
}

#else

namespace {

QStringList labels(const std::vector<std::string>& tokens) { return HeatmapRenderer::toStringList(tokens); }

}  // namespace

// render --model TRANSLATION --sentence TEXT: one map or a grid of heads, as the window draws them.
int renderTranslation(const Args& argv) {
    ArgParser args(argv, {"--model", "--sentence", "--kind", "--layer", "--head", "--colormap", "--scale", "--beam",
                          "--out"},
                   {"--numbers"});
    if (!args.positionals().empty())
        throw UsageError("unexpected argument '" + args.positionals().front() +
                         "' (quote the sentence: --sentence \"...\")");

    // Everything that can be checked without the model is checked before loading it.
    const std::string modelPath = args.required("--model");
    const std::string sentence = args.required("--sentence");
    if (sentence.find_first_not_of(" \t\r\n") == std::string::npos) throw UsageError("--sentence is empty");
    const std::string out = args.outputFile("--out");
    const std::optional<ExportFormat> format = FigureWriter::formatForPath(QString::fromStdString(out));
    if (!format) throw UsageError("--out must end in .png, .svg, .pdf, .csv or .npy, got '" + out + "'");
    const bool image = *format == ExportFormat::Png || *format == ExportFormat::Svg || *format == ExportFormat::Pdf;

    const std::string kindName = args.text("--kind", "cross");
    const std::optional<MapKind> parsedKind = parseMapKind(kindName);
    if (!parsedKind) throw UsageError("--kind must be cross, encoder or decoder, got '" + kindName + "'");
    const MapKind kind = *parsedKind;

    const std::string headText = args.text("--head", "1");
    const bool allHeads = headText == "all";
    if (allHeads && !image) throw UsageError("--head all writes images only (.png, .svg or .pdf)");

    ColormapId colormap = ColormapId::Viridis;
    if (auto name = args.value("--colormap")) {
        auto id = Colormap::fromName(QString::fromStdString(*name));
        if (!id)
            throw UsageError("--colormap must be one of " + Colormap::names().join(QStringLiteral(", ")).toStdString() +
                             ", got '" + *name + "'");
        colormap = *id;
    }
    const double scale = args.real("--scale", 1.0, 0.1, 16.0);
    if (args.has("--scale") && *format != ExportFormat::Png) throw UsageError("--scale applies to .png only");
    if (args.has("--numbers") && (!image || allHeads))
        throw UsageError("--numbers applies to a single-head image (.png, .svg or .pdf)");
    DecodeOptions decode;
    decode.beam = static_cast<int>(args.integer("--beam", 1, 1, 64));
    decode.captureAttention = true;

    const Seq2SeqModel model = Seq2SeqModel::load(modelPath);
    const ModelConfig& config = model.config();
    const bool transformer = config.architecture == Architecture::Transformer;
    if (!transformer && config.attention == AttentionKind::None)
        throw ConfigError(modelPath + ": this GRU was trained with --attention none (one fixed context vector), "
                                      "so it has no attention map to draw");
    if (!transformer && kind != MapKind::Cross)
        throw UsageError("--kind " + kindName + ": a GRU model has only cross attention (use --kind cross)");

    // A GRU has one layer and one head of attention; a Transformer one map per layer and head.
    // The flags count both from 1, the numbers a person reads (`layer` and `head` below index from 0).
    const int layerCount = transformer ? config.layers : 1;
    const int headCount = transformer ? config.heads : 1;
    const int layer = static_cast<int>(args.integer("--layer", layerCount, 1, layerCount)) - 1;
    int head = 0;
    if (!allHeads) {
        if (headText.empty() || headText.size() > 4 || headText.find_first_not_of("0123456789") != std::string::npos ||
            std::stoi(headText) < 1 || std::stoi(headText) > headCount)
            throw UsageError("--head must be a head from 1 to " + std::to_string(headCount) + " or 'all', got '" +
                             headText + "'");
        head = std::stoi(headText) - 1;
    }

    const Translation t = model.translate(sentence, decode);
    if (t.truncated)
        std::cerr << "warning: the sentence is longer than the model's maximum of " << config.maxLength - 1
                  << " tokens; truncated\n";
    auto found = t.attention.find(kind);
    if (t.outputTokens.empty() || found == t.attention.end())
        throw std::runtime_error(modelPath + ": the model produced no output for this sentence, so there is no "
                                             "attention to draw");
    const LayeredAttention& layers = found->second;
    if (layer >= static_cast<int>(layers.size()) || layers[layer].empty() ||
        (!allHeads && head >= static_cast<int>(layers[layer].size())))
        throw std::runtime_error(modelPath + ": the model returned fewer attention maps than its configuration says");

    // Rows are the output steps; columns what they attend to.
    std::vector<std::string> rowTokens = t.outputTokens, columnTokens = t.sourceTokens;
    QString rowAxis = QStringLiteral("output"), columnAxis = QStringLiteral("source");
    if (kind == MapKind::Encoder) {
        rowTokens = t.sourceTokens;
        rowAxis = QStringLiteral("source");
    } else if (kind == MapKind::Decoder) {
        columnTokens = {"<s>"};
        columnTokens.insert(columnTokens.end(), t.outputTokens.begin(), t.outputTokens.end() - 1);
        columnAxis = QStringLiteral("decoder input");
    }
    QString title = QStringLiteral("%1 attention").arg(QString::fromLatin1(toString(kind)));
    if (transformer) {
        title += allHeads ? QStringLiteral(", layer %1").arg(layer + 1)
                          : QStringLiteral(", layer %1, head %2").arg(layer + 1).arg(head + 1);
    }

    const std::unique_ptr<QGuiApplication> app = makeRenderApplication();
    if (allHeads) {
        HeadGridRenderer grid;
        grid.setColormap(colormap);
        grid.setTitle(title);
        grid.setHeads(layers[layer], labels(rowTokens), labels(columnTokens));
        writeFigure(out, grid.figure(), scale);
    } else {
        HeatmapOptions options;
        options.colormap = colormap;
        options.title = title;
        options.rowAxisTitle = rowAxis;
        options.columnAxisTitle = columnAxis;
        options.showNumbers = args.has("--numbers");
        HeatmapRenderer renderer(options);
        renderer.setMap(layers[layer][head], rowTokens, columnTokens);
        if (image) {
            writeFigure(out, renderer.figure(), scale);
        } else if (auto error = FigureWriter::writeMatrix(QString::fromStdString(out), renderer.map(),
                                                          renderer.rowLabels(), renderer.columnLabels())) {
            throw std::runtime_error(out + ": " + FigureWriter::reasonUntranslated(*error).toStdString());
        }
    }
    std::cerr << "wrote " << out << "\n";
    return kOk;
}

#endif

}  // namespace attnlab::cli
