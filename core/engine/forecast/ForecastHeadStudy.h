#pragma once
// The head study of engine/HeadStudy.h for the forecaster: its heads (encoder self-, decoder self-
// and cross-attention) over the held-out tail's windows, metric MAE (lower is better); and a
// forecast with heads switched off (the Forecast view's live ablation). Torch-free.
#include <cstddef>
#include <vector>

#include "engine/HeadStudy.h"
#include "engine/forecast/Forecaster.h"  // Forecast

namespace attnlab {

struct Series;

// Every head over the held-out tail's windows as `forecast --evaluate` takes them. The split's
// errors as splitSeries gives them; InputError when the tail holds no window.
HeadStudyReport measureForecasterHeads(const Forecaster& model, const Series& series, double tailFraction = 0.2,
                                       const HeadStudyOptions& options = {}, const HeadStudyProgress& progress = {});

// The figures with `off` switched off (empty `off` = the plain model).
HeadScore scoreForecasterWithAblation(const Forecaster& model, const Series& series, const std::vector<HeadId>& off,
                                      double tailFraction = 0.2, std::size_t limit = 0);

// I_h before normalisation, in head order.
std::vector<double> forecasterHeadGradients(const Forecaster& model, const Series& series, double tailFraction = 0.2,
                                            std::size_t limit = 0);

// Forecaster::forecastAt with the heads in `off` switched off (live ablation): the forecast and
// every map are the ablated model's (an ablated head's own map is still its softmax). Empty `off` is
// forecastAt. ConfigError for a head beyond the model; forecastAt's errors otherwise.
Forecast forecastAblated(const Forecaster& model, const std::vector<double>& values, long at,
                         const std::vector<HeadId>& off);

}  // namespace attnlab
