#include "base/BuiltinTasks.h"

#include "base/forecast/ForecastLessonSchema.h"
#include "base/text/ClassifierLessonSchema.h"
#include "base/translation/TranslationLessonSchema.h"
#include "base/vision/VisionLessonSchemas.h"

namespace attnlab {

std::vector<LessonSchema> builtinLessonSchemas() {
    return {translationLessonSchema(), classifierLessonSchema(), imageClassifierLessonSchema(), captionerLessonSchema(),
            forecastLessonSchema()};
}

}  // namespace attnlab
