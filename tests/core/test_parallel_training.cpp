// Training with several threads splits each batch into parts, each part's forward and
// backward on its own thread with its own random generator: the loss and gradients must
// be the whole batch's, and runs must repeat exactly for a given thread count.
#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "base/forecast/Series.h"
#include "base/text/ClassifyDatasets.h"
#include "base/translation/Datasets.h"
#include "base/vision/Captions.h"
#include "base/vision/ImageDatasets.h"
#include "engine/detail/ModelAccess.h"
#include "engine/detail/ParallelBatch.h"
#include "engine/forecast/ForecastTrainer.h"
#include "engine/text/ClassifierTrainer.h"
#include "engine/translation/TranslationTrainer.h"
#include "engine/vision/VisionTrainer.h"
#include "engine/nn/kernels/Random.h"
#include "engine/nn/kernels/VectorKernels.h"

#include "TinyModels.h"

using namespace attnlab;

namespace {

struct Case {
    std::string name;
    ModelConfig config;
    double teacherForcing = 1.0;
};

std::vector<Case> cases(float dropout) {
    std::vector<Case> out;
    for (auto kind : {AttentionKind::Additive, AttentionKind::LocalP}) {  // fused and step-by-step decoder
        ModelConfig c = test::tinyGru(kind);
        c.dropout = dropout;
        out.push_back({"gru " + toString(kind), c});
    }
    out.push_back({"gru additive, teacher forcing 0.5", out[0].config, 0.5});
    ModelConfig tr = test::tinyTransformer(2, 2);
    tr.dropout = dropout;
    out.push_back({"transformer", tr});
    return out;
}

TranslationTrainer makeTrainer(const Case& c, int threads) {
    DatasetOptions data;
    data.size = 96;
    data.seed = 5;
    data.maxLen = 7;  // sentences of different lengths: padding in every batch
    TranslationTrainingOptions o;
    o.epochs = 1;
    o.batchSize = 31;  // odd: unequal parts
    o.seed = 11;
    o.threads = threads;
    o.teacherForcing = c.teacherForcing;
    o.validationFraction = 0;
    o.clip = 0.05;  // below these gradients' norm: clipping (split across threads too) is in play
    return TranslationTrainer(generateDataset("toy-en-fr", data), c.config, o);
}

std::vector<torch::Tensor> gradients(TranslationTrainer& trainer) {
    std::vector<torch::Tensor> g;
    for (const auto& p : attnlab::detail::ModelAccess::impl(trainer.model()).net->parameters()) g.push_back(p.grad());
    return g;
}

}  // namespace

TEST_CASE("a batch split across two threads has the loss and gradients of the whole batch", "[parallel]") {
    for (const Case& c : cases(0.0f)) {
        if (c.teacherForcing < 1.0) continue;  // sampled inputs differ by design
        INFO(c.name);
        TranslationTrainer one = makeTrainer(c, 1), two = makeTrainer(c, 2);
        REQUIRE(one.partsPerBatch() == 1);
        REQUIRE(two.partsPerBatch() == 2);
        for (int b = 0; b < 2; ++b) {
            INFO("batch " << b);
            BatchReport r1 = one.trainBatch(), r2 = two.trainBatch();
            CHECK(r1.pairs == r2.pairs);
            CHECK(std::abs(r1.loss - r2.loss) <= 1e-5 * std::abs(r1.loss));
            auto g1 = gradients(one), g2 = gradients(two);
            REQUIRE(g1.size() == g2.size());
            double diff = 0, scale = 0;
            for (std::size_t i = 0; i < g1.size(); ++i) {
                REQUIRE(g1[i].defined() == g2[i].defined());
                if (!g1[i].defined()) continue;
                diff = std::max(diff, (g1[i] - g2[i]).abs().max().item<double>());
                scale = std::max(scale, g1[i].abs().max().item<double>());
            }
            INFO("largest gradient " << scale << ", largest difference " << diff);
            CHECK(scale > 1e-4);
            CHECK(diff <= 1e-5 * scale);
        }
    }
}

TEST_CASE("training on two threads repeats exactly, dropout and sampled inputs included", "[parallel]") {
    for (const Case& c : cases(0.3f)) {
        INFO(c.name);
        auto run = [&] {
            torch::manual_seed(99);  // the parts' generators are seeded from the global one
            TranslationTrainer t = makeTrainer(c, 2);
            std::vector<double> losses;
            for (int b = 0; b < 3; ++b) losses.push_back(t.trainBatch().loss);
            std::vector<torch::Tensor> params;
            for (const auto& p : attnlab::detail::ModelAccess::impl(t.model()).net->parameters()) params.push_back(p.detach().clone());
            return std::make_pair(losses, params);
        };
        auto [lossesA, paramsA] = run();
        auto [lossesB, paramsB] = run();
        CHECK(lossesA == lossesB);
        REQUIRE(paramsA.size() == paramsB.size());
        for (std::size_t i = 0; i < paramsA.size(); ++i) CHECK(torch::equal(paramsA[i], paramsB[i]));
    }
}

