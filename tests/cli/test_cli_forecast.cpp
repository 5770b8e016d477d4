// attnlab-cli's forecasting as a script sees it: train --task forecast, forecast (--json and
// --evaluate), inspect --task forecast, datasets --write seasonal|echo|regime, the bad input a user
// can give and Ctrl-C during training. One tiny model (context 16, horizon 4) serves every case.
#include "cli/CliSupport.h"

#include <csignal>
#include <cmath>
#include <cstdlib>
#include <numeric>

namespace {

using namespace attnlab::test::cli;

constexpr int kContext = 16, kHorizon = 4, kHeads = 2, kLength = 240, kPeriod = 8;

// The generated series every case uses, as flags.
const Args kSeasonal{"--dataset", "seasonal", "--length", std::to_string(kLength), "--period", std::to_string(kPeriod)};

Args concat(Args a, const Args& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

Args tinyModel() {
    return {"--context", std::to_string(kContext), "--horizon", std::to_string(kHorizon), "--hidden", "8", "--heads",
            std::to_string(kHeads), "--layers", "1", "--decoder-layers", "1", "--ff", "16"};
}

// The CSV `datasets --write` wrote: its values by row (the header is line 1).
std::vector<double> csvValues(const std::string& path) {
    const auto rows = lines(readBytes(path));
    std::vector<double> values;
    for (std::size_t i = 1; i < rows.size(); ++i) values.push_back(std::strtod(rows[i].substr(rows[i].find(',') + 1).c_str(), nullptr));
    return values;
}

struct Trained {
    std::string model = scratch().file("seasonal.safetensors");
    std::string csv = scratch().file("seasonal.csv");
    Args train = concat(concat(Args{"train", "--task", "forecast"}, kSeasonal),
                        concat(tinyModel(), {"--epochs", "2", "--batch", "16", "--lr", "0.005", "--json", "--out", model}));
    ProcessResult trained, written;
    Trained() {
        const Args write{"datasets", "--write", "seasonal", "--length", std::to_string(kLength), "--period",
                         std::to_string(kPeriod), "--out", csv};
        const auto r = cliAll({train, write});
        trained = r[0];
        written = r[1];
    }
};

const Trained& trained() {
    static const Trained t;
    return t;
}

// Every [layer][head] map of `maps` is rows x cols with rows summing to 1.
void checkMaps(const Json& maps, std::size_t rows, std::size_t cols) {
    REQUIRE(maps.size() == 1);  // one layer
    REQUIRE(maps[0].size() == static_cast<std::size_t>(kHeads));
    for (const auto& head : maps[0]) {
        REQUIRE(head.size() == rows);
        for (const auto& row : head) {
            const auto weights = row.get<std::vector<double>>();
            REQUIRE(weights.size() == cols);
            CHECK_THAT(sumOf(weights), WithinAbs(1.0, 1e-4));
            for (double w : weights) CHECK(w >= 0.0);
        }
    }
}

// A safetensors container with no tensors and `metadata` (a JSON object): a model file of no use here.
std::string containerWith(const std::string& metadata) {
    const std::string header = "{\"__metadata__\":" + metadata + "}";
    std::string bytes(8, '\0');
    for (int i = 0; i < 8; ++i) bytes[static_cast<std::size_t>(i)] = static_cast<char>((header.size() >> (8 * i)) & 0xff);
    return bytes + header;
}

}  // namespace

TEST_CASE("train --task forecast prints each epoch's errors and saves a model forecast reads", "[cli]") {
    const Trained& t = trained();
    INFO(describe(t.train, t.trained));
    REQUIRE(t.trained.exitCode == 0);
    const auto out = lines(t.trained.out);
    REQUIRE(out.size() == 3);  // two epochs, then the summary (--json)
    for (int e = 0; e < 2; ++e) {
        const Json j = Json::parse(out[static_cast<std::size_t>(e)]);
        CHECK(j["epoch"] == e + 1);
        for (const char* key : {"train_loss", "val_loss", "val_mae", "val_rmse", "val_mase", "seasonal_naive_mae",
                                "period_mass_ratio", "windows_per_sec", "seconds"})
            CHECK(j.contains(key));
        CHECK(j["val_mae"].get<double>() > 0);
        CHECK(j["val_rmse"].get<double>() >= j["val_mae"].get<double>());
        // MASE is the model's MAE over the seasonal naive's (both rounded to 4 decimals).
        CHECK_THAT(j["val_mase"].get<double>(),
                   WithinAbs(j["val_mae"].get<double>() / j["seasonal_naive_mae"].get<double>(), 2e-3));
    }
    const Json summary = Json::parse(out[2])["summary"];
    CHECK(summary["epochs_trained"] == 2);
    CHECK(summary["interrupted"] == false);
    CHECK(summary["context"] == kContext);
    CHECK(summary["horizon"] == kHorizon);
    CHECK(summary["length"] == kLength);
    CHECK(summary["period"] == kPeriod);  // estimated on the training part
    CHECK(summary["training_windows"].get<int>() > 0);
    CHECK(summary["validation_windows"].get<int>() > 0);
    // stderr: the header, one readable line per epoch, "saved M".
    const auto err = lines(t.trained.err);
    REQUIRE(err.size() == 4);
    CHECK_THAT(err[1], StartsWith("epoch 1/2") && Contains("MAE") && Contains("RMSE") && Contains("MASE") &&
                           Contains("seasonal-naive MAE") && Contains("period mass"));
    CHECK(err[3] == "saved " + t.model);
}

TEST_CASE("forecast --json gives H points from the C before --at with attention rows that sum to 1", "[cli]") {
    const Trained& t = trained();
    REQUIRE(t.trained.exitCode == 0);
    REQUIRE(t.written.exitCode == 0);
    const std::vector<double> values = csvValues(t.csv);
    REQUIRE(values.size() == static_cast<std::size_t>(kLength));
    const int at = 200;
    const std::vector<Args> runs{
        concat({"forecast", "--model", t.model, "--at", std::to_string(at), "--json"}, kSeasonal),
        {"forecast", "--model", t.model, "--series", t.csv, "--column", "seasonal", "--at", std::to_string(at), "--json"},
        {"forecast", "--model", t.model, "--series", t.csv, "--column", "seasonal", "--json"},  // after the end
        concat({"forecast", "--model", t.model, "--at", std::to_string(kLength - 2)}, kSeasonal),  // the table
        concat({"forecast", "--model", t.model, "--evaluate", "--json"}, kSeasonal),
        concat({"forecast", "--model", t.model, "--evaluate"}, kSeasonal)};
    const auto r = cliAll(runs);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        INFO(describe(runs[i], r[i]));
        REQUIRE(r[i].exitCode == 0);
    }

