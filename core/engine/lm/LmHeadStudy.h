#pragma once
// The head study of engine/HeadStudy.h for the language model (Michel et al.): every head switched
// off in turn, each head's gradient importance and the pruning curve, over held-out documents, with
// the task's own loss (cross-entropy per predicted token) and metric (next-token accuracy; for the
// masked objective, the hidden tokens', the same hidden positions for every figure). Torch-free.
#include <vector>

#include "engine/HeadStudy.h"
#include "engine/lm/LmModel.h"

namespace attnlab {

// `documents` are token ids of the model's tokenizer (each at most the context is read). ConfigError
// for no document with a token.
HeadStudyReport measureLmHeads(const LmModel& model, const std::vector<std::vector<int>>& documents,
                               const HeadStudyOptions& options = {}, const HeadStudyProgress& progress = {});

}  // namespace attnlab
