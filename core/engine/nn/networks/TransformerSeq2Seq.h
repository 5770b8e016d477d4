#pragma once
// Transformer encoder–decoder (Vaswani et al., post-norm as torch.nn.Transformer):
// token embeddings · √d_model + positions (sinusoidal, learned or none: config.positional), `layers` encoder and decoder
// layers, padding masks on keys and a causal mask on decoder self-attention.
// Every layer's encoder self-, decoder self- and cross-attention can be captured per head.
#include "engine/nn/networks/MultiHeadAttention.h"
#include "engine/nn/kernels/Random.h"
#include "engine/nn/networks/Seq2SeqNet.h"
#include "base/translation/ModelConfig.h"

namespace attnlab::nn {

// The sinusoidal table PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(...),
// [positions, d].
torch::Tensor sinusoidalPositions(int64_t positions, int64_t d);

class EncoderLayerImpl : public torch::nn::Module {
public:
    EncoderLayerImpl(int d, int heads, int ff, double dropout, PatternSpec pattern = {});
    torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& padMask, torch::Tensor* selfWeights,
                          HeadTrace* selfTrace = nullptr);
    MultiHeadAttention selfAttention{nullptr};

private:
    // Dropout through applyDropout (draws from the thread's generator, Random.h).
    torch::Tensor drop(const torch::Tensor& x) {
        return applyDropout(x, dropout_->options.p(), dropout_->is_training());
    }
    torch::Tensor addDrop(const torch::Tensor& residual, const torch::Tensor& x) {
        return addDropout(residual, x, dropout_->options.p(), dropout_->is_training());
    }
    torch::nn::Linear ff1_{nullptr}, ff2_{nullptr};
    torch::nn::LayerNorm norm1_{nullptr}, norm2_{nullptr};
    torch::nn::Dropout dropout_{nullptr};
};
TORCH_MODULE(EncoderLayer);

class DecoderLayerImpl : public torch::nn::Module {
public:
    // pattern: the self-attention's; cross-attention is full.
    DecoderLayerImpl(int d, int heads, int ff, double dropout, PatternSpec pattern = {});
    torch::Tensor forward(const torch::Tensor& y, const torch::Tensor& tgtPadMask, const torch::Tensor& memory,
                          const torch::Tensor& srcPadMask, torch::Tensor* selfWeights, torch::Tensor* crossWeights,
                          HeadTrace* selfTrace = nullptr, HeadTrace* crossTrace = nullptr);
    // One decoding step: y [B, 1, D], the new position only. Appends its self-attention
    // key and value to selfKeys/selfValues; crossKeys/crossValues are the memory's,
    // computed once (MultiHeadAttention::keysValues). Weights are [B, H, 1, Tk].
    torch::Tensor step(const torch::Tensor& y, torch::Tensor& selfKeys, torch::Tensor& selfValues,
                       const torch::Tensor& tgtPadMask, const torch::Tensor& crossKeys,
                       const torch::Tensor& crossValues, const torch::Tensor& srcPadMask, torch::Tensor* selfWeights,
                       torch::Tensor* crossWeights);
    MultiHeadAttention selfAttention{nullptr};
    MultiHeadAttention crossAttention{nullptr};

private:
    // step() without autograd, float32 (decoding): the same numbers from raw loops and
    // direct sgemv calls, ~25 calls per layer instead of ~60 LibTorch operations
    // (TransformerDecodeStep.cpp).
    static bool canStepFused(const torch::Tensor& y);
    torch::Tensor stepFused(const torch::Tensor& y, torch::Tensor& selfKeys, torch::Tensor& selfValues,
                            const torch::Tensor& tgtPadMask, const torch::Tensor& crossKeys,
                            const torch::Tensor& crossValues, const torch::Tensor& srcPadMask,
                            torch::Tensor* selfWeights, torch::Tensor* crossWeights);
    // Dropout through applyDropout (draws from the thread's generator, Random.h).
    torch::Tensor drop(const torch::Tensor& x) {
        return applyDropout(x, dropout_->options.p(), dropout_->is_training());
    }
    torch::Tensor addDrop(const torch::Tensor& residual, const torch::Tensor& x) {
        return addDropout(residual, x, dropout_->options.p(), dropout_->is_training());
    }
    torch::nn::Linear ff1_{nullptr}, ff2_{nullptr};
    torch::nn::LayerNorm norm1_{nullptr}, norm2_{nullptr}, norm3_{nullptr};
    torch::nn::Dropout dropout_{nullptr};
};
TORCH_MODULE(DecoderLayer);

