#pragma once
// What is wrong with which setting, as data. Core says which setting and why; each front end words
// it: the CLI names its flag ("--hidden must be between 1 and 4096, got 0"), the GUI names its
// control in the user's language. ConfigError carries one when a setting is at fault.
#include <functional>
#include <optional>
#include <string>

namespace attnlab {

enum class Setting {
    Hidden,
    Embedding,
    Layers,
    Heads,
    FeedForward,
    Dropout,
    LocalWindow,
    AttentionChunk,  // a Transformer's chunk size (chunked) or stride (strided)
    MaxLength,
    SourceVocabulary,
    TargetVocabulary,
    Epochs,
    BatchSize,
    LearningRate,
    Clip,
    TeacherForcing,
    Threads,
    ValidationFraction,
    MinFrequency,
    Context,         // forecasting: history points the encoder reads
    Horizon,         // forecasting: points forecast at once
    ForecastPeriod,  // forecasting: the seasonal period (time features, MASE; a generated series')
    DecoderLayers,   // forecasting: decoder layers (Layers is the encoder's)
    SeriesLength,    // forecasting: a generated series' length
    EchoLag,         // forecasting: the echo series' lag
    CoveragePenalty,  // translation: the coverage (doubly stochastic) penalty's weight
    GuidedAlignment,  // translation: guided alignment's weight
};

struct SettingProblem {
    enum class Kind {
        OutOfRange,  // value outside [low, high] (an end is excluded where lowOpen / highOpen)
        MustDivide,  // `other` (otherValue) must be a multiple of the setting (value)
    };
    Setting setting = Setting::Hidden;
    Kind kind = Kind::OutOfRange;
    std::string value;  // as given
    std::string low, high;
    bool lowOpen = false;
    bool highOpen = false;
    Setting other = Setting::Hidden;
    std::string otherValue;
};

// The problem of an integer setting outside [low, high], or none.
std::optional<SettingProblem> outOfRange(Setting setting, long long value, long long low, long long high);

// A neutral English name ("hidden size"), for messages no front end has worded.
const char* settingName(Setting setting);

// The problem as one English line, with the setting named by nameOf: "NAME must be between LOW and
// HIGH, got VALUE", "NAME must be above LOW and at most HIGH, got VALUE", "NAME VALUE does not
// divide OTHER OTHERVALUE".
std::string describe(const SettingProblem& problem, const std::function<std::string(Setting)>& nameOf);

}  // namespace attnlab
