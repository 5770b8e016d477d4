#pragma once
// Engine-internal: what LmModel holds. Includes LibTorch; only engine .cpp files include it.
#include <torch/torch.h>

#include "engine/lm/LmModel.h"
#include "engine/lm/LmNet.h"

namespace attnlab {

struct LmModel::Impl {
    LmConfig config;
    LmTokenizer tokenizer;
    std::shared_ptr<nn::LmNetImpl> net;
};

}  // namespace attnlab