    const Json j = Json::parse(r[0].out);
    CHECK(j["at"] == at);
    const auto history = j["history"].get<std::vector<double>>();
    REQUIRE(history.size() == static_cast<std::size_t>(kContext));
    for (int c = 0; c < kContext; ++c)  // the C values before --at, in the series' units
        CHECK_THAT(history[static_cast<std::size_t>(c)], WithinAbs(values[static_cast<std::size_t>(at - kContext + c)], 1e-9));
    const auto forecast = j["forecast"].get<std::vector<double>>();
    CHECK(forecast.size() == static_cast<std::size_t>(kHorizon));
    for (double v : forecast) CHECK(std::isfinite(v));
    const auto truth = j["truth"].get<std::vector<double>>();
    REQUIRE(truth.size() == static_cast<std::size_t>(kHorizon));
    for (int h = 0; h < kHorizon; ++h) CHECK_THAT(truth[static_cast<std::size_t>(h)], WithinAbs(values[static_cast<std::size_t>(at + h)], 1e-9));
    CHECK(j["spread"].size() == static_cast<std::size_t>(kHorizon));
    CHECK(j["lag_profile"].size() == static_cast<std::size_t>(kContext + kHorizon));
    CHECK(j["period"] == kPeriod);
    checkMaps(j["attention"]["cross"], kHorizon, kContext);
    checkMaps(j["attention"]["encoder"], kContext, kContext);

