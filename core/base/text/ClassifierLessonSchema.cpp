#include "base/text/ClassifierLessonSchema.h"

#include "base/TaskIds.h"
#include "base/text/ClassifierConfig.h"
#include "base/text/ClassifyDatasets.h"

namespace attnlab {

LessonSchema classifierLessonSchema() {
    LessonSchema s;
    s.task = tasks::kClassify;
    s.datasets = [] {
        std::vector<std::string> out;
        for (const ClassificationDatasetInfo& d : classificationDatasets()) out.push_back(d.name);
        out.push_back("langid");
        return out;
    };
    s.dataFields = {"length"};
    s.probeFields = {{"text", false}};
    s.defaultModel = [] { return toJson(ClassifierConfig{}); };
    s.checkModel = [](const std::string& json) { classifierConfigFromJson(json); };
    s.controls = {"dataset", "size", "length", "data_seed", "architecture", "pooling", "hops", "hidden", "layers", "heads",
                  "pattern", "window", "bidirectional", "units", "epochs", "learning_rate", "batch_size", "seed", "clip",
                  "validation_fraction"};
    return s;
}

}  // namespace attnlab
