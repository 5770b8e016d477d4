#pragma once
// A trained (or training) text classifier with its vocabulary, labels and tokenizer: what
// its checkpoint holds. LibTorch stays behind the pimpl, so this header is safe for the UI
// and the CLI.
//
// explain() computes, for one text and one class, the attribution methods the
// attention-as-explanation studies compare attention with (Jain & Wallace 2019):
//   gradient             ||d logit_c / d e_i||_2 per word (e_i its embedding)
//   grad_x_input         (d logit_c / d e_i) . e_i
//   integrated_gradients (Sundararajan et al. 2017) e_i . mean over k=1..N of
//                        d logit_c / d e_i at (k/N) e (baseline: all embeddings zero); its
//                        sum approximates logit_c(e) - logit_c(0) (completeness)
//   leave_one_out        p_c(text) - p_c(text without word i), re-running the model
// and Kendall's tau and Spearman's rho between the attention (mean over hops) and each method
// (the magnitude of the gradient methods; leave-one-out as it is).
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/AttentionMap.h"
#include "base/text/ClassifierConfig.h"
#include "base/analysis/Explanation.h"
#include "base/Tokenizer.h"
#include "base/Vocabulary.h"

namespace attnlab {

namespace detail {
struct ModelAccess;
}

struct Classification {
    // As the model saw them (unknown words as <unk>); a Transformer's start with "[CLS]".
    std::vector<std::string> tokens;
    int labelIndex = 0;
    std::string label;
    std::vector<double> probabilities;        // per label, in labels() order
    std::vector<std::vector<float>> pooling;  // GRU: [hop][word], each row sums to 1; empty without attention
    LayeredAttention encoder;                 // Transformer: [layer][head], (1 + words) x (1 + words)
    std::vector<float> rollout;               // Transformer: [CLS]'s rollout over the words, summing to 1
    bool truncated = false;
};


// The attention over the words as one row: a Transformer's [CLS] rollout, or the mean of a GRU's
// hops (what explain() and the rationale mass use); empty for a model without attention.
std::vector<double> wordAttention(const Classification& c);

class TextClassifier {
public:
    // Throws ConfigError if the config is invalid; the vocabulary size and the class count are
    // taken from `vocabulary` and `labels`.
    TextClassifier(ClassifierConfig config, Vocabulary vocabulary, std::vector<std::string> labels,
                   TokenizerOptions tokenizer, std::uint64_t seed);
    TextClassifier(TextClassifier&&) noexcept;
    TextClassifier& operator=(TextClassifier&&) noexcept;
    ~TextClassifier();

    // Checkpoints (.safetensors, metadata "task" = "classify"); save() is atomic and throws
    // std::runtime_error("FILE: reason"); load() throws ModelFileError("FILE: reason").
    void save(const std::string& path, const std::map<std::string, std::string>& extraMetadata = {}) const;
    static TextClassifier load(const std::string& path);
    // True if the file's metadata says it holds a classifier (false for a translation model;
    // throws ModelFileError if it is no AttnLab file at all).
    static bool isClassifierFile(const std::string& path);

    // Throws ConfigError for a text with no tokens.
    Classification classify(const std::string& text) const;
    // classIndex -1 = the predicted class. Throws ConfigError for a text with no tokens, a class
    // out of range or igSteps < 1.
    Explanation explain(const std::string& text, int classIndex = -1, int igSteps = kDefaultIgSteps) const;
    // The class's logit for token ids whose embeddings are scaled, word i by scales[i] (empty =
    // all 1: the text; all 0: integrated gradients' baseline). With it a test differentiates the
    // logit numerically: d logit / d scales[i] at 1 is grad_x_input[i].
    double logit(const std::vector<std::int64_t>& ids, int classIndex, const std::vector<double>& scales = {}) const;
    std::vector<std::int64_t> ids(const std::string& text) const;  // truncated to the maximum length
    // Class probabilities when the pooling weights are `pooling` ([hop][token], e.g. the model's own
    // shuffled: Jain & Wallace's permutation test) instead of the model's. Throws ConfigError for a
    // model without attention or a shape that does not fit.
    std::vector<double> probabilitiesWithPooling(const std::vector<std::int64_t>& ids,
                                                 const std::vector<std::vector<float>>& pooling) const;

    const ClassifierConfig& config() const;
    const Vocabulary& vocabulary() const;
    const std::vector<std::string>& labels() const;
    const TokenizerOptions& tokenizerOptions() const;
    std::int64_t parameterCount() const;
    std::vector<std::string> tokens(const std::string& text) const;  // truncated to the maximum length
    int labelIndex(const std::string& label) const;                  // -1 if unknown

    struct Impl;  // engine-internal (LibTorch): detail/ClassifierImpl.h

private:
    friend class ClassifierTrainer;
    friend struct detail::ModelAccess;  // the engine's own code (head studies) and white-box tests
    explicit TextClassifier(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace attnlab
