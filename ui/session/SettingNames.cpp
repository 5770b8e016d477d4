#include "session/SettingNames.h"

#include "base/InputError.h"

namespace attnlab {

QString SettingNames::label(Setting setting) {
    switch (setting) {
    case Setting::Hidden: return tr("Hidden size");
    case Setting::Embedding: return tr("Embedding size");
    case Setting::Layers: return tr("Layers");
    case Setting::Heads: return tr("Heads");
    case Setting::FeedForward: return tr("Feed-forward");
    case Setting::Dropout: return tr("Dropout");
    case Setting::LocalWindow: return tr("Window D");
    case Setting::AttentionChunk: return tr("Chunk");
    case Setting::MaxLength: return tr("Max length");
    case Setting::SourceVocabulary: return tr("Source vocabulary");
    case Setting::TargetVocabulary: return tr("Target vocabulary");
    case Setting::Epochs: return tr("Epochs");
    case Setting::BatchSize: return tr("Batch size");
    case Setting::LearningRate: return tr("Learning rate");
    case Setting::Clip: return tr("Gradient clip");
    case Setting::TeacherForcing: return tr("Teacher forcing");
    case Setting::Threads: return tr("Threads");
    case Setting::ValidationFraction: return tr("Validation share");
    case Setting::MinFrequency: return tr("Minimum word frequency");
    case Setting::Context: return tr("Context");
    case Setting::Horizon: return tr("Horizon");
    case Setting::ForecastPeriod: return tr("Period");
    case Setting::DecoderLayers: return tr("Decoder layers");
    case Setting::SeriesLength: return tr("Series length");
    case Setting::EchoLag: return tr("Echo lag");
    case Setting::CoveragePenalty: return tr("Coverage penalty");
    case Setting::GuidedAlignment: return tr("Guided alignment");
    }
    return QString::fromLatin1(settingName(setting));
}

QString SettingNames::describe(const SettingProblem& p) {
    const QString name = label(p.setting);
    const QString value = QString::fromStdString(p.value);
    const QString low = QString::fromStdString(p.low);
    const QString high = QString::fromStdString(p.high);
    if (p.kind == SettingProblem::Kind::MustDivide)
        return tr("%1 (%2) must divide %3 (%4)").arg(name, value, label(p.other), QString::fromStdString(p.otherValue));
    if (p.lowOpen) return tr("%1 must be above %2 and at most %3; it is %4").arg(name, low, high, value);
    if (p.highOpen) return tr("%1 must be at least %2 and below %3; it is %4").arg(name, low, high, value);
    return tr("%1 must be between %2 and %3; it is %4").arg(name, low, high, value);
}

QString SettingNames::messageOf(const std::exception& e) {
    if (const auto* config = dynamic_cast<const ConfigError*>(&e); config != nullptr && config->problem())
        return describe(*config->problem());
    return QString::fromUtf8(e.what());
}

}  // namespace attnlab
