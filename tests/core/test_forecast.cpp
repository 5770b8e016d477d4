// The forecaster: its network's shape (parameter count, attention rows, the causal decoder, the
// encoder's pattern), the held-out evaluation against forecasts made one by one, the checkpoint and
// the files it refuses, training (it learns a clean seasonal series; the stop flag), forecastAt's range.
// White-box for the network (engine/nn): LibTorch first, then Catch, whose CHECK glog also defines.
#include <torch/torch.h>

#include <catch2/catch.hpp>

#include "engine/nn/networks/ForecastNet.h"

#include <atomic>
#include <cmath>
#include <fstream>
#include <memory>

#include "base/InputError.h"
#include "base/io/Safetensors.h"
#include "base/text/ClassifyDatasets.h"
#include "engine/forecast/ForecastTrainer.h"
#include "engine/text/ClassifierTrainer.h"

#include "TempDir.h"
#include "TinyModels.h"

using namespace attnlab;
using attnlab::test::tinyForecast;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

// A clean seasonal series (period 7, little noise, no trend), 400 points.
Series cleanSeasonal() {
    GeneratedSeriesOptions g;
    g.length = 400;
    g.period = 7;
    g.noise = 0.05;
    g.trend = 0;
    g.seed = 5;
    return generateSeries(g);
}

ForecastTrainingOptions tinyOptions(int epochs) {
    ForecastTrainingOptions o;
    o.epochs = epochs;
    o.learningRate = 3e-3;
    o.batchSize = 16;
    o.stride = 2;
    o.seed = 3;
    return o;
}

// The tiny forecaster trained on cleanSeasonal(), shared by the tests that need learned weights.
ForecastTrainer& trainedTiny() {
    static const std::unique_ptr<ForecastTrainer> trainer = [] {
        auto t = std::make_unique<ForecastTrainer>(cleanSeasonal(), tinyForecast(), tinyOptions(8));
        t->run({});
        return t;
    }();
    return *trainer;
}

void checkRowsSumToOne(const AttentionMap& m, int rows, int cols) {
    REQUIRE(m.rows == rows);
    REQUIRE(m.cols == cols);
    for (int r = 0; r < rows; ++r) {
        double sum = 0;
        for (int c = 0; c < cols; ++c) {
            CHECK(m.at(r, c) >= 0.0f);
            sum += m.at(r, c);
        }
        CHECK_THAT(sum, WithinAbs(1.0, 1e-5));
    }
}

std::vector<double> ramp(int n, double offset = 0) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i) v.push_back(std::sin(0.9 * i) + 0.01 * i + offset);
    return v;
}

}  // namespace

TEST_CASE("the forecaster's weights are the count its config predicts", "[forecast]") {
    ForecastConfig c = tinyForecast();
    for (bool timeFeatures : {false, true})
        for (int encoder : {1, 3})
            for (int decoder : {1, 2}) {
                c.timeFeatures = timeFeatures;
                c.encoderLayers = encoder;
                c.decoderLayers = decoder;
                const Forecaster model(c, {}, 1);
                INFO("time features " << timeFeatures << ", " << encoder << " encoder, " << decoder << " decoder layers");
                CHECK(model.parameterCount() == parameterCount(c));
            }
    // By hand for the smallest: two input layers 1 x 16 + 16; encoder 4 * (16 * 16 + 16) + (16 * 32 + 32 + 32 * 16 + 16)
    // + two norms 4 * 16; decoder two attentions, the same feed-forward, three norms; head 16 + 1.
    c = tinyForecast();
    c.timeFeatures = false;
    const std::int64_t attention = 4 * (16 * 16 + 16), feedForward = 16 * 32 + 32 + 32 * 16 + 16;
    CHECK(Forecaster(c, {}, 1).parameterCount() ==
          2 * (16 + 16) + (attention + feedForward + 64) + (2 * attention + feedForward + 96) + 17);
}

TEST_CASE("every attention row sums to 1, the mean cross-attention is the last layer's heads averaged", "[forecast]") {
    ForecastConfig c = tinyForecast();
    c.encoderLayers = 2;
    c.decoderLayers = 2;
    const Forecaster model(c, {0.5, 2.0}, 4);
    const Forecast f = model.forecast(ramp(c.context));
    CHECK(f.history == ramp(c.context));
    REQUIRE(f.forecast.size() == 4u);
    for (double v : f.forecast) CHECK(std::isfinite(v));
    REQUIRE(f.cross.size() == 2u);
    REQUIRE(f.encoder.size() == 2u);
    for (const auto& layer : f.cross) {
        REQUIRE(layer.size() == 2u);
        for (const auto& map : layer) checkRowsSumToOne(map, c.horizon, c.context);
    }
    for (const auto& layer : f.encoder)
        for (const auto& map : layer) checkRowsSumToOne(map, c.context, c.context);
    checkRowsSumToOne(f.meanCross, c.horizon, c.context);
    for (std::size_t i = 0; i < f.meanCross.weights.size(); ++i)
        CHECK_THAT(f.meanCross.weights[i], WithinAbs(0.5 * (f.cross[1][0].weights[i] + f.cross[1][1].weights[i]), 1e-6));
    CHECK(f.lagProfile == lagProfile(f.meanCross.weights, c.horizon, c.context));
}

