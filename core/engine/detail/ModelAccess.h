#pragma once
// Engine-internal and test-only: the one way to reach a model's LibTorch network (a Seq2SeqModel's,
// and the text classifier's, ViT's and forecaster's for the head studies). The engine's .cpp files
// (training, tracing) and the white-box tests under tests/core use it; nothing above core may (it
// needs the detail/*Impl.h headers, which include LibTorch).
#include "engine/detail/ClassifierImpl.h"
#include "engine/detail/ForecastImpl.h"
#include "engine/detail/ModelImpl.h"
#include "engine/detail/VisionImpl.h"

namespace attnlab::detail {

struct ModelAccess {
    static Seq2SeqModel::Impl& impl(Seq2SeqModel& model) { return *model.impl_; }
    static const Seq2SeqModel::Impl& impl(const Seq2SeqModel& model) { return *model.impl_; }
    static const TextClassifier::Impl& impl(const TextClassifier& model) { return *model.impl_; }
    static const ImageClassifier::Impl& impl(const ImageClassifier& model) { return *model.impl_; }
    static const Forecaster::Impl& impl(const Forecaster& model) { return *model.impl_; }
};

}  // namespace attnlab::detail
