#pragma once
// Engine-internal: what Seq2SeqModel holds. Includes LibTorch; only engine .cpp
// files include it.
#include <torch/torch.h>

#include "EvalModeGuard.h"
#include "engine/translation/Seq2SeqModel.h"
#include "engine/nn/networks/Seq2SeqNet.h"

namespace attnlab {

struct Seq2SeqModel::Impl {
    ModelConfig config;
    Vocabulary source;
    Vocabulary target;
    TokenizerOptions tokenizer;
    std::shared_ptr<nn::Seq2SeqNet> net;

    // Source ids for a sentence (+ </s>), truncated to the model's maximum.
    std::vector<std::int64_t> encodeSource(const std::vector<std::string>& tokens, bool* truncated) const;
};

// Builds the network a config describes (weights freshly initialised).
std::shared_ptr<nn::Seq2SeqNet> makeNetwork(const ModelConfig& config);

// Greedy decoding of a batch: src [B, S], srcLen [B] -> token ids [B, T'] (T' <= maxSteps),
// rows padded with 0 after their </s>.
torch::Tensor greedyDecode(nn::Seq2SeqNet& net, const torch::Tensor& src, const torch::Tensor& srcLen,
                           int64_t maxSteps);

// Beam search for one sentence (src [1, S]); beam 1 is exactly greedy. Returns the
// best hypothesis' ids without </s> and its log-probability. With capture set, also
// the attention that hypothesis used, laid out as forward captures it over the output
// (kind -> [1, L, H, T, Tk], one query per output token; "encoder" as well for the
// Transformer): what a teacher-forced pass would give, without running one. With tree set, every
// hypothesis each step kept (BeamNode; tokens named by `target`), the best one's path marked.
std::vector<std::int64_t> beamSearch(nn::Seq2SeqNet& net, const torch::Tensor& src, const torch::Tensor& srcLen,
                                     int beam, int64_t maxSteps, double* logProbability,
                                     nn::Captured* capture = nullptr, std::vector<BeamNode>* tree = nullptr,
                                     const Vocabulary* target = nullptr);

// Sampling for one sentence (src [1, S]) with options' temperature, topK, topP and seed (beam is
// not used): returns the drawn ids without </s> and the model's log-probability of them (at
// temperature 1, before the cut, the </s> step included, accumulated as beamSearch does). With
// steps set, each step's distribution, cut and draw, tokens named by `target`; with capture set,
// the attention as beamSearch lays it out; with cache set, the decoder's key/value cache (empty
// for a GRU).
std::vector<std::int64_t> sampleDecode(nn::Seq2SeqNet& net, const torch::Tensor& src, const torch::Tensor& srcLen,
                                       const DecodeOptions& options, int64_t maxSteps, const Vocabulary& target,
                                       double* logProbability, std::vector<DecodingStep>* steps = nullptr,
                                       nn::Captured* capture = nullptr, KeyValueCache* cache = nullptr);

// The decoder's cache (Seq2SeqNet::selfAttentionCache, batch 1) as a value: rows named "<s>" and then
// `outputs` in order (the cache holds one row per step taken).
KeyValueCache keyValueCache(const std::vector<std::pair<torch::Tensor, torch::Tensor>>& layers,
                            const std::vector<std::int64_t>& outputs, const Vocabulary& target);

// Row-major copy of a [rows, cols] float tensor into an AttentionMap.
AttentionMap toAttentionMap(const torch::Tensor& matrix);

}  // namespace attnlab