TEST_CASE("a multi-layer GRU with dropout trains whole batches: its encoder draws only from the global generator",
          "[parallel]") {
    Case c = cases(0.2f)[0];
    c.config.layers = 2;
    CHECK(makeTrainer(c, 2).partsPerBatch() == 1);
    c.config.dropout = 0;
    CHECK(makeTrainer(c, 2).partsPerBatch() == 2);
}

TEST_CASE("dropout masks: 0 with probability p, else 1 / (1 - p), repeatable from the generator", "[parallel]") {
    const double p = 0.3;
    torch::manual_seed(3);
    torch::Tensor mask = torch::empty({100000});
    nn::fillDropoutMask(mask, p);
    const double dropped = mask.eq(0).to(torch::kDouble).mean().item<double>();
    CHECK(std::abs(dropped - p) < 0.005);  // 3.4 standard deviations
    CHECK(mask.ne(0).logical_and(mask.ne(static_cast<float>(1 / (1 - p)))).sum().item<int64_t>() == 0);
    // Neighbours (consecutive counters of the hash) must be independent.
    torch::Tensor pairs = mask.view({-1, 2}).eq(0);
    const double bothDropped = pairs.all(1).to(torch::kDouble).mean().item<double>();
    CHECK(std::abs(bothDropped - p * p) < 0.005);

    torch::Tensor again = torch::empty({100000});
    nn::fillDropoutMask(again, p);
    CHECK(!torch::equal(mask, again));  // a new seed per call
    torch::manual_seed(3);
    nn::fillDropoutMask(again, p);
    CHECK(torch::equal(mask, again));

    // A thread's own generator decides its masks; odd lengths fill every element.
    auto withGenerator = [&](std::uint64_t seed) {
        nn::ScopedGenerator scoped(at::make_generator<at::CPUGeneratorImpl>(seed));
        torch::Tensor m = torch::full({7}, -1.0, torch::kDouble);
        nn::fillDropoutMask(m, 0.5);
        return m;
    };
    torch::Tensor a = withGenerator(5), b = withGenerator(5);
    CHECK(torch::equal(a, b));
    CHECK(a.ge(0).all().item<bool>());
    // float (vectorised) and double masks from the same seed drop the same elements.
    torch::manual_seed(8);
    torch::Tensor f = torch::empty({1001});
    nn::fillDropoutMask(f, p);
    torch::manual_seed(8);
    torch::Tensor d = torch::empty({1001}, torch::kDouble);
    nn::fillDropoutMask(d, p);
    CHECK(torch::equal(f.eq(0), d.eq(0)));
}

// ---- the other tasks' trainers (ParallelBatchTrainer) ------------------------------------------

