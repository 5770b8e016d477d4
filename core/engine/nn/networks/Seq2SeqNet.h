#pragma once
// The interface both model families implement (LibTorch; internal to the engine:
// nothing outside core/engine includes this file).
#include <torch/torch.h>

#include <map>

#include "base/AttentionMap.h"
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace attnlab::nn {

// Attention captured by a forward pass: kind (cross, encoder, decoder) ->
// tensor [batch, layers, heads, queries, keys].
using Captured = std::map<MapKind, torch::Tensor>;

// Attention of one decoding step (the new query row only): kind (cross, decoder) ->
// tensor [batch, layers, heads, keys].
using StepCapture = std::map<MapKind, torch::Tensor>;

// Per-sentence decoding state (encoder memory, hidden states, prefix, ...).
struct DecoderState {
    virtual ~DecoderState() = default;
};

class Seq2SeqNet : public torch::nn::Module {
public:
    // src [B, S] (padded with 0), srcLen [B], tgtIn [B, T] starting with <s>.
    // Returns logits [B, T, V]. With capture set, fills the attention maps.
    // teacherForcing < 1 feeds back the model's own predictions at random steps
    // (GRU only; the Transformer is trained in parallel and always teacher-forced).
    virtual torch::Tensor forward(const torch::Tensor& src, const torch::Tensor& srcLen,
                                  const torch::Tensor& tgtIn, Captured* capture, double teacherForcing) = 0;

    // Incremental decoding: encode once, then one step per output token. With capture
    // set, start stores the encoder's self-attention ("encoder", as forward does) and
    // step the attention of the step's query; stepping through a sequence captures
    // the same numbers as forward over it (tested in test_decoding).
    virtual std::unique_ptr<DecoderState> start(const torch::Tensor& src, const torch::Tensor& srcLen,
                                                Captured* capture = nullptr) = 0;
    // prevTokens [B] -> log-probabilities [B, V] for the next token; advances the state.
    virtual torch::Tensor step(DecoderState& state, const torch::Tensor& prevTokens,
                               StepCapture* capture = nullptr) = 0;
    // Keeps rows `index` [B'] of the state (beam search reorders and grows beams).
    virtual void reorder(DecoderState& state, const torch::Tensor& index) = 0;
    // The decoder self-attention's key/value cache so far, per layer {keys, values}, each
    // [B, H, t, dk] (t = the steps taken); empty for a network without one (the GRU).
    virtual std::vector<std::pair<torch::Tensor, torch::Tensor>> selfAttentionCache(const DecoderState& state) const {
        (void)state;
        return {};
    }

    // The attribution methods' handle (TranslationExplanation.cpp): when set, forward() passes the
    // source token embeddings [B, S, E] (before positions and dropout) through it, so a caller can
    // differentiate with respect to them or scale them. Empty in training and decoding.
    std::function<torch::Tensor(const torch::Tensor&)> sourceEmbeddingHook;
    // Set while training has an attention loss (coverage, guided alignment; TranslationTrainer.cpp): forward's
    // captured cross-attention then carries gradients. The fused nodes whose weights are outputs
    // without a gradient (FusedAttentionDecoder, the fused head attention) step aside for the
    // operation-by-operation path, which computes the same numbers.
    bool differentiableAttention = false;
};

}  // namespace attnlab::nn
