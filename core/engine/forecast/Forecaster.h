#pragma once
// A trained (or training) forecaster: its config, the standardisation fitted on the training part,
// and the period it was told or estimated. LibTorch stays behind the pimpl, so this header is safe
// for the UI and the CLI.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/AttentionMap.h"
#include "base/forecast/ForecastConfig.h"
#include "base/forecast/Series.h"

namespace attnlab {

namespace detail {
struct ModelAccess;
}

struct Forecast {
    std::vector<double> history;   // the C values the forecast reads (original units)
    std::vector<double> forecast;  // H values (original units)
    std::vector<double> spread;    // H: the validation RMSE at each step (original units): the error band
    // Cross-attention [layer][head], H x C: forecast step over the history points (rows sum to 1).
    LayeredAttention cross;
    // Encoder self-attention [layer][head], C x C (rows sum to 1; the pattern's zeros outside it).
    LayeredAttention encoder;
    // The cross-attention averaged over the last layer's heads, H x C: what the views draw under the series.
    AttentionMap meanCross;
    std::vector<double> lagProfile;  // base/forecast/Series.h's lagProfile of meanCross
};

class Forecaster {
public:
    // Throws ConfigError if the config is invalid.
    Forecaster(ForecastConfig config, Standardizer standardizer, std::uint64_t seed);
    Forecaster(Forecaster&&) noexcept;
    Forecaster& operator=(Forecaster&&) noexcept;
    ~Forecaster();

    // Checkpoints (.safetensors, metadata "task" = "forecast"); save() is atomic and throws
    // std::runtime_error("FILE: reason"); load() throws ModelFileError("FILE: reason").
    void save(const std::string& path, const std::map<std::string, std::string>& extraMetadata = {}) const;
    static Forecaster load(const std::string& path);
    static bool isForecasterFile(const std::string& path);

    // Forecasts the H points after `history`, which must hold exactly context() values (else
    // ConfigError). With attention.
    Forecast forecast(const std::vector<double>& history) const;
    // Forecasts positions at .. at+H-1 of `values` from the C values before `at`. Throws ConfigError
    // when at < C or at + H > values.size() (naming --at's range).
    Forecast forecastAt(const std::vector<double>& values, long at) const;

    const ForecastConfig& config() const;
    const Standardizer& standardizer() const;
    int period() const;  // the config's, or the one estimated on the training part; 0 = none found
    const std::vector<double>& stepSpread() const;  // validation RMSE per step; empty before training
    std::int64_t parameterCount() const;

    struct Impl;  // engine-internal (LibTorch): detail/ForecastImpl.h

private:
    friend class ForecastTrainer;
    friend struct detail::ModelAccess;  // the engine's own code (head studies) and white-box tests
    explicit Forecaster(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace attnlab
