#include "base/lm/LmLessonSchema.h"

namespace attnlab {

LessonSchema lmLessonSchema() {
    LessonSchema s;
    s.task = kLmTask;
    s.datasets = [] { return std::vector<std::string>{"repeats", "gettext", "fortunes"}; };
    s.trainingFields = {"steps", "warmup"};
    s.defaultModel = [] { return toJson(LmConfig{}); };
    s.modelAliases = {{"hidden", "d_model"}};
    s.checkModel = [](const std::string& json) { lmConfigFromJson(json); };
    s.controls = {"dataset", "size", "data_seed", "tokens", "layers", "heads", "hidden", "context",
                  "attention_only", "norm", "tied", "positions", "objective", "steps", "warmup", "learning_rate",
                  "batch_size", "seed", "clip", "validation_fraction"};
    return s;
}

}  // namespace attnlab
