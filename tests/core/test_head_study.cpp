// The head study of the text classifier, the ViT and the forecaster (engine/HeadStudy.h):
// - with no head off the score is the plain model's, computed the way the user-facing calls
//   compute it (classify, predict, evaluateForecaster);
// - the gradient importance equals sum over items of |dL/d gate| by central finite differences,
//   for heads of every kind (the forecaster's encoder, decoder and cross heads);
// - the report holds together: one entry per head, importances >= 0 with each layer's norm 1, the
//   pruning curve starting at the baseline and each point the score of that many heads off;
// - a GRU classifier is refused; the 10% rule follows the metric's direction.
#include <torch/torch.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "base/InputError.h"
#include "base/forecast/Series.h"
#include "base/text/ClassifyDatasets.h"
#include "base/vision/ImageDatasets.h"
#include "engine/HeadStudy.h"
#include "engine/forecast/ForecastHeadStudy.h"
#include "engine/text/ClassifierHeadStudy.h"
#include "engine/vision/ImageHeadStudy.h"
#include "engine/detail/ModelAccess.h"
#include "engine/forecast/ForecastTrainer.h"
#include "engine/nn/networks/ForecastNet.h"
#include "engine/nn/networks/TransformerClassifierNet.h"
#include "engine/text/ClassifierTrainer.h"
#include "engine/vision/VisionTrainer.h"
#include "TinyModels.h"

using namespace attnlab;
using Catch::Matchers::WithinAbs;
using torch::Tensor;

