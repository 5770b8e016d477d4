#include "base/vision/VisionLessonSchemas.h"

#include "base/TaskIds.h"
#include "base/vision/VisionConfig.h"

namespace attnlab {

namespace {

LessonSchema visionLessonSchema(const char* task) {
    LessonSchema s;
    s.task = task;
    s.trainingFields = {"cosine"};
    s.probeFields = {{"image", true}};
    s.controls = {"dataset", "size", "data_seed", "noise", "patch", "hidden", "heads", "layers", "attention", "lambda",
                  "caption_hidden", "epochs", "learning_rate", "batch_size", "seed", "clip", "validation_fraction"};
    return s;
}

}  // namespace

LessonSchema imageClassifierLessonSchema() {
    LessonSchema s = visionLessonSchema(tasks::kImageClassify);
    s.datasets = [] { return std::vector<std::string>{"glyphs", "fashion-mnist"}; };
    s.defaultModel = [] { return toJson(VitConfig{}); };
    s.checkModel = [](const std::string& json) { vitConfigFromJson(json); };
    return s;
}

LessonSchema captionerLessonSchema() {
    LessonSchema s = visionLessonSchema(tasks::kCaption);
    s.datasets = [] { return std::vector<std::string>{"scenes"}; };
    s.dataFields = {"noise"};  // the scenes' background noise (SceneOptions::noise)
    s.defaultModel = [] { return toJson(CaptionerConfig{}); };
    s.checkModel = [](const std::string& json) { captionerConfigFromJson(json); };
    return s;
}

}  // namespace attnlab