TEST_CASE("a local encoder attends only within its window, as the pattern says", "[forecast]") {
    ForecastConfig c = tinyForecast();
    c.pattern = AttentionPattern::Local;
    c.window = 3;
    const Forecaster model(c, {}, 2);
    const Forecast f = model.forecast(ramp(c.context));
    for (const auto& layer : f.encoder)
        for (const auto& map : layer) {
            checkRowsSumToOne(map, c.context, c.context);
            for (int i = 0; i < c.context; ++i)
                for (int j = 0; j < c.context; ++j)
                    if (std::abs(i - j) > c.window) CHECK(map.at(i, j) == 0.0f);
        }
    // The cross-attention stays full: every history point can be read.
    for (const auto& map : f.cross[0])
        for (float w : map.weights) CHECK(w > 0.0f);
}

TEST_CASE("the decoder is causal: a step's forecast does not depend on the steps after it", "[forecast]") {
    ForecastConfig c = tinyForecast();
    c.horizon = 6;
    c.decoderLayers = 2;
    c.timeFeatures = true;
    torch::manual_seed(11);
    nn::ForecastNet longer(c, 5);
    ForecastConfig shortC = c;
    shortC.horizon = 3;
    nn::ForecastNet shorter(shortC, 5);
    {
        torch::NoGradGuard noGrad;
        auto from = longer->named_parameters();
        for (auto& p : shorter->named_parameters()) p.value().copy_(from[p.key()]);
    }
    longer->eval();
    shorter->eval();
    const torch::Tensor history = torch::randn({2, c.context});
    const nn::ForecastOutput a = longer->forward(history, true);
    const nn::ForecastOutput b = shorter->forward(history, true);
    CHECK(torch::allclose(a.prediction.narrow(1, 0, 3), b.prediction, 1e-5, 1e-6));
    // Steps 3..5 do see steps 0..2: changing the horizon changes nothing before it, not everything.
    REQUIRE(a.decoder.size() == 2u);
    for (const auto& w : a.decoder) {  // [B, heads, H, H]
        CHECK(torch::triu(w, 1).abs().max().item<float>() == 0.0f);
        CHECK(w.select(2, 5).select(2, 0).min().item<float>() > 0.0f);
    }
}

TEST_CASE("the decoder's inputs are the last value and the step's time features; positions continue after the context",
          "[forecast]") {
    ForecastConfig c = tinyForecast();
    c.timeFeatures = true;
    nn::ForecastNet net(c, 5);
    const torch::Tensor history = torch::arange(c.context, torch::kFloat).unsqueeze(0);
    const torch::Tensor x = net->inputs(history);  // [1, C + H, 3]
    REQUIRE(x.size(1) == c.context + c.horizon);
    for (int t = 0; t < c.context + c.horizon; ++t) {
        const float value = t < c.context ? static_cast<float>(t) : static_cast<float>(c.context - 1);
        CHECK(x[0][t][0].item<float>() == value);
        CHECK_THAT(x[0][t][1].item<float>(), WithinAbs(std::sin(2 * M_PI * t / 5), 1e-5));
        CHECK_THAT(x[0][t][2].item<float>(), WithinAbs(std::cos(2 * M_PI * t / 5), 1e-5));
    }
    net->setPeriod(0);  // no period: the time features are 0
    CHECK(net->inputs(history).narrow(2, 1, 2).abs().max().item<float>() == 0.0f);
}