namespace {

const ClassificationCorpus& sentiment() {
    static const ClassificationCorpus corpus = makeClassificationDataset("sentiment", 240, 4);
    return corpus;
}

// A tiny Transformer classifier (2 layers, 2 heads) trained briefly, shared by the cases.
const TextClassifier& classifier() {
    static const std::unique_ptr<ClassifierTrainer> trainer = [] {
        ClassifierConfig c;
        c.architecture = ClassifierArchitecture::Transformer;
        c.hidden = 16;
        c.layers = 2;
        c.heads = 2;
        c.feedForward = 32;
        c.dropout = 0.0;
        ClassifierTrainingOptions o;
        o.epochs = 2;
        auto t = std::make_unique<ClassifierTrainer>(makeClassificationDataset("sentiment", 300, 1), c, o);
        t->run({});
        return t;
    }();
    return trainer->model();
}

const ImageDataset& glyphs() {
    static const ImageDataset data = makeGlyphs(48, 6);
    return data;
}

const ImageClassifier& vit() {
    static const std::unique_ptr<ImageClassifierTrainer> trainer = [] {
        const VitConfig c = test::tinyVit();
        VisionTrainingOptions o;
        o.epochs = 1;
        auto t = std::make_unique<ImageClassifierTrainer>(makeGlyphs(96, 2), ImageDataset{}, c, o);
        t->run({});
        return t;
    }();
    return trainer->model();
}

const Series& seasonal() {
    static const Series series = [] {
        GeneratedSeriesOptions g;
        g.length = 300;
        g.period = 7;
        g.noise = 0.1;
        g.seed = 5;
        return generateSeries(g);
    }();
    return series;
}

// A tiny forecaster (1 encoder, 1 decoder layer, 2 heads: 6 heads of three kinds).
const Forecaster& forecaster() {
    static const std::unique_ptr<ForecastTrainer> trainer = [] {
        const ForecastConfig c = test::tinyForecast();
        ForecastTrainingOptions o;
        o.epochs = 2;
        o.learningRate = 3e-3;
        o.batchSize = 16;
        o.stride = 2;
        auto t = std::make_unique<ForecastTrainer>(seasonal(), c, o);
        t->run({});
        return t;
    }();
    return trainer->model();
}

// sum over items of |(L_i(gate 1 + eps) - L_i(gate 1 - eps)) / 2 eps| for one head, with
// lossOf(i) the item's loss under the gates set now.
double finiteDifference(nn::MultiHeadAttention& module, int heads, int head, std::size_t items,
                        const std::function<double(std::size_t)>& lossOf) {
    const double eps = 1e-3;
    auto gate = [&](double value) {
        Tensor g = torch::ones({heads});
        g[head] = value;
        module->setHeadGate(g);
    };
    double sum = 0;
    for (std::size_t i = 0; i < items; ++i) {
        gate(1 + eps);
        const double up = lossOf(i);
        gate(1 - eps);
        const double down = lossOf(i);
        sum += std::abs(up - down) / (2 * eps);
    }
    module->setHeadGate({});
    return sum;
}

void checkReport(const HeadStudyReport& r, std::size_t heads, int perLayer, const HeadScore& plain) {
    REQUIRE(r.heads.size() == heads);
    CHECK_THAT(r.baseline.metric, WithinAbs(plain.metric, 1e-9));
    CHECK_THAT(r.baseline.loss, WithinAbs(plain.loss, 1e-9));
    for (std::size_t first = 0; first < heads; first += static_cast<std::size_t>(perLayer)) {
        double norm = 0;
        for (std::size_t i = first; i < first + static_cast<std::size_t>(perLayer); ++i) {
            CHECK(r.heads[i].importance >= 0);
            CHECK(r.heads[i].gradient >= 0);
            CHECK(r.heads[i].head.layer == r.heads[first].head.layer);
            CHECK(r.heads[i].head.kind == r.heads[first].head.kind);
            norm += r.heads[i].importance * r.heads[i].importance;
        }
        CHECK_THAT(norm, WithinAbs(1.0, 1e-9));
    }
    for (const HeadStudyEffect& e : r.heads) {
        CHECK_THAT(e.deltaLoss, WithinAbs(e.score.loss - r.baseline.loss, 1e-12));
        CHECK_THAT(e.deltaMetric, WithinAbs(e.score.metric - r.baseline.metric, 1e-12));
    }
    REQUIRE(r.pruningCurve.size() == heads + 1);
    CHECK(r.pruningCurve.front().metric == r.baseline.metric);
    CHECK(r.pruningCurve.back().prunedFraction == 1.0);
    REQUIRE(r.pruningOrder.size() == heads);
    // The first point after the baseline is the least important head alone off.
    for (const HeadStudyEffect& e : r.heads)
        if (e.head == r.pruningOrder.front()) CHECK_THAT(r.pruningCurve[1].metric, WithinAbs(e.score.metric, 1e-9));
    REQUIRE(r.randomCurve.size() == heads + 1);
    CHECK(r.randomCurve.back().metric == Approx(r.pruningCurve.back().metric));
}

}  // namespace