    // The CSV written by datasets --write is the same series: the same forecast.
    const Json fromCsv = Json::parse(r[1].out);
    CHECK(fromCsv["history"] == j["history"]);
    const auto csvForecast = fromCsv["forecast"].get<std::vector<double>>();
    for (int h = 0; h < kHorizon; ++h) CHECK_THAT(csvForecast[static_cast<std::size_t>(h)], WithinAbs(forecast[static_cast<std::size_t>(h)], 1e-6));

    const Json end = Json::parse(r[2].out);  // default --at: the points after the series' end, no truth
    CHECK(end["at"] == kLength);
    CHECK_FALSE(end.contains("truth"));
    CHECK(end["forecast"].size() == static_cast<std::size_t>(kHorizon));

    const auto table = lines(r[3].out);  // a title, a blank line, the header, one row per step, the lags
    REQUIRE(table.size() >= static_cast<std::size_t>(3 + kHorizon));
    CHECK_THAT(table[2], Contains("forecast") && Contains("truth"));
    CHECK_THAT(table[3], StartsWith("    1") && Contains(std::to_string(kLength - 2)));

    const Json e = Json::parse(r[4].out);
    for (const char* baseline : {"model", "last_value", "seasonal_naive", "mean"}) {
        INFO(baseline);
        for (const char* key : {"mae", "rmse", "mase"}) CHECK(e[baseline].contains(key));
        CHECK(e[baseline]["rmse"].get<double>() >= e[baseline]["mae"].get<double>());
        CHECK_THAT(e[baseline]["mase"].get<double>(),
                   WithinAbs(e[baseline]["mae"].get<double>() / e["seasonal_naive"]["mae"].get<double>(), 1e-9));
    }
    CHECK_THAT(e["seasonal_naive"]["mase"].get<double>(), WithinAbs(1.0, 1e-12));
    CHECK(e["period"] == kPeriod);
    CHECK(e["windows"].get<int>() > 0);
    CHECK(e.contains("period_mass_ratio"));
    CHECK(e["step_rmse"].size() == static_cast<std::size_t>(kHorizon));
    CHECK_THAT(r[5].out, Contains("seasonal naive") && Contains("last value") && Contains("MASE"));
}

