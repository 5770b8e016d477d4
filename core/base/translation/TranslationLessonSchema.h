#pragma once
// What a translation lesson may contain (base/lesson/LessonSchema.h): the built-in parallel datasets,
// max_length, the teacher forcing and attention-loss settings, the probe's sentences, ModelConfig.
#include "base/lesson/LessonSchema.h"

namespace attnlab {

LessonSchema translationLessonSchema();

}  // namespace attnlab
