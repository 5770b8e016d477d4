#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "InputErrors.h"
#include "TempDir.h"
#include "base/InputError.h"
#include "base/forecast/ForecastConfig.h"
#include "base/forecast/Series.h"

using namespace attnlab;
using attnlab::test::inputErrorOf;
using attnlab::test::TempDir;

namespace {

constexpr double kPi = 3.14159265358979323846;

std::string csvError(const std::string& text, const std::string& column = "y", const std::string& time = {}) {
    return inputErrorOf([&] { parseSeriesCsv(text, "s.csv", column, time); });
}

bool seriesStartsWith(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

std::string configError(const ForecastConfig& c) {
    try {
        checkConfig(c);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "(no ConfigError)";
}

std::optional<SettingProblem> problemOf(const ForecastConfig& c) {
    try {
        checkConfig(c);
    } catch (const ConfigError& e) {
        return e.problem();
    }
    return std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------- the CSV reader

TEST_CASE("Series CSV: columns, quotes, BOM, CRLF, spaces, timestamps and trailing blank lines", "[forecast]") {
    const std::string text =
        "\xEF\xBB\xBF" "date, \"y, in kW\" ,other\r\n"
        "\"2024-01-01 00:00\", 1.5 ,x\r\n"
        "2024-01-01 01:00,-2e-3,\"a \"\"quoted\"\" cell\"\r\n"
        "2024-01-01 02:00,+7,\r\n"
        "\r\n\n";
    CHECK(parseCsvColumns(text, "s.csv") == std::vector<std::string>{"date", "y, in kW", "other"});
    const Series s = parseSeriesCsv(text, "s.csv", "y, in kW", "date");
    CHECK(s.name == "y, in kW");
    CHECK(s.source == "s.csv");
    CHECK(s.values == std::vector<double>{1.5, -0.002, 7.0});
    CHECK(s.timestamps == std::vector<std::string>{"2024-01-01 00:00", "2024-01-01 01:00", "2024-01-01 02:00"});
    CHECK(s.truth.period == 0);
    CHECK(s.truth.changeAt == -1);

    const Series noTime = parseSeriesCsv("y\n1\n2", "s.csv", "y");  // no final newline
    CHECK(noTime.values == std::vector<double>{1.0, 2.0});
    CHECK(noTime.timestamps.empty());

    // A quoted line break counts as a line: the error after it names line 4.
    CHECK(csvError("t,y\n\"a\nb\",1\nc,zz\n") == "s.csv:4: column 'y': 'zz' is not a number");
}

TEST_CASE("Series CSV: every bad input names the file, the line and the column", "[forecast]") {
    CHECK(csvError("t,y\n0,1\n1,abc\n") == "s.csv:3: column 'y': 'abc' is not a number");
    CHECK(csvError("t,y\n0,1\n1,nan\n") == "s.csv:3: column 'y': 'nan' is not a finite number");
    CHECK(csvError("t,y\n0,inf\n") == "s.csv:2: column 'y': 'inf' is not a finite number");
    CHECK(csvError("t,y\n0,-Infinity\n") == "s.csv:2: column 'y': '-Infinity' is not a finite number");
    CHECK(csvError("t,y\n0,1e400\n") == "s.csv:2: column 'y': '1e400' is out of the range of a double");
    CHECK(csvError("t,y\n0,1\n1,\n") == "s.csv:3: column 'y': empty cell");
    CHECK(csvError("t,y\n0,\"1,2\"\n") == "s.csv:2: column 'y': '1,2' is not a number");
    CHECK(csvError("t,y\n0,1 2\n") == "s.csv:2: column 'y': '1 2' is not a number");
    CHECK(csvError("t,y\n0,0x10\n") == "s.csv:2: column 'y': '0x10' is not a number");
    CHECK(csvError("t,y\n0,1\n1\n") == "s.csv:3: 1 field; column 'y' is field 2");
    CHECK(csvError("y,t\n1\n", "y", "t") == "s.csv:2: 1 field; column 't' is field 2");
    CHECK(csvError("t,y\n0,1\n") == "(no InputError)");
    CHECK(csvError("t,y\n0,1\n", "load") == "s.csv:1: no column 'load' (the columns are 't', 'y')");
    CHECK(csvError("t,y\n0,1\n", "y", "time") == "s.csv:1: no column 'time' (the columns are 't', 'y')");
    CHECK(csvError("y,y\n0,1\n") == "s.csv:1: column 'y' appears more than once in the header");
    CHECK(csvError("") == "s.csv: empty file");
    CHECK(csvError("\xEF\xBB\xBF") == "s.csv: empty file");
    CHECK(csvError("t,y\n") == "s.csv: no data rows (only the header)");
    CHECK(csvError("t,y\n\n\n") == "s.csv: no data rows (only the header)");
    CHECK(csvError("\nt,y\n0,1\n") == "s.csv:1: the first line is blank; it must name the columns");
    CHECK(csvError("1,2\n3,4\n") == "s.csv:1: no header: the first line holds numbers; it must name the columns");
    CHECK(csvError("t,y\n0,1\n\n1,2\n") == "s.csv:3: blank line between data rows");
    CHECK(csvError("t,y\n0,\"1\n") == "s.csv:2: a quoted field is not closed");
    CHECK(csvError("t,y\n0,\"1\"x\n") == "s.csv:2: text after the closing quote of a field");
    CHECK(csvError("t,y\n0,1\"\n") == "s.csv:2: a quote inside an unquoted field");
    CHECK(csvError("t,y\r0,1\n") == "s.csv:1: a carriage return not followed by a line feed");
    CHECK(csvError("\xFF\xFEt\0,\0", "y") == "s.csv:1: UTF-16 text; save the file as UTF-8");
    // A long or binary cell is cut and its control bytes shown as '?'.
    CHECK(csvError("t,y\n0,a\x01" + std::string(60, 'b') + "\n") ==
          "s.csv:2: column 'y': 'a?" + std::string(38, 'b') + "...' is not a number");
}

TEST_CASE("Series CSV: files, sizes and the round trip through writeSeriesCsv", "[forecast]") {
    TempDir dir;
    CHECK(seriesStartsWith(inputErrorOf([&] { readSeriesCsv(dir / "missing.csv", "y"); }), dir / "missing.csv" + ": no such file"));
    CHECK(inputErrorOf([&] { readSeriesCsv(dir.file("bad.csv", "t,y\n0,x\n"), "y"); }) == dir / "bad.csv" + ":2: column 'y': 'x' is not a number");
    CHECK(inputErrorOf([&] { readCsvColumns(dir.file("empty.csv", "")); }) == dir / "empty.csv" + ": empty file");
    CHECK(readCsvColumns(dir.file("c.csv", "a,b\n1,2\n")) == std::vector<std::string>{"a", "b"});
    // The size is refused before reading (parseSeriesCsv refuses the same for a text).
    CHECK(kMaxSeriesFileBytes == 256u << 20);

    Series s;
    s.name = "load, \"kW\"";
    s.values = {0.1, -1.0 / 3.0, 1e-300, 6.02214076e23, -0.0, 12345678.901234567, std::nextafter(1.0, 2.0)};
    const std::string path = dir / "out.csv";
    writeSeriesCsv(s, path);
    const Series back = readSeriesCsv(path, s.name);
    REQUIRE(back.values.size() == s.values.size());
    for (std::size_t i = 0; i < s.values.size(); ++i) CHECK(back.values[i] == s.values[i]);  // bit for bit
    CHECK(readCsvColumns(path) == std::vector<std::string>{"t", s.name});

    s.timestamps = {" padded", "", "a,b", "quote\"d", "line\nbreak", "x", "timestamp"};
    writeSeriesCsv(s, path);
    const Series withTime = readSeriesCsv(path, s.name, "timestamp");
    CHECK(withTime.values == back.values);
    CHECK(withTime.timestamps == s.timestamps);

    s.name = "t";  // the index column steps aside
    s.timestamps.clear();
    CHECK(seriesStartsWith(seriesCsvText(s), "t_,t\n0,0.10000000000000001\n"));
    s.values[1] = std::nan("");
    CHECK_THROWS_AS(writeSeriesCsv(s, path), std::runtime_error);
    s.values[1] = 1;
    s.timestamps = {"only one"};
    CHECK_THROWS_AS(seriesCsvText(s), std::invalid_argument);
}

// ---------------------------------------------------------------- generated series

TEST_CASE("Generated series are deterministic and carry their truth", "[forecast]") {
    GeneratedSeriesOptions o;
    const Series a = generateSeries(o), b = generateSeries(o);
    CHECK(a.values == b.values);
    CHECK(a.name == "seasonal");
    CHECK(a.source.empty());
    CHECK(a.values.size() == 2000);
    CHECK(a.truth.period == 17);
    CHECK(a.truth.secondPeriod == 0);
    o.seed = 2;
    CHECK(generateSeries(o).values != a.values);

    // The residual after the sine and the trend is the noise: sd 0.2, mean 0.
    double sum = 0, squares = 0;
    for (std::size_t t = 0; t < a.values.size(); ++t) {
        const double r = a.values[t] - std::sin(2 * kPi * static_cast<double>(t) / 17) - 0.0005 * static_cast<double>(t);
        sum += r;
        squares += r * r;
    }
    const double n = static_cast<double>(a.values.size());
    CHECK(std::fabs(sum / n) < 0.02);
    CHECK(std::sqrt(squares / n) == Approx(0.2).margin(0.015));

    CHECK(estimatePeriod(a.values, static_cast<long>(a.values.size()), 96) == 17);
    CHECK(estimatePeriod(a.values, 200, 96) == 17);

    o.seed = 1;
    o.secondPeriod = 40;
    const Series two = generateSeries(o);
    CHECK(two.truth.secondPeriod == 40);
    CHECK(two.values[5] - a.values[5] == Approx(0.5 * std::sin(2 * kPi * 5 / 40)));  // the same noise draws
}

TEST_CASE("Echo and regime series: the lag and the change are where the truth says", "[forecast]") {
    GeneratedSeriesOptions o;
    o.kind = SeriesKind::Echo;
    o.lag = 24;
    const Series echo = generateSeries(o);
    CHECK(echo.truth.lag == 24);
    CHECK(echo.truth.period == 0);
    CHECK(echo.name == "echo");
    const auto r = autocorrelation(echo.values, 2000, 60);
    CHECK(r[0] == Approx(1.0));
    CHECK(r[24] > 0.6);   // ~ kEchoGain, less the noise's share
    CHECK(r[48] > 0.4);   // ~ kEchoGain^2
    CHECK(std::fabs(r[12]) < 0.2);
    CHECK(estimatePeriod(echo.values, 2000, 60) == 24);

    o.kind = SeriesKind::Regime;
    o.lag = 24;
    const Series regime = generateSeries(o);
    CHECK(regime.truth.period == 17);
    CHECK(regime.truth.secondPeriod == 33);
    CHECK(regime.truth.changeAt == 1000);
    CHECK(estimatePeriod(regime.values, 1000, 96) == 17);
    const std::vector<double> after(regime.values.begin() + 1000, regime.values.end());
    CHECK(estimatePeriod(after, 1000, 96) == 33);

    CHECK(parseSeriesKind("regime") == SeriesKind::Regime);
    CHECK_FALSE(parseSeriesKind("Regime"));
    CHECK(seriesKindNames() == std::vector<std::string>{"seasonal", "echo", "regime"});
    for (const std::string& k : seriesKindNames()) CHECK(toString(*parseSeriesKind(k)) == k);
}

TEST_CASE("Generated series options out of range are ConfigErrors naming the setting", "[forecast]") {
    auto problem = [](GeneratedSeriesOptions o) -> std::optional<SettingProblem> {
        try {
            generateSeries(o);
        } catch (const ConfigError& e) {
            return e.problem() ? e.problem() : SettingProblem{};
        }
        return std::nullopt;
    };
    GeneratedSeriesOptions o;
    o.length = 15;
    REQUIRE(problem(o));
    CHECK(problem(o)->setting == Setting::SeriesLength);
    o = {};
    o.period = 1;
    CHECK(problem(o)->setting == Setting::ForecastPeriod);
    o = {};
    o.kind = SeriesKind::Echo;
    o.lag = 0;
    CHECK(problem(o)->setting == Setting::EchoLag);
    o = {};
    o.noise = -0.1;
    CHECK(problem(o));
    o.noise = std::nan("");
    CHECK(problem(o));
    o = {};
    o.length = 16;
    CHECK_FALSE(problem(o));
}

TEST_CASE("estimatePeriod: a clean sine, a trend removed, none in white noise", "[forecast]") {
    std::vector<double> v(300);
    for (std::size_t t = 0; t < v.size(); ++t) v[t] = std::sin(2 * kPi * static_cast<double>(t) / 5) + 0.05 * static_cast<double>(t);
    CHECK(estimatePeriod(v, 300, 40) == 5);
    CHECK(estimatePeriod(v, 300, 4) == 0);  // no peak in 2..4
    GeneratedSeriesOptions o;
    o.noise = 1.0;
    o.trend = 0;
    Series noise = generateSeries(o);
    for (std::size_t t = 0; t < noise.values.size(); ++t) noise.values[t] -= std::sin(2 * kPi * static_cast<double>(t) / 17);
    CHECK(estimatePeriod(noise.values, 2000, 96) == 0);
    CHECK(estimatePeriod(std::vector<double>(100, 3.0), 100, 20) == 0);  // constant
}

// ---------------------------------------------------------------- split, standardisation

TEST_CASE("splitSeries holds out the tail and refuses a series too short", "[forecast]") {
    Series s;
    s.values.assign(100, 0.0);
    s.source = "data.csv";
    CHECK(splitSeries(s, 10, 5, 0.2).trainEnd == 80);
    CHECK(splitSeries(s, 10, 5, 0.2).length == 100);
    CHECK(splitSeries(s, 10, 5, 0.0).trainEnd == 85);   // at least one window held out
    CHECK(splitSeries(s, 10, 5, 0.99).trainEnd == 15);  // at least one window to train on
    s.values.assign(29, 0.0);
    CHECK(inputErrorOf([&] { splitSeries(s, 10, 5, 0.2); }) ==
          "data.csv: 29 values; a context of 10 and a horizon of 5 need at least 30 (one window to train on and one to hold out)");
    s.values.assign(30, 0.0);
    CHECK(splitSeries(s, 10, 5, 0.2).trainEnd == 15);
    s.source.clear();
    s.name = "seasonal";
    s.values.assign(3, 0.0);
    CHECK(seriesStartsWith(inputErrorOf([&] { splitSeries(s, 10, 5, 0.2); }), "seasonal: 3 values"));
    try {
        splitSeries(s, 10, 5, 1.0);
        FAIL("no ConfigError");
    } catch (const ConfigError& e) {
        REQUIRE(e.problem());
        CHECK(e.problem()->setting == Setting::ValidationFraction);
    }
}

TEST_CASE("fitStandardizer: mean and population sd of the prefix", "[forecast]") {
    const Standardizer s = fitStandardizer({1, 2, 3, 4, 100}, 4);
    CHECK(s.mean == Approx(2.5));
    CHECK(s.std == Approx(std::sqrt(1.25)));
    CHECK(s.invert(s.apply(7.0)) == Approx(7.0));
    CHECK(fitStandardizer({5, 5, 5}, 3).std == 1.0);
    CHECK(fitStandardizer({5, 5, 5}, 3).mean == 5.0);
    CHECK(fitStandardizer({}, 0).std == 1.0);
    CHECK_THROWS_AS(fitStandardizer({1}, 2), std::invalid_argument);
}

// ---------------------------------------------------------------- baselines and metrics

TEST_CASE("Baselines and metrics against hand computation", "[forecast]") {
    CHECK(lastValueForecast({1, 2, 3}, 2) == std::vector<double>{3, 3});
    CHECK(seasonalNaiveForecast({1, 2, 3, 4, 5}, 4, 3) == std::vector<double>{3, 4, 5, 3});
    CHECK(seasonalNaiveForecast({1, 2, 3, 4, 5}, 2, 1) == std::vector<double>{5, 5});
    CHECK(meanForecast({1, 2, 3, 6}, 2) == std::vector<double>{3, 3});
    CHECK_THROWS_AS(seasonalNaiveForecast({1, 2}, 1, 3), std::invalid_argument);
    CHECK_THROWS_AS(lastValueForecast({}, 1), std::invalid_argument);

    // |f - y| = 0, 1, 0, 1; |naive - y| = 1, 0, 2, 0.
    const ForecastErrors e = forecastErrors({1, 2, 3, 4}, {1, 3, 3, 3}, {2, 2, 5, 4});
    CHECK(e.mae == Approx(0.5));
    CHECK(e.rmse == Approx(std::sqrt(0.5)));
    CHECK(e.mase == Approx(0.5 / 0.75));
    CHECK(std::isnan(forecastErrors({1, 2}, {2, 2}, {1, 2}).mase));
    CHECK(std::isnan(forecastErrors({}, {}, {}).mase));
    CHECK_THROWS_AS(forecastErrors({1}, {1, 2}, {1}), std::invalid_argument);
}

TEST_CASE("lagProfile and periodicMass against a hand-built map", "[forecast]") {
    // H = 2, C = 3: step 0 sees lags 3, 2, 1; step 1 lags 4, 3, 2.
    const std::vector<float> cross = {0.2f, 0.3f, 0.5f, 0.1f, 0.6f, 0.3f};
    const std::vector<double> p = lagProfile(cross, 2, 3);
    REQUIRE(p.size() == 5);
    CHECK(p[0] == 0.0);
    CHECK(p[1] == Approx(0.25));
    CHECK(p[2] == Approx(0.3));
    CHECK(p[3] == Approx(0.4));
    CHECK(p[4] == Approx(0.05));

    const PeriodMass exact = periodicMass(cross, 2, 3, 3, 0);  // lag 3 only
    CHECK(exact.mass == Approx(0.4));
    CHECK(exact.pointShare == Approx(2.0 / 6));
    CHECK(exact.ratio() == Approx(1.2));
    const PeriodMass loose = periodicMass(cross, 2, 3, 3, 1);  // lags 2, 3, 4 (lag 1 is no whole period back)
    CHECK(loose.mass == Approx(0.75));
    CHECK(loose.pointShare == Approx(5.0 / 6));
    CHECK(periodicMass(cross, 2, 3, 0).ratio() == 0.0);
    CHECK(isPeriodicLag(34, 17, 0));
    CHECK(isPeriodicLag(35, 17, 1));
    CHECK(isPeriodicLag(1, 2, 1));  // |1 - 2| <= 1
    CHECK_FALSE(isPeriodicLag(1, 3, 1));
    CHECK_FALSE(isPeriodicLag(2, 17, 1));
    CHECK_THROWS_AS(lagProfile(cross, 3, 3), std::invalid_argument);
}

// ---------------------------------------------------------------- the config

TEST_CASE("ForecastConfig: validation names the setting, JSON round trip, parameter count", "[forecast]") {
    ForecastConfig c;
    CHECK(validate(c).empty());
    c.heads = 3;
    REQUIRE(problemOf(c));
    CHECK(problemOf(c)->kind == SettingProblem::Kind::MustDivide);
    CHECK(configError(c) == "number of heads 3 does not divide hidden size 64");
    c = {};
    c.context = 1;
    CHECK(problemOf(c)->setting == Setting::Context);
    c = {};
    c.horizon = 513;
    CHECK(problemOf(c)->setting == Setting::Horizon);
    c = {};
    c.decoderLayers = 0;
    CHECK(problemOf(c)->setting == Setting::DecoderLayers);
    c = {};
    c.period = 97;
    CHECK(configError(c) == "period must be between 0 and 96, got 97");
    c = {};
    c.dropout = 1.5f;
    CHECK(problemOf(c)->setting == Setting::Dropout);
    CHECK(configError(c) == "dropout must be at least 0 and below 1, got 1.5");
    c = {};
    c.window = 0;
    CHECK(problemOf(c)->setting == Setting::LocalWindow);

    c = {};
    c.context = 48;
    c.horizon = 7;
    c.dModel = 32;
    c.heads = 8;
    c.encoderLayers = 3;
    c.decoderLayers = 2;
    c.feedForward = 50;
    c.dropout = 0.1f;
    c.loss = ForecastLoss::Mae;
    c.timeFeatures = true;
    c.period = 17;
    c.pattern = AttentionPattern::Local;
    c.window = 5;
    c.chunk = 6;
    const ForecastConfig back = forecastConfigFromJson(toJson(c));
    CHECK(toJson(back) == toJson(c));
    CHECK(back.dropout == c.dropout);
    CHECK(toJson(c).find("\"dropout\":0.1,") != std::string::npos);
    CHECK(back.loss == ForecastLoss::Mae);
    CHECK(back.pattern == AttentionPattern::Local);
    CHECK(back.timeFeatures);
    CHECK(back.chunk == 6);
    CHECK(patternChunk(back) == 6);
    c.chunk = 0;
    CHECK(patternChunk(c) == 7);  // ceil(sqrt(48))

    CHECK_THROWS_WITH(forecastConfigFromJson("{"), "forecast config: invalid JSON");
    CHECK_THROWS_WITH(forecastConfigFromJson(R"({"task":"classify"})"), "forecast config: 'task' is not \"forecast\"");
    std::string noHorizon = toJson(ForecastConfig{});
    noHorizon.replace(noHorizon.find("\"horizon\""), 9, "\"horizon_\"");
    CHECK_THROWS_WITH(forecastConfigFromJson(noHorizon), "forecast config: 'horizon' is missing");
    CHECK(parseForecastLoss("mse") == ForecastLoss::Mse);
    CHECK_THROWS_WITH(parseForecastLoss("huber"), "unknown loss 'huber' (expected one of: mse, mae)");

    // d = 4, f = 8, one layer each, input width 1: inputs 2 (1*4 + 4) = 16; encoder layer
    // 4 (16 + 4) + 2 * 8 + (32 + 8 + 32 + 4) = 172; decoder layer 160 + 24 + 76 = 260; head 5.
    ForecastConfig tiny;
    tiny.dModel = 4;
    tiny.heads = 2;
    tiny.feedForward = 8;
    tiny.encoderLayers = 1;
    tiny.decoderLayers = 1;
    tiny.timeFeatures = false;  // on by default
    CHECK(parameterCount(tiny) == 453);
    tiny.timeFeatures = true;  // input width 3: inputs 2 (3*4 + 4) = 32
    CHECK(forecastInputWidth(tiny) == 3);
    CHECK(parameterCount(tiny) == 469);
    tiny.encoderLayers = 2;
    CHECK(parameterCount(tiny) == 469 + 172);
}
