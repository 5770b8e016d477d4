#include "task/translate/TranslationTypes.h"

namespace attnlab {

void registerTrainingMetaTypes() {
    qRegisterMetaType<attnlab::BatchReport>("attnlab::BatchReport");
    qRegisterMetaType<attnlab::TranslationEpochMetrics>("attnlab::EpochMetrics");
    qRegisterMetaType<attnlab::Translation>("attnlab::Translation");
    qRegisterMetaType<attnlab::ModelSummary>("attnlab::ModelSummary");
    qRegisterMetaType<attnlab::ProbeResult>("attnlab::ProbeResult");
    qRegisterMetaType<attnlab::TrainingRequest>("attnlab::TrainingRequest");
    qRegisterMetaType<attnlab::ProbeSettings>("attnlab::ProbeSettings");
    qRegisterMetaType<attnlab::TraceRequest>("attnlab::TraceRequest");
    qRegisterMetaType<attnlab::AttentionTrace>("attnlab::AttentionTrace");
    qRegisterMetaType<attnlab::OutputTokenExplanation>("attnlab::OutputTokenExplanation");
    qRegisterMetaType<attnlab::AblatedTranslation>("attnlab::AblatedTranslation");
    qRegisterMetaType<attnlab::HeadImportanceReport>("attnlab::HeadImportanceReport");
    qRegisterMetaType<attnlab::StateProjection>("attnlab::StateProjection");
}

}  // namespace attnlab
