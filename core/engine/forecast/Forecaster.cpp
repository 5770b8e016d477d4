// Forecaster: forecasts with their attention, and the checkpoint.
#include "Forecaster.h"

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "base/io/CheckpointMetadata.h"
#include "base/InputError.h"
#include "base/io/Safetensors.h"
#include "base/TaskIds.h"
#include "engine/detail/ForecastImpl.h"
#include "engine/detail/ModuleTensors.h"

namespace attnlab {

namespace {

AttentionMap toMap(const torch::Tensor& w) {  // [rows, cols]
    torch::Tensor c = w.to(torch::kFloat).contiguous();
    AttentionMap map;
    map.rows = static_cast<int>(c.size(0));
    map.cols = static_cast<int>(c.size(1));
    map.weights.assign(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
    return map;
}

// [layer][head] maps of window 0 from per-layer [B, heads, Tq, Tk] tensors.
LayeredAttention layered(const std::vector<torch::Tensor>& layers) {
    LayeredAttention out;
    for (const auto& layer : layers) {
        std::vector<AttentionMap> heads;
        for (int64_t h = 0; h < layer.size(1); ++h) heads.push_back(toMap(layer[0][h]));
        out.push_back(std::move(heads));
    }
    return out;
}

std::string standardizerToJson(const Standardizer& s) {
    nlohmann::json j;
    j["mean"] = s.mean;
    j["std"] = s.std;
    return j.dump();
}

}  // namespace

torch::Tensor Forecaster::Impl::standardised(const std::vector<const double*>& rows) const {
    const auto C = static_cast<int64_t>(config.context);
    torch::Tensor t = torch::empty({static_cast<int64_t>(rows.size()), C}, torch::kFloat);
    auto a = t.accessor<float, 2>();
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (int64_t c = 0; c < C; ++c) a[static_cast<int64_t>(r)][c] = static_cast<float>(standardizer.apply(rows[r][c]));
    return t;
}

WindowForecasts forecastWindows(const Forecaster::Impl& impl, const std::vector<double>& values,
                                const std::vector<long>& starts, bool withCross) {
    const int H = impl.config.horizon, C = impl.config.context;
    WindowForecasts out;
    if (withCross) out.crossSum.assign(static_cast<std::size_t>(H) * C, 0.0);
    c10::InferenceMode inference;
    const EvalModeGuard evalMode(*impl.net);
    const std::size_t batchSize = 128;
    for (std::size_t first = 0; first < starts.size(); first += batchSize) {
        std::vector<const double*> rows;
        for (std::size_t i = first; i < std::min(starts.size(), first + batchSize); ++i)
            rows.push_back(values.data() + starts[i]);
        const nn::ForecastOutput o = impl.net->forward(impl.standardised(rows), withCross);
        torch::Tensor p = o.prediction.to(torch::kDouble).contiguous();
        const double* pp = p.data_ptr<double>();
        for (std::size_t r = 0; r < rows.size(); ++r) {
            std::vector<double> f(static_cast<std::size_t>(H));
            for (int h = 0; h < H; ++h) f[static_cast<std::size_t>(h)] = impl.standardizer.invert(pp[r * H + h]);
            out.forecasts.push_back(std::move(f));
        }
        if (withCross && !o.cross.empty()) {
            torch::Tensor m = o.cross.back().mean(1).sum(0).to(torch::kDouble).contiguous();  // [H, C]
            const double* pm = m.data_ptr<double>();
            for (std::size_t i = 0; i < out.crossSum.size(); ++i) out.crossSum[i] += pm[i];
        }
    }
    return out;
}

Forecaster::Forecaster(ForecastConfig config, Standardizer standardizer, std::uint64_t seed)
    : impl_(std::make_unique<Impl>()) {
    checkConfig(config);
    if (!(std::isfinite(standardizer.mean) && std::isfinite(standardizer.std) && standardizer.std > 0))
        throw ConfigError("the standardisation needs a finite mean and a positive standard deviation");
    impl_->config = config;
    impl_->standardizer = standardizer;
    torch::manual_seed(seed);
    impl_->net = std::make_shared<nn::ForecastNetImpl>(config, config.period);
    impl_->period = impl_->net->period();
}

Forecaster::Forecaster(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Forecaster::Forecaster(Forecaster&&) noexcept = default;
Forecaster& Forecaster::operator=(Forecaster&&) noexcept = default;
Forecaster::~Forecaster() = default;

const ForecastConfig& Forecaster::config() const { return impl_->config; }
const Standardizer& Forecaster::standardizer() const { return impl_->standardizer; }
int Forecaster::period() const { return impl_->period; }
const std::vector<double>& Forecaster::stepSpread() const { return impl_->stepSpread; }
std::int64_t Forecaster::parameterCount() const { return weightCount(*impl_->net); }

Forecast Forecaster::forecast(const std::vector<double>& history) const {
    const int C = impl_->config.context, H = impl_->config.horizon;
    if (history.size() != static_cast<std::size_t>(C))
        throw ConfigError("the history must hold exactly " + std::to_string(C) + " values (the context), got " +
                          std::to_string(history.size()));
    for (double v : history)
        if (!std::isfinite(v)) throw ConfigError("the history holds a value that is not finite");
    Forecast result;
    result.history = history;
    c10::InferenceMode inference;
    const EvalModeGuard evalMode(*impl_->net);
    const nn::ForecastOutput o = impl_->net->forward(impl_->standardised({history.data()}), true);
    torch::Tensor p = o.prediction[0].to(torch::kDouble).contiguous();
    for (int h = 0; h < H; ++h) result.forecast.push_back(impl_->standardizer.invert(p.data_ptr<double>()[h]));
    result.spread = impl_->stepSpread;
    result.cross = layered(o.cross);
    result.encoder = layered(o.encoder);
    if (!o.cross.empty()) {
        result.meanCross = toMap(o.cross.back()[0].mean(0));
        result.lagProfile = lagProfile(result.meanCross.weights, H, C);
    }
    return result;
}

Forecast Forecaster::forecastAt(const std::vector<double>& values, long at) const {
    const long C = impl_->config.context, H = impl_->config.horizon;
    const long n = static_cast<long>(values.size());
    if (n < C + H)
        throw ConfigError("the series has " + std::to_string(n) + " values, too few for a context of " +
                          std::to_string(C) + " and a horizon of " + std::to_string(H));
    if (at < C || at + H > n)
        throw ConfigError("--at must be between " + std::to_string(C) + " and " + std::to_string(n - H) + ", got " +
                          std::to_string(at));
    return forecast(std::vector<double>(values.begin() + (at - C), values.begin() + at));
}

// ---- checkpoint --------------------------------------------------------------------

void Forecaster::save(const std::string& path, const std::map<std::string, std::string>& extraMetadata) const {
    SafetensorsContent content;
    content.metadata = extraMetadata;
    setFormatMetadata(content.metadata, tasks::kForecast);
    content.metadata["config"] = toJson(impl_->config);
    content.metadata["standardizer"] = standardizerToJson(impl_->standardizer);
    content.metadata["period"] = std::to_string(impl_->period);
    content.metadata["step_spread"] = nlohmann::json(impl_->stepSpread).dump();
    appendTensors(*impl_->net, content);
    writeSafetensors(path, content);
}

bool Forecaster::isForecasterFile(const std::string& path) {
    const SafetensorsContent content = readSafetensors(path);
    auto it = content.metadata.find("task");
    return it != content.metadata.end() && it->second == tasks::kForecast;
}

Forecaster Forecaster::load(const std::string& path) {
    SafetensorsContent content = readSafetensors(path);  // validates the container
    auto meta = [&](const char* key) -> const std::string& {
        return requiredMetadata(content.metadata, key, path, "forecaster");
    };
    checkModelTask(content.metadata, path, tasks::kForecast, "a forecaster");
    checkFormatVersion(content.metadata, path);
    auto impl = std::make_unique<Impl>();
    try {
        impl->config = forecastConfigFromJson(meta("config"));
    } catch (const ConfigError& e) {
        throw ModelFileError(path, std::string("metadata 'config': ") + e.what());
    }
    try {
        const auto s = nlohmann::json::parse(meta("standardizer"));
        impl->standardizer.mean = s.at("mean").get<double>();
        impl->standardizer.std = s.at("std").get<double>();
    } catch (const nlohmann::json::exception&) {
        throw ModelFileError(path, "metadata 'standardizer' is not an object with numbers 'mean' and 'std'");
    }
    if (!(std::isfinite(impl->standardizer.mean) && std::isfinite(impl->standardizer.std) && impl->standardizer.std > 0))
        throw ModelFileError(path, "metadata 'standardizer' needs a finite mean and a positive standard deviation");
    const std::string& period = meta("period");
    long p = -1;
    try {
        std::size_t used = 0;
        p = std::stol(period, &used);
        if (used != period.size()) p = -1;
    } catch (const std::exception&) {
        p = -1;
    }
    if (p < 0 || p > static_cast<long>(kMaxSeriesValues))
        throw ModelFileError(path, "metadata 'period' is not a whole number in 0.." + std::to_string(kMaxSeriesValues));
    try {
        impl->stepSpread = nlohmann::json::parse(meta("step_spread")).get<std::vector<double>>();
    } catch (const nlohmann::json::exception&) {
        throw ModelFileError(path, "metadata 'step_spread' is not an array of numbers");
    }
    if (!impl->stepSpread.empty() && impl->stepSpread.size() != static_cast<std::size_t>(impl->config.horizon))
        throw ModelFileError(path, "metadata 'step_spread' holds " + std::to_string(impl->stepSpread.size()) +
                                       " values for a horizon of " + std::to_string(impl->config.horizon));
    for (double v : impl->stepSpread)
        if (!(std::isfinite(v) && v >= 0)) throw ModelFileError(path, "metadata 'step_spread' holds a negative or non-finite value");
    // Before building the network: a hostile config cannot make us allocate more than the file holds.
    if (attnlab::parameterCount(impl->config) != storedWeights(content))
        throw ModelFileError(path, "the config describes " + std::to_string(attnlab::parameterCount(impl->config)) +
                                       " weights but the file holds " + std::to_string(storedWeights(content)));
    impl->net = std::make_shared<nn::ForecastNetImpl>(impl->config, static_cast<int>(p));
    impl->period = impl->net->period();
    loadTensorsInto(content, *impl->net, path);
    return Forecaster(std::move(impl));
}

}  // namespace attnlab