namespace {

// One epoch's training loss and what the trained model computes on a fixed input.
struct Trained {
    double loss = 0;
    std::vector<double> outputs;
};

// Trains a task with `threads` threads and `dropout`, torch's global seed fixed (the parts'
// generators are seeded from it).
using TrainTask = std::function<Trained(int threads, float dropout)>;

std::vector<std::pair<std::string, TrainTask>> tasks() {
    std::vector<std::pair<std::string, TrainTask>> out;
    out.emplace_back("ViT", [](int threads, float dropout) {
        static const ImageDataset glyphs = makeGlyphs(100, 3);
        VitConfig config = test::tinyVit();
        config.dropout = dropout;
        VisionTrainingOptions o;
        o.epochs = 1;
        o.batchSize = 31;  // odd: unequal parts
        o.threads = threads;
        ImageClassifierTrainer trainer(glyphs, ImageDataset{}, config, o);
        Trained t;
        trainer.run([&](const ImageEpochMetrics& m) { t.loss = m.trainLoss; });
        t.outputs = trainer.model().probabilityOf({glyphs.images[0], glyphs.images[1]}, 0);
        return t;
    });
    out.emplace_back("captioner", [](int threads, float dropout) {
        static const CaptionDataset scenes = makeScenes(100, 4);
        CaptionerConfig config = test::tinyCaptioner();
        config.dropout = dropout;
        VisionTrainingOptions o;
        o.epochs = 1;
        o.batchSize = 31;
        o.learningRate = 3e-3;
        o.threads = threads;
        CaptionerTrainer trainer(scenes, CaptionDataset{}, config, o);
        Trained t;
        trainer.run([&](const CaptionEpochMetrics& m) { t.loss = m.trainLoss; });
        for (const auto& row : trainer.model().caption(scenes.images[0]).attention) t.outputs.insert(t.outputs.end(), row.begin(), row.end());
        return t;
    });
    out.emplace_back("classifier", [](int threads, float dropout) {
        static const ClassificationCorpus corpus = makeClassificationDataset("sentiment", 100, 3);
        ClassifierConfig config;
        config.hidden = 16;
        config.embedding = 16;
        config.penalty = 0.1;  // the redundancy penalty's share of each part too
        config.hops = 2;
        config.dropout = dropout;
        ClassifierTrainingOptions o;
        o.epochs = 1;
        o.batchSize = 31;
        o.threads = threads;
        ClassifierTrainer trainer(corpus, config, o);
        Trained t;
        trainer.run([&](const ClassifierEpochMetrics& m) { t.loss = m.trainLoss; });
        t.outputs = trainer.model().classify(corpus.examples[0].text).probabilities;
        return t;
    });
    out.emplace_back("forecaster", [](int threads, float dropout) {
        GeneratedSeriesOptions g;
        g.length = 300;
        g.period = 7;
        g.seed = 5;
        static const Series series = generateSeries(g);
        ForecastConfig config = test::tinyForecast();
        config.dropout = dropout;
        ForecastTrainingOptions o;
        o.epochs = 1;
        o.batchSize = 31;
        o.threads = threads;
        ForecastTrainer trainer(series, config, o);
        Trained t;
        trainer.run([&](const ForecastEpochMetrics& m) { t.loss = m.trainLoss; });
        t.outputs = trainer.model().forecast(std::vector<double>(series.values.begin(), series.values.begin() + 24)).forecast;
        return t;
    });
    return out;
}

Trained seeded(const TrainTask& train, int threads, float dropout) {
    torch::manual_seed(99);
    return train(threads, dropout);
}

}  // namespace

TEST_CASE("every task's trainer on two threads: the whole batch's loss, and runs that repeat exactly", "[parallel]") {
    for (const auto& [name, train] : tasks()) {
        INFO(name);
        // Without dropout two threads compute one thread's numbers up to the order of the sums
        // (a part's share scaled wrongly would show as a different loss).
        const Trained one = seeded(train, 1, 0.0f), two = seeded(train, 2, 0.0f);
        CHECK(one.loss > 0);
        CHECK(std::abs(one.loss - two.loss) <= 1e-3 * one.loss);
        REQUIRE(one.outputs.size() == two.outputs.size());
        REQUIRE(!one.outputs.empty());
        for (std::size_t i = 0; i < one.outputs.size(); ++i) CHECK(std::abs(one.outputs[i] - two.outputs[i]) < 1e-2);
        // With dropout, each part draws from its own generator: the same run twice is the same.
        const Trained a = seeded(train, 2, 0.2f), b = seeded(train, 2, 0.2f);
        CHECK(a.loss == b.loss);
        CHECK(a.outputs == b.outputs);
    }
}

TEST_CASE("the batch trainer's Adam is torch::optim::Adam's update, clipping and learning rate changes included", "[parallel]") {
    torch::manual_seed(3);
    torch::nn::Linear ours(torch::nn::LinearOptions(37, 11)), theirs(torch::nn::LinearOptions(37, 11));
    {
        torch::NoGradGuard noGrad;
        theirs->weight.copy_(ours->weight);
        theirs->bias.copy_(ours->bias);
    }
    attnlab::detail::ParallelBatchTrainer trainer(ours->parameters(), 1, 3e-3);
    torch::optim::Adam adam(theirs->parameters(), torch::optim::AdamOptions(3e-3));
    const torch::Tensor x = torch::randn({20, 37}), y = torch::randn({20, 11});
    for (int step = 0; step < 25; ++step) {
        if (step == 10) {  // as the vision trainers' cosine schedule does
            trainer.setLearningRate(1e-3);
            for (auto& group : adam.param_groups()) static_cast<torch::optim::AdamOptions&>(group.options()).lr(1e-3);
        }
        trainer.backward(20, [&](const attnlab::detail::BatchPart&, double& reported) {
            torch::Tensor loss = torch::mse_loss(ours(x), y);
            reported = loss.item<double>();
            return loss;
        });
        adam.zero_grad();
        torch::mse_loss(theirs(x), y).backward();
        if (step % 2 == 1) {  // clipped below these gradients' norm every other step
            const double ours_ = trainer.clipGradNorm(0.05);
            const double theirs_ = torch::nn::utils::clip_grad_norm_(theirs->parameters(), 0.05);
            CHECK(ours_ == Approx(theirs_).epsilon(1e-5));
            CHECK(theirs_ > 0.05);
        }
        trainer.step();
        adam.step();
    }
    CHECK(torch::allclose(ours->weight, theirs->weight, 1e-5, 1e-6));
    CHECK(torch::allclose(ours->bias, theirs->bias, 1e-5, 1e-6));
    CHECK(!torch::equal(ours->weight, torch::zeros_like(ours->weight)));
}

