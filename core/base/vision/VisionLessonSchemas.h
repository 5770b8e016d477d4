#pragma once
// What a lesson of the two vision models may contain (base/lesson/LessonSchema.h): the ViT's datasets
// (glyphs, fashion-mnist) and VitConfig, the captioner's scenes and CaptionerConfig; both take a
// probe image, the cosine schedule and the Images task's setup controls.
#include "base/lesson/LessonSchema.h"

namespace attnlab {

LessonSchema imageClassifierLessonSchema();
LessonSchema captionerLessonSchema();

}  // namespace attnlab