TEST_CASE("classifier heads: the plain score, finite differences and the report", "[head_study]") {
    const TextClassifier& model = classifier();
    const ClassificationCorpus& corpus = sentiment();

    // With no head off: the accuracy and mean cross-entropy of classify().
    double loss = 0;
    int correct = 0;
    for (const LabeledText& e : corpus.examples) {
        const Classification c = model.classify(e.text);
        const int label = model.labelIndex(e.label);
        loss -= std::log(c.probabilities[static_cast<std::size_t>(label)]);
        correct += c.labelIndex == label;
    }
    const double n = static_cast<double>(corpus.examples.size());
    const HeadScore plain = scoreClassifierWithAblation(model, corpus, {});
    CHECK_THAT(plain.metric, WithinAbs(correct / n, 1e-12));
    CHECK_THAT(plain.loss, WithinAbs(loss / n, 1e-4));

    // A head off changes the figures; a head the model does not have is refused.
    const HeadScore off = scoreClassifierWithAblation(model, corpus, {{MapKind::Encoder, 1, 0}});
    CHECK(off.loss != plain.loss);
    CHECK_THROWS_AS(scoreClassifierWithAblation(model, corpus, {{MapKind::Encoder, 2, 0}}), ConfigError);
    CHECK_THROWS_AS(scoreClassifierWithAblation(model, corpus, {{MapKind::Cross, 0, 0}}), ConfigError);

    // The gradient importance against finite differences, text by text.
    const std::size_t limit = 24;
    const std::vector<double> grads = classifierHeadGradients(model, corpus, limit);
    REQUIRE(grads.size() == 4);
    auto& net = dynamic_cast<nn::TransformerClassifierNetImpl&>(*attnlab::detail::ModelAccess::impl(model).net);
    const EvalModeGuard evalMode(net);
    torch::NoGradGuard noGrad;
    auto lossOf = [&](std::size_t i) {
        const LabeledText& e = corpus.examples[i];
        const std::vector<std::int64_t> ids = model.ids(e.text);
        const Tensor logits = net.forward(torch::tensor(ids, torch::kLong).view({1, -1}),
                                          torch::tensor({static_cast<std::int64_t>(ids.size())}, torch::kLong))
                                  .logits.to(torch::kDouble);
        return -torch::log_softmax(logits, 1)[0][model.labelIndex(e.label)].item<double>();
    };
    for (int layer = 0; layer < 2; ++layer)
        for (int head = 0; head < 2; ++head) {
            const double fd = finiteDifference(net.attention(static_cast<std::size_t>(layer)), 2, head, limit, lossOf);
            CHECK_THAT(grads[static_cast<std::size_t>(layer * 2 + head)], WithinAbs(fd, 1e-3 + 1e-3 * fd));
        }

    HeadStudyOptions options;
    options.randomOrders = 2;
    const HeadStudyReport r = measureClassifierHeads(model, corpus, options);
    CHECK(r.metric == "accuracy");
    CHECK(r.higherIsBetter);
    CHECK(r.items == corpus.examples.size());
    checkReport(r, 4, 2, plain);
}

TEST_CASE("live ablation of a classifier: nothing off is classify, a head off changes the output, the rollout "
          "leaves it out",
          "[head_study]") {
    const TextClassifier& model = classifier();
    const std::string text = sentiment().examples.front().text;
    const Classification plain = model.classify(text);
    const Classification same = classifyAblated(model, text, {});
    CHECK(same.probabilities == plain.probabilities);
    CHECK(same.rollout == plain.rollout);

    // Layer 1's first head off: the output moves; the rollout is the kept heads' (by hand, in double).
    const HeadId off{MapKind::Encoder, 0, 0};
    const Classification a = classifyAblated(model, text, {off});
    REQUIRE(a.probabilities.size() == plain.probabilities.size());
    double change = 0;
    for (std::size_t i = 0; i < a.probabilities.size(); ++i) change += std::abs(a.probabilities[i] - plain.probabilities[i]);
    CHECK(change > 1e-6);
    REQUIRE(a.encoder.size() == 2);
    const std::size_t n = a.tokens.size();
    std::vector<double> r(n * n, 0.0);  // the rollout so far, starting at I
    for (std::size_t i = 0; i < n; ++i) r[i * n + i] = 1.0;
    for (std::size_t l = 0; l < 2; ++l) {
        std::vector<double> m(n * n, 0.0);
        const std::size_t first = l == 0 ? 1 : 0;  // the head that is off is layer 1's first
        const double kept = static_cast<double>(a.encoder[l].size() - first);
        for (std::size_t h = first; h < a.encoder[l].size(); ++h)
            for (std::size_t k = 0; k < n * n; ++k) m[k] += a.encoder[l][h].weights[k] / kept;
        for (std::size_t i = 0; i < n; ++i) {
            double sum = 0;
            for (std::size_t j = 0; j < n; ++j) {
                m[i * n + j] = 0.5 * m[i * n + j] + (i == j ? 0.5 : 0.0);
                sum += m[i * n + j];
            }
            for (std::size_t j = 0; j < n; ++j) m[i * n + j] /= sum;
        }
        std::vector<double> next(n * n, 0.0);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < n; ++k)
                for (std::size_t j = 0; j < n; ++j) next[i * n + j] += m[i * n + k] * r[k * n + j];
        r = next;
    }
    double words = 0;
    for (std::size_t j = 1; j < n; ++j) words += r[j];
    REQUIRE(a.rollout.size() == n - 1);
    for (std::size_t j = 1; j < n; ++j) CHECK_THAT(a.rollout[j - 1], WithinAbs(r[j] / words, 1e-5));
    // The model is as it was afterwards.
    CHECK(model.classify(text).probabilities == plain.probabilities);
    CHECK_THROWS_AS(classifyAblated(model, text, {HeadId{MapKind::Encoder, 5, 0}}), ConfigError);
}