TEST_CASE("a tiny forecaster trained on a clean seasonal series beats the mean and reports consistent errors",
          "[forecast]") {
    ForecastTrainer& trainer = trainedTiny();
    const Series series = cleanSeasonal();
    const Forecaster& model = trainer.model();
    CHECK(trainer.completedEpochs() == 8);
    CHECK(model.period() == 7);  // estimated on the training part
    const ForecastEvaluation e = evaluateForecaster(model, series);
    INFO("model MAE " << e.model.mae << ", mean " << e.mean.mae << ", seasonal naive " << e.seasonalNaive.mae);
    CHECK(e.model.mae < 0.5 * e.mean.mae);
    CHECK(e.period == 7);
    CHECK_THAT(e.model.mase, WithinRel(e.model.mae / e.seasonalNaive.mae, 1e-12));
    // The evaluation is every window whose horizon lies in the tail, each forecast on its own.
    const SeriesSplit& split = trainer.split();
    const int C = model.config().context, H = model.config().horizon;
    CHECK(e.windows == split.length - H - split.trainEnd + 1);
    CHECK(trainer.validationExamples() == static_cast<std::size_t>(e.windows));
    double absolute = 0, squared = 0;
    std::vector<double> stepSquared(static_cast<std::size_t>(H), 0.0);
    for (long at = split.trainEnd; at + H <= split.length; ++at) {
        const Forecast f = model.forecastAt(series.values, at);
        for (int h = 0; h < H; ++h) {
            const double err = f.forecast[static_cast<std::size_t>(h)] - series.values[static_cast<std::size_t>(at + h)];
            absolute += std::fabs(err);
            squared += err * err;
            stepSquared[static_cast<std::size_t>(h)] += err * err;
        }
    }
    const double n = static_cast<double>(e.windows) * H;
    CHECK_THAT(e.model.mae, WithinRel(absolute / n, 1e-4));
    CHECK_THAT(e.model.rmse, WithinRel(std::sqrt(squared / n), 1e-4));
    // The spread is the held-out RMSE per step, the same the trainer stored after its last epoch.
    REQUIRE(model.stepSpread().size() == static_cast<std::size_t>(H));
    for (int h = 0; h < H; ++h) {
        CHECK_THAT(model.stepSpread()[static_cast<std::size_t>(h)],
                   WithinRel(std::sqrt(stepSquared[static_cast<std::size_t>(h)] / e.windows), 1e-4));
        CHECK_THAT(e.stepRmse[static_cast<std::size_t>(h)], WithinRel(model.stepSpread()[static_cast<std::size_t>(h)], 1e-9));
    }
    CHECK(model.forecastAt(series.values, split.trainEnd).spread == model.stepSpread());
    const ForecastEpochMetrics m = trainer.evaluate();
    CHECK(m.errors.mae == e.model.mae);
    CHECK(m.seasonalNaiveMae == e.seasonalNaive.mae);
    CHECK(m.periodMassRatio == e.periodMass.ratio());
    CHECK(m.lagProfile.size() == static_cast<std::size_t>(C + H));
}

TEST_CASE("forecastAt reads the C values before `at` and refuses positions outside its range", "[forecast]") {
    const ForecastConfig c = tinyForecast();
    const Forecaster model(c, {}, 1);
    const std::vector<double> values = ramp(40);
    const Forecast first = model.forecastAt(values, c.context);
    CHECK(first.forecast == model.forecast(std::vector<double>(values.begin(), values.begin() + c.context)).forecast);
    const Forecast last = model.forecastAt(values, 40 - c.horizon);
    CHECK(last.history == std::vector<double>(values.end() - c.horizon - c.context, values.end() - c.horizon));
    CHECK_THROWS_AS(model.forecastAt(values, c.context - 1), ConfigError);
    CHECK_THROWS_WITH(model.forecastAt(values, 40 - c.horizon + 1), Contains("--at must be between 24 and 36, got 37"));
    CHECK_THROWS_AS(model.forecastAt(ramp(c.context + c.horizon - 1), c.context), ConfigError);
    CHECK_THROWS_WITH(model.forecast(ramp(c.context - 1)), Contains("exactly 24 values"));
    std::vector<double> bad = ramp(c.context);
    bad[3] = std::nan("");
    CHECK_THROWS_AS(model.forecast(bad), ConfigError);
}