class TransformerSeq2Seq : public Seq2SeqNet {
public:
    explicit TransformerSeq2Seq(const ModelConfig& config);

    torch::Tensor forward(const torch::Tensor& src, const torch::Tensor& srcLen, const torch::Tensor& tgtIn,
                          Captured* capture, double teacherForcing) override;
    std::unique_ptr<DecoderState> start(const torch::Tensor& src, const torch::Tensor& srcLen,
                                        Captured* capture) override;
    torch::Tensor step(DecoderState& state, const torch::Tensor& prevTokens, StepCapture* capture) override;
    void reorder(DecoderState& state, const torch::Tensor& index) override;
    std::vector<std::pair<torch::Tensor, torch::Tensor>> selfAttentionCache(const DecoderState& state) const override;

    // The intermediate numbers of one attention module (step-by-step maths view): replays
    // the teacher-forced pass over tgtIn [1, T] and returns the trace of `kind` in `layer`,
    // all heads. Throws std::out_of_range for a bad layer.
    HeadTrace traceAttention(const torch::Tensor& src, const torch::Tensor& tgtIn, MapKind kind, int64_t layer);

    // Head ablation (detail/HeadGates.h): the attention module of `kind` in `layer` (from 0),
    // whose setHeadGate switches heads off; std::out_of_range for a bad layer. clearHeadGates
    // turns every head of every module back on.
    MultiHeadAttention& attentionModule(MapKind kind, std::size_t layer);
    void clearHeadGates();

    // The output of encoder layer `layer` (from 0) for src [B, S]: [B, S, D], the layers run one
    // by one as encode() does (the last layer's is the decoder's memory). std::out_of_range for
    // a bad layer. Token-neighbour search (translation/EncoderStates.h).
    torch::Tensor encoderLayerOutput(const torch::Tensor& src, int64_t layer);

private:
    struct TransformerState;
    // Which module's trace a pass records (traceAttention).
    struct TracePoint {
        MapKind kind = MapKind::Cross;
        int64_t layer = 0;
        HeadTrace* trace = nullptr;
        HeadTrace* at(MapKind k, std::size_t l) const {
            return k == kind && static_cast<int64_t>(l) == layer ? trace : nullptr;
        }
    };
    // Dropout through applyDropout (draws from the thread's generator, Random.h).
    torch::Tensor drop(const torch::Tensor& x) {
        return applyDropout(x, dropout_->options.p(), dropout_->is_training());
    }

    // source: the encoder's input, which sourceEmbeddingHook sees.
    torch::Tensor embed(torch::nn::Embedding& table, const torch::Tensor& tokens, bool source = false);
    torch::Tensor encode(const torch::Tensor& src, const torch::Tensor& padMask, std::vector<torch::Tensor>* weights,
                         const TracePoint* tracing = nullptr);
    torch::Tensor decode(const torch::Tensor& tgtIn, const torch::Tensor& memory, const torch::Tensor& srcPadMask,
                         std::vector<torch::Tensor>* selfWeights, std::vector<torch::Tensor>* crossWeights,
                         const TracePoint* tracing = nullptr);

    ModelConfig config_;
    torch::nn::Embedding srcEmbedding_{nullptr}, tgtEmbedding_{nullptr};
    torch::nn::Dropout dropout_{nullptr};
    std::vector<EncoderLayer> encoderLayers_;
    std::vector<DecoderLayer> decoderLayers_;
    torch::nn::Linear output_{nullptr};
    torch::Tensor positions_;  // [maxLength, d]: sinusoidal, a learned parameter or zeros (config.positional)
};

}  // namespace attnlab::nn
