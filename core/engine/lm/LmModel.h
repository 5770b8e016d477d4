#pragma once
// A language model (the `lm` task): its config, its tokenizer and its network, with what the views
// and the CLI ask of it: a text's attention and next-token distribution (attend), continuations
// (generate), the loss at each position (the in-context-learning score) and every head's
// previous-token, duplicate-token and induction scores (detect). LibTorch stays behind the pimpl.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/AttentionMap.h"
#include "base/lm/LmCircuits.h"
#include "base/lm/LmConfig.h"
#include "base/lm/LmTokens.h"

namespace attnlab {

struct LmCandidate {
    int id = 0;
    std::string token;
    double logprob = 0;
};

// attend(): the tokens the model read (<bos> first), every layer's and head's attention over them
// (rows sum to 1; a causal model's are zero above the diagonal) and the most probable next tokens
// after the last one. A masked model instead fills each <mask>: `masked` holds, per mask position,
// its most probable tokens.
struct LmReading {
    std::vector<int> ids;
    std::vector<std::string> tokens;
    LayeredAttention attention;  // [layer][head], T x T
    std::vector<LmCandidate> next;
    struct Masked {
        int position = 0;
        std::vector<LmCandidate> top;
    };
    std::vector<Masked> masked;
    int cut = 0;  // tokens of the text left out because the context holds no more
};

struct LmGenerateOptions {
    int maxNewTokens = 20;
    double temperature = 0;  // 0: greedy
    int topK = 0;            // 0: no top-k cut
    double topP = 1.0;       // 1: no top-p cut
    std::uint64_t seed = 1;
};

struct LmGeneration {
    std::vector<int> prompt;     // <bos> and the prompt's ids (cut to leave room for the new tokens)
    std::vector<int> generated;  // the new ids
    std::string text;            // the new tokens decoded
    // Per new token: the most probable tokens at that step and the last layer's attention of the
    // step's query over what it read, heads averaged.
    std::vector<std::vector<LmCandidate>> steps;
    std::vector<std::vector<float>> attention;
    int cut = 0;
};

// A continuation and the model's reading of prompt + continuation (every layer's and head's
// attention; the query at position p is the one that predicted token p + 1): the window's Generate.
struct LmGenerated {
    LmGeneration generation;
    LmReading reading;
};

// Every head's scores on repeated random sequences (LmCircuits.h), and the model's copying.
struct LmCircuitScores {
    LmHeadScores heads;          // [layer][head], the mean over the probes
    double copyAccuracy = 0;     // the next token of the second copy predicted right (greedy)
    double inContextLearning = 0;  // loss late minus loss early in the probes' context (negative: uses it)
};

class LmModel {
public:
    // Throws ConfigError for an invalid config or one whose vocabulary differs from the tokenizer's.
    LmModel(LmConfig config, LmTokenizer tokenizer, std::uint64_t seed);
    LmModel(LmModel&&) noexcept;
    LmModel& operator=(LmModel&&) noexcept;
    ~LmModel();

    // Checkpoints (.safetensors, metadata "task" = "lm"); save() is atomic and throws
    // std::runtime_error("FILE: reason"); load() throws ModelFileError("FILE: reason").
    // load() also opens a Hugging Face model folder (a directory holding config.json): openHuggingFace.
    void save(const std::string& path, const std::map<std::string, std::string>& extraMetadata = {}) const;
    static LmModel load(const std::string& path);
    // A Hugging Face GPT-2 folder (base/lm/LmHuggingFace.h says what it reads): Conv1D weights
    // [in, out] transposed into the network's Linear layout, names with or without "transformer.",
    // the attn.bias / attn.masked_bias buffers skipped, lm_head.weight only when untied, F32, F16 and
    // BF16 converted to F32. Throws ModelFileError("FILE: reason") for a missing tensor, one of the
    // wrong shape or with a non-finite value, a layer config.json does not have, and what
    // readLmHfFolder and readSafetensors refuse. core/engine/lm/LmHuggingFace.cpp.
    static LmModel openHuggingFace(const std::string& directory);

    // The text tokenized after <bos> and cut to the context (from the end for a causal model: the
    // most recent tokens are kept); a text of no tokens is just <bos>.
    LmReading attend(const std::string& text, int topNext = 10) const;
    LmReading attendIds(std::vector<int> ids, int topNext = 10) const;  // ids start with <bos>
    LmGeneration generate(const std::string& prompt, const LmGenerateOptions& options) const;
    // The mean cross-entropy at each position (0 = the token after <bos>) over the documents.
    std::vector<double> lossPerPosition(const std::vector<std::vector<int>>& documents) const;
    // On `probes` repeated random sequences of half the context (seeded).
    LmCircuitScores circuits(int probes = 16, std::uint64_t seed = 7) const;

    const LmConfig& config() const;
    const LmTokenizer& tokenizer() const;
    std::int64_t parameterCount() const;

    struct Impl;  // engine-internal (LibTorch): LmImpl.h
    const Impl& internals() const { return *impl_; }  // for the engine's own code (the head study)

private:
    friend class LmTrainer;
    explicit LmModel(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace attnlab
