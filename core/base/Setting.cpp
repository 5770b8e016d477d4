#include "base/Setting.h"

namespace attnlab {

const char* settingName(Setting setting) {
    switch (setting) {
    case Setting::Hidden: return "hidden size";
    case Setting::Embedding: return "embedding size";
    case Setting::Layers: return "number of layers";
    case Setting::Heads: return "number of heads";
    case Setting::FeedForward: return "feed-forward size";
    case Setting::Dropout: return "dropout";
    case Setting::LocalWindow: return "local window";
    case Setting::AttentionChunk: return "attention chunk";
    case Setting::MaxLength: return "maximum length";
    case Setting::SourceVocabulary: return "source vocabulary size";
    case Setting::TargetVocabulary: return "target vocabulary size";
    case Setting::Epochs: return "number of epochs";
    case Setting::BatchSize: return "batch size";
    case Setting::LearningRate: return "learning rate";
    case Setting::Clip: return "gradient clipping";
    case Setting::TeacherForcing: return "teacher forcing";
    case Setting::Threads: return "number of threads";
    case Setting::ValidationFraction: return "validation fraction";
    case Setting::MinFrequency: return "minimum word frequency";
    case Setting::Context: return "context length";
    case Setting::Horizon: return "forecast horizon";
    case Setting::ForecastPeriod: return "period";
    case Setting::DecoderLayers: return "number of decoder layers";
    case Setting::SeriesLength: return "series length";
    case Setting::EchoLag: return "echo lag";
    case Setting::CoveragePenalty: return "coverage penalty";
    case Setting::GuidedAlignment: return "guided alignment weight";
    }
    return "setting";
}

std::string describe(const SettingProblem& p, const std::function<std::string(Setting)>& nameOf) {
    const std::string name = nameOf(p.setting);
    if (p.kind == SettingProblem::Kind::MustDivide)
        return name + " " + p.value + " does not divide " + nameOf(p.other) + " " + p.otherValue;
    std::string range;
    if (!p.lowOpen && !p.highOpen) {
        range = "between " + p.low + " and " + p.high;
    } else {
        range = (p.lowOpen ? "above " : "at least ") + p.low + (p.highOpen ? " and below " : " and at most ") + p.high;
    }
    return name + " must be " + range + ", got " + p.value;
}

std::optional<SettingProblem> outOfRange(Setting setting, long long value, long long low, long long high) {
    if (value >= low && value <= high) return std::nullopt;
    SettingProblem p;
    p.setting = setting;
    p.value = std::to_string(value);
    p.low = std::to_string(low);
    p.high = std::to_string(high);
    return p;
}

}  // namespace attnlab
