#pragma once
// What a language-model lesson may contain (base/lesson/LessonSchema.h): the built-in texts (the
// induction set `repeats`, the English of the gettext catalogues, Debian's fortunes) or a text file, LmConfig (its
// width "hidden" as in every task's lessons), and the run's length in steps with its warm-up.
#include "base/lesson/LessonSchema.h"
#include "base/lm/LmConfig.h"

namespace attnlab {

LessonSchema lmLessonSchema();

}  // namespace attnlab
