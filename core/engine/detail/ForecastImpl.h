#pragma once
// Engine-internal: what Forecaster holds. Includes LibTorch; only engine .cpp files include it.
#include <torch/torch.h>

#include "EvalModeGuard.h"
#include "engine/forecast/Forecaster.h"
#include "engine/nn/networks/ForecastNet.h"

namespace attnlab {

struct Forecaster::Impl {
    ForecastConfig config;
    Standardizer standardizer;
    int period = 0;                  // config.period, or estimated on the training part (0 = none)
    std::vector<double> stepSpread;  // validation RMSE per step, original units (empty before training)
    std::shared_ptr<nn::ForecastNetImpl> net;

    // The period the time features use and the model reports (the net's table follows it).
    void setPeriod(int p) {
        period = p > 0 ? p : 0;
        net->setPeriod(period);
    }
    // Standardised histories [B, C] from rows of original values.
    torch::Tensor standardised(const std::vector<const double*>& rows) const;
};

// Each window's forecast (original units) and, when asked, the last decoder layer's cross-attention
// averaged over heads, summed over the windows ([H, C], to be divided by the count). Batched, eval
// mode, no autograd. `starts` index the first history value of each window in `values`.
struct WindowForecasts {
    std::vector<std::vector<double>> forecasts;  // [window][step]
    std::vector<double> crossSum;                // H * C
};
WindowForecasts forecastWindows(const Forecaster::Impl& impl, const std::vector<double>& values,
                                const std::vector<long>& starts, bool withCross);

}  // namespace attnlab
