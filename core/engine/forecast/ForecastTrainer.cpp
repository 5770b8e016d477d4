// ForecastTrainer: windows of the training part, Adam, the held-out tail's errors beside the
// baselines', and the cross-attention's mass one or more periods back.
#include "ForecastTrainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>

#include "base/InputError.h"
#include "base/Memory.h"
#include "engine/detail/ForecastImpl.h"
#include "engine/detail/ParallelBatch.h"
#include "engine/Runtime.h"

namespace attnlab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The period the seasonal naive and the period mass use: the model's, else estimated on the
// training part (periods up to the context), else 1 (the seasonal naive is then the last value).
int estimatedPeriod(const std::vector<double>& values, long trainEnd, int context) {
    const long maxLag = std::min<long>(context, trainEnd / 2);
    return maxLag >= 2 ? estimatePeriod(values, trainEnd, static_cast<int>(maxLag)) : 0;
}

struct HeldOut {
    ForecastEvaluation evaluation;
    double validationLoss = kNaN;  // the training loss (standardised units) on the held-out windows
    std::vector<double> lagProfile;
};

// Every window whose horizon lies in the tail: forecast points at .. at + H - 1 for at in
// trainEnd .. length - H, history the C values before at.
HeldOut evaluateHeldOut(const Forecaster::Impl& impl, const std::vector<double>& values, const SeriesSplit& split) {
    const int C = impl.config.context, H = impl.config.horizon;
    HeldOut out;
    ForecastEvaluation& ev = out.evaluation;
    ev.period = impl.period > 0 ? impl.period : estimatedPeriod(values, split.trainEnd, C);
    const int naivePeriod = std::max(1, ev.period);
    std::vector<long> starts;
    for (long at = std::max<long>(split.trainEnd, C); at + H <= split.length; ++at) starts.push_back(at - C);
    ev.windows = static_cast<long>(starts.size());
    if (starts.empty()) return out;
    const WindowForecasts f = forecastWindows(impl, values, starts, true);

    // Flattened window by window, step by step (forecastErrors, base/forecast/Series.h), and per step.
    std::vector<double> truth, model, last, naive, mean;
    std::vector<std::vector<double>> stepTruth(static_cast<std::size_t>(H)), stepModel(stepTruth), stepNaive(stepTruth);
    for (std::size_t w = 0; w < starts.size(); ++w) {
        const long at = starts[w] + C;
        const std::vector<double> history(values.begin() + starts[w], values.begin() + at);
        const long seasonalFrom = std::max<long>(0, at - std::max(C, naivePeriod));
        const std::vector<double> seasonalHistory(values.begin() + seasonalFrom, values.begin() + at);
        const auto lv = lastValueForecast(history, H);
        const auto sn = seasonalNaiveForecast(seasonalHistory, H, naivePeriod);
        const auto mf = meanForecast(history, H);
        for (int h = 0; h < H; ++h) {
            const auto i = static_cast<std::size_t>(h);
            const double y = values[static_cast<std::size_t>(at + h)];
            truth.push_back(y);
            model.push_back(f.forecasts[w][i]);
            last.push_back(lv[i]);
            naive.push_back(sn[i]);
            mean.push_back(mf[i]);
            stepTruth[i].push_back(y);
            stepModel[i].push_back(f.forecasts[w][i]);
            stepNaive[i].push_back(sn[i]);
        }
    }
    ev.model = forecastErrors(truth, model, naive);
    ev.lastValue = forecastErrors(truth, last, naive);
    ev.seasonalNaive = forecastErrors(truth, naive, naive);
    ev.mean = forecastErrors(truth, mean, naive);
    for (int h = 0; h < H; ++h) {
        const auto i = static_cast<std::size_t>(h);
        ev.stepRmse.push_back(forecastErrors(stepTruth[i], stepModel[i], stepNaive[i]).rmse);
    }
    const double sd = impl.standardizer.std;
    out.validationLoss = impl.config.loss == ForecastLoss::Mae ? ev.model.mae / sd
                                                                : ev.model.rmse * ev.model.rmse / (sd * sd);
    std::vector<float> meanCross(f.crossSum.size());
    for (std::size_t i = 0; i < meanCross.size(); ++i)
        meanCross[i] = static_cast<float>(f.crossSum[i] / static_cast<double>(starts.size()));
    ev.periodMass = periodicMass(meanCross, H, C, naivePeriod);
    out.lagProfile = lagProfile(meanCross, H, C);
    return out;
}

}  // namespace

