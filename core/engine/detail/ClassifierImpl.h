#pragma once
// Engine-internal: what TextClassifier holds. Includes LibTorch; only engine .cpp files
// include it.
#include <torch/torch.h>

#include "engine/TextClassifier.h"
#include "engine/nn/GruClassifierNet.h"

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

// The network in eval mode (no dropout) for the guard's lifetime, then the mode it had.
class ClassifierEvalGuard {
public:
    explicit ClassifierEvalGuard(nn::ClassifierNet& net) : net_(net), training_(net.is_training()) { net_.eval(); }
    ~ClassifierEvalGuard() { net_.train(training_); }
    ClassifierEvalGuard(const ClassifierEvalGuard&) = delete;
    ClassifierEvalGuard& operator=(const ClassifierEvalGuard&) = delete;

private:
    nn::ClassifierNet& net_;
    bool training_;
};

}  // namespace attnlab