TEST_CASE("the step's kernels: squared norms in double precision and Adam's update, at every length", "[parallel]") {
    // Lengths below, at and across the sums' 32 lanes and Adam's blocks of 256 with their
    // prefetches 1024 ahead, against the formulas computed one element at a time in double.
    for (const std::int64_t n : {0, 1, 31, 32, 33, 255, 256, 257, 1023, 1025, 3001}) {
        CAPTURE(n);
        std::vector<float> a(static_cast<std::size_t>(n)), b(a.size()), sum(a.size());
        for (std::int64_t i = 0; i < n; ++i) {
            a[static_cast<std::size_t>(i)] = std::sin(0.37f * static_cast<float>(i)) * (1.0f + static_cast<float>(i % 7));
            b[static_cast<std::size_t>(i)] = std::cos(0.11f * static_cast<float>(i)) - 0.5f;
        }
        double squares = 0, sumSquares = 0;
        for (std::int64_t i = 0; i < n; ++i) {
            const auto k = static_cast<std::size_t>(i);
            squares += static_cast<double>(a[k]) * a[k];
            const float s = a[k] + b[k];
            sumSquares += static_cast<double>(s) * s;
        }
        CHECK(nn::kernels::sumOfSquares(a.data(), n) == Approx(squares).epsilon(1e-12).margin(1e-300));
        CHECK(nn::kernels::addWithSumOfSquares(sum.data(), a.data(), b.data(), n) ==
              Approx(sumSquares).epsilon(1e-12).margin(1e-300));
        for (std::int64_t i = 0; i < n; ++i) REQUIRE(sum[static_cast<std::size_t>(i)] == a[static_cast<std::size_t>(i)] + b[static_cast<std::size_t>(i)]);

        // Adam's second step (moments from a first one), the gradient scaled by clipping's 0.5.
        std::vector<float> p(a.size(), 0.25f), m = b, v(a.size());
        for (std::size_t k = 0; k < v.size(); ++k) v[k] = 0.01f * static_cast<float>(k % 5);
        const std::vector<float> p0 = p, m0 = m, v0 = v;
        nn::kernels::adamStep(p.data(), a.data(), m.data(), v.data(), n, 0.5f, 0.9, 0.999, 0.01f, 1.2f, 1e-8f);
        for (std::int64_t i = 0; i < n; ++i) {
            const auto k = static_cast<std::size_t>(i);
            const double g = 0.5 * a[k], mk = 0.9 * m0[k] + 0.1 * g, vk = 0.999 * v0[k] + 0.001 * g * g;
            REQUIRE(m[k] == Approx(mk).epsilon(1e-6).margin(1e-7));
            REQUIRE(v[k] == Approx(vk).epsilon(1e-6).margin(1e-9));
            REQUIRE(p[k] == Approx(p0[k] - 0.01 * mk / (std::sqrt(vk) * 1.2 + 1e-8)).epsilon(1e-5).margin(1e-6));
        }
    }
}

TEST_CASE("a part that throws: the batch throws it, and the trainer trains the next batch", "[parallel]") {
    torch::manual_seed(8);
    torch::nn::Linear layer(torch::nn::LinearOptions(6, 3));
    attnlab::detail::ParallelBatchTrainer trainer(layer->parameters(), 2, 1e-2);
    const torch::Tensor x = torch::randn({10, 6});
    const auto objective = [&](bool fail) {
        return [&, fail](const attnlab::detail::BatchPart& part, double& reported) {
            if (fail && part.index == 1) throw std::runtime_error("part 1 failed");
            const torch::Tensor loss = layer(x.slice(0, part.first, part.first + part.count)).pow(2).sum() / 10.0;
            reported = loss.item<double>();
            return loss;
        };
    };
    CHECK_THROWS_WITH(trainer.backward(10, objective(true)), "part 1 failed");
    const double loss = trainer.backward(10, objective(false));
    CHECK(loss == Approx(layer(x).pow(2).sum().item<double>() / 10.0).epsilon(1e-5));
    for (const auto& p : layer->parameters()) CHECK(p.grad().defined());
    trainer.step();
}
