#pragma once
// The vision models' configurations: plain value types, serialized into their checkpoints.
//   ViT (Dosovitskiy et al. 2021): the image cut into P x P patches, each flattened and projected to
//        d_model; a learned [CLS] vector first; learned or sinusoidal positions; pre-norm encoder
//        layers (x + MHA(LN(x)), x + FF(LN(x)), GELU); a final LayerNorm; a linear head on [CLS].
//   Captioner (Xu et al. 2015, "Show, Attend and Tell"): a small CNN (three 3x3 convolutions, each
//        followed by ReLU and 2x2 max pooling) gives an (S/8) x (S/8) grid of feature vectors, each
//        plus a learned embedding of its cell; a GRU decoder attends over the cells with its
//        previous state as the query (additive v . tanh(W_f f_i + W_h h), or dot (W h) . f_i /
//        sqrt(F)), reads [word embedding; context], and predicts the next word from [h; context].
#include <cstdint>
#include <string>

#include "base/translation/ModelConfig.h"  // AttentionPattern

namespace attnlab {

enum class PatchPositions { Learned, Sinusoidal };
std::string toString(PatchPositions p);         // "learned", "sinusoidal"
PatchPositions parsePatchPositions(const std::string& s);  // throws ConfigError naming the accepted values

struct VitConfig {
    int channels = 1;       // 1 = grey, 3 = RGB
    int imageSize = 28;     // square input; images are resized to it
    int patch = 4;          // P: imageSize must be a multiple of it
    int hidden = 64;        // d_model
    int heads = 4;
    int layers = 3;
    int feedForward = 0;    // 0 = 4 * hidden
    // Off by default: on 2,000 glyphs the default ViT reached 0.925 and 0.93 held-out accuracy in 8
    // epochs without dropout (seeds 1, 2) and 0.845 with 0.1 (docs/vision.md).
    float dropout = 0.0f;
    PatchPositions positions = PatchPositions::Learned;
    // The encoder's self-attention pattern (translation's, base/translation/ModelConfig.h; not
    // causal) over [CLS] then the patches row-major: [CLS] is position 0, so under local, strided
    // or chunked its row and column see only what the pattern allows (local: the first W patches
    // of the top row directly, the rest only through the layers). Checkpoints written before the
    // choice load as Full.
    AttentionPattern pattern = AttentionPattern::Full;
    int window = 3;         // W of local and strided
    int chunk = 0;          // C of chunked, s of strided; 0 = ceil(sqrt(1 + patches))
    int classes = 0;
};

int gridSide(const VitConfig& c);         // imageSize / patch
int feedForwardSize(const VitConfig& c);  // feedForward, or 4 * hidden
int patternChunk(const VitConfig& c);     // chunk, or ceil(sqrt(1 + gridSide^2))

enum class CaptionAttention { Additive, Dot };
std::string toString(CaptionAttention a);  // "additive", "dot"
CaptionAttention parseCaptionAttention(const std::string& s);  // throws ConfigError

// What a grid cell's feature sees. Image: the convolutions run over the whole image, so each 8x8
// cell's feature sees 22x22 pixels (its neighbours' objects too). Cell: the same convolutions run
// on each cell alone (zero-padded at its edges), so a cell's feature sees only its own pixels.
enum class CaptionEncoder { Image, Cell };
std::string toString(CaptionEncoder e);                    // "image", "cell"
CaptionEncoder parseCaptionEncoder(const std::string& s);  // throws ConfigError
// The decoder's first state. Mean: tanh(W mean(features)), a summary of the whole image. Zero:
// nothing, so what the decoder knows of the image comes through its attention.
enum class CaptionInitialState { Mean, Zero };
std::string toString(CaptionInitialState s);                         // "mean", "zero"
CaptionInitialState parseCaptionInitialState(const std::string& s);  // throws ConfigError

// Which state asks over the cells for a word. Previous (Bahdanau et al. 2015, Xu et al. 2015): the
// state before the decoder has read the word it just wrote, so the attention for "disk" in "a red
// disk" is chosen before "red" is read; with objects named in a random order it cannot know which
// object the caption took. Current (Luong et al. 2015, with input feeding): the decoder first reads
// the previous word and the previous context, then its new state asks.
enum class CaptionQuery { Previous, Current };
std::string toString(CaptionQuery q);                    // "previous", "current"
CaptionQuery parseCaptionQuery(const std::string& s);    // throws ConfigError

struct CaptionerConfig {
    int channels = 3;
    int imageSize = 48;     // square input, a multiple of 8
    int features = 64;      // F: the CNN's channels at the grid
    int hidden = 128;       // the GRU's state
    int embedding = 64;     // word embeddings
    int attentionSize = 64; // additive attention's inner size
    // Dot (the default): scores (W h) . f_i / sqrt(F); additive: v . tanh(W_f f_i + W_h h). On scenes
    // from other generators the dot product's shape words peaked on their object in about 0.9 of
    // cases against 0.7 for additive (docs/vision.md, "Scenes from another generator").
    CaptionAttention attention = CaptionAttention::Dot;
    CaptionQuery query = CaptionQuery::Current;
    CaptionEncoder encoder = CaptionEncoder::Image;
    CaptionInitialState initialState = CaptionInitialState::Mean;
    // Adaptive attention's visual sentinel (Lu et al. 2017): besides the cells the decoder may
    // attend to a sentinel s = sigmoid(W_g h) * tanh(W_s h) drawn from its own state, one more key
    // in the same softmax; its weight is the word's share of "not looking", and the cells' weights
    // then sum to 1 minus it. Additive attention only.
    bool sentinel = false;
    // Xu et al. (2015, section 4.2.1): the context scaled by a gate beta = sigmoid(w . h + b) drawn
    // from the decoder's state, so that a word may take little from the image.
    bool gate = false;
    // With the current state asking: the decoder also reads the previous step's context with the word
    // (Luong et al.'s input feeding). Without it (the default) the decoder reads only the word, so what
    // it knows of the image at a step comes through that step's attention (and the first state): a
    // shape word has to be read where the decoder looks (docs/vision.md, "Scenes from another
    // generator"). Checkpoints from before the choice were fed.
    bool inputFeeding = false;
    // Xu et al.'s doubly stochastic regularisation: lambda of sum over cells (1 - sum over steps
    // alpha)^2, so every cell is looked at about once over the caption; 0 = off.
    float doublyStochastic = 1.0f;
    float dropout = 0.1f;
    int maxLength = 16;     // words generated at most (and captions cut to in training)
    std::int64_t vocabulary = 0;
};

int gridSide(const CaptionerConfig& c);   // imageSize / 8

// Empty if valid; otherwise a one-line reason.
std::string validate(const VitConfig& c);
std::string validate(const CaptionerConfig& c);
// Throw ConfigError(validate(c)) if invalid.
void checkConfig(const VitConfig& c);
void checkConfig(const CaptionerConfig& c);

std::string toJson(const VitConfig& c);
std::string toJson(const CaptionerConfig& c);
// Throw ConfigError for malformed JSON, a missing member or an invalid config.
VitConfig vitConfigFromJson(const std::string& json);
CaptionerConfig captionerConfigFromJson(const std::string& json);

// Number of weights the network of this config holds (for checking a file before allocating).
std::int64_t parameterCount(const VitConfig& c);
std::int64_t parameterCount(const CaptionerConfig& c);

}  // namespace attnlab
