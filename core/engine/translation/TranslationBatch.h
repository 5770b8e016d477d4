#pragma once
// Engine-internal (LibTorch): a translation batch (base/translation/Batching.h) as tensors, shared
// by the trainer and the head study.
#include <torch/torch.h>

#include "base/Vocabulary.h"
#include "base/translation/Batching.h"

namespace attnlab {

struct BatchTensors {
    torch::Tensor src, srcLen, tgt, tgtIn;
};

// The source ids [B, S], their lengths [B], the targets [B, T] and the decoder's input [B, T]: <s>
// followed by the target shifted right.
inline BatchTensors toTensors(const Batch& b) {
    BatchTensors t;
    t.src = torch::tensor(b.source, torch::kLong).view({b.size, b.sourceLen});
    t.srcLen = torch::tensor(b.sourceLengths, torch::kLong);
    t.tgt = torch::tensor(b.target, torch::kLong).view({b.size, b.targetLen});
    using torch::indexing::Slice;
    t.tgtIn = torch::cat({torch::full({b.size, 1}, Vocabulary::kBos, torch::kLong),
                          t.tgt.index({Slice(), Slice(0, b.targetLen - 1)})},
                         1);
    return t;
}

}  // namespace attnlab
