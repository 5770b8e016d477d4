#pragma once
// The language model's configuration (task `lm`): a plain value type, serialized into its checkpoint.
// The model is a decoder-only Transformer in GPT's shape: token embedding plus positions (a learned
// table or sinusoidal), `layers` residual blocks of multi-head self-attention (causal for the causal
// objective) and, unless attention-only, a feed-forward MLP; an unembedding to the vocabulary.
//   The defaults are the attention-only form: no LayerNorm, no MLP, an unembedding of its own. In
// bench/reference_lm.py (its docstring has the numbers) this form, 2 layers x 4 heads, grew an
// induction head on the repeated-sequence set within ~1,000 steps, where GPT-2's form
// (lmGpt2Form(): pre-LayerNorm, MLPs, tied unembedding) had none after 3,000.
// Torch-free.
#include <cstdint>
#include <string>

namespace attnlab {

// Where the blocks put LayerNorm: Pre = GPT-2's x + f(LN(x)) with a final LayerNorm before the
// unembedding; None = no LayerNorm anywhere; Post = BERT's LN(x + f(x)) after each sublayer, a
// LayerNorm on the embeddings and none at the end (what Hugging Face's BERT folders hold).
enum class LmNorm { Pre, None, Post };
std::string toString(LmNorm n);                 // "pre", "none", "post_ln"
LmNorm parseLmNorm(const std::string& s);       // "pre" or "none" (Post is not a --norm choice); throws ConfigError

// Learned = a trained table of `context` position vectors; Sinusoidal = Vaswani et al.'s fixed ones.
enum class LmPositions { Learned, Sinusoidal };
std::string toString(LmPositions p);                  // "learned", "sinusoidal"
LmPositions parseLmPositions(const std::string& s);   // throws ConfigError naming the accepted values

// Causal = predict each next token, attention to earlier positions only (GPT); Masked = predict the
// tokens replaced by <mask>, attention in both directions (BERT). Same parameters either way.
enum class LmObjective { Causal, Masked };
std::string toString(LmObjective o);                  // "causal", "masked"
LmObjective parseLmObjective(const std::string& s);   // throws ConfigError naming the accepted values

// The MLP's GELU: Tanh = GPT-2's gelu_new, 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) (what
// AttnLab trains); Exact = x Phi(x) (BERT's, and Hugging Face's "gelu").
enum class LmGelu { Tanh, Exact };
std::string toString(LmGelu g);                 // "tanh", "exact"
LmGelu parseLmGelu(const std::string& s);       // throws ConfigError naming the accepted values

// The task's id (the CLI's --task, a checkpoint's "task"), and the context a model may read.
inline constexpr const char* kLmTask = "lm";
inline constexpr int kLmMinContext = 4, kLmMaxContext = 4096;

struct LmConfig {
    int layers = 2;
    int heads = 4;
    int dModel = 64;
    int feedForward = 256;        // the MLP's inner width F; unused (may be 0) when attentionOnly
    int context = 64;             // positions the model reads at most (rows of the learned table)
    float dropout = 0;
    bool attentionOnly = true;    // blocks without an MLP
    LmNorm norm = LmNorm::None;
    bool tied = false;            // the unembedding reuses the token embedding's matrix (neither has a bias)
    LmPositions positions = LmPositions::Learned;
    LmObjective objective = LmObjective::Causal;
    std::int64_t vocabulary = 0;  // V, the tokenizer's size with its 4 specials; 0 = not known yet
                                  // (set from the text before the network is built)
    LmGelu gelu = LmGelu::Tanh;   // the MLP's activation
    float layerNormEps = 1e-5f;   // every LayerNorm's epsilon (GPT-2's layer_norm_epsilon)
    // BERT's pieces (a Hugging Face BERT folder; written into the JSON only when true):
    bool tokenTypes = false;      // a learned segment-0 vector [D] added to every position (token_type_embeddings[0])
    bool mlmHead = false;         // before the (tied) unembedding: Linear(D, D) + GELU + LayerNorm, and a bias [V]
};

// The full model in GPT-2's form at the same size: MLPs of 4 * dModel, pre-LayerNorm, tied
// unembedding; everything else as LmConfig's defaults.
LmConfig lmGpt2Form();

// Empty if valid; otherwise a one-line reason naming the setting: layers 1..24, heads 1..64 dividing
// dModel, dModel 8..2048, feedForward 0..16384 and at least 1 unless attentionOnly, context 4..4096,
// dropout 0..0.95, vocabulary 0 or 5..1,000,000 (the 4 specials and at least one token),
// layerNormEps above 0 and at most 0.1.
std::string validate(const LmConfig& c);
// Throws ConfigError; one that carries a SettingProblem (for flagOf) where a Setting is at fault:
// layers Layers, heads Heads, dModel Hidden, feedForward FeedForward, context Context, dropout Dropout.
void checkConfig(const LmConfig& c);
// {"task": "lm", "architecture": "gpt", "layers", "heads", "d_model", "feed_forward", "context",
// "dropout", "attention_only", "norm", "tied", "positions", "objective", "vocabulary"}, and "gelu"
// ("exact"), "layer_norm_eps", "token_types" and "mlm_head" only when they are not the defaults
// (tanh, 1e-5, false, false), so that a
// checkpoint of the defaults is written as before they existed.
std::string toJson(const LmConfig& c);
// Throws ConfigError ("language model config: ...") for malformed JSON, a wrong task or
// architecture, a missing member or an invalid config. "gelu" and "layer_norm_eps" may be missing
// (the defaults: every checkpoint written before they existed).
LmConfig lmConfigFromJson(const std::string& json);

// Weights and biases of the network described at the top (every Linear with its bias, LayerNorms with
// weight and bias; D = dModel, F = feedForward, V = vocabulary, T = context):
//   token embedding                  V D
//   positions                        T D learned, 0 sinusoidal
//   each layer  LayerNorm (Pre)      2 D
//               Wq, Wk, Wv, Wo       4 (D D + D)
//               LayerNorm (Pre, MLP) 2 D
//               MLP (not attention-only) D F + F + F D + D
//   embeddings LayerNorm (Post)      2 D; each layer's two LayerNorms as Pre's
//   token types                      D (tokenTypes)
//   MLM head (mlmHead)               D D + D + 2 D + V
//   final LayerNorm (Pre)            2 D
//   unembedding                      untied: Linear(D -> V) without bias, D V (as GPT-2's lm_head
//                                    and bench/reference_lm.py); tied: 0 (the embedding reused)
// This count is the contract: the engine's network must hold exactly this many.
std::int64_t parameterCount(const LmConfig& c);

}  // namespace attnlab
