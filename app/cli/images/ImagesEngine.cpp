// attnlab-cli's vision tasks, engine part: their EngineTasks (train, heads, explain, render --image,
// the deletion experiment) and heads on a ViT.
#include "ArgParser.h"
#include "support/HeadStudyOutput.h"
#include "base/TaskIds.h"
#include "engine/vision/ImageHeadStudy.h"
#include "engine/vision/ImageModels.h"
#include "images/ImageSources.h"
#include "images/ImagesCli.h"

namespace attnlab::cli {

namespace {

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

}  // namespace

EngineTask imageClassifierEngineTask() {
    EngineTask t;
    t.id = tasks::kImageClassify;
    t.train = runTrainImages;
    t.heads = imageHeads;
    t.explain = [](const ArgParser& args, const std::string& path) { return explainImage(args, path, false); };
    t.render = runRenderImage;
    t.renderFlag = "--image";
    t.experiments = {{"deletion", runDeletionExperiment}};
    return t;
}

EngineTask captionerEngineTask() {
    EngineTask t;
    t.id = tasks::kCaption;
    t.train = runTrainCaptioner;
    t.noHeads = "a captioner: a GRU attending over a CNN's grid has no attention heads";
    t.explain = [](const ArgParser& args, const std::string& path) { return explainImage(args, path, true); };
    return t;
}

}  // namespace attnlab::cli
