// attnlab-cli heads: each attention head of a Transformer measured over a data set: the change
// in loss and in the task's metric when it alone is switched off, its gradient importance (Michel
// et al. 2019), and the pruning curves. Translation (BLEU; engine/translation/HeadImportance.h),
// the text classifier and the ViT (accuracy) and the forecaster (MAE; engine/HeadStudy.h).
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "ArgParser.h"
#include "ClassifierData.h"
#include "Commands.h"
#include "CorpusOptions.h"
#include "ImageSources.h"
#include "SeriesSources.h"
#include "base/Safetensors.h"
#include "base/TaskIds.h"
#include "engine/HeadStudy.h"
#include "engine/forecast/Forecaster.h"
#include "engine/text/TextClassifier.h"
#include "engine/translation/HeadImportance.h"
#include "engine/translation/Seq2SeqModel.h"
#include "engine/vision/ImageModels.h"

namespace attnlab::cli {

namespace {

nlohmann::json curveJson(const std::vector<PruningPoint>& curve) {
    nlohmann::json out = nlohmann::json::array();
    for (const PruningPoint& p : curve)
        out.push_back({{"pruned", p.pruned}, {"pruned_fraction", p.prunedFraction}, {"metric", p.metric},
                       {"loss", p.loss}});
    return out;
}

nlohmann::json orderJson(const std::vector<HeadId>& order) {
    nlohmann::json out = nlohmann::json::array();
    for (const HeadId& h : order) out.push_back(toString(h));
    return out;
}

// The most heads the curve removes with BLEU still at >= 90% of the baseline's.
int headsBeforeTenPercentDrop(const std::vector<PruningPoint>& curve, double baseline) {
    HeadStudyReport r;
    r.baseline.metric = baseline;
    r.pruningCurve = curve;
    return headsWithinTenPercent(r);
}

// The value of --model (or --model=PATH) before the flags are parsed: each task reads its own data
// flags, so the model file decides which parser the command builds.
std::string modelArgument(const Args& argv) {
    for (std::size_t i = 0; i < argv.size(); ++i) {
        if (argv[i] == "--model" && i + 1 < argv.size()) return argv[i + 1];
        if (argv[i].rfind("--model=", 0) == 0) return argv[i].substr(8);
    }
    return {};
}

HeadStudyOptions studyOptions(const ArgParser& args) {
    HeadStudyOptions options;
    options.limit = static_cast<std::size_t>(args.integer("--limit", 0, 0, 10000000));
    options.seed = static_cast<std::uint64_t>(args.integer("--seed", 1, 0, 4294967295LL));
    options.randomOrders = static_cast<int>(args.integer("--random-orders", 3, 0, 100));
    return options;
}

std::set<std::string> withStudyFlags(std::set<std::string> values) {
    values.insert({"--model", "--limit", "--seed", "--random-orders"});
    return values;
}

void noPositionals(const ArgParser& args) {
    if (!args.positionals().empty())
        throw UsageError("unexpected argument '" + args.positionals().front() + "' (see attnlab-cli heads --help)");
}

HeadStudyProgress progressLine() {
    const bool tty = isatty(STDERR_FILENO) != 0;
    return [tty](int done, int total) {
        if (tty) std::fprintf(stderr, "\rmeasuring heads: %d/%d", done, total);
        if (tty && done == total) std::fprintf(stderr, "\n");
    };
}

// A classifier's, the ViT's or the forecaster's report, as JSON or a table.
int printStudy(const HeadStudyReport& r, const char* items, bool json) {
    if (r.skipped)
        std::cerr << "warning: " << r.skipped << " of " << r.skipped + r.items << " " << items
                  << " skipped (a class the model does not know, or empty)\n";
    const int keep = headsWithinTenPercent(r);
    const std::string metric = r.metric == "MAE" ? "mae" : r.metric;
    if (json) {
        nlohmann::json heads = nlohmann::json::array();
        for (const HeadStudyEffect& e : r.heads)
            heads.push_back({{"kind", toString(e.head.kind)},
                             {"layer", e.head.layer + 1},
                             {"head", e.head.head + 1},
                             {"loss", e.score.loss},
                             {metric, e.score.metric},
                             {"delta_loss", e.deltaLoss},
                             {"delta_metric", e.deltaMetric},
                             {"gradient", e.gradient},
                             {"importance", e.importance}});
        nlohmann::json out{{items, r.items},
                           {"metric", metric},
                           {"higher_is_better", r.higherIsBetter},
                           {"baseline", {{"loss", r.baseline.loss}, {metric, r.baseline.metric}}},
                           {"heads", std::move(heads)},
                           {"pruning_order", orderJson(r.pruningOrder)},
                           {"pruning_curve", curveJson(r.pruningCurve)},
                           {"random_curve", curveJson(r.randomCurve)},
                           {"heads_prunable_within_10_percent", keep}};
        std::cout << out.dump() << "\n";
        return kOk;
    }
    std::printf("%zu %s: loss %.4f, %s %.4f\n", r.items, items, r.baseline.loss, r.metric.c_str(), r.baseline.metric);
    std::printf("%-8s %5s %4s %10s %10s %10s\n", "kind", "layer", "head", "d_loss", ("d_" + metric).c_str(),
                "importance");
    for (const HeadStudyEffect& e : r.heads)
        std::printf("%-8s %5d %4d %10.4f %10.4f %10.4f\n", toString(e.head.kind), e.head.layer + 1, e.head.head + 1,
                    e.deltaLoss, e.deltaMetric, e.importance);
    std::printf("%d of %zu heads can go (least important first) before %s moves 10%% %s %.4f\n", keep, r.heads.size(),
                r.metric.c_str(), r.higherIsBetter ? "below" : "above", r.baseline.metric);
    return kOk;
}

int classifierHeads(const Args& argv, const std::string& path) {
    ArgParser args(argv, withStudyFlags(classifierDataFlags()), {"--json"});
    noPositionals(args);
    const HeadStudyOptions options = studyOptions(args);
    if (!args.has("--corpus") && !args.has("--dataset"))
        throw UsageError("heads needs the texts to measure on: --corpus FILE.tsv or --dataset NAME");
    const ClassificationCorpus corpus = loadClassificationCorpus(args);
    const TextClassifier model = TextClassifier::load(path);
    if (model.config().architecture != ClassifierArchitecture::Transformer)
        throw UsageError("heads needs a Transformer model (" + path + " is a GRU classifier: it has no attention heads)");
    return printStudy(measureClassifierHeads(model, corpus, options, progressLine()), "texts", args.has("--json"));
}

int imageHeads(const Args& argv, const std::string& path) {
    IdxFiles idx;
    const Args rest = takeIdxFlag(argv, &idx);
    std::set<std::string> values = withStudyFlags(imageDataFlags());
    values.insert("--split");
    ArgParser args(rest, values, {"--json"});
    noPositionals(args);
    const HeadStudyOptions options = studyOptions(args);
    const std::string split = args.text("--split", "test");
    if (split != "train" && split != "test") throw UsageError("--split must be train or test, got '" + split + "'");
    if (!args.has("--images") && !args.has("--dataset") && !idx)
        throw UsageError("heads needs the images to measure on: --images DIR, --idx IMAGES LABELS or --dataset NAME");
    ImageFolderReport report;
    const ImageDataset data = loadImageDataset(args, idx, split, &report);
    for (const auto& [file, reason] : report.skipped) std::cerr << "warning: " << file << ": " << reason << " (skipped)\n";
    const ImageClassifier model = ImageClassifier::load(path);
    return printStudy(measureImageClassifierHeads(model, data, options, progressLine()), "images", args.has("--json"));
}

int forecasterHeads(const Args& argv, const std::string& path) {
    std::set<std::string> values = withStudyFlags(seriesDataFlags());
    values.insert("--val-fraction");
    ArgParser args(argv, values, {"--json"});
    noPositionals(args);
    const HeadStudyOptions options = studyOptions(args);
    checkSeriesFlags(args);
    if (!args.has("--series") && !args.has("--dataset"))
        throw UsageError("heads needs the series to measure on: --series FILE.csv --column NAME or --dataset NAME");
    const double tail = args.real("--val-fraction", trainedTailFraction(path), 0.01, 0.9);
    const Series series = loadSeries(args);
    const Forecaster model = Forecaster::load(path);
    return printStudy(measureForecasterHeads(model, series, tail, options, progressLine()), "windows",
                      args.has("--json"));
}

}  // namespace

int runHeads(const Args& argv) {
    const std::string modelPath = modelArgument(argv);
    if (!modelPath.empty()) {
        const SafetensorsContent content = readSafetensors(modelPath);
        const auto task = content.metadata.find("task");
        const std::string name = task == content.metadata.end() ? tasks::kTranslate : task->second;
        if (name == tasks::kClassify) return classifierHeads(argv, modelPath);
        if (name == tasks::kImageClassify) return imageHeads(argv, modelPath);
        if (name == tasks::kForecast) return forecasterHeads(argv, modelPath);
        if (name == tasks::kCaption)
            throw UsageError("heads needs a Transformer model (" + modelPath +
                             " is a captioner: a GRU attending over a CNN's grid has no attention heads)");
    }
    std::set<std::string> values = corpusValueFlags();
    values.insert({"--model", "--limit", "--max-len", "--seed", "--random-orders"});
    ArgParser args(argv, values, {"--json"});
    const std::string path = args.required("--model");
    const HeadImportanceOptions options = studyOptions(args);
    const int maxLen = static_cast<int>(args.integer("--max-len", 0, 0, 200));
    if (!args.positionals().empty())
        throw UsageError("unexpected argument '" + args.positionals().front() + "' (see attnlab-cli heads --help)");
    const bool json = args.has("--json");
    if (!args.has("--corpus") && !args.has("--src") && !args.has("--tgt") && !args.has("--dataset") &&
        !args.has("--gettext"))
        throw UsageError("heads needs the sentences to measure on: --corpus FILE.tsv or --dataset NAME");
    const Corpus corpus = loadCorpusOnly(args, maxLen);

    const Seq2SeqModel model = Seq2SeqModel::load(path);
    if (model.config().architecture != Architecture::Transformer)
        throw UsageError("heads needs a Transformer model (" + path + " is a GRU: it has no attention heads)");

    const HeadImportanceReport r = measureHeadImportance(model, corpus, options, progressLine());
    if (r.skipped)
        std::cerr << "warning: " << r.skipped << " of " << r.skipped + r.pairs
                  << " pairs skipped (an empty side, or longer than the model's maximum)\n";

    const int keep = headsBeforeTenPercentDrop(r.pruningCurve, r.baseline.bleu);
    if (json) {
        nlohmann::json heads = nlohmann::json::array();
        for (const HeadEffect& e : r.heads)
            heads.push_back({{"kind", toString(e.head.kind)},
                             {"layer", e.head.layer + 1},
                             {"head", e.head.head + 1},
                             {"loss", e.loss},
                             {"bleu", e.bleu},
                             {"exact", e.exact},
                             {"delta_loss", e.deltaLoss},
                             {"delta_metric", e.deltaMetric},
                             {"gradient", e.gradient},
                             {"importance", e.importance}});
        nlohmann::json out{{"pairs", r.pairs},
                           {"metric", "bleu"},
                           {"baseline", {{"loss", r.baseline.loss}, {"bleu", r.baseline.bleu}, {"exact", r.baseline.exact}}},
                           {"heads", std::move(heads)},
                           {"pruning_order", orderJson(r.pruningOrder)},
                           {"pruning_curve", curveJson(r.pruningCurve)},
                           {"random_curve", curveJson(r.randomCurve)},
                           {"heads_prunable_within_10_percent", keep}};
        std::cout << out.dump() << "\n";
        return kOk;
    }
    std::printf("%zu pairs: loss %.4f, BLEU %.2f, exact %.3f\n", r.pairs, r.baseline.loss, r.baseline.bleu,
                r.baseline.exact);
    std::printf("%-8s %5s %4s %10s %10s %10s\n", "kind", "layer", "head", "d_loss", "d_bleu", "importance");
    for (const HeadEffect& e : r.heads)
        std::printf("%-8s %5d %4d %10.4f %10.2f %10.4f\n", toString(e.head.kind), e.head.layer + 1, e.head.head + 1,
                    e.deltaLoss, e.deltaMetric, e.importance);
    std::printf("%d of %zu heads can go (least important first) before BLEU falls below 90%% of %.2f\n", keep,
                r.heads.size(), r.baseline.bleu);
    return kOk;
}

}  // namespace attnlab::cli
