#pragma once
// Hugging Face model folders as language models (issue 51), the torch-free half: config.json, the
// tokenizer files and where the weights are. The engine's LmModel::openHuggingFace (core/engine/lm/
// LmHuggingFace.cpp) reads the tensors into the network. Supported: model_type "gpt2" (gpt2,
// distilgpt2, gpt2-medium and fine-tunes with the same layout, as GPT2LMHeadModel saves them) and
// "bert" (BertForMaskedLM's files: lmHfBertConfig below; vocab.txt or tokenizer.json through
// LmWordPiece::load, as LmTokenKind::WordPiece).
//
// A folder is one that holds config.json (isLmHfFolder); LmModel::load opens such a folder this way.
// What config.json gives (GPT2Config's names; a missing one takes GPT2Config's default):
//   n_layer, n_head, n_embd, vocab_size, n_positions (or the older n_ctx), n_inner (null or missing:
//   4 * n_embd), layer_norm_epsilon (1e-5), activation_function (gelu_new; "gelu_new",
//   "gelu_pytorch_tanh" and "gelu_fast" are GELU's tanh form, "gelu" the exact one),
//   tie_word_embeddings (true). Refused: scale_attn_weights false, scale_attn_by_inverse_layer_idx
//   true, add_cross_attention true (attention AttnLab's network does not compute).
// The LmConfig: GPT-2's form (lmGpt2Form(): pre-LayerNorm, MLP, learned positions, causal) at those
// sizes, context = n_positions, dropout 0, tied unless tie_word_embeddings is false.
// The tokenizer: vocab.json + merges.txt (LmTokenizer::readGpt2), else tokenizer.json (a byte-level
// BPE: model.vocab and model.merges, each merge "a b" or ["a", "b"]).
// The weights: model.safetensors, else the shards model.safetensors.index.json's weight_map names.
#include <string>
#include <vector>

#include "base/lm/LmConfig.h"
#include "base/lm/LmTokens.h"

namespace attnlab {

// Whether `path` is a directory holding config.json.
bool isLmHfFolder(const std::string& path);

// The LmConfig of a config.json's text (the top). Throws ModelFileError(name, ...) with one line
// saying what is wrong: not JSON, a model_type other than gpt2 (naming the supported ones), a size
// out of AttnLab's range ("n_positions 1000000000 is not in 4..4096"), an unsupported setting.
LmConfig lmHfGpt2Config(const std::string& json, const std::string& name);

// GPT-2's tokenizer from a tokenizer.json's text. Throws ModelFileError(name, ...) for malformed
// JSON, a model that is not BPE, merges that are neither "a b" strings nor pairs, and whatever
// LmTokenizer::parseGpt2 refuses in the vocabulary or the merges.
LmTokenizer lmHfTokenizerJson(const std::string& json, const std::string& name);

// The LmConfig of a BERT config.json (BertConfig's names and defaults): hidden_size, num_hidden_layers,
// num_attention_heads, intermediate_size, max_position_embeddings, vocab_size, type_vocab_size,
// layer_norm_eps (1e-12), hidden_act "gelu" (exact) or "gelu_new" / "gelu_pytorch_tanh" (tanh);
// position_embedding_type other than "absolute" refused. The form: post-LayerNorm (LmNorm::Post),
// MLP, learned positions, masked objective, tied, tokenTypes and mlmHead.
LmConfig lmHfBertConfig(const std::string& json, const std::string& name);

struct LmHfFolder {
    std::string directory;
    std::string modelType;                 // "gpt2" or "bert"

    std::string configFile;                // DIR/config.json
    std::vector<std::string> weightFiles;  // DIR/model.safetensors, or the shards in the index's order
    LmConfig config;                       // vocabulary = vocab_size, checked against the tokenizer's
    LmTokenizer tokenizer;
};

// Reads config.json and the tokenizer and finds the weights. Throws ModelFileError naming the file:
// the above, a missing tokenizer, vocab_size not the tokenizer's size, no model.safetensors (a
// folder with only pytorch_model.bin or another framework's file says how to convert it).
LmHfFolder readLmHfFolder(const std::string& directory);

}  // namespace attnlab
