// attnlab-cli's text classification task, engine part: its EngineTask (train, heads, explain, its
// experiments) and heads on a classifier.
#include "ArgParser.h"
#include "support/CorpusOptions.h"
#include "support/HeadStudyOutput.h"
#include "base/TaskIds.h"
#include "classify/ClassifierCli.h"
#include "classify/ClassifierData.h"
#include "engine/text/ClassifierHeadStudy.h"
#include "engine/text/TextClassifier.h"

namespace attnlab::cli {

namespace {

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

}  // namespace

EngineTask classifierEngineTask() {
    EngineTask t;
    t.id = tasks::kClassify;
    t.train = runTrainClassifier;
    t.heads = classifierHeads;
    t.explain = explainClassifier;
    t.experiments = {{"needle", runNeedle}, {"faithfulness", runFaithfulness}, {"long-range", runLongRange}};
    return t;
}

}  // namespace attnlab::cli
