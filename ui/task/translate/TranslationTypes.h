#pragma once
// Value types that cross between the GUI thread and the translation worker (captured by value in
// what the worker posts through the session's Reporter) and that TranslationSession's signals carry;
// registered as metatypes so that a signal's arguments can be held in a QVariant (QSignalSpy).
#include "base/AttentionMap.h"
#include "base/translation/ParallelCorpus.h"
#include "base/translation/ModelConfig.h"
#include "engine/translation/AttentionTrace.h"
#include "engine/translation/EncoderStates.h"
#include "engine/translation/HeadImportance.h"
#include "engine/translation/TranslationExplanation.h"
#include "engine/translation/TranslationTrainer.h"

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <memory>
#include <string>

namespace attnlab {

// What a Start sends to the worker. The corpus is shared read-only: copying a large corpus into
// every request would cost more than the request itself.
struct TrainingRequest {
    std::shared_ptr<const ParallelCorpus> corpus;
    ModelConfig config;
    TranslationTrainingOptions options;
};

// What the GUI knows about the model the worker holds (trained here or loaded from a file).
struct ModelSummary {
    ModelConfig config;  // vocabulary sizes filled in
    std::int64_t parameters = 0;
    std::size_t sourceVocabulary = 0;
    std::size_t targetVocabulary = 0;
    std::size_t trainingPairs = 0;    // 0 for a loaded model
    std::size_t validationPairs = 0;
    std::size_t skippedTooLong = 0;
    int batchesPerEpoch = 0;
    int epochs = 0;                   // planned epochs of the run
    std::int64_t estimatedBytes = 0;
    QString origin;                   // corpus name, or the model file
    bool loadedFromFile = false;
};

// A translation of the probe sentence and when in training it was made.
struct ProbeResult {
    Translation translation;
    int epoch = 0;            // epochs completed when it was made
    std::int64_t batches = 0; // batches trained in this run so far
    bool loadedModel = false; // made by a model opened from a file, not by a run
};

// Where the probe is translated: every N batches, or after every epoch (everyBatches 0).
struct ProbeSettings {
    std::string sentence;
    int everyBatches = 0;
    int beam = 1;
};

void registerTrainingMetaTypes();

}  // namespace attnlab

Q_DECLARE_METATYPE(attnlab::BatchReport)
Q_DECLARE_METATYPE(attnlab::TranslationEpochMetrics)
Q_DECLARE_METATYPE(attnlab::Translation)
Q_DECLARE_METATYPE(attnlab::ModelSummary)
Q_DECLARE_METATYPE(attnlab::ProbeResult)
Q_DECLARE_METATYPE(attnlab::TrainingRequest)
Q_DECLARE_METATYPE(attnlab::ProbeSettings)
Q_DECLARE_METATYPE(attnlab::TraceRequest)
Q_DECLARE_METATYPE(attnlab::AttentionTrace)
Q_DECLARE_METATYPE(attnlab::OutputTokenExplanation)
Q_DECLARE_METATYPE(attnlab::AblatedTranslation)
Q_DECLARE_METATYPE(attnlab::HeadImportanceReport)
Q_DECLARE_METATYPE(attnlab::StateProjection)
