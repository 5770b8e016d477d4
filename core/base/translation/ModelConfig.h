#pragma once
// The model's configuration: a plain value type, serialized into checkpoints.
#include <cstdint>
#include <optional>
#include <string>

#include "base/Setting.h"

namespace attnlab {

enum class Architecture { Gru, Transformer };
enum class AttentionKind { None, Dot, General, ScaledDot, Additive, LocalM, LocalP };
// Which decoder state a GRU's attention queries (docs/defaults.md measures both):
//   Before (Bahdanau): c_t = attention(s_{t-1}), s_t = GRU([emb(y_{t-1}); c_t], s_{t-1}), logits = W_o s_t.
//   After (Luong):     s_t = GRU(emb(y_{t-1}), s_{t-1}), c_t = attention(s_t),
//                      logits = W_o tanh(W_c [s_t; c_t]).
// Checkpoints written before the choice existed load as Before.
enum class QueryOrder { Before, After };
// Where a GRU model's dropout applies: the embeddings (and between stacked layers), the
// attention weights, or both. Checkpoints written before the choice existed load as Both.
enum class DropoutPlacement { Embeddings, Attention, Both };
// Which keys a Transformer's self-attention (encoder and decoder) computes scores for
// (core/engine/nn/networks/AttentionPatterns.h); cross-attention is always full. Local: |i - j| <= W
// (localWindow; in the decoder j in [i - W, i]); strided (Child et al. 2019): that band plus
// every j with (i - j) a multiple of the stride s; chunked: every key of i's chunk of C and one
// summary (the mean key and value) of every other chunk (in the decoder: of earlier chunks);
// linear (Katharopoulos et al. 2020): phi(q)·phi(k) with phi(x) = elu(x) + 1, no softmax.
// C and s are `chunk`, 0 = ceil(sqrt(maxLength)). Checkpoints written before the choice load
// as Full.
enum class AttentionPattern { Full, Local, Strided, Chunked, Linear };
// How a Transformer's embeddings learn where a token stands: the fixed sinusoidal table (Vaswani
// et al. 2017), a learned table of maxLength vectors (one, shared by the encoder and the decoder,
// initialised N(0, 0.02^2)), or none at all: then self-attention cannot tell positions apart (the
// encoder is permutation-equivariant), and order reaches the decoder only through its causal mask.
// Checkpoints written before the choice load as Sinusoidal.
enum class PositionalKind { Sinusoidal, Learned, None };

// The default member values are the model both front ends start from (the window's Model
// panel and `attnlab-cli train`; defaultModelConfig below adds the Transformer's layers).
// Hidden 128 is the size docs/defaults.md measured and the CLI's classic example trains.
struct ModelConfig {
    Architecture architecture = Architecture::Gru;
    AttentionKind attention = AttentionKind::Additive;  // GRU only
    int hidden = 128;        // GRU hidden size, or Transformer d_model
    int embedding = 0;       // embedding size; 0 = hidden
    int layers = 1;          // GRU layers, or Transformer encoder and decoder layers each (default 2)
    // The GRU defaults below were chosen by measurement (docs/defaults.md: five seeds on three
    // grammars with gold word links): a bidirectional encoder, Luong's query order and dropout on
    // the embeddings only gave the attention that points at the right words most often, with the
    // same accuracy.
    bool bidirectional = true;  // GRU encoder
    QueryOrder query = QueryOrder::After;  // GRU decoder
    int heads = 4;           // Transformer
    int feedForward = 512;   // Transformer d_ff
    float dropout = 0.1f;
    DropoutPlacement dropoutOn = DropoutPlacement::Embeddings;  // GRU
    int localWindow = 3;     // D for local-m / local-p; W of a Transformer's local and strided patterns
    AttentionPattern pattern = AttentionPattern::Full;  // Transformer self-attention
    int chunk = 0;           // C of chunked, s of strided; 0 = ceil(sqrt(maxLength)) (patternChunk)
    int maxLength = 256;     // longest source/target in tokens (positional table size)
    PositionalKind positional = PositionalKind::Sinusoidal;  // Transformer
    std::int64_t sourceVocab = 0;
    std::int64_t targetVocab = 0;
};

// The front ends' default model of an architecture: ModelConfig's values, with two encoder and
// two decoder layers for a Transformer.
ModelConfig defaultModelConfig(Architecture architecture);

std::string toString(Architecture a);
std::string toString(AttentionKind k);
std::string toString(QueryOrder q);        // "before", "after"
std::string toString(DropoutPlacement p);  // "embeddings", "attention", "both"
std::string toString(AttentionPattern p);  // "full", "local", "strided", "chunked", "linear"
std::string toString(PositionalKind p);    // "sinusoidal", "learned", "none"
// Throws ConfigError naming the accepted values.
Architecture parseArchitecture(const std::string& s);
AttentionKind parseAttentionKind(const std::string& s);
QueryOrder parseQueryOrder(const std::string& s);
DropoutPlacement parseDropoutPlacement(const std::string& s);
AttentionPattern parseAttentionPattern(const std::string& s);
PositionalKind parsePositionalKind(const std::string& s);
// The chunk size (chunked) or stride (strided) in effect: chunk, or ceil(sqrt(maxLength)) when 0.
int patternChunk(const ModelConfig& c);
// Whether dropout (config.dropout) applies to the embeddings / to the attention weights.
bool dropsEmbeddings(const ModelConfig& c);
bool dropsAttention(const ModelConfig& c);

// Empty if valid; otherwise a one-line reason in neutral words ("number of heads 3 does not divide
// hidden size 128"). Front ends word settingProblem() themselves.
std::string validate(const ModelConfig& c);
// The setting at fault, as data (nullopt when every setting is in range).
std::optional<SettingProblem> settingProblem(const ModelConfig& c);
// The window and chunk of an attention pattern out of range (--window 1..100, --chunk 0..8192), or
// none: the same check for every Transformer (translation, the classifier, the ViT).
std::optional<SettingProblem> attentionPatternProblem(int window, int chunk);
// Throws ConfigError (with its problem() where a setting is at fault) unless the config is valid.
void checkConfig(const ModelConfig& c);

std::string toJson(const ModelConfig& c);
// Throws ConfigError if the JSON is malformed or values are missing/out of range.
ModelConfig modelConfigFromJson(const std::string& json);

}  // namespace attnlab
