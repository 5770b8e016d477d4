#include "base/forecast/ForecastLessonSchema.h"

#include "base/TaskIds.h"
#include "base/forecast/ForecastConfig.h"
#include "base/forecast/Series.h"

namespace attnlab {

LessonSchema forecastLessonSchema() {
    LessonSchema s;
    s.task = tasks::kForecast;
    s.datasets = [] {
        std::vector<std::string> out;
        for (SeriesKind k : {SeriesKind::Seasonal, SeriesKind::Echo, SeriesKind::Regime}) out.push_back(toString(k));
        return out;
    };
    s.dataFields = {"period", "lag", "noise"};
    s.defaultModel = [] { return toJson(ForecastConfig{}); };
    s.modelAliases = {{"hidden", "d_model"}};  // the width is "hidden" in every task's lessons
    s.checkModel = [](const std::string& json) { forecastConfigFromJson(json); };
    s.controls = {"dataset", "size", "data_seed", "period", "lag", "noise", "column", "timestamp", "context", "horizon",
                  "hidden", "heads", "layers", "decoder_layers", "loss", "pattern", "window", "time_features", "epochs",
                  "learning_rate", "batch_size", "seed", "clip", "validation_fraction"};
    return s;
}

}  // namespace attnlab