TEST_CASE("datasets --write seasonal|echo|regime writes a CSV that inspect and train --series read back", "[cli]") {
    const Trained& t = trained();
    REQUIRE(t.written.exitCode == 0);
    const auto rows = lines(readBytes(t.csv));
    REQUIRE(rows.size() == static_cast<std::size_t>(kLength + 1));
    CHECK(rows[0] == "t,seasonal");
    CHECK(rows[1].rfind("0,", 0) == 0);
    const std::string echo = scratch().file("echo.csv");
    const std::string fromCsv = scratch().file("from-csv.safetensors");
    const std::vector<Args> runs{
        {"datasets", "--write", "echo", "--length", "100", "--lag", "5", "--seed", "3", "--out", echo},
        {"inspect", "--task", "forecast", "--series", t.csv, "--column", "seasonal", "--context", "16", "--horizon", "4"},
        concat({"inspect", "--task", "forecast"}, kSeasonal),
        concat({"train", "--task", "forecast", "--series", t.csv, "--column", "seasonal", "--epochs", "1", "--out", fromCsv},
               tinyModel()),
        {"datasets", "--json"},
        {"datasets", "--write", "regime", "--lag", "4", "--out", scratch().file("r.csv")}};
    const auto r = cliAll(runs);
    for (std::size_t i = 0; i < runs.size(); ++i) INFO(describe(runs[i], r[i]));
    REQUIRE(r[0].exitCode == 0);
    CHECK(lines(readBytes(echo)).size() == 101);
    CHECK(lines(readBytes(echo))[0] == "t,echo");

    REQUIRE(r[1].exitCode == 0);
    const Json fromFile = Json::parse(r[1].out);
    CHECK(fromFile["values"] == kLength);
    CHECK(fromFile["source"] == t.csv);
    CHECK(fromFile["estimated_period"] == kPeriod);
    CHECK_FALSE(fromFile.contains("truth"));
    const long trainEnd = fromFile["split"]["train_end"];
    CHECK(trainEnd + fromFile["split"]["held_out"].get<long>() == kLength);
    CHECK(fromFile["split"]["held_out"].get<long>() >= kContext + kHorizon);
    const std::vector<double> values = csvValues(t.csv);
    const double mean = std::accumulate(values.begin(), values.begin() + trainEnd, 0.0) / static_cast<double>(trainEnd);
    CHECK_THAT(fromFile["mean"].get<double>(), WithinAbs(mean, 1e-9));  // the training part's, as the model's

    REQUIRE(r[2].exitCode == 0);
    const Json generated = Json::parse(r[2].out);
    CHECK(generated["truth"]["period"] == kPeriod);
    CHECK(generated["name"] == "seasonal");

    INFO(describe(runs[3], r[3]));
    REQUIRE(r[3].exitCode == 0);
    CHECK(lines(r[3].out).size() == 1);  // one epoch, no summary without --json
    CHECK(fs::exists(fromCsv));

    REQUIRE(r[4].exitCode == 0);
    std::vector<std::string> forecastSets;
    for (const auto& d : Json::parse(r[4].out))
        if (d["task"] == "forecast") forecastSets.push_back(d["name"]);
    CHECK(forecastSets == std::vector<std::string>{"seasonal", "echo", "regime"});
    CHECK(r[5].exitCode == 2);
    CHECK(isOneErrorLine(r[5].err));
    CHECK_THAT(r[5].err, Contains("--lag"));
}

