#pragma once
// What a text classification lesson may contain (base/lesson/LessonSchema.h): the built-in classification
// datasets and langid, the needle's text length, the probe's text, ClassifierConfig.
#include "base/lesson/LessonSchema.h"

namespace attnlab {

LessonSchema classifierLessonSchema();

}  // namespace attnlab
