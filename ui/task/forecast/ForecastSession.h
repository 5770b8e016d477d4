#pragma once
// The forecasting task's model and its training, on a worker thread of its own
// ("attnlab-forecast"). The GUI thread asks through this object and never waits: the worker owns the
// ForecastTrainer (or a Forecaster opened from a file) and answers with value types (Forecast,
// ForecastEpochMetrics, ForecastEvaluation, QString) posted back to this object, which re-emits them
// on the GUI thread. While a run trains, the worker answers forecast requests between batches
// (ForecastTrainer::run's afterBatch) and every few batches forecasts the probe window (a series and
// a position in it), so the Forecast view shows the forecast and its attention forming.
//
// One job at a time: a run, an open or a save. Train and open are refused while a job runs; a reset
// during a run takes effect when the run has stopped.
#include "engine/forecast/ForecastTrainer.h"
#include "session/ModelSession.h"
#include <QObject>
#include <QString>
#include <memory>
#include <vector>

namespace attnlab {

class ForecastWorker;

struct ForecastRequest {
    std::shared_ptr<const Series> series;
    ForecastConfig config;
    ForecastTrainingOptions options;
};

// What the window and the views show of the model.
struct ForecastModelInfo {
    ForecastConfig config;
    int period = 0;  // the config's, or the one estimated on the training part (0: none found)
    std::int64_t parameters = 0;
    std::size_t trainingWindows = 0, validationWindows = 0;  // 0 for a model opened from a file
    int epochsPlanned = 0;
    QString source;  // the series' name, or the file opened
};

using ForecastSessionBase = SessionOf<ForecastWorker, ForecastModelInfo>;

class ForecastSession : public ForecastSessionBase {
    Q_OBJECT
public:
    explicit ForecastSession(QObject* parent = nullptr);
    // The destructor shuts the worker down (SessionOf: shutdown(5000)) if not done yet.

    bool train(const ForecastRequest& request);  // refused (false) while a job runs
    // stop(), reset(), open(path), save(path), shutdown(timeoutMs): ModelSession.
    // The forecast of positions at .. at+H-1 of `series` from the C values before: forecasted or
    // requestFailed, carrying the returned id.
    // With `off` switched off (engine/HeadStudy.h forecastAblated).
    quint64 forecastAt(std::shared_ptr<const Series> series, long at, const std::vector<HeadId>& off = {});
    // The held-out evaluation of the model on `series` (its tail, as training splits it): evaluated
    // or requestFailed.
    quint64 evaluate(std::shared_ptr<const Series> series, double tailFraction);
    // Every head of the forecaster (encoder self-, decoder self- and cross-attention) switched off in
    // turn and ranked (engine/HeadStudy.h) over the windows of `series`'s held-out tail, metric MAE:
    // headStudyProgress, then headStudyMeasured or requestFailed, carrying the returned id. `limit`
    // windows at most (0: all).
    quint64 measureHeads(std::shared_ptr<const Series> series, double tailFraction, int limit);
    // Forecast every few batches while training and after each epoch: probed. A null series: no probe.
    void setProbe(std::shared_ptr<const Series> series, long at);

Q_SIGNALS:
    void modelReady(const attnlab::ForecastModelInfo& info);  // built for a run, or opened
    void epochFinished(const attnlab::ForecastEpochMetrics& metrics);
    void forecasted(quint64 id, const attnlab::Forecast& forecast, long at);
    void evaluated(quint64 id, const attnlab::ForecastEvaluation& evaluation);
    void probed(const attnlab::Forecast& forecast, long at);
};

}  // namespace attnlab
