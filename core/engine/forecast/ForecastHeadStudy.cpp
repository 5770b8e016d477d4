#include "ForecastHeadStudy.h"

#include <algorithm>

#include "base/InputError.h"
#include "base/forecast/Series.h"
#include "engine/detail/HeadStudyRunner.h"
#include "engine/detail/ModelAccess.h"

namespace attnlab {

using torch::Tensor;

namespace {

using detail::appendHeads;
using detail::batchOf;
using detail::encoderSubject;
using detail::forEachRange;
using detail::studyReport;

// ---- Forecaster ---------------------------------------------------------------------------------

struct WindowSet {
    std::vector<long> starts;  // the first history value of each held-out window
    std::size_t skipped = 0;
};

WindowSet prepareWindows(const Forecaster& model, const Series& series, double tailFraction, std::size_t limit) {
    if (!(tailFraction > 0 && tailFraction < 1))
        throw ConfigError("the held-out tail must be a fraction above 0 and below 1");
    const ForecastConfig& c = model.config();
    const SeriesSplit split = splitSeries(series, c.context, c.horizon, tailFraction);
    WindowSet set;
    for (long at = std::max<long>(split.trainEnd, c.context); at + c.horizon <= split.length; ++at) {
        if (limit && set.starts.size() >= limit) break;
        set.starts.push_back(at - c.context);
    }
    if (set.starts.empty())
        throw InputError(series.source.empty() ? series.name : series.source, 0, "the held-out tail holds no window");
    return set;
}

// Histories [B, C] and targets [B, H], both standardised.
std::pair<Tensor, Tensor> windowBatch(const Forecaster::Impl& impl, const std::vector<double>& values,
                                      const WindowSet& set, std::size_t first, std::size_t last) {
    const int C = impl.config.context, H = impl.config.horizon;
    std::vector<const double*> rows;
    Tensor target = torch::empty({static_cast<std::int64_t>(last - first), H}, torch::kFloat);
    auto t = target.accessor<float, 2>();
    for (std::size_t i = first; i < last; ++i) {
        rows.push_back(values.data() + set.starts[i]);
        for (int h = 0; h < H; ++h)
            t[static_cast<std::int64_t>(i - first)][h] = static_cast<float>(
                impl.standardizer.apply(values[static_cast<std::size_t>(set.starts[i] + C + h)]));
    }
    return {impl.standardised(rows), target};
}

// The model's training loss (MSE or MAE of the standardised values), summed.
Tensor forecastLoss(const Forecaster::Impl& impl, const Tensor& prediction, const Tensor& target) {
    const Tensor error = prediction - target;
    return impl.config.loss == ForecastLoss::Mae ? error.abs().sum() : error.square().sum();
}

// The forecaster's heads: encoder self-, decoder self- and cross-attention, each layer's module.
detail::HeadSubject forecasterSubject(nn::ForecastNetImpl& net, const ForecastConfig& c) {
    detail::HeadSubject s;
    appendHeads(s.heads, MapKind::Encoder, c.encoderLayers, c.heads);
    appendHeads(s.heads, MapKind::Decoder, c.decoderLayers, c.heads);
    appendHeads(s.heads, MapKind::Cross, c.decoderLayers, c.heads);
    s.headsPerLayer = c.heads;
    s.module = [&net](MapKind kind, int layer) -> nn::MultiHeadAttention& {
        return net.attentionModule(kind, static_cast<std::size_t>(layer));
    };
    return s;
}

template <class Run>
auto withForecastSubject(const Forecaster& model, const Series& series, double tailFraction, std::size_t limit,
                         std::size_t batch, Run&& run) {
    const Forecaster::Impl& impl = detail::ModelAccess::impl(model);
    nn::ForecastNetImpl& net = *impl.net;
    const EvalModeGuard evalMode(net);
    const WindowSet set = prepareWindows(model, series, tailFraction, limit);
    const ForecastConfig& c = impl.config;
    detail::HeadSubject s = forecasterSubject(net, c);
    const std::vector<double>& values = series.values;
    s.score = [&] {
        c10::InferenceMode inference;
        double loss = 0, absError = 0;
        forEachRange(set.starts.size(), batch, [&](std::size_t first, std::size_t last) {
            auto [history, target] = windowBatch(impl, values, set, first, last);
            const Tensor prediction = net.forward(history, false).prediction;
            loss += forecastLoss(impl, prediction, target).item<double>();
            // |yhat - y| in the series' units: the standardised error times the spread.
            absError += (prediction - target).abs().sum().item<double>() * impl.standardizer.std;
        });
        const double count = static_cast<double>(set.starts.size()) * c.horizon;
        return HeadScore{loss / count, absError / count, 0.0};
    };
    s.forEachBatch = [&](const detail::HeadSubject::Visit& visit) {
        forEachRange(set.starts.size(), batch, [&](std::size_t first, std::size_t last) {
            auto [history, target] = windowBatch(impl, values, set, first, last);
            visit(static_cast<std::int64_t>(last - first),
                  [&] { return forecastLoss(impl, net.forward(history, false).prediction, target); });
        });
    };
    return run(s, set);
}

}  // namespace

HeadStudyReport measureForecasterHeads(const Forecaster& model, const Series& series, double tailFraction,
                                       const HeadStudyOptions& options, const HeadStudyProgress& progress) {
    return withForecastSubject(model, series, tailFraction, options.limit, batchOf(options),
                               [&](auto& s, const WindowSet& set) {
                                   return studyReport(s, set, set.starts.size(), "MAE", false, options, progress);
                               });
}

HeadScore scoreForecasterWithAblation(const Forecaster& model, const Series& series, const std::vector<HeadId>& off,
                                      double tailFraction, std::size_t limit) {
    return withForecastSubject(model, series, tailFraction, limit, 64,
                               [&](auto& s, auto&) { return detail::scoreWith(s, off); });
}

std::vector<double> forecasterHeadGradients(const Forecaster& model, const Series& series, double tailFraction,
                                            std::size_t limit) {
    return withForecastSubject(model, series, tailFraction, limit, 64,
                               [&](auto& s, auto&) { return detail::gateGradients(s); });
}

Forecast forecastAblated(const Forecaster& model, const std::vector<double>& values, long at,
                         const std::vector<HeadId>& off) {
    if (off.empty()) return model.forecastAt(values, at);
    const Forecaster::Impl& impl = detail::ModelAccess::impl(model);
    detail::HeadSubject s = forecasterSubject(*impl.net, impl.config);
    Forecast f;
    s.score = [&] {
        f = model.forecastAt(values, at);
        return HeadScore{};
    };
    detail::scoreWith(s, off);  // the gates set, the forecast, the gates cleared
    return f;
}

}  // namespace attnlab
