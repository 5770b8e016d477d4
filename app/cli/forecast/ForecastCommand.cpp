// attnlab-cli forecast: a trained forecaster's H points at a position of a series, with the
// attention it used (cross: forecast step over the history; encoder: history over history), or
// with --evaluate its errors over the held-out tail beside the baselines.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>

#include "forecast/ForecastCli.h"
#include "support/JsonOut.h"
#include "ArgParser.h"
#include "Commands.h"
#include "forecast/SeriesSources.h"
#include "base/InputError.h"
#include "base/TaskIds.h"
#include "base/io/Safetensors.h"
#include "base/forecast/Series.h"
#include "engine/forecast/ForecastTrainer.h"
#include "engine/forecast/Forecaster.h"

namespace attnlab::cli {

namespace {

nlohmann::json layered(const LayeredAttention& maps) {
    nlohmann::json layers = nlohmann::json::array();
    for (const auto& layer : maps) {
        nlohmann::json heads = nlohmann::json::array();
        for (const auto& head : layer) heads.push_back(attentionRows(head));
        layers.push_back(std::move(heads));
    }
    return layers;
}

nlohmann::ordered_json errorsJson(const ForecastErrors& e) {
    nlohmann::ordered_json j;
    j["mae"] = finiteOrNull(e.mae);
    j["rmse"] = finiteOrNull(e.rmse);
    j["mase"] = finiteOrNull(e.mase);
    return j;
}

std::string nameOf(const Series& s) { return s.source.empty() ? s.name : s.source; }


// The held-out share the model was trained with (its checkpoint's "tail_fraction"), else the default.
int evaluate(const ArgParser& args, const std::string& path, const Forecaster& model, const Series& series) {
    const double tail = args.real("--val-fraction", trainedTailFraction(path), 0.01, 0.9);
    const ForecastEvaluation e = evaluateForecaster(model, series, tail);
    if (args.has("--json")) {
        nlohmann::ordered_json j;
        j["model"] = errorsJson(e.model);
        j["last_value"] = errorsJson(e.lastValue);
        j["seasonal_naive"] = errorsJson(e.seasonalNaive);
        j["mean"] = errorsJson(e.mean);
        j["period"] = e.period;
        j["windows"] = e.windows;
        j["tail_fraction"] = tail;
        j["step_rmse"] = finiteOrNullList(e.stepRmse);
        j["period_mass_ratio"] = finiteOrNull(e.periodMass.ratio());
        j["period_mass"] = finiteOrNull(e.periodMass.mass);
        j["period_point_share"] = finiteOrNull(e.periodMass.pointShare);
        std::cout << j.dump() << "\n";
        return kOk;
    }
    std::printf("%s: %ld held-out windows (the last %.0f%%), context %d, horizon %d, period %d\n\n",
                nameOf(series).c_str(), e.windows, tail * 100, model.config().context, model.config().horizon, e.period);
    std::printf("%-16s %12s %12s %8s\n", "forecast", "MAE", "RMSE", "MASE");
    const std::pair<const char*, const ForecastErrors*> lines[] = {
        {"model", &e.model}, {"last value", &e.lastValue}, {"seasonal naive", &e.seasonalNaive}, {"mean", &e.mean}};
    for (const auto& [name, errors] : lines)
        std::printf("%-16s %12s %12s %8s\n", name, fixedOrNa(errors->mae, 4).c_str(), fixedOrNa(errors->rmse, 4).c_str(),
                    fixedOrNa(errors->mase, 3).c_str());
    std::printf("\ncross-attention on points a whole number of periods back: %s of the mass, %s of the points "
                "(ratio %s)\n",
                fixedOrNa(e.periodMass.mass, 3).c_str(), fixedOrNa(e.periodMass.pointShare, 3).c_str(),
                fixedOrNa(e.periodMass.ratio(), 2).c_str());
    return kOk;
}

}  // namespace

int runForecast(const Args& argv) {
    std::set<std::string> valueFlags = seriesDataFlags();
    valueFlags.insert({"--model", "--at", "--val-fraction"});
    ArgParser args(argv, valueFlags, {"--json", "--evaluate"});
    if (!args.positionals().empty()) throw UsageError("unexpected argument '" + args.positionals().front() + "'");
    const std::string path = args.required("--model");
    const bool evaluating = args.has("--evaluate");
    if (evaluating && args.has("--at")) throw UsageError("--at applies to a forecast, not to --evaluate");
    if (!evaluating && args.has("--val-fraction")) throw UsageError("--val-fraction applies to --evaluate");
    if (args.has("--task") && args.text("--task", "") != tasks::kForecast)
        throw UsageError("--task: forecast reads forecasting models only");
    // Usage first (the data flags, before any file is read), then the model (exit 4), then the data (exit 3).
    checkSeriesFlags(args);
    const Forecaster model = Forecaster::load(path);
    const Series data = loadSeries(args);
    if (evaluating) return evaluate(args, path, model, data);

    const int context = model.config().context, horizon = model.config().horizon;
    const long length = static_cast<long>(data.values.size());
    if (length < context)
        throw InputError(nameOf(data), 0,
                         "has " + std::to_string(length) + " values, fewer than the model's context of " +
                             std::to_string(context));
    const long at = static_cast<long>(args.integer("--at", length, context, length));
    const std::vector<double> history(data.values.begin() + (at - context), data.values.begin() + at);
    const Forecast f = model.forecast(history);
    const long known = std::min<long>(horizon, length - at);  // truth: the points the series has
    const std::vector<double> truth(data.values.begin() + at, data.values.begin() + at + known);

    if (args.has("--json")) {
        nlohmann::ordered_json j;
        j["at"] = at;
        j["context"] = context;
        j["horizon"] = horizon;
        j["history"] = finiteOrNullList(f.history);
        j["forecast"] = finiteOrNullList(f.forecast);
        if (known > 0) j["truth"] = finiteOrNullList(truth);
        j["spread"] = finiteOrNullList(f.spread);
        j["lag_profile"] = finiteOrNullList(f.lagProfile);
        j["period"] = model.period();
        if (!data.timestamps.empty()) {
            j["history_timestamps"] = std::vector<std::string>(data.timestamps.begin() + (at - context),
                                                               data.timestamps.begin() + at);
            j["forecast_timestamps"] =
                std::vector<std::string>(data.timestamps.begin() + at, data.timestamps.begin() + at + known);
        }
        j["attention"] = {{"cross", layered(f.cross)}, {"encoder", layered(f.encoder)}};
        std::cout << j.dump() << "\n";
        return kOk;
    }
    std::printf("%s: %d points at %ld from the %d before (period %d)\n\n", nameOf(data).c_str(), horizon, at, context,
                model.period());
    std::printf("%5s %10s %14s %12s %14s   %s\n", "step", "index", "forecast", "+-", "truth", "most attended lag");
    const AttentionMap& mean = f.meanCross;
    const bool withMap = mean.rows == horizon && mean.cols == context;
    for (int h = 0; h < horizon; ++h) {
        int best = 0;
        for (int c = 1; withMap && c < mean.cols; ++c)
            if (mean.at(h, c) > mean.at(h, best)) best = c;
        const long index = at + h;
        const std::string label = data.timestamps.empty() || index >= length
                                      ? std::to_string(index)
                                      : data.timestamps[static_cast<std::size_t>(index)];
        const std::string spread = static_cast<std::size_t>(h) < f.spread.size() ? fixedOrNa(f.spread[h], 4) : "";
        const std::string truthText = h < known ? fixedOrNa(truth[static_cast<std::size_t>(h)], 4) : "";
        const int lag = (context - best) + h;
        std::printf("%5d %10s %14s %12s %14s   %s\n", h + 1, label.c_str(), fixedOrNa(f.forecast[h], 4).c_str(),
                    spread.c_str(), truthText.c_str(),
                    withMap ? (std::to_string(lag) + " (" + fixedOrNa(mean.at(h, best), 2) + ")").c_str() : "");
    }
    if (f.lagProfile.size() > 1) {
        std::vector<std::size_t> order;
        for (std::size_t lag = 1; lag < f.lagProfile.size(); ++lag) order.push_back(lag);
        const std::size_t top = std::min<std::size_t>(3, order.size());
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top), order.end(),
                          [&](std::size_t a, std::size_t b) { return f.lagProfile[a] > f.lagProfile[b]; });
        std::printf("\nlags with the most cross-attention (last layer, heads averaged):");
        for (std::size_t i = 0; i < top; ++i) std::printf(" %zu (%.3f)", order[i], f.lagProfile[order[i]]);
        std::printf("\n");
    }
    return kOk;
}

}  // namespace attnlab::cli
