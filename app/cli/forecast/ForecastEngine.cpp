// attnlab-cli's forecasting task, engine part: its EngineTask (train, heads) and heads on a forecaster.
#include "ArgParser.h"
#include "support/HeadStudyOutput.h"
#include "base/TaskIds.h"
#include "engine/forecast/ForecastHeadStudy.h"
#include "engine/forecast/Forecaster.h"
#include "forecast/ForecastCli.h"
#include "forecast/SeriesSources.h"

namespace attnlab::cli {

namespace {

int forecasterHeads(const Args& argv, const std::string& path) {
    std::set<std::string> values = withStudyFlags(seriesDataFlags());
    values.insert("--val-fraction");
    ArgParser args(argv, values, {"--json"});
    noPositionals(args);
    const HeadStudyOptions options = studyOptions(args);
    checkSeriesFlags(args);
    if (!args.has("--series") && !args.has("--dataset"))
        throw UsageError("heads needs the series to measure on: --series FILE.csv --column NAME or --dataset NAME");
    const double tail = args.real("--val-fraction", trainedTailFraction(path), 0.01, 0.9);
    const Series series = loadSeries(args);
    const Forecaster model = Forecaster::load(path);
    return printStudy(measureForecasterHeads(model, series, tail, options, progressLine()), "windows",
                      args.has("--json"));
}

}  // namespace

EngineTask forecastEngineTask() {
    EngineTask t;
    t.id = tasks::kForecast;
    t.train = runTrainForecaster;
    t.heads = forecasterHeads;
    return t;
}

}  // namespace attnlab::cli
