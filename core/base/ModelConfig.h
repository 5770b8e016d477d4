#pragma once
// The model's configuration: a plain value type, serialized into checkpoints.
#include <cstdint>
#include <optional>
#include <string>

#include "base/Setting.h"

namespace attnlab {

enum class Architecture { Gru, Transformer };
enum class AttentionKind { None, Dot, General, ScaledDot, Additive, LocalM, LocalP };

struct ModelConfig {
    Architecture architecture = Architecture::Gru;
    AttentionKind attention = AttentionKind::Additive;  // GRU only
    int hidden = 128;        // GRU hidden size, or Transformer d_model
    int embedding = 0;       // embedding size; 0 = hidden
    int layers = 1;          // GRU layers, or Transformer encoder and decoder layers each
    bool bidirectional = false;  // GRU encoder
    int heads = 4;           // Transformer
    int feedForward = 512;   // Transformer d_ff
    float dropout = 0.1f;
    int localWindow = 3;     // D for local-m / local-p
    int maxLength = 256;     // longest source/target in tokens (positional table size)
    std::int64_t sourceVocab = 0;
    std::int64_t targetVocab = 0;
};

std::string toString(Architecture a);
std::string toString(AttentionKind k);
// Throws ConfigError naming the accepted values.
Architecture parseArchitecture(const std::string& s);
AttentionKind parseAttentionKind(const std::string& s);

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
