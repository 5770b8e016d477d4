#include "base/translation/TranslationLessonSchema.h"

#include "base/TaskIds.h"
#include "base/translation/Datasets.h"
#include "base/translation/ModelConfig.h"

namespace attnlab {

LessonSchema translationLessonSchema() {
    LessonSchema s;
    s.task = tasks::kTranslate;
    s.datasets = [] {
        std::vector<std::string> out;
        for (const DatasetInfo& d : builtinDatasets()) out.push_back(d.name);
        return out;
    };
    s.dataFields = {"max_length"};
    s.trainingFields = {"teacher_forcing", "coverage_penalty", "guided_alignment", "alignment_head"};
    s.probeFields = {{"sentence", false}, {"translate", false}};
    s.probeEveryBatches = true;
    s.defaultModel = [] { return toJson(ModelConfig{}); };
    s.checkModel = [](const std::string& json) { modelConfigFromJson(json); };
    s.controls = {"dataset", "size", "data_seed", "max_length", "open_corpus", "architecture", "attention", "window",
                  "bidirectional", "query", "hidden", "layers", "heads", "pattern", "chunk", "feed_forward", "dropout",
                  "dropout_on", "model_max_length", "learning_rate", "batch_size", "epochs", "seed", "threads",
                  "validation_fraction", "clip", "teacher_forcing", "coverage_penalty", "guided_alignment"};
    return s;
}

}  // namespace attnlab