TEST_CASE("a GRU classifier has no heads to study", "[head_study]") {
    ClassifierConfig c;
    c.hidden = 8;
    ClassifierTrainingOptions o;
    o.epochs = 1;
    ClassifierTrainer trainer(makeClassificationDataset("sentiment", 40, 1), c, o);
    CHECK_THROWS_AS(measureClassifierHeads(trainer.model(), sentiment()), ConfigError);
    CHECK_THROWS_AS(classifyAblated(trainer.model(), "a good film", {HeadId{MapKind::Encoder, 0, 0}}), ConfigError);
}

TEST_CASE("ViT heads: the plain score, finite differences and the report", "[head_study]") {
    const ImageClassifier& model = vit();
    const ImageDataset& data = glyphs();
    const std::vector<int> predicted = model.predict(data.images);
    int correct = 0;
    for (std::size_t i = 0; i < predicted.size(); ++i) correct += predicted[i] == data.labels[i];
    const HeadScore plain = scoreImageClassifierWithAblation(model, data, {});
    CHECK_THAT(plain.metric, WithinAbs(correct / static_cast<double>(data.images.size()), 1e-12));

    const std::size_t limit = 12;
    const std::vector<double> grads = imageClassifierHeadGradients(model, data, limit);
    REQUIRE(grads.size() == 4);
    nn::VitNetImpl& net = *attnlab::detail::ModelAccess::impl(model).net.ptr();
    const EvalModeGuard evalMode(net);
    torch::NoGradGuard noGrad;
    auto lossOf = [&](std::size_t i) {
        const Tensor logits = net.forward(imageTensor(data.images[i], 1, 32)).logits.to(torch::kDouble);
        return -torch::log_softmax(logits, 1)[0][data.labels[i]].item<double>();
    };
    for (int layer = 0; layer < 2; ++layer)
        for (int head = 0; head < 2; ++head) {
            const double fd = finiteDifference(net.attention(static_cast<std::size_t>(layer)), 2, head, limit, lossOf);
            CHECK_THAT(grads[static_cast<std::size_t>(layer * 2 + head)], WithinAbs(fd, 1e-3 + 1e-3 * fd));
        }

    HeadStudyOptions options;
    options.randomOrders = 1;
    const HeadStudyReport r = measureImageClassifierHeads(model, data, options);
    CHECK(r.items == data.images.size());
    checkReport(r, 4, 2, plain);
}

