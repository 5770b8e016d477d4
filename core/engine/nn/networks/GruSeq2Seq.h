#pragma once
// GRU encoder–decoder. The encoder runs over packed padded sequences (optionally
// bidirectional, bridged back to `hidden`). The decoder is a stack of GRU cells
// written out by hand so that the embedding half of the first layer's input
// projection is computed once per batch for all steps, and the attention's key
// projection once per batch too; only the query-dependent part runs per step.
//
// Each step t, in the configured query order (ModelConfig::query):
//   before (Bahdanau): c_t = attention(s_{t-1}, h_1..S), s_t = GRU([emb(y_{t-1}); c_t], s_{t-1}),
//                      logits_t = W_o s_t;
//   after (Luong):     s_t = GRU(emb(y_{t-1}), s_{t-1}), c_t = attention(s_t, h_1..S),
//                      logits_t = W_o tanh(W_c [s_t; c_t]).
// With attention `none`, c_t is the encoder's final state at every step: the
// fixed-size context whose bottleneck the attention variants remove.
//
// Training (grad mode on) with one layer runs the encoder (each direction), and with teacher
// forcing 1 the decoder, as single nodes with hand-written backward passes (FusedGruEncoder;
// FusedAttentionDecoder for additive/dot/general/scaled-dot before; for `after` the decoder's
// GRU does not depend on the attention, so it is a FusedGruEncoder started from the encoder's
// state, and the attention follows for all steps): same parameters, same numbers. The
// step-by-step path (decodeStep) remains the reference they are tested against, and serves
// everything else.
#include "engine/nn/networks/GruAttention.h"
#include "engine/nn/kernels/Random.h"
#include "engine/nn/networks/Seq2SeqNet.h"

namespace attnlab::nn {

class GruSeq2Seq : public Seq2SeqNet {
public:
    explicit GruSeq2Seq(const ModelConfig& config);

    torch::Tensor forward(const torch::Tensor& src, const torch::Tensor& srcLen, const torch::Tensor& tgtIn,
                          Captured* capture, double teacherForcing) override;
    std::unique_ptr<DecoderState> start(const torch::Tensor& src, const torch::Tensor& srcLen,
                                        Captured* capture) override;
    torch::Tensor step(DecoderState& state, const torch::Tensor& prevTokens, StepCapture* capture) override;
    void reorder(DecoderState& state, const torch::Tensor& index) override;

    // One attention step with its intermediate numbers (step-by-step maths view):
    // replays decoding of tgtIn [1, T] and returns the trace at step t.
    AttentionTrace traceStep(const torch::Tensor& src, const torch::Tensor& srcLen, const torch::Tensor& tgtIn,
                             int64_t t, torch::Tensor* weightsOut, torch::Tensor* contextOut);

    // The encoder's states h_1..S for src [B, S], srcLen [B]: [B, S, H] (bridged back to `hidden`
    // when bidirectional; 0 at padding), what attention reads as keys and values.
    torch::Tensor encoderOutputs(const torch::Tensor& src, const torch::Tensor& srcLen) { return encode(src, srcLen).keys.keys; }

private:
    struct Encoded {
        AttentionKeys keys;     // keys.keys: [B, S, H]
        torch::Tensor hidden;   // [L, B, H] initial decoder state
        torch::Tensor context;  // [B, H] fixed context (attention none)
    };
    struct GruState;

    Encoded encode(const torch::Tensor& src, const torch::Tensor& srcLen);
    // Whether training runs the recurrences as single autograd nodes (FusedGruEncoder,
    // FusedAttentionDecoder) instead of recording every step.
    bool fusedTrainingApplies() const;
    bool fusedDecoderApplies(double teacherForcing) const;
    torch::Tensor forwardFused(const Encoded& enc, const torch::Tensor& embProjAll, Captured* capture);
    torch::Tensor forwardAfterFused(const Encoded& enc, const torch::Tensor& embProjAll, Captured* capture);
    // One decoder step given the precomputed embedding projection of layer 0
    // embProj [B, 3H]; updates hidden [L, B, H]; returns what the output layer reads [B, H]:
    // the top state (before) or tanh(W_c [s_t; c_t]) (after).
    torch::Tensor decodeStep(const Encoded& enc, const torch::Tensor& embProj, torch::Tensor& hidden, int64_t t,
                             torch::Tensor* weightsOut, AttentionTrace* trace = nullptr);
    // The context for query [B, H] at step t (the fixed context for `none`); the weights [B, S]
    // into weightsOut. Dropout on the weights where the config places it.
    torch::Tensor attend(const Encoded& enc, const torch::Tensor& query, int64_t t, torch::Tensor* weightsOut,
                         AttentionTrace* trace = nullptr);
    bool queryAfter() const { return config_.query == QueryOrder::After; }

    // step() without autograd, float32, for every kind but the local ones (decoding): the
    // same numbers from raw loops and direct sgemv calls instead of ~40 LibTorch
    // operations per layer and step (GruInference.cpp).
    bool canStepFused(const torch::Tensor& prevTokens) const;
    // The encoder without autograd, float32: each row's recurrence as direct sgemv calls
    // (LibTorch's GRU packs the whole hidden-to-hidden matrix for every one-row step).
    // emb [B, S, E] -> outputs [B, S, H·dirs] (0 at padding), final states [L·dirs, B, H].
    bool canEncodeFused(const torch::Tensor& emb) const;
    std::pair<torch::Tensor, torch::Tensor> encodeFused(const torch::Tensor& emb, const torch::Tensor& srcLen);
    torch::Tensor stepFused(GruState& state, const torch::Tensor& prevTokens, StepCapture* capture);
    // Dropout on embeddings and between layers, where the config places it (applyDropout draws
    // from the thread's generator, Random.h).
    torch::Tensor drop(const torch::Tensor& x) {
        return dropsEmbeddings(config_) ? applyDropout(x, dropout_->options.p(), dropout_->is_training()) : x;
    }

    ModelConfig config_;
    torch::nn::Embedding srcEmbedding_{nullptr};
    torch::nn::Embedding tgtEmbedding_{nullptr};
    torch::nn::Dropout dropout_{nullptr};
    torch::nn::GRU encoder_{nullptr};
    torch::nn::Linear bridgeOutputs_{nullptr};  // bidirectional: [2H] -> [H]
    torch::nn::Linear bridgeHidden_{nullptr};
    GruAttention attention_{nullptr};
    torch::nn::Linear embInput_{nullptr};    // layer 0: embedding -> 3H (with bias b_ih)
    torch::nn::Linear ctxInput_{nullptr};    // layer 0: context -> 3H (query before)
    torch::nn::Linear combine_{nullptr};     // [s_t; c_t] -> H, Luong's W_c (query after)
    std::vector<torch::nn::Linear> upperInput_;  // layers 1..L-1: H -> 3H
    std::vector<torch::nn::Linear> hiddenProj_;  // every layer: H -> 3H (with bias b_hh)
    torch::nn::Linear output_{nullptr};
};

struct GruSeq2Seq::GruState : DecoderState {
    Encoded enc;
    torch::Tensor hidden;  // [L, B, H]
    int64_t t = 0;
};

}  // namespace attnlab::nn