TEST_CASE("forecasting input a user can get wrong is one error line naming the file, line or flag", "[cli]") {
    const Trained& t = trained();
    REQUIRE(t.trained.exitCode == 0);
    const std::string word = scratch().file("word.csv"), nan = scratch().file("nan.csv"), empty = scratch().file("empty.csv");
    const std::string shortCsv = scratch().file("short.csv"), classifier = scratch().file("classifier.safetensors");
    writeBytes(word, "t,y\n0,1.5\n1,2.5\n2,two\n3,4\n");
    writeBytes(nan, "t,y\n0,1.5\n1,nan\n");
    writeBytes(empty, "t,y\n0,1.5\n1,\n2,3\n");
    std::string few = "t,y\n";
    for (int i = 0; i + 1 < kContext + kHorizon; ++i) few += std::to_string(i) + "," + std::to_string(i % 5) + "\n";
    writeBytes(shortCsv, few);  // fewer rows than C + H
    writeBytes(classifier, containerWith(R"({"format":"attnlab","format_version":"1","task":"classify"})"));
    const std::string out = scratch().file("bad.safetensors");
    const Args train{"train", "--task", "forecast", "--epochs", "1", "--out", out};
    const Args model = tinyModel();
    struct Case {
        Args args;
        int exit;
        std::vector<std::string> says;
    };
    // train and forecast each read every kind of bad cell the same way (SeriesSources.cpp, one
    // reader); the front end's inspect checks the rest of them in milliseconds.
    const Args inspect{"inspect", "--task", "forecast"};
    const std::vector<Case> cases{
        {concat(concat(train, {"--series", word, "--column", "y"}), model), 3, {"word.csv:4:", "two"}},
        {concat(concat(train, {"--series", shortCsv, "--column", "y"}), model), 3, {"short.csv"}},
        {concat(concat(train, {"--series", word, "--column", "value"}), model), 3, {"word.csv:1:", "value"}},
        {concat(inspect, {"--series", nan, "--column", "y"}), 3, {"nan.csv:3:"}},
        {concat(inspect, {"--series", empty, "--column", "y"}), 3, {"empty.csv:3:"}},
        {concat(inspect, {"--series", shortCsv, "--column", "y", "--context", "16", "--horizon", "4"}), 3, {"short.csv"}},
        {concat(concat(train, kSeasonal), {"--context", "16", "--horizon", "0"}), 2, {"--horizon"}},
        {concat(concat(train, kSeasonal), {"--column", "y"}), 2, {"--column", "--series"}},
        {concat(concat(train, {"--series", word, "--column", "y"}), kSeasonal), 2, {"--series", "--dataset"}},
        {concat(inspect, {"--series", word}), 2, {"--column", "t, y"}},
        {concat(concat(train, kSeasonal), {"--heads", "3"}), 2, {"--heads 3 does not divide --hidden 64"}},
        {concat(concat(train, kSeasonal), {"--heads", "3", "--d-model", "16"}), 2, {"--heads 3 does not divide --d-model 16"}},
        {concat(concat(train, kSeasonal), {"--hidden", "16", "--d-model", "16"}), 2, {"--hidden and --d-model"}},
        {concat(concat(train, kSeasonal), {"--attention-pattern", "chunked", "--chunk", "97"}), 2, {"--chunk", "96"}},
        {concat({"train", "--task", "forecast", "--out", scratch().path.string()}, kSeasonal), 2, {"--out", "is a directory"}},
        {concat({"train", "--task", "forecast", "--out", scratch().file("no/such/m.safetensors")}, kSeasonal), 2,
         {"--out", "does not exist"}},
        {concat({"forecast", "--model", t.model, "--at", std::to_string(kLength + 1)}, kSeasonal), 2,
         {"--at must be between " + std::to_string(kContext) + " and " + std::to_string(kLength)}},
        {concat({"forecast", "--model", t.model, "--evaluate", "--at", "30"}, kSeasonal), 2, {"--at"}},
        {{"forecast", "--model", t.model, "--series", empty, "--column", "y"}, 3, {"empty.csv:3:", "empty"}},
        {concat({"forecast", "--model", t.csv}, kSeasonal), 4, {"seasonal.csv"}},
        {concat({"forecast", "--model", classifier}, kSeasonal), 4, {"classifier.safetensors", "classify"}},
        {concat(inspect, {"--dataset", "sunspots"}), 2, {"--dataset", "seasonal, echo, regime"}},
    };
    std::vector<Args> runs;
    for (const auto& c : cases) runs.push_back(c.args);
    const auto r = cliAll(runs);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        INFO(describe(cases[i].args, r[i]));
        CHECK(r[i].exitCode == cases[i].exit);
        CHECK(isOneErrorLine(r[i].err));
        for (const auto& s : cases[i].says) CHECK_THAT(r[i].err, Contains(s));
        CHECK(r[i].out.empty());
    }
    CHECK_FALSE(fs::exists(out));  // no run got as far as saving
}

TEST_CASE("Ctrl-C while a forecaster trains saves it and exits 130", "[cli]") {
    const std::string model = scratch().file("interrupted.safetensors");
    const Args train = concat(concat(Args{"train", "--task", "forecast"}, kSeasonal),
                              concat(tinyModel(), {"--epochs", "100000", "--out", model}));
    ProcessRunner runner(kCli, train, defaultOptions());
    runner.start();
    REQUIRE(runner.waitForOutput("\"epoch\":1,", 30.0));
    runner.sendSignal(SIGINT);
    const ProcessResult r = runner.wait();
    INFO(describe(train, r));
    CHECK(r.exitCode == 130);
    CHECK_THAT(r.err, Contains("interrupted: model saved to " + model));
    for (const auto& line : lines(r.out)) CHECK(Json::parse(line).contains("epoch"));
    const Args open = concat({"forecast", "--model", model, "--json"}, kSeasonal);
    const ProcessResult opened = cli(open);
    INFO(describe(open, opened));
    CHECK(opened.exitCode == 0);
    CHECK(Json::parse(opened.out)["forecast"].size() == static_cast<std::size_t>(kHorizon));
}