struct ForecastTrainer::Impl {
    ForecastTrainingOptions options;
    Series series;
    SeriesSplit split;
    std::vector<float> z;      // the standardised series
    std::vector<long> starts;  // training windows: history z[s, s + C), target z[s + C, s + C + H)
    std::unique_ptr<Forecaster> model;
    std::unique_ptr<detail::ParallelBatchTrainer> trainer;
    std::mt19937_64 rng;
    int completed = 0;

    Forecaster::Impl& modelImpl() const { return *model->impl_; }
    static const Forecaster::Impl& of(const Forecaster& f) { return *f.impl_; }
};

ForecastTrainer::ForecastTrainer(const Series& series, ForecastConfig config, ForecastTrainingOptions options)
    : impl_(std::make_unique<Impl>()) {
    if (options.epochs < 1) throw ConfigError("epochs must be at least 1");
    if (options.batchSize < 1) throw ConfigError("the batch size must be at least 1");
    if (!(options.learningRate > 0)) throw ConfigError("the learning rate must be positive");
    if (!(options.clip >= 0)) throw ConfigError("the gradient clip must be 0 (none) or positive");
    if (options.stride < 1) throw ConfigError("the stride between training windows must be at least 1");
    if (!(options.tailFraction > 0 && options.tailFraction < 1))
        throw ConfigError("the held-out tail must be a fraction above 0 and below 1");
    checkConfig(config);
    impl_->options = options;
    impl_->rng.seed(options.seed);
    setThreadCount(options.threads);

    impl_->series = series;
    impl_->split = splitSeries(series, config.context, config.horizon, options.tailFraction);
    const Standardizer standardizer = fitStandardizer(series.values, impl_->split.trainEnd);
    for (double v : series.values) impl_->z.push_back(static_cast<float>(standardizer.apply(v)));
    const long C = config.context, H = config.horizon;
    for (long s = 0; s + C + H <= impl_->split.trainEnd; s += options.stride) impl_->starts.push_back(s);
    if (impl_->starts.empty())
        throw InputError(series.source.empty() ? series.name : series.source, 0,
                         "the training part holds no window of context + horizon values");

    impl_->model = std::make_unique<Forecaster>(config, standardizer, options.seed);
    if (config.period <= 0)
        impl_->modelImpl().setPeriod(estimatedPeriod(series.values, impl_->split.trainEnd, config.context));
    impl_->trainer = std::make_unique<detail::ParallelBatchTrainer>(impl_->modelImpl().net->parameters(),
                                                                   options.threads, options.learningRate);
    long heldOut = 0;
    for (long at = std::max<long>(impl_->split.trainEnd, C); at + H <= impl_->split.length; ++at) ++heldOut;
    setModel(impl_->model.get(), impl_->starts.size(), static_cast<std::size_t>(heldOut));
}

ForecastTrainer::~ForecastTrainer() = default;

const SeriesSplit& ForecastTrainer::split() const { return impl_->split; }
const Series& ForecastTrainer::series() const { return impl_->series; }

ForecastEpochMetrics ForecastTrainer::evaluate() const {
    ForecastEpochMetrics m;
    m.epoch = impl_->completed;
    m.trainLoss = kNaN;
    const HeldOut held = evaluateHeldOut(impl_->modelImpl(), impl_->series.values, impl_->split);
    m.validationLoss = held.validationLoss;
    m.errors = held.evaluation.model;
    m.seasonalNaiveMae = held.evaluation.seasonalNaive.mae;
    m.periodMassRatio = held.evaluation.periodMass.ratio();
    m.lagProfile = held.lagProfile;
    return m;
}

