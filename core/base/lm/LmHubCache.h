#pragma once
// Hugging Face models on the learner's disk (issue 51), the part that reads no tensor: which folder a
// `--model` argument means (a folder, or a name looked up in the local Hugging Face cache), the
// models that cache holds, what a model folder holds, and GPT-2's vocabulary and merges from a
// tokenizer.json. No Qt, no LibTorch; every error is a ModelFileError (the CLI's exit 4) of one line
// that names the file or the name at fault. AttnLab never downloads anything.
//
// The cache (Hugging Face's "Hub local cache" layout, shared by huggingface_hub, transformers and
// huggingface-cli):
//   ROOT/models--ORG--NAME/refs/main          the commit hash of the snapshot `main` names
//   ROOT/models--ORG--NAME/snapshots/HASH/F   each file F a symlink into ../../blobs/
//   ROOT/models--ORG--NAME/blobs/SHA          the files' bytes
// A repository without an organisation ("gpt2", as `huggingface-cli download gpt2` saves it) is
// ROOT/models--NAME. ROOT is the first of (an empty variable counts as unset; a leading "~/" is the
// home folder), as huggingface_hub chooses it:
//   $HF_HUB_CACHE, $HUGGINGFACE_HUB_CACHE (its older name), $HF_HOME/hub,
//   $XDG_CACHE_HOME/huggingface/hub, ~/.cache/huggingface/hub.
// Old names: the checkpoints that had no organisation before the Hub had them now live in
// organisations Hugging Face keeps for them (its pages: "openai-community ... contains the historical
// (pre-"Hub") checkpoints like openai-gpt, gpt2, gpt2-medium, gpt2-large, gpt2-xl"; google-bert: "the
// historical (pre-"Hub") BERT checkpoints"; distilbert: "the historical DistilBERT checkpoints"), and
// the Hub answers the old name with the new repository. So a file downloaded as `gpt2` is cached as
// models--gpt2 and one downloaded as `openai-community/gpt2` as models--openai-community--gpt2: a bare
// NAME is looked for as models--NAME, then as models--ORG--NAME for ORG in lmHubLegacyOrgs(), and
// ORG/NAME with ORG one of them also as models--NAME. Other names are looked for as they are.
#include <string>
#include <vector>

#include "base/lm/LmTokens.h"

