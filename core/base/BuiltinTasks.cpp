#include "base/BuiltinTasks.h"

#include "base/forecast/ForecastLessonSchema.h"
#include "base/lm/LmLessonSchema.h"
#include "base/text/ClassifierLessonSchema.h"
#include "base/translation/TranslationLessonSchema.h"
#include "base/vision/VisionLessonSchemas.h"

namespace attnlab {

std::vector<tasks::ModelTask> builtinModelTasks() {
    using namespace tasks;
    return {{kTranslate, kTranslate, true},
            {kClassify, kClassify},
            {kImageClassify, kImages},
            {kCaption, kImages},
            {kForecast, kForecast},
            {kLmTask, kLmTask}};
}

std::vector<LessonSchema> builtinLessonSchemas() {
    return {translationLessonSchema(), classifierLessonSchema(), imageClassifierLessonSchema(), captionerLessonSchema(),
            forecastLessonSchema(), lmLessonSchema()};
}

}  // namespace attnlab
