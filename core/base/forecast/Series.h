#pragma once
// Time series for the forecasting task: plain value types, the CSV reader, the built-in generated
// series with their ground truth, the split into training and held-out tail, standardisation, the
// baselines (last value, seasonal naive, mean) and the metrics (MAE, RMSE, MASE). Torch-free.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// What a generated series was built with: what the attention should find.
struct SeriesTruth {
    int period = 0;        // seasonal: the main period; regime: the period of the first half; 0 = none
    int secondPeriod = 0;  // seasonal with two periods; regime: the period after the change; 0 = none
    int lag = 0;           // echo: y_t = kEchoGain * y_{t-lag} + x_t + noise (see SeriesKind::Echo); 0 = none
    long changeAt = -1;    // regime: the index where the period changes; -1 = none
};

struct Series {
    std::string name;                     // the column's name, or the dataset's ("seasonal")
    std::vector<double> values;           // finite, in time order
    std::vector<std::string> timestamps;  // empty, or one per value (the timestamp column as written)
    SeriesTruth truth;                    // generated series only
    std::string source;                   // the file read, or "" for a generated series
};

// The columns of a CSV file's header, in order (the GUI's column chooser). Throws InputError
// naming the file for a missing, empty or headerless file.
std::vector<std::string> readCsvColumns(const std::string& path);

// Reads column `column` of a comma-separated file with a header line (quoted fields with "" and
// commas inside them are accepted; blank lines at the end are ignored; a UTF-8 BOM is skipped).
// `timestampColumn` (optional) is kept as text. Throws InputError("FILE:LINE: reason") for a
// missing column (line 1), a missing, empty or non-numeric cell, NaN or infinity, a row with too few
// fields, a file larger than kMaxSeriesFileBytes or with more than kMaxSeriesValues rows, and
// InputError(FILE) for an unreadable file or one with no data rows.
inline constexpr std::size_t kMaxSeriesFileBytes = 256u << 20;
inline constexpr std::size_t kMaxSeriesValues = 10'000'000;
// Cells are read whole by std::from_chars (an optional leading '+'; spaces and tabs around an
// unquoted field are dropped); a quoted field may also hold line breaks (the line numbers count
// them). A header line of numbers only is refused as no header; a column named twice is refused
// when it is the one asked for. The value cell must be present on every row; a blank line between
// data rows is refused.
Series readSeriesCsv(const std::string& path, const std::string& column, const std::string& timestampColumn = {});
// The same from the text of a file, `name` standing for the file in messages (the fuzz target's
// entry point; readSeriesCsv reads the file and calls it).
Series parseSeriesCsv(const std::string& text, const std::string& name, const std::string& column,
                      const std::string& timestampColumn = {});
std::vector<std::string> parseCsvColumns(const std::string& text, const std::string& name);
// Writes `series` as a CSV with the header "t,NAME" (or "TIMESTAMP,NAME" with its timestamps) that
// readSeriesCsv reads back to the same values (17 significant digits). Throws std::runtime_error
// naming the file. The header is "t,NAME", or "timestamp,NAME" with timestamps (the first name
// gets '_' appended while it equals NAME); fields are quoted as RFC 4180 says when needed.
void writeSeriesCsv(const Series& series, const std::string& path);
// The text writeSeriesCsv writes; throws std::invalid_argument for a non-finite value or a
// timestamp count that is neither 0 nor the value count.
std::string seriesCsvText(const Series& series);

// The built-in generated series.
enum class SeriesKind {
    // y_t = sin(2 pi t / period) [+ kSecondAmplitude sin(2 pi t / secondPeriod)] + trend t + noise e_t
    Seasonal,
    // x_t white noise AR-smoothed (x_t = kEchoSmoothing x_{t-1} + sqrt(1 - kEchoSmoothing^2) w_t,
    // unit variance), y_t = kEchoGain * y_{t-lag} + x_t + noise e_t (y_t = x_t + noise e_t for t < lag):
    // each value echoes the one `lag` steps back. The series is y; it has no trend (`trend` is
    // ignored). What the attention should find: the best forecast of y_T is kEchoGain * y_{T-lag}
    // plus what is left of x (kEchoSmoothing^(h+1) of the last x, small after a few steps), so each
    // forecast step's cross-attention should peak on the history point `lag` steps before its
    // target: lagProfile peaks at `lag` (and, weaker, at 2 * lag, through kEchoGain^2), for
    // horizons up to `lag`; the autocorrelation of y peaks at `lag` too (estimatePeriod finds it).
    Echo,
    // Seasonal with `period` for t < changeAt = length / 2, `secondPeriod` (default 2 * period - 1)
    // from there on; the phase is accumulated, so the curve does not jump at the change.
    Regime,
};
inline constexpr double kSecondAmplitude = 0.5;  // seasonal: the second period's sine
inline constexpr double kEchoSmoothing = 0.5;    // echo: x's AR(1) coefficient
inline constexpr double kEchoGain = 0.9;         // echo: the share of y_{t-lag} in y_t
std::string toString(SeriesKind k);            // "seasonal", "echo", "regime"
std::optional<SeriesKind> parseSeriesKind(const std::string& s);
std::vector<std::string> seriesKindNames();    // {"seasonal", "echo", "regime"}

