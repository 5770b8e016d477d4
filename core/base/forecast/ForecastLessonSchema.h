#pragma once
// What a forecasting lesson may contain (base/lesson/LessonSchema.h): the generated series (seasonal,
// echo, regime) with their period, lag and noise, ForecastConfig; no probe fields.
#include "base/lesson/LessonSchema.h"

namespace attnlab {

LessonSchema forecastLessonSchema();

}  // namespace attnlab
