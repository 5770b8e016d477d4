#pragma once
// Engine-internal: what TextClassifier holds. Includes LibTorch; only engine .cpp files
// include it.
#include <torch/torch.h>

#include "EvalModeGuard.h"
#include "engine/text/TextClassifier.h"
#include "engine/nn/networks/GruClassifierNet.h"

namespace attnlab {

struct TextClassifier::Impl {
    ClassifierConfig config;
    Vocabulary vocabulary;
    std::vector<std::string> labels;
    TokenizerOptions tokenizer;
    std::shared_ptr<nn::ClassifierNet> net;
    // Token ids of a text, truncated to the model's maximum length.
    std::vector<std::int64_t> encode(const std::vector<std::string>& words, bool* truncated) const;
};


}  // namespace attnlab
