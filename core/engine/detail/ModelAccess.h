#pragma once
// Engine-internal and test-only: the one way to reach a Seq2SeqModel's LibTorch network. The
// engine's .cpp files (training, tracing) and the white-box tests under tests/core use it; nothing
// above core may (it needs detail/ModelImpl.h, which includes LibTorch).
#include "engine/detail/ModelImpl.h"

namespace attnlab::detail {

struct ModelAccess {
    static Seq2SeqModel::Impl& impl(Seq2SeqModel& model) { return *model.impl_; }
    static const Seq2SeqModel::Impl& impl(const Seq2SeqModel& model) { return *model.impl_; }
};

}  // namespace attnlab::detail
