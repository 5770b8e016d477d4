#pragma once
// Training a Forecaster: Adam on MSE or MAE over (context, horizon) windows of the training part,
// validated each epoch on the held-out tail with the baselines beside it. Torch-free header.
#include <atomic>
#include <functional>
#include <memory>

#include "base/forecast/Series.h"
#include "engine/TrainingRun.h"
#include "engine/forecast/Forecaster.h"

namespace attnlab {

struct ForecastTrainingOptions : TrainingRunOptions {
    double tailFraction = 0.2;  // the held-out tail (validation and --evaluate)
    int stride = 1;             // between training windows
    // 12 epochs: ~45 s on one thread for 3000 points at the default config (docs/forecasting.md).
    ForecastTrainingOptions() { learningRate = 1e-3; epochs = 12; }
};

// Errors over every held-out window (each forecast step of each window whose horizon lies in the tail).
struct ForecastEvaluation {
    ForecastErrors model;
    ForecastErrors lastValue;
    ForecastErrors seasonalNaive;
    ForecastErrors mean;
    int period = 0;   // the seasonal naive's period
    long windows = 0;
    std::vector<double> stepRmse;  // per forecast step, the model's
    PeriodMass periodMass;         // the model's mean cross-attention over the windows, against period
};

struct ForecastEpochMetrics {
    int epoch = 0;
    double trainLoss = 0;
    double validationLoss = 0;
    ForecastErrors errors;            // the model's on the held-out tail
    double seasonalNaiveMae = 0;      // the baseline's, for the chart
    double periodMassRatio = 0;       // PeriodMass::ratio() of the held-out windows' mean cross-attention
    std::vector<double> lagProfile;   // the held-out windows' mean lag profile (timeline / probe)
    double windowsPerSecond = 0;
    double seconds = 0;
};

class ForecastTrainer : public TaskTrainer<ForecastEpochMetrics, Forecaster> {
public:
    // Splits the series, fits the standardisation on the training part, estimates the period when
    // the config gives none, builds the model. Throws ConfigError for invalid options or config,
    // InputError for a series too short for the context and horizon.
    ForecastTrainer(const Series& series, ForecastConfig config, ForecastTrainingOptions options);
    ~ForecastTrainer();

    Outcome run(const EpochReport& onEpoch, const std::atomic<bool>* stop = nullptr,
                const std::function<void()>& afterBatch = {});
    ForecastEpochMetrics evaluate() const;
    const SeriesSplit& split() const;
    const Series& series() const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

// The held-out evaluation of a trained model on a series (what `forecast --evaluate` prints):
// the same split as training with `tailFraction`. Throws InputError for a series too short.
ForecastEvaluation evaluateForecaster(const Forecaster& model, const Series& series, double tailFraction = 0.2);

}  // namespace attnlab
