#pragma once
// A trained (or training) sequence-to-sequence model with its vocabularies and
// tokenizer: what a checkpoint holds. LibTorch stays behind the pimpl, so this
// header is safe for the UI and the CLI.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/AttentionMap.h"
#include "base/io/CheckpointMetadata.h"  // kCheckpointFormatVersion, for the fuzzers that include this header
#include "base/translation/ModelConfig.h"
#include "base/Tokenizer.h"
#include "base/Vocabulary.h"

namespace attnlab {

namespace detail {
struct ModelAccess;
}

struct DecodeOptions {
    int beam = 1;       // 1 = greedy
    int maxOutput = 0;  // 0 = 2 * source length + 10 (capped by the model's maximum)
    bool captureAttention = true;

    // Sampling in place of beam search (beam must be 1): each step draws the next token from the
    // model's distribution at `temperature`, cut to the `topK` most probable (0 = no cut) and then
    // to the smallest set whose probability reaches `topP` (1 = no cut), renormalised
    // (core/base/translation/Sampling.h). The draws come from a generator of their own (std::mt19937_64 seeded
    // with `seed`): the same seed draws the same sample on every run, at any thread count.
    // Temperature 1e-4 or top-k 1 give the greedy translation (tokens, score, attention).
    // Translation::steps records each step's `candidates` most probable tokens.
    bool sample = false;
    double temperature = 1.0;  // > 0 (finite)
    int topK = 0;              // >= 0
    double topP = 1.0;         // in (0, 1]
    std::uint64_t seed = 0;
    int candidates = 10;  // >= 0
    // The decoding lab's records: with recordBeam, Translation::beamTree holds every hypothesis
    // beam search kept (any beam width; not with sample); with captureCache, a sampled
    // Transformer translation carries its decoder's key/value cache (Translation::cache).
    bool recordBeam = false;
    bool captureCache = false;

    // Token edits: when not empty, the source is these tokens as they are (the sentence is not
    // tokenized): a word the vocabulary lacks, or "<unk>", is the unknown word. The Translate
    // view's "mask a word" and "drop a word" send the shown tokens, edited.
    std::vector<std::string> sourceWords{};
};

// Throws ConfigError naming the option's CLI flag (as --beam's check does) when an option is out
// of range: beam in [1, 64], temperature > 0 (finite), topK >= 0, 0 < topP <= 1,
// candidates >= 0, and sample only with beam 1.
void checkDecodeOptions(const DecodeOptions& options);

class Seq2SeqModel {
public:
    // Throws ConfigError if the config is invalid. Vocabulary sizes in `config` are
    // taken from the vocabularies.
    Seq2SeqModel(ModelConfig config, Vocabulary source, Vocabulary target, TokenizerOptions tokenizer,
                 std::uint64_t seed);
    Seq2SeqModel(Seq2SeqModel&&) noexcept;
    Seq2SeqModel& operator=(Seq2SeqModel&&) noexcept;
    ~Seq2SeqModel();

    // Checkpoints (.safetensors; see docs/ARCHITECTURE.md, "Checkpoint format"). save() is atomic and throws
    // std::runtime_error("FILE: reason"); load() throws ModelFileError("FILE: reason").
    void save(const std::string& path, const std::map<std::string, std::string>& extraMetadata = {}) const;
    static Seq2SeqModel load(const std::string& path);

    // Translates one sentence; every output step carries the attention it used.
    // Throws ConfigError for an empty sentence or bad options. A sentence longer than
    // the model's maximum is truncated (Translation::truncated).
    Translation translate(const std::string& sentence, const DecodeOptions& options = {}) const;

    // Greedy translations of many sentences at once (batched; no attention capture).
    std::vector<std::vector<std::string>> translateGreedy(const std::vector<std::string>& sentences) const;

    const ModelConfig& config() const;
    const Vocabulary& sourceVocabulary() const;
    const Vocabulary& targetVocabulary() const;
    const TokenizerOptions& tokenizerOptions() const;
    std::int64_t parameterCount() const;
    // Tokens of the sentence as the model sees them (unknown words as <unk>), plus "</s>".
    std::vector<std::string> sourceTokens(const std::string& sentence) const;

    struct Impl;  // engine-internal (LibTorch): detail/ModelImpl.h

private:
    friend struct detail::ModelAccess;  // the engine's own code and white-box tests only

    explicit Seq2SeqModel(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace attnlab