struct GeneratedSeriesOptions {
    SeriesKind kind = SeriesKind::Seasonal;
    long length = 2000;
    int period = 17;        // odd by default: a period the model cannot guess from powers of two
    int secondPeriod = 0;   // seasonal: 0 = one period; regime: 0 = the period after the change is 2 * period - 1
    int lag = 24;           // echo
    double trend = 0.0005;  // per step, in units of the seasonal amplitude
    double noise = 0.2;     // standard deviation, in units of the seasonal amplitude
    std::uint64_t seed = 1;
};
// Throws ConfigError for a length < 16 or > kMaxSeriesValues, a period < 2, a lag < 1, a negative noise.
// (Also a secondPeriod other than 0 that is < 2, and a noise or trend that is not finite or above
// 1e6 in magnitude; the length, period and lag as SettingProblems of Setting::SeriesLength,
// ForecastPeriod and EchoLag.) Gaussian draws are Box-Muller over std::mt19937_64(seed): the same
// series on every machine. The name is the kind's ("seasonal"), the source "".
Series generateSeries(const GeneratedSeriesOptions& options);

// The split the trainer and `forecast --evaluate` use: the last `tailFraction` of the values (at
// least context + horizon of them) is held out; windows are (context, horizon) slices ending inside
// each part. trainEnd is the index of the first held-out value.
struct SeriesSplit {
    long trainEnd = 0;
    long length = 0;
};
// Throws InputError(series.source or name) when the series has fewer than
// 2 * (context + horizon) values (one window to train on and one to hold out).
// The tail is ceil(tailFraction * length), clamped to [context + horizon, length - (context + horizon)].
// Throws ConfigError(SettingProblem) for a context outside 1..kMaxForecastContext, a horizon
// outside 1..kMaxForecastHorizon (Setting::Context, Horizon) or a tailFraction outside [0, 1)
// (Setting::ValidationFraction).
inline constexpr int kMaxForecastContext = 4096;
inline constexpr int kMaxForecastHorizon = 512;
SeriesSplit splitSeries(const Series& series, int context, int horizon, double tailFraction);

// Mean and standard deviation of values[0, end) (std 1 when it is 0): the model sees (x - mean) / std.
struct Standardizer {
    double mean = 0;
    double std = 1;
    double apply(double x) const { return (x - mean) / std; }
    double invert(double z) const { return z * std + mean; }
};
// (Population standard deviation; end 0 gives {0, 1}; std::invalid_argument for end outside 0..size.)
Standardizer fitStandardizer(const std::vector<double>& values, long end);

// The period with the largest autocorrelation of values[0, end) among lags 2 .. maxLag (after
// removing a linear trend); 0 when none has autocorrelation above 0.1.
// Precisely: r(k) = sum_t z_t z_{t-k} / sum_t z_t^2 over the least-squares-detrended z (the biased
// estimator, which favours the first of a period's multiples); only local peaks count (r(k) > r(k-1)
// and r(k) >= r(k+1)), so the slow decay of a smooth series at small lags is no period; lags above
// half the range are not tried; a range longer than kMaxPeriodSamples uses its last
// kMaxPeriodSamples values (the cost is range x maxLag).
inline constexpr std::size_t kMaxPeriodSamples = 1u << 16;
inline constexpr double kMinPeriodAutocorrelation = 0.1;
int estimatePeriod(const std::vector<double>& values, long end, int maxLag);
// r(0) .. r(maxLag) as above (zeros where the range is too short or constant).
std::vector<double> autocorrelation(const std::vector<double>& values, long end, int maxLag);

// Baseline forecasts of `horizon` points from history (the values before the first forecast point).
// Last value: f_h = x_{n-1}. Seasonal naive: f_h = x_{n - period + (h mod period)}. Mean: the mean
// of the history. std::invalid_argument for an empty history, or a period < 1 or longer than it.
std::vector<double> lastValueForecast(const std::vector<double>& history, int horizon);
std::vector<double> seasonalNaiveForecast(const std::vector<double>& history, int horizon, int period);
std::vector<double> meanForecast(const std::vector<double>& history, int horizon);

struct ForecastErrors {
    double mae = 0;
    double rmse = 0;
    double mase = 0;  // MAE / the seasonal naive forecast's MAE over the same windows (NaN if that is 0)
};
// The errors of `forecast` against `truth`, both the flattened forecast windows (window by window,
// step by step), with `naive` the seasonal naive forecast of the same windows, flattened the same
// way: mae = mean |f - y|, rmse = sqrt(mean (f - y)^2), mase = mae / mean |naive - y|.
// std::invalid_argument when the sizes differ; all zero and mase NaN when empty.
ForecastErrors forecastErrors(const std::vector<double>& truth, const std::vector<double>& forecast,
                              const std::vector<double>& naive);

// Cross-attention mass against lag: for forecast step h (0-based) and history index c (0-based,
// context C), the lag is (C - c) + h: how many steps before the forecast point the value lies.
// profile[lag] = the mean over steps of the attention at that lag (lags 1 .. C + H - 1; index 0 unused),
// from a [H][C] map (rows summing to 1).
// The profile has C + H entries and sums to 1 for rows summing to 1 (a step's weight at a lag it
// cannot reach counts as 0 in the mean). std::invalid_argument for a map that is not H x C.
std::vector<double> lagProfile(const std::vector<float>& cross, int horizon, int context);
// The share of the attention mass on history points a whole number of periods (+- tolerance) back,
// and the share of history points that are, so that a ratio above 1 means the attention looks one
// or more periods back more than uniform weights would.
struct PeriodMass {
    double mass = 0;       // attention on the periodic points
    double pointShare = 0; // share of (step, point) pairs that are periodic
    double ratio() const { return pointShare > 0 ? mass / pointShare : 0; }
};
// A lag L (as in lagProfile) is periodic when |L - m * period| <= tolerance for some m >= 1.
// mass = (1/H) sum of the periodic weights; pointShare = periodic pairs / (H * C); all 0 for a
// period < 1. std::invalid_argument for a map that is not H x C.
PeriodMass periodicMass(const std::vector<float>& cross, int horizon, int context, int period, int tolerance = 1);
bool isPeriodicLag(long lag, int period, int tolerance);

}  // namespace attnlab
