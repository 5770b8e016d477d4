// attnlab-cli's forecasting task, front end (no LibTorch): inspect --task forecast, the generated
// series in `datasets` and their writer, its part of train's help.
#include <algorithm>
#include <iostream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "ArgParser.h"
#include "CliTasks.h"
#include "base/InputError.h"
#include "base/TaskIds.h"
#include "base/forecast/ForecastConfig.h"
#include "base/forecast/Series.h"
#include "forecast/ForecastCli.h"
#include "forecast/SeriesSources.h"

namespace attnlab::cli {

namespace {

// inspect --task forecast: a series as train --task forecast reads it (--series F.csv --column NAME
// [--timestamp-column NAME] or --dataset seasonal|echo|regime with the generator's flags); with
// --context C and --horizon H also the split the trainer would make (--val-fraction, default 0.2).
int inspectSeries(const Args& args) {
    std::set<std::string> flags = seriesDataFlags();
    flags.insert({"--context", "--horizon", "--val-fraction"});
    ArgParser p(args, flags, {});
    if (!p.positionals().empty()) throw UsageError("unexpected argument '" + p.positionals().front() + "'");
    const bool split = p.has("--context") || p.has("--horizon");
    if (p.has("--val-fraction") && !split) throw UsageError("--val-fraction applies with --context and --horizon");
    const ForecastConfig defaults;
    const int context = static_cast<int>(p.integer("--context", defaults.context, 2, 4096));
    const int horizon = static_cast<int>(p.integer("--horizon", defaults.horizon, 1, 512));
    const double tail = p.real("--val-fraction", 0.2, 0.01, 0.9);
    const Series s = loadSeries(p);
    const long length = static_cast<long>(s.values.size());
    nlohmann::ordered_json out;
    out["name"] = s.name;
    out["source"] = s.source;
    out["values"] = length;
    out["has_timestamps"] = !s.timestamps.empty();
    if (!s.timestamps.empty()) {
        out["first_timestamp"] = s.timestamps.front();
        out["last_timestamp"] = s.timestamps.back();
    }
    long end = length;
    if (split) {
        const SeriesSplit parts = splitSeries(s, context, horizon, tail);  // InputError when too short
        end = parts.trainEnd;
        out["split"] = {{"context", context}, {"horizon", horizon}, {"val_fraction", tail},
                        {"train_end", parts.trainEnd}, {"held_out", parts.length - parts.trainEnd}};
    }
    const Standardizer st = fitStandardizer(s.values, end);
    out["mean"] = st.mean;
    out["std"] = st.std;
    out["min"] = length ? *std::min_element(s.values.begin(), s.values.end()) : 0.0;
    out["max"] = length ? *std::max_element(s.values.begin(), s.values.end()) : 0.0;
    const int maxLag = static_cast<int>(std::min<long>(split ? context : 1000, end / 2));
    out["estimated_period"] = maxLag >= 2 ? estimatePeriod(s.values, end, maxLag) : 0;
    if (s.source.empty())
        out["truth"] = {{"period", s.truth.period}, {"second_period", s.truth.secondPeriod}, {"lag", s.truth.lag},
                        {"change_at", s.truth.changeAt}};
    std::cout << out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return kOk;
}

// The generated time series (train --task forecast --dataset NAME), with their defaults.
std::vector<std::pair<std::string, std::string>> seriesDescriptions() {
    const GeneratedSeriesOptions d;
    const std::string n = std::to_string(d.length), p = std::to_string(d.period);
    return {{toString(SeriesKind::Seasonal),
             n + " values: a sine of period " + p + " (--period; --second-period adds one), a slight trend, noise"},
            {toString(SeriesKind::Echo),
             n + " values: smoothed noise that comes back " + std::to_string(d.lag) + " steps later (--lag), plus noise"},
            {toString(SeriesKind::Regime),
             n + " values: period " + p + " for the first half, " + std::to_string(2 * d.period - 1) +
                 " after (--second-period)"}};
}

std::vector<DatasetRow> seriesDatasetRows() {
    std::vector<DatasetRow> rows;
    for (const auto& [name, description] : seriesDescriptions()) {
        DatasetRow row;
        row.name = name;
        row.description = {description};
        row.json = {{"name", name}, {"task", tasks::kForecast}, {"description", description}};
        rows.push_back(std::move(row));
    }
    return rows;
}

bool writeSeriesDataset(const ArgParser& p, const std::string& name, const std::string& out) {
    const auto kind = parseSeriesKind(name);
    if (!kind) return false;
    for (const char* flag : {"--size", "--max-len", "--alignments", "--split-cjk", "--no-split-cjk", "--split"})
        if (p.has(flag)) throw UsageError(std::string(flag) + " does not apply to a series (--length N sets its values)");
    checkOutputFile("--out", out);
    const Series series = generateSeries(generatedSeriesOptions(p, *kind, "--seed"));
    writeSeriesCsv(series, out);
    std::cerr << "wrote " << series.values.size() << " values of " << series.name << " to " << out << " (columns t,"
              << series.name << ")\n";
    return true;
}

const char* kTrainHelp = R"(Forecasting: attnlab-cli train --task forecast (--series FILE.csv --column NAME | --dataset NAME)
                         --context C --horizon H --out MODEL.safetensors [options]
  --series FILE.csv    a comma-separated file with a header line; --column NAME is the series
                       (numbers; an empty, non-numeric, NaN or infinite cell is exit 3 naming the
                       line), --timestamp-column NAME keeps a column of timestamps as text
  --dataset NAME       seasonal, echo or regime, generated (see datasets --write): --length N
                       (2000) --period P (17) --second-period Q --lag K (24) --noise X (0.2)
                       --data-seed S (1)
  A Transformer encoder-decoder: the encoder reads the C values before a point, the decoder's
  H query slots attend to them and give the H values after it. Values are standardised with
  the training part's mean and deviation; the last --val-fraction (0.2) is held out.
  --context C (96)  --horizon H (12)  --arch transformer  --hidden N (64; or --d-model N)  --heads N (4)
  --layers N or --encoder-layers N (2)  --decoder-layers N (1)  --ff N (128)  --dropout F (0)
  --loss mse|mae (mse)
  --time-features, --no-time-features   sin and cos of the position within the period added
                       to each value's input (default on: the cross-attention then finds the
                       period far more often, docs/forecasting.md)
  --season P           the period the time features, the seasonal naive and MASE use, 2 to
                       the context (default 0: estimated on the training part)
  --attention-pattern P [--window W (8)] [--chunk N (0 = ceil(sqrt(C)), at most C)] for the encoder's
                       self-attention, as for translation; the cross-attention stays full
  --epochs N (12)  --batch N (32)  --lr F (0.001)  --clip F (1.0)  --seed N  --threads N
  --stride N (1)       steps between training windows
  --json               end with one more line on stdout: {"summary": {"model", "epochs_trained",
                       "interrupted", "parameters", "context", "horizon", "period",
                       "period_estimated", "length", "train_end", "training_windows",
                       "validation_windows", "last_epoch"}}
  Each epoch prints a JSON object on stdout and a readable line on stderr: the training loss (and the held-out one), the held-out MAE, RMSE
  and MASE (MAE over the seasonal naive's), the seasonal naive's MAE and the period-mass ratio
  (the cross-attention's share on points a whole number of periods back over the share of such
  points: above 1 the model looks back by periods). JSON keys: epoch, train_loss, val_loss,
  val_mae, val_rmse, val_mase, seasonal_naive_mae, period_mass_ratio, windows_per_sec, seconds.
)";

}  // namespace

FrontTask forecastFrontTask() {
    FrontTask t;
    t.id = tasks::kForecast;
    t.datasetsHeading = "Time series (train --task forecast --dataset NAME; --write NAME --out FILE.csv writes t,NAME):";
    t.datasets = seriesDatasetRows;
    t.writeDataset = writeSeriesDataset;
    t.inspect = inspectSeries;
    t.trainHelp = kTrainHelp;
    return t;
}

}  // namespace attnlab::cli