namespace attnlab {

// ---- 1. Opening by name ----------------------------------------------------------------------------

// The local cache's folder and what chose it ("$HF_HUB_CACHE", "$HF_HOME/hub", ...,
// "~/.cache/huggingface/hub"), from the environment at the time of the call. The folder need not exist.
struct LmHubCacheRoot {
    std::string path;
    std::string from;
};
LmHubCacheRoot lmHubCacheRoot();

// The organisations that hold the pre-Hub checkpoints (the top): openai-community, google-bert,
// distilbert.
const std::vector<std::string>& lmHubLegacyOrgs();

// Whether `name` has the form of a Hub model id: NAME or ORG/NAME, each part of ASCII letters, digits,
// '-', '_' and '.', not starting with '.' or '-', at most 96 characters each, no "--" or "..".
bool lmHubIsModelName(const std::string& name);

// The cache folder names a model id may be under, in the order tried (the top):
// lmHubRepoFolders("gpt2") == {"models--gpt2", "models--openai-community--gpt2",
// "models--google-bert--gpt2", "models--distilbert--gpt2"}.
std::vector<std::string> lmHubRepoFolders(const std::string& name);

// The snapshot folder of one cached repository (ROOT/models--...): the one refs/main names, or, when
// refs/main is missing, the only snapshot there is. Throws ModelFileError naming the file: refs/main
// empty or not a hash, refs/main naming a snapshot that is not there, no snapshot at all, and a
// symlink loop or dangling link among the snapshot's files (its top level) or on the way to them.
// `name` is the model id shown in the download command of a message.
std::string lmHubSnapshot(const std::string& repoFolder, const std::string& name);

// The folder to open for a `--model` argument:
//   - anything at that path (a directory is returned as given; a file, a dangling link or a symlink
//     loop: ModelFileError naming it, a folder being what is opened);
//   - else a model id (lmHubIsModelName) in the cache at lmHubCacheRoot(): the snapshot
//     (lmHubSnapshot) of the first of lmHubRepoFolders(model) that is there;
//   - else ModelFileError: "M: no such folder" for what is not a model id; for a model id, one line
//     naming the cache, where its folder came from, every folder looked for, and the command that
//     downloads it ("huggingface-cli download M").
std::string lmHubResolveModel(const std::string& model);

// What LmModel::load is given for a model argument of the CLI or the window: the argument itself
// when something is at that path or it names a .safetensors file (load then says what is wrong),
// else lmHubResolveModel's folder for a model id ("gpt2", "openai-community/gpt2").
std::string lmModelArgumentPath(const std::string& argument);

// One model of the cache, for the window's list.
struct LmHubModel {
    std::string name;       // "openai-community/gpt2", "gpt2"
    std::string folder;     // its snapshot folder; empty when `problem` says why there is none
    std::string modelType;  // config.json's model_type when it could be read, else empty
    std::string problem;    // lmHubSnapshot's one line, or empty
};
// Every models--* folder of the cache at `root` (default: lmHubCacheRoot()), by name. A missing or
// unreadable cache is an empty list; a broken entry is listed with its problem. Never throws.
std::vector<LmHubModel> lmHubListModels();
std::vector<LmHubModel> lmHubListModels(const std::string& root);

// ---- 2. What a folder holds ------------------------------------------------------------------------

// The model_types AttnLab opens: {"gpt2", "bert"}.
const std::vector<std::string>& lmHubSupportedTypes();

// A model folder's files, each a path inside `directory`, empty when absent.
struct LmHubFolder {
    std::string directory;
    std::string config;      // config.json
    std::string modelType;   // "gpt2" or "bert"
    // model.safetensors alone, or the shards model.safetensors.index.json's weight_map names (each
    // once, sorted by name: model-00001-of-00003.safetensors first).
    std::vector<std::string> weights;
    std::string weightIndex;    // model.safetensors.index.json when the weights are sharded
    std::string vocabJson;      // vocab.json  (GPT-2's, with merges.txt)
    std::string mergesTxt;      // merges.txt
    std::string tokenizerJson;  // tokenizer.json
    std::string vocabTxt;       // vocab.txt   (BERT's WordPiece)
    // Whether the folder has a tokenizer of its type: for gpt2 vocab.json + merges.txt or
    // tokenizer.json, for bert vocab.txt or tokenizer.json (lmHubInspectFolder makes sure).
    bool hasGpt2Pair() const { return !vocabJson.empty() && !mergesTxt.empty(); }
};

// What `directory` holds. Reads config.json (model_type; when missing, guessed from "architectures":
// GPT2... -> gpt2, Bert... -> bert) and model.safetensors.index.json, and checks that the files it
// names are there; opens no other file. Throws ModelFileError with one line naming the file: not a
// folder; no config.json; config.json not JSON or with no model_type; a model_type other than
// lmHubSupportedTypes() (naming them); no model.safetensors nor index (with only pytorch_model.bin:
// how to convert it with python3-torch, Debian's PyTorch; with another framework's weights: that
// AttnLab reads safetensors); an index without a weight_map or naming a shard outside the folder or
// missing; no tokenizer for the type; a dangling link or a symlink loop among these files.
LmHubFolder lmHubInspectFolder(const std::string& directory);

// The one-line command that writes DIR/model.safetensors from DIR/pytorch_model.bin with
// python3-torch alone (floating-point tensors as F32; torch.load with weights_only=True).
std::string lmHubConvertCommand(const std::string& directory);

// ---- 3. GPT-2's vocabulary and merges from tokenizer.json ------------------------------------------

// What LmTokenizer::readGpt2 reads from vocab.json + merges.txt: the tokens by id (vocab.json's
// object turned around: tokens[id]) and the merges in rank order, each (left, right) in the readable
// form ("Ġ", "t").
struct LmGpt2Vocabulary {
    std::vector<std::string> tokens;
    std::vector<std::pair<std::string, std::string>> merges;
};

// tokenizer.json's model.vocab (token -> id, the ids 0..N-1 each once) and model.merges, each merge
// either "a b" (two tokens, one space) or ["a", "b"]; model.type, when there, must be "BPE". Tokens
// outside model.vocab (added_tokens) are not read: GPT-2's <|endoftext|> is in both. Whether the
// vocabulary is a usable GPT-2 one (every byte's token, <|endoftext|>, merges of known tokens) is
// lmHubGpt2Tokenizer's to say. Throws ModelFileError naming `name` (and the line for bad JSON): not
// JSON, no model object, a model that is not BPE, a bad vocabulary or id, a merge of neither form, a
// merge token that is empty or holds a space or line break (merges.txt could not write it).
LmGpt2Vocabulary lmHubParseTokenizerJson(const std::string& json, const std::string& name);
// The same from a file (at most kMaxLmGpt2FileBytes).
LmGpt2Vocabulary lmHubReadTokenizerJson(const std::string& path);

// The Gpt2 tokenizer of a vocabulary (through LmTokenizer::parseGpt2, as from vocab.json and
// merges.txt of the same content). Throws ModelFileError naming `name` with parseGpt2's reason
// ("merge N: ..." for a merge at fault).
LmTokenizer lmHubGpt2Tokenizer(const LmGpt2Vocabulary& vocabulary, const std::string& name);

}  // namespace attnlab
