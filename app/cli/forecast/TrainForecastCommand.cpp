// attnlab-cli train --task forecast: a Transformer forecaster on one series (a CSV column or a
// generated series). Per epoch a readable line on stderr (loss, the held-out MAE, RMSE, MASE, the
// seasonal naive's MAE, the period-mass ratio) and the same figures as one JSON object on stdout
// (as every task's train); --json adds a last line {"summary": {...}}. The model is saved atomically after every epoch and at the
// end; Ctrl-C finishes the batch, saves and exits 130 (as `train` does for every task).
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>
#include <nlohmann/json.hpp>

#include "forecast/ForecastCli.h"
#include "support/Interrupt.h"
#include "Commands.h"
#include "forecast/SeriesSources.h"
#include "support/TrainingFlags.h"
#include "base/InputError.h"
#include "base/TaskIds.h"
#include "base/forecast/ForecastConfig.h"
#include "base/forecast/Series.h"
#include "engine/Runtime.h"
#include "engine/forecast/ForecastTrainer.h"

namespace attnlab::cli {

namespace {


nlohmann::ordered_json epochJson(const ForecastEpochMetrics& m) {
    nlohmann::ordered_json j;
    j["epoch"] = m.epoch;
    j["train_loss"] = rounded(m.trainLoss);
    j["val_loss"] = rounded(m.validationLoss);
    j["val_mae"] = rounded(m.errors.mae);
    j["val_rmse"] = rounded(m.errors.rmse);
    j["val_mase"] = rounded(m.errors.mase);
    j["seasonal_naive_mae"] = rounded(m.seasonalNaiveMae);
    j["period_mass_ratio"] = rounded(m.periodMassRatio);
    j["windows_per_sec"] = std::round(m.windowsPerSecond * 10) / 10;
    j["seconds"] = std::round(m.seconds * 100) / 100;
    return j;
}

}  // namespace

// The model flags of `train --task forecast` read into a ForecastConfig; usage errors name the flag.
ForecastConfig readForecastConfig(const ArgParser& args) {
    const std::string arch = args.text("--arch", "transformer");
    if (arch != "transformer")
        throw UsageError("--arch: unknown architecture '" + arch + "' for forecasting (expected: transformer)");
    if (args.has("--layers") && args.has("--encoder-layers"))
        throw UsageError("--layers and --encoder-layers name the same setting; give one");
    // The width is --hidden as for every task; --d-model, the Transformer papers' name, is the same.
    if (args.has("--hidden") && args.has("--d-model"))
        throw UsageError("--hidden and --d-model name the same setting; give one");
    const char* widthFlag = args.has("--d-model") ? "--d-model" : "--hidden";
    const ForecastConfig defaults;
    ForecastConfig config;
    config.context = static_cast<int>(args.integer("--context", defaults.context, 2, 4096));
    config.horizon = static_cast<int>(args.integer("--horizon", defaults.horizon, 1, 512));
    config.dModel = static_cast<int>(args.integer(widthFlag, defaults.dModel, 1, 4096));
    config.heads = static_cast<int>(args.integer("--heads", defaults.heads, 1, 64));
    if (config.dModel % config.heads != 0)  // checked here to name the flags
        throw UsageError("--heads " + std::to_string(config.heads) + " does not divide " + widthFlag + " " +
                         std::to_string(config.dModel));
    const char* layersFlag = args.has("--layers") ? "--layers" : "--encoder-layers";
    config.encoderLayers = static_cast<int>(args.integer(layersFlag, defaults.encoderLayers, 1, 16));
    config.decoderLayers = static_cast<int>(args.integer("--decoder-layers", defaults.decoderLayers, 1, 16));
    config.feedForward = static_cast<int>(args.integer("--ff", defaults.feedForward, 1, 16384));
    config.dropout = static_cast<float>(args.real("--dropout", defaults.dropout, 0.0, 0.95));
    try {
        config.loss = parseForecastLoss(args.text("--loss", toString(defaults.loss)));
    } catch (const ConfigError& e) {
        throw UsageError(std::string("--loss: ") + e.what());
    }
    if (args.has("--time-features") && args.has("--no-time-features"))
        throw UsageError("--time-features and --no-time-features exclude each other");
    config.timeFeatures = args.has("--time-features") || (defaults.timeFeatures && !args.has("--no-time-features"));
    config.period = static_cast<int>(args.integer("--season", defaults.period, 0, config.context));
    if (config.period == 1) throw UsageError("--season must be 0 (estimate it) or at least 2, got 1");
    const PatternFlags pattern = readPatternFlags(args, {defaults.pattern, defaults.window, defaults.chunk});
    config.pattern = pattern.pattern;
    config.window = pattern.window;
    config.chunk = pattern.chunk;
    if (config.chunk > config.context)  // a chunk longer than the history would only pad it
        throw UsageError("--chunk must be between 0 and --context (" + std::to_string(config.context) + "), got " +
                         std::to_string(config.chunk));
    return config;
}

int runTrainForecaster(const Args& argv) {
    std::set<std::string> valueFlags = seriesDataFlags();
    valueFlags.insert({"--arch", "--context", "--horizon", "--hidden", "--d-model", "--heads", "--layers", "--encoder-layers",
                       "--decoder-layers", "--ff", "--dropout", "--loss", "--season", "--attention-pattern", "--window",
                       "--chunk", "--epochs", "--batch", "--lr", "--clip", "--seed", "--threads", "--val-fraction",
                       "--stride", "--out"});
    ArgParser args(argv, valueFlags, {"--time-features", "--no-time-features", "--json"});
    if (!args.positionals().empty()) throw UsageError("unexpected argument '" + args.positionals().front() + "'");
    const std::string out = args.outputFile("--out");  // before any training
    const bool json = args.has("--json");
    const ForecastConfig config = readForecastConfig(args);
    ForecastTrainingOptions options;
    options.validationFraction = options.tailFraction;
    readRunFlags(args, options, 0.01);  // --val-fraction is the held-out tail here
    options.tailFraction = options.validationFraction;
    options.stride = static_cast<int>(args.integer("--stride", options.stride, 1, 100000));
    checkConfig(config);

    checkSeriesFlags(args);
    preferFastBlasKernels(programArguments());
    const Series series = loadSeries(args);  // InputError: exit 3
    ForecastTrainer trainer(series, config, options);
    const Forecaster& model = trainer.model();
    const bool estimated = config.period == 0;
    std::cerr << "training a forecaster (transformer, " << config.encoderLayers << "+" << config.decoderLayers
              << " layers, " << config.heads << " heads, d_model " << config.dModel
              << (config.timeFeatures ? ", time features" : "")
              << (config.pattern != AttentionPattern::Full ? ", " + toString(config.pattern) + " encoder attention" : "")
              << "; context " << config.context << ", horizon " << config.horizon << ", " << model.parameterCount()
              << " parameters) on " << (series.source.empty() ? series.name : series.source + " column " + series.name)
              << " (" << series.values.size() << " values): " << trainer.trainingExamples() << " training windows, "
              << trainer.validationExamples() << " held out; period "
              << (model.period() > 0 ? std::to_string(model.period()) : std::string("none found"))
              << (estimated ? " (estimated)" : "") << "\n";

    catchInterrupts(true);
    std::ostringstream tail;
    tail << options.tailFraction;
    auto save = [&] {
        trainer.model().save(out, {{"epochs_trained", std::to_string(trainer.completedEpochs())},
                                   {"tail_fraction", tail.str()}});
    };
    std::optional<ForecastEpochMetrics> last;
    ForecastTrainer::Outcome outcome;
    try {
        outcome = trainer.run(
            [&](const ForecastEpochMetrics& m) {
                std::cerr << "epoch " << m.epoch << "/" << options.epochs << "  loss " << fixedOrNa(m.trainLoss, 4) << " (val "
                          << fixedOrNa(m.validationLoss, 4) << ")  MAE " << fixedOrNa(m.errors.mae, 4) << "  RMSE "
                          << fixedOrNa(m.errors.rmse, 4) << "  MASE " << fixedOrNa(m.errors.mase, 3) << "  seasonal-naive MAE "
                          << fixedOrNa(m.seasonalNaiveMae, 4) << "  period mass x" << fixedOrNa(m.periodMassRatio, 2) << "  ("
                          << fixedOrNa(m.seconds, 2) << " s)" << std::endl;
                std::cout << epochJson(m).dump() << std::endl;
                last = m;
                save();
            },
            &interruptFlag());
    } catch (const TrainingDiverged& e) {
        save();
        std::cerr << "error: " << e.what() << " (saved to " << out << ")\n";
        return kInternal;
    }
    save();
    const bool interrupted = outcome == ForecastTrainer::Outcome::Stopped;
    if (json) {
        nlohmann::ordered_json s;
        s["model"] = out;
        s["epochs_trained"] = trainer.completedEpochs();
        s["interrupted"] = interrupted;
        s["parameters"] = model.parameterCount();
        s["context"] = config.context;
        s["horizon"] = config.horizon;
        s["period"] = model.period();
        s["period_estimated"] = estimated;
        s["length"] = series.values.size();
        s["train_end"] = trainer.split().trainEnd;
        s["training_windows"] = trainer.trainingExamples();
        s["validation_windows"] = trainer.validationExamples();
        s["last_epoch"] = last ? nlohmann::ordered_json(epochJson(*last)) : nlohmann::ordered_json(nullptr);
        std::cout << nlohmann::ordered_json{{"summary", s}}.dump() << std::endl;
    }
    return reportSaved(interrupted, out);
}

}  // namespace attnlab::cli