TEST_CASE("forecaster heads: MAE as forecast --evaluate gives it, finite differences of every kind", "[head_study]") {
    const Forecaster& model = forecaster();
    const Series& series = seasonal();
    const HeadScore plain = scoreForecasterWithAblation(model, series, {});
    const ForecastEvaluation evaluation = evaluateForecaster(model, series, 0.2);
    CHECK_THAT(plain.metric, WithinAbs(evaluation.model.mae, 1e-4));

    // Every cross head off: the forecast no longer reads the history through attention.
    const HeadScore blind =
        scoreForecasterWithAblation(model, series, {{MapKind::Cross, 0, 0}, {MapKind::Cross, 0, 1}});
    CHECK(blind.metric != plain.metric);

    const std::size_t limit = 10;
    const std::vector<double> grads = forecasterHeadGradients(model, series, 0.2, limit);
    REQUIRE(grads.size() == 6);  // encoder 1 x 2, decoder 1 x 2, cross 1 x 2
    const Forecaster::Impl& impl = attnlab::detail::ModelAccess::impl(model);
    nn::ForecastNetImpl& net = *impl.net;
    const EvalModeGuard evalMode(net);
    torch::NoGradGuard noGrad;
    const SeriesSplit split = splitSeries(series, 24, 4, 0.2);
    auto lossOf = [&](std::size_t i) {
        const long start = split.trainEnd - 24 + static_cast<long>(i);
        const Tensor history = impl.standardised({series.values.data() + start});
        const Tensor prediction = net.forward(history, false).prediction.to(torch::kDouble);
        double sum = 0;
        for (int h = 0; h < 4; ++h) {
            const double target = impl.standardizer.apply(series.values[static_cast<std::size_t>(start + 24 + h)]);
            sum += std::pow(prediction[0][h].item<double>() - target, 2);
        }
        return sum;
    };
    const MapKind kinds[] = {MapKind::Encoder, MapKind::Decoder, MapKind::Cross};
    for (int k = 0; k < 3; ++k)
        for (int head = 0; head < 2; ++head) {
            const double fd = finiteDifference(net.attentionModule(kinds[k], 0), 2, head, limit, lossOf);
            CHECK_THAT(grads[static_cast<std::size_t>(k * 2 + head)], WithinAbs(fd, 1e-3 + 1e-3 * fd));
        }

    HeadStudyOptions options;
    options.randomOrders = 1;
    const HeadStudyReport r = measureForecasterHeads(model, series, 0.2, options);
    CHECK(r.metric == "MAE");
    CHECK_FALSE(r.higherIsBetter);
    CHECK(r.items == static_cast<std::size_t>(evaluation.windows));
    checkReport(r, 6, 2, plain);
}

TEST_CASE("the 10% rule follows the metric's direction", "[head_study]") {
    HeadStudyReport r;
    r.baseline.metric = 1.0;
    r.pruningCurve = {{0, 0.0, 1.0, 0}, {1, 0.5, 1.05, 0}, {2, 1.0, 1.2, 0}};
    r.higherIsBetter = false;  // MAE: 1.05 is within 10%, 1.2 is not
    CHECK(headsWithinTenPercent(r) == 1);
    r.higherIsBetter = true;  // accuracy: every point is at least 90%
    CHECK(headsWithinTenPercent(r) == 2);
    r.pruningCurve[1].metric = 0.85;
    CHECK(headsWithinTenPercent(r) == 0);
}

TEST_CASE("live ablation of a forecaster: nothing off is forecastAt, the cross heads off change the forecast",
          "[head_study]") {
    const Forecaster& model = forecaster();
    const std::vector<double>& values = seasonal().values;
    const long at = 200;
    const Forecast plain = model.forecastAt(values, at);
    CHECK(forecastAblated(model, values, at, {}).forecast == plain.forecast);
    const std::vector<HeadId> cross{{MapKind::Cross, 0, 0}, {MapKind::Cross, 0, 1}};
    const Forecast ablated = forecastAblated(model, values, at, cross);
    REQUIRE(ablated.forecast.size() == plain.forecast.size());
    double change = 0;
    for (std::size_t h = 0; h < plain.forecast.size(); ++h) change += std::abs(ablated.forecast[h] - plain.forecast[h]);
    CHECK(change > 1e-6);
    CHECK(ablated.history == plain.history);
    CHECK(model.forecastAt(values, at).forecast == plain.forecast);  // the gates are cleared after
    CHECK_THROWS_AS(forecastAblated(model, values, at, {HeadId{MapKind::Cross, 3, 0}}), ConfigError);
}