ForecastTrainer::Outcome ForecastTrainer::run(const EpochReport& onEpoch, const std::atomic<bool>* stop,
                                              const std::function<void()>& afterBatch) {
    Forecaster::Impl& model = impl_->modelImpl();
    nn::ForecastNetImpl& net = *model.net;
    const int C = model.config.context, H = model.config.horizon;
    const bool mae = model.config.loss == ForecastLoss::Mae;
    const auto batchSize = static_cast<std::size_t>(impl_->options.batchSize);
    while (impl_->completed < impl_->options.epochs) {
        const auto start = std::chrono::steady_clock::now();
        net.train();
        std::vector<long> order = impl_->starts;
        std::shuffle(order.begin(), order.end(), impl_->rng);
        double lossSum = 0;
        std::size_t seen = 0;
        int batchIndex = 0;
        for (std::size_t first = 0; first < order.size(); first += batchSize) {
            if (stop && stop->load()) return Outcome::Stopped;
            ++batchIndex;  // 1-based, for TrainingDiverged
            const std::size_t B = std::min(order.size(), first + batchSize) - first;
            torch::Tensor history = torch::empty({static_cast<int64_t>(B), C});
            torch::Tensor target = torch::empty({static_cast<int64_t>(B), H});
            auto hs = history.accessor<float, 2>();
            auto ts = target.accessor<float, 2>();
            for (std::size_t r = 0; r < B; ++r) {
                const float* w = impl_->z.data() + order[first + r];
                for (int c = 0; c < C; ++c) hs[static_cast<int64_t>(r)][c] = w[c];
                for (int h = 0; h < H; ++h) ts[static_cast<int64_t>(r)][h] = w[C + h];
            }
            // Each part's share: its summed error over the batch's B x H values.
            const double value = impl_->trainer->backward(
                static_cast<int64_t>(B), [&](const detail::BatchPart& part, double& reported) {
                    const auto mine = [&](const torch::Tensor& t) { return t.slice(0, part.first, part.first + part.count); };
                    const torch::Tensor prediction = net.forward(mine(history), false).prediction;
                    const torch::Tensor loss =
                        (mae ? torch::l1_loss(prediction, mine(target), at::Reduction::Sum)
                             : torch::mse_loss(prediction, mine(target), at::Reduction::Sum)) /
                        static_cast<double>(B * static_cast<std::size_t>(H));
                    reported = loss.item<double>();
                    return loss;
                });
            if (!std::isfinite(value))
                throw TrainingDiverged(impl_->completed + 1, batchIndex, "the loss became " + std::to_string(value));
            const double norm = impl_->trainer->clipGradNorm(impl_->options.clip);
            if (!std::isfinite(norm))
                throw TrainingDiverged(impl_->completed + 1, batchIndex, "the gradient norm became " + std::to_string(norm));
            impl_->trainer->step();
            lossSum += value * static_cast<double>(B);
            seen += B;
            if (afterBatch) {
                afterBatch();
                net.train();  // the callback may have used the model in eval mode
            }
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        epochDone(++impl_->completed);
        const HeldOut held = evaluateHeldOut(model, impl_->series.values, impl_->split);
        model.stepSpread = held.evaluation.stepRmse;
        ForecastEpochMetrics m;
        m.epoch = impl_->completed;
        m.trainLoss = seen ? lossSum / static_cast<double>(seen) : kNaN;
        m.validationLoss = held.validationLoss;
        m.errors = held.evaluation.model;
        m.seasonalNaiveMae = held.evaluation.seasonalNaive.mae;
        m.periodMassRatio = held.evaluation.periodMass.ratio();
        m.lagProfile = held.lagProfile;
        m.seconds = seconds;
        m.windowsPerSecond = seconds > 0 ? static_cast<double>(seen) / seconds : 0;
        releaseFreeMemory();  // evaluation's one-off blocks (glibc keeps them otherwise)
        if (onEpoch) onEpoch(m);
    }
    return Outcome::Finished;
}

ForecastEvaluation evaluateForecaster(const Forecaster& model, const Series& series, double tailFraction) {
    if (!(tailFraction > 0 && tailFraction < 1))
        throw ConfigError("the held-out tail must be a fraction above 0 and below 1");
    const ForecastConfig& config = model.config();
    const SeriesSplit split = splitSeries(series, config.context, config.horizon, tailFraction);
    return evaluateHeldOut(ForecastTrainer::Impl::of(model), series.values, split).evaluation;
}

}  // namespace attnlab
