#pragma once
// The data flags of the forecasting commands (`train --task forecast`, `forecast`, `inspect --task
// forecast`): exactly one of --series FILE.csv --column NAME [--timestamp-column NAME] or
// --dataset seasonal|echo|regime with the generator's --length, --period, --second-period, --lag,
// --noise and --data-seed (`datasets --write` takes the same generator flags, with --seed).
#include <set>
#include <string>

#include "ArgParser.h"
#include "base/forecast/Series.h"

namespace attnlab::cli {

const std::set<std::string>& seriesDataFlags();
// The generator flags alone (--length, --period, --second-period, --lag, --noise).
const std::set<std::string>& seriesGeneratorFlags();

// The generator's options for `kind` from the flags, `seedFlag` naming the seed's flag
// (--data-seed, or datasets' --seed). UsageError names a flag out of range or one the kind does not use.
GeneratedSeriesOptions generatedSeriesOptions(const ArgParser& args, SeriesKind kind, const char* seedFlag);
// "--dataset: unknown series 'X' (expected one of: seasonal, echo, regime)" unless `name` is one.
SeriesKind seriesKindFlag(const std::string& flag, const std::string& name);

// The checks of loadSeries that read no file (a command calls it before opening its model).
void checkSeriesFlags(const ArgParser& args);
// The series the flags name. UsageError for a missing or doubled source, --column without --series
// (or --series without --column: the message lists the file's columns), a generator flag with
// --series; InputError (FILE:LINE: reason) for a file that cannot be read; ConfigError from the generator.
Series loadSeries(const ArgParser& args);

// The held-out tail fraction a forecaster file was trained with (its "tail_fraction" metadata), or
// the trainer's default when the file does not say.
double trainedTailFraction(const std::string& path);

}  // namespace attnlab::cli
