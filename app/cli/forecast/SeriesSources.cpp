#include "forecast/SeriesSources.h"

#include <algorithm>
#include <cstdlib>

#include "base/InputError.h"
#include "base/io/Safetensors.h"
#include "engine/forecast/ForecastTrainer.h"

namespace attnlab::cli {

const std::set<std::string>& seriesGeneratorFlags() {
    static const std::set<std::string> flags{"--length", "--period", "--second-period", "--lag", "--noise"};
    return flags;
}

const std::set<std::string>& seriesDataFlags() {
    static const std::set<std::string> flags = [] {
        std::set<std::string> all = seriesGeneratorFlags();
        all.insert({"--task", "--series", "--column", "--timestamp-column", "--dataset", "--data-seed"});
        return all;
    }();
    return flags;
}

namespace {

std::string kindList() {
    std::string names;
    for (const auto& n : seriesKindNames()) names += (names.empty() ? "" : ", ") + n;
    return names;
}

}  // namespace

SeriesKind seriesKindFlag(const std::string& flag, const std::string& name) {
    const auto kind = parseSeriesKind(name);
    if (!kind) throw UsageError(flag + ": unknown series '" + name + "' (expected one of: " + kindList() + ")");
    return *kind;
}

GeneratedSeriesOptions generatedSeriesOptions(const ArgParser& args, SeriesKind kind, const char* seedFlag) {
    const bool echo = kind == SeriesKind::Echo;
    if (args.has("--lag") && !echo) throw UsageError("--lag applies to the echo series");
    for (const char* flag : {"--period", "--second-period"})
        if (args.has(flag) && echo) throw UsageError(std::string(flag) + " applies to the seasonal and regime series");
    GeneratedSeriesOptions o;
    o.kind = kind;
    o.length = static_cast<long>(args.integer("--length", o.length, 16, static_cast<long long>(kMaxSeriesValues)));
    o.period = static_cast<int>(args.integer("--period", o.period, 2, 100000));
    o.secondPeriod = static_cast<int>(args.integer("--second-period", o.secondPeriod, 0, 100000));
    if (o.secondPeriod == 1) throw UsageError("--second-period must be 0 (none) or at least 2, got 1");
    o.lag = static_cast<int>(args.integer("--lag", o.lag, 1, 100000));
    o.noise = args.real("--noise", o.noise, 0.0, 100.0);
    o.seed = static_cast<std::uint64_t>(args.integer(seedFlag, static_cast<long long>(o.seed), 0, 1LL << 62));
    if (o.period >= o.length) throw UsageError("--period must be below --length (" + std::to_string(o.length) + ")");
    if (echo && o.lag >= o.length) throw UsageError("--lag must be below --length (" + std::to_string(o.length) + ")");
    return o;
}

void checkSeriesFlags(const ArgParser& args) {
    if (!args.has("--series"))
        for (const char* flag : {"--column", "--timestamp-column"})
            if (args.has(flag)) throw UsageError(std::string(flag) + " applies to --series FILE.csv");
    if (args.has("--series") == args.has("--dataset"))
        throw UsageError(args.has("--series") ? "give either --series FILE.csv or --dataset NAME, not both"
                                              : "give --series FILE.csv --column NAME or --dataset " + kindList());
    if (args.has("--dataset")) {
        generatedSeriesOptions(args, seriesKindFlag("--dataset", args.required("--dataset")), "--data-seed");
        return;
    }
    std::set<std::string> generatorFlags = seriesGeneratorFlags();
    generatorFlags.insert("--data-seed");
    for (const std::string& flag : generatorFlags)
        if (args.has(flag)) throw UsageError(flag + " applies to --dataset (a generated series)");
    if (args.has("--timestamp-column") && args.text("--timestamp-column", "") == args.text("--column", ""))
        throw UsageError("--timestamp-column names the value column '" + args.text("--column", "") + "'");
}

Series loadSeries(const ArgParser& args) {
    checkSeriesFlags(args);
    if (args.has("--dataset"))
        return generateSeries(generatedSeriesOptions(args, seriesKindFlag("--dataset", args.required("--dataset")), "--data-seed"));
    const std::string path = args.required("--series");
    if (!args.has("--column")) {
        std::string columns;
        for (const auto& c : readCsvColumns(path)) columns += (columns.empty() ? "" : ", ") + c;
        throw UsageError("--series needs --column NAME (the columns of " + path + ": " + columns + ")");
    }
    return readSeriesCsv(path, args.required("--column"), args.text("--timestamp-column", ""));
}

double trainedTailFraction(const std::string& path) {
    const ForecastTrainingOptions defaults;
    const SafetensorsContent content = readSafetensors(path);
    const auto it = content.metadata.find("tail_fraction");
    if (it == content.metadata.end()) return defaults.tailFraction;
    char* end = nullptr;
    const double v = std::strtod(it->second.c_str(), &end);
    return end != it->second.c_str() && *end == '\0' && v > 0 && v < 1 ? v : defaults.tailFraction;
}

}  // namespace attnlab::cli
