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
    int localWindow = 3;     // D for local-m / local-p
    int maxLength = 256;     // longest source/target in tokens (positional table size)
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
// Throws ConfigError naming the accepted values.
Architecture parseArchitecture(const std::string& s);
AttentionKind parseAttentionKind(const std::string& s);
QueryOrder parseQueryOrder(const std::string& s);
DropoutPlacement parseDropoutPlacement(const std::string& s);
// Whether dropout (config.dropout) applies to the embeddings / to the attention weights.
bool dropsEmbeddings(const ModelConfig& c);
bool dropsAttention(const ModelConfig& c);

// Empty if valid; otherwise a one-line reason in neutral words ("number of heads 3 does not divide
// hidden size 128"). Front ends word settingProblem() themselves.
std::string validate(const ModelConfig& c);
// The setting at fault, as data (nullopt when every setting is in range).
std::optional<SettingProblem> settingProblem(const ModelConfig& c);
// Throws ConfigError (with its problem() where a setting is at fault) unless the config is valid.
void checkConfig(const ModelConfig& c);

std::string toJson(const ModelConfig& c);
// Throws ConfigError if the JSON is malformed or values are missing/out of range.
ModelConfig modelConfigFromJson(const std::string& json);

}  // namespace attnlab
