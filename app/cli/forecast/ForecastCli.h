#pragma once
// attnlab-cli's forecasting task: its front end entry (ForecastFront.cpp: inspect, the generated
// series in `datasets` and their writer, train's help) and its engine entry (ForecastEngine.cpp: train,
// heads), and its own command, forecast.
#include <cmath>
#include <cstdio>
#include <string>

#include "CliTasks.h"
#include "EngineTasks.h"

namespace attnlab::cli {

FrontTask forecastFrontTask();
EngineTask forecastEngineTask();

int runForecast(const Args& args);
int runTrainForecaster(const Args& args);

// v with `digits` decimals for the readable lines, "n/a" when it is not finite.
inline std::string fixedOrNa(double v, int digits) {
    if (!std::isfinite(v)) return "n/a";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
    return buffer;
}

}  // namespace attnlab::cli