TEST_CASE("a forecaster checkpoint round-trips; other files and tampered ones are refused", "[forecast]") {
    test::TempDir dir;
    const Forecaster& model = trainedTiny().model();
    const std::string path = dir / "tiny.safetensors";
    model.save(path, {{"note", "kept"}});
    REQUIRE(Forecaster::isForecasterFile(path));
    const Forecaster back = Forecaster::load(path);
    const std::vector<double> history = ramp(model.config().context, 3.0);
    const Forecast a = model.forecast(history), b = back.forecast(history);
    CHECK(a.forecast == b.forecast);
    CHECK(a.spread == b.spread);
    CHECK(a.meanCross.weights == b.meanCross.weights);
    CHECK(back.period() == model.period());
    CHECK(back.standardizer().mean == model.standardizer().mean);
    CHECK(back.standardizer().std == model.standardizer().std);
    CHECK(back.stepSpread() == model.stepSpread());
    CHECK(toJson(back.config()) == toJson(model.config()));
    CHECK(readSafetensors(path).metadata.at("note") == "kept");

    SECTION("another task's model") {
        ClassifierTrainingOptions o;
        o.epochs = 1;
        ClassifierConfig cc;
        cc.hidden = 8;
        ClassifierTrainer classifier(makeClassificationDataset("sentiment", 40, 1), cc, o);
        const std::string other = dir / "classifier.safetensors";
        classifier.model().save(other);
        CHECK_FALSE(Forecaster::isForecasterFile(other));
        CHECK_THROWS_WITH(Forecaster::load(other), Contains("holds a 'classify' model, not a forecaster"));
        CHECK_THROWS_AS(TextClassifier::load(path), ModelFileError);
    }
    SECTION("a truncated file") {
        std::ifstream in(path, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), {});
        const std::string cut = dir.file("cut.safetensors", bytes.substr(0, bytes.size() - 100));
        CHECK_THROWS_AS(Forecaster::load(cut), ModelFileError);
    }
    SECTION("a config that describes more weights than the file holds is refused before building") {
        SafetensorsContent content = readSafetensors(path);
        ForecastConfig huge = model.config();
        huge.dModel = 4096;  // ~4.3 billion weights: refused without allocating them
        huge.heads = 4;
        huge.feedForward = 16384;
        huge.encoderLayers = 16;
        REQUIRE(parameterCount(huge) > 1'000'000'000);
        content.metadata["config"] = toJson(huge);
        const std::string tampered = dir / "tampered.safetensors";
        writeSafetensors(tampered, content);
        CHECK_THROWS_WITH(Forecaster::load(tampered), Contains("weights but the file holds"));
    }
    SECTION("bad metadata") {
        for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
                 {"standardizer", "{\"mean\": 0, \"std\": 0}"},
                 {"standardizer", "[1, 2]"},
                 {"period", "-3"},
                 {"period", "7x"},
                 {"step_spread", "[1, 2]"},
                 {"step_spread", "{}"},
                 {"config", "{\"context\": 1}"}}) {
            SafetensorsContent content = readSafetensors(path);
            content.metadata[key] = value;
            const std::string bad = dir / "bad.safetensors";
            writeSafetensors(bad, content);
            INFO(key << " = " << value);
            CHECK_THROWS_WITH(Forecaster::load(bad), Contains("metadata '" + key + "'"));
        }
    }
}

TEST_CASE("the trainer stops after the batch during which the flag was set, and resumes", "[forecast]") {
    ForecastTrainer trainer(cleanSeasonal(), tinyForecast(), tinyOptions(1));
    std::atomic<bool> stop{false};
    int batches = 0, epochs = 0;
    const auto outcome = trainer.run([&](const ForecastEpochMetrics&) { ++epochs; }, &stop, [&] {
        if (++batches == 3) stop = true;
    });
    CHECK(outcome == TrainingOutcome::Stopped);
    CHECK(batches == 3);
    CHECK(epochs == 0);
    CHECK(trainer.completedEpochs() == 0);
    CHECK(trainer.model().stepSpread().empty());
    stop = false;
    ForecastEpochMetrics last;
    CHECK(trainer.run([&](const ForecastEpochMetrics& m) { last = m; }, &stop) == TrainingOutcome::Finished);
    CHECK(trainer.completedEpochs() == 1);
    CHECK(last.epoch == 1);
    CHECK(std::isfinite(last.trainLoss));
    CHECK(last.windowsPerSecond > 0);
}

TEST_CASE("the trainer refuses bad options and a series too short, and reports divergence", "[forecast]") {
    const Series series = cleanSeasonal();
    ForecastTrainingOptions o = tinyOptions(1);
    o.stride = 0;
    CHECK_THROWS_AS(ForecastTrainer(series, tinyForecast(), o), ConfigError);
    o = tinyOptions(1);
    o.tailFraction = 1.0;
    CHECK_THROWS_AS(ForecastTrainer(series, tinyForecast(), o), ConfigError);
    Series shortSeries = series;
    shortSeries.values.resize(50);  // fewer than 2 * (24 + 4)
    CHECK_THROWS_AS(ForecastTrainer(shortSeries, tinyForecast(), tinyOptions(1)), InputError);

    o = tinyOptions(1);
    o.learningRate = 1e30;  // the first step sends the weights to ~1e31: the next forward overflows
    o.clip = 0;
    ForecastTrainer diverging(series, tinyForecast(), o);
    try {
        diverging.run({});
        FAIL("a learning rate of 1e30 did not diverge");
    } catch (const TrainingDiverged& e) {
        CHECK(e.epoch() == 1);
        CHECK(e.batch() >= 2);  // the first batch's loss was finite; its step broke the weights
        CHECK_THAT(e.what(), Contains("the last good weights are kept"));
    }
}
