#pragma once
// A text classifier's configuration: a plain value type, serialized into its checkpoint.
// The GRU classifier is embedding -> (bidirectional) GRU -> attention pooling -> linear;
// the pooling's attention over the words is what the explanation lab puts beside the
// attribution methods.
#include <cstdint>
#include <string>
#include <vector>

#include "base/Tokenizer.h"
#include "base/translation/ModelConfig.h"  // AttentionPattern

namespace attnlab {

// How a GRU classifier turns its states h_1..h_n into one vector:
//   Additive  a = softmax(v . tanh(W h_i + b))  (Lin et al. 2017 with r hops: v is [r, A])
//   Dot       a = softmax(q . h_i)              against a learned query per hop
//   ScaledDot a = softmax(q . h_i / sqrt(D))
//   None      the last state (both directions' final states): the baseline without attention
//   Mean      the mean of the states: uniform weights, the other baseline
enum class Pooling { Additive, Dot, ScaledDot, None, Mean };

// What the classifier reads: the tokenizer's words, or their characters (each code point a token,
// "_" between words). Characters suit language identification, where a message's words are mostly
// unseen but its letters and their order are telling; rationales index words, so they are not
// scored over characters.
enum class TextUnits { Words, Characters };

// The GRU with its pooling, or a Transformer encoder that reads a [CLS] token first and classifies
// from its final state; its attention is every layer's self-attention, summarised as the rollout of
// the [CLS] row (Abnar & Zuidema 2020).
enum class ClassifierArchitecture { Gru, Transformer };

inline constexpr const char* kClsToken = "[CLS]";

struct ClassifierConfig {
    ClassifierArchitecture architecture = ClassifierArchitecture::Gru;
    Pooling pooling = Pooling::Additive;  // GRU
    int hops = 1;             // r: attention rows (Lin et al. 2017); 1 for None and Mean
    float penalty = 0.0f;     // coefficient of ||A A^T - I||_F^2 (Lin et al.); 0 = off
    int hidden = 64;          // GRU hidden size per direction, or the Transformer's d_model
    int layers = 2;           // Transformer encoder layers
    int heads = 4;            // Transformer heads
    int feedForward = 256;    // Transformer d_ff
    // The Transformer's self-attention pattern (translation's, base/translation/ModelConfig.h;
    // not causal). [CLS] is position 0 of the sequence, so under local, strided or chunked its row
    // (what the classification reads) and its column see only what the pattern allows: local's
    // [CLS] reads the first W words directly and the rest only through the layers. Checkpoints
    // written before the choice load as Full.
    AttentionPattern pattern = AttentionPattern::Full;
    int window = 3;           // W of local and strided
    int chunk = 0;            // C of chunked, s of strided; 0 = ceil(sqrt(maxLength + 1))
    int embedding = 0;        // 0 = hidden
    int attentionSize = 0;    // A, additive pooling's inner size; 0 = hidden
    bool bidirectional = true;
    float dropout = 0.1f;     // on the embeddings
    TextUnits units = TextUnits::Words;
    int maxLength = 256;      // longer texts are truncated (in units)
    std::int64_t vocabulary = 0;
    int classes = 0;
};

std::string toString(ClassifierArchitecture a);  // "gru", "transformer"
// Whether the model has attention to show: attention pooling, or a Transformer's rollout.
bool classifierAttends(const ClassifierConfig& c);
std::string toString(Pooling p);  // "additive", "dot", "scaled-dot", "none", "mean"
// Throws ConfigError naming the accepted values.
Pooling parsePooling(const std::string& s);
bool poolingAttends(Pooling p);  // Additive, Dot, ScaledDot
std::string toString(TextUnits u);  // "words", "characters"
TextUnits parseTextUnits(const std::string& s);  // throws ConfigError
// A text as the classifier reads it: Tokenizer(options) words, or their characters.
std::vector<std::string> classifierTokens(const std::string& text, TextUnits units, const TokenizerOptions& options);
// The word-boundary token between words when reading characters.
inline constexpr const char* kWordBoundary = "_";

// The chunk size (chunked) or stride (strided) in effect: chunk, or ceil(sqrt(maxLength + 1)).
int patternChunk(const ClassifierConfig& c);

// The states' width: hidden, doubled when bidirectional.
int stateSize(const ClassifierConfig& c);

// Empty if valid; otherwise a one-line reason.
std::string validate(const ClassifierConfig& c);
// Throws ConfigError(validate(c)) if invalid.
void checkConfig(const ClassifierConfig& c);

std::string toJson(const ClassifierConfig& c);
// Throws ConfigError for malformed JSON, a missing member or an invalid config.
ClassifierConfig classifierConfigFromJson(const std::string& json);

// Number of weights the network of this config holds (for checking a file before allocating).
std::int64_t parameterCount(const ClassifierConfig& c);

}  // namespace attnlab
