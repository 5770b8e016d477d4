#include "base/lm/LmHuggingFace.h"

#include "base/lm/LmHubCache.h"
#include "base/lm/LmWordPiece.h"

#include <cmath>
#include <filesystem>
#include <set>
#include <nlohmann/json.hpp>

#include "base/InputError.h"
#include "base/io/FileUtil.h"

namespace attnlab {

namespace {

using HfJson = nlohmann::json;
namespace hffs = std::filesystem;

constexpr const char* kHfSupportedTypes = "gpt2, bert";
constexpr std::uint64_t kMaxHfConfigBytes = 1024 * 1024;
constexpr std::uint64_t kMaxHfTokenizerBytes = 64ull * 1024 * 1024;

// A JSON value in a message: short, one line.
std::string hfShown(const HfJson& v) {
    std::string s = v.dump(-1, ' ', true, HfJson::error_handler_t::replace);
    if (s.size() > 40) s = s.substr(0, 40) + "...";
    return s;
}

// Reads a file of the folder; its InputError becomes a ModelFileError naming it.
std::string hfReadFile(const std::string& path, std::uint64_t most) {
    try {
        return readFileLimited(path, most);
    } catch (const InputError& e) {
        throw ModelFileError(e.file(), e.reason());
    }
}

// An integer member of config.json in low..high (the first of `keys` present), or `fallback` when
// none is (fallback < 0: required).
int hfInteger(const HfJson& j, const std::string& name, std::initializer_list<const char*> keys, long long low,
              long long high, long long fallback) {
    for (const char* key : keys) {
        const auto it = j.find(key);
        if (it == j.end()) continue;
        if (!it->is_number_integer())
            throw ModelFileError(name, std::string(key) + " " + hfShown(*it) + " is not an integer");
        const long long v = it->get<long long>();
        if (v < low || v > high)
            throw ModelFileError(name, std::string(key) + " " + std::to_string(v) + " is not in " + std::to_string(low) +
                                           ".." + std::to_string(high) + " (what AttnLab opens)");
        return static_cast<int>(v);
    }
    if (fallback < 0) throw ModelFileError(name, std::string("has no ") + *keys.begin());
    return static_cast<int>(fallback);
}

bool hfFlag(const HfJson& j, const std::string& name, const char* key, bool fallback) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return fallback;
    if (!it->is_boolean()) throw ModelFileError(name, std::string(key) + " " + hfShown(*it) + " is not true or false");
    return it->get<bool>();
}

LmTokenizer hfTokenizerFromFiles(const LmGpt2Files& files) {
    try {
        return LmTokenizer::readGpt2(files);
    } catch (const InputError& e) {
        throw ModelFileError(e.line() > 0 ? e.file() + ":" + std::to_string(e.line()) : e.file(), e.reason());
    }
}

std::string hfIn(const std::string& directory, const char* file) { return (hffs::path(directory) / file).string(); }
bool hfExists(const std::string& path) {
    std::error_code ec;
    return hffs::exists(path, ec);
}

// The shards a model.safetensors.index.json names, in their first appearance's order.
std::vector<std::string> hfShards(const std::string& directory, const std::string& index) {
    HfJson j;
    try {
        j = HfJson::parse(hfReadFile(index, kMaxHfConfigBytes * 16));
    } catch (const HfJson::exception& e) {
        throw ModelFileError(index, std::string("not JSON: ") + e.what());
    }
    const auto map = j.is_object() ? j.find("weight_map") : j.end();
    if (map == j.end() || !map->is_object() || map->empty())
        throw ModelFileError(index, "has no weight_map of tensor names to files");
    std::vector<std::string> files;
    std::set<std::string> seen;
    for (const auto& [tensor, file] : map->items()) {
        if (!file.is_string()) throw ModelFileError(index, "weight_map['" + tensor + "'] is not a file name");
        const std::string f = file.get<std::string>();
        if (f.empty() || f.find('/') != std::string::npos || f.find('\\') != std::string::npos || f == "." || f == "..")
            throw ModelFileError(index, "weight_map names '" + f + "', not a file of the folder");
        if (!seen.insert(f).second) continue;
        const std::string path = hfIn(directory, f.c_str());
        if (!hfExists(path)) throw ModelFileError(path, "no such file (model.safetensors.index.json names it)");
        files.push_back(path);
    }
    return files;
}

}  // namespace

bool isLmHfFolder(const std::string& path) {
    std::error_code ec;
    return !path.empty() && hffs::is_directory(path, ec) && hffs::exists(hffs::path(path) / "config.json", ec);
}

LmConfig lmHfGpt2Config(const std::string& json, const std::string& name) {
    HfJson j;
    try {
        j = HfJson::parse(json);
    } catch (const HfJson::exception& e) {
        throw ModelFileError(name, std::string("not JSON: ") + e.what());
    }
    if (!j.is_object()) throw ModelFileError(name, "not a JSON object");
    const auto type = j.find("model_type");
    if (type == j.end() || !type->is_string())
        throw ModelFileError(name, std::string("has no model_type (AttnLab opens: ") + kHfSupportedTypes + ")");
    if (type->get<std::string>() != "gpt2")
        throw ModelFileError(name, "model_type " + hfShown(*type) + " is not one AttnLab opens (supported: " +
                                       kHfSupportedTypes + ")");
    LmConfig c = lmGpt2Form();
    c.dModel = hfInteger(j, name, {"n_embd"}, 8, 2048, 768);
    c.layers = hfInteger(j, name, {"n_layer"}, 1, 24, 12);
    c.heads = hfInteger(j, name, {"n_head"}, 1, 64, 12);
    if (c.dModel % c.heads != 0)
        throw ModelFileError(name, "n_head " + std::to_string(c.heads) + " does not divide n_embd " + std::to_string(c.dModel));
    c.context = hfInteger(j, name, {"n_positions", "n_ctx"}, kLmMinContext, kLmMaxContext, 1024);
    c.vocabulary = hfInteger(j, name, {"vocab_size"}, 5, 1'000'000, 50257);
    const auto inner = j.find("n_inner");
    c.feedForward = inner == j.end() || inner->is_null() ? 4 * c.dModel : hfInteger(j, name, {"n_inner"}, 1, 16384, -1);
    if (c.feedForward > 16384)
        throw ModelFileError(name, "4 * n_embd = " + std::to_string(c.feedForward) + " is more than 16384 (what AttnLab opens)");
    const auto eps = j.find("layer_norm_epsilon");
    if (eps != j.end()) {
        if (!eps->is_number() || !(eps->get<double>() > 0 && eps->get<double>() <= 0.1))
            throw ModelFileError(name, "layer_norm_epsilon " + hfShown(*eps) + " is not a number above 0 and at most 0.1");
        c.layerNormEps = static_cast<float>(eps->get<double>());
    }
    const auto activation = j.find("activation_function");
    if (activation != j.end() && !activation->is_null()) {
        const std::string a = activation->is_string() ? activation->get<std::string>() : std::string();
        if (a == "gelu_new" || a == "gelu_pytorch_tanh" || a == "gelu_fast")
            c.gelu = LmGelu::Tanh;
        else if (a == "gelu")
            c.gelu = LmGelu::Exact;
        else
            throw ModelFileError(name, "activation_function " + hfShown(*activation) +
                                           " is not one AttnLab computes (gelu_new, gelu_pytorch_tanh, gelu_fast, gelu)");
    }
    if (!hfFlag(j, name, "scale_attn_weights", true))
        throw ModelFileError(name, "scale_attn_weights false (attention without the 1/sqrt(d) scale) is not supported");
    if (hfFlag(j, name, "scale_attn_by_inverse_layer_idx", false))
        throw ModelFileError(name, "scale_attn_by_inverse_layer_idx true is not supported");
    if (hfFlag(j, name, "add_cross_attention", false))
        throw ModelFileError(name, "add_cross_attention true (a decoder of an encoder-decoder) is not supported");
    c.tied = hfFlag(j, name, "tie_word_embeddings", true);
    c.dropout = 0;
    c.positions = LmPositions::Learned;
    c.objective = LmObjective::Causal;
    const std::string why = validate(c);
    if (!why.empty()) throw ModelFileError(name, why);
    return c;
}

namespace {

HfJson hfConfigObject(const std::string& json, const std::string& name, std::string& type) {
    HfJson j;
    try {
        j = HfJson::parse(json);
    } catch (const HfJson::exception& e) {
        throw ModelFileError(name, std::string("not JSON: ") + e.what());
    }
    if (!j.is_object()) throw ModelFileError(name, "not a JSON object");
    const auto t = j.find("model_type");
    if (t == j.end() || !t->is_string())
        throw ModelFileError(name, std::string("has no model_type (AttnLab opens: ") + kHfSupportedTypes + ")");
    type = t->get<std::string>();
    return j;
}

}  // namespace

LmConfig lmHfBertConfig(const std::string& json, const std::string& name) {
    std::string type;
    const HfJson j = hfConfigObject(json, name, type);
    if (type != "bert")
        throw ModelFileError(name, "model_type " + hfShown(j["model_type"]) + " is not one AttnLab opens (supported: " +
                                       kHfSupportedTypes + ")");
    LmConfig c = lmGpt2Form();
    c.norm = LmNorm::Post;
    c.dModel = hfInteger(j, name, {"hidden_size"}, 8, 2048, 768);
    c.layers = hfInteger(j, name, {"num_hidden_layers"}, 1, 24, 12);
    c.heads = hfInteger(j, name, {"num_attention_heads"}, 1, 64, 12);
    if (c.dModel % c.heads != 0)
        throw ModelFileError(name, "num_attention_heads " + std::to_string(c.heads) + " does not divide hidden_size " +
                                       std::to_string(c.dModel));
    c.feedForward = hfInteger(j, name, {"intermediate_size"}, 1, 16384, 3072);
    c.context = hfInteger(j, name, {"max_position_embeddings"}, kLmMinContext, kLmMaxContext, 512);
    c.vocabulary = hfInteger(j, name, {"vocab_size"}, 5, 1'000'000, 30522);
    hfInteger(j, name, {"type_vocab_size"}, 1, 1'000'000, 2);
    c.layerNormEps = 1e-12f;
    const auto eps = j.find("layer_norm_eps");
    if (eps != j.end()) {
        if (!eps->is_number() || !(eps->get<double>() > 0 && eps->get<double>() <= 0.1))
            throw ModelFileError(name, "layer_norm_eps " + hfShown(*eps) + " is not a number above 0 and at most 0.1");
        c.layerNormEps = static_cast<float>(eps->get<double>());
    }
    c.gelu = LmGelu::Exact;
    const auto activation = j.find("hidden_act");
    if (activation != j.end() && !activation->is_null()) {
        const std::string a = activation->is_string() ? activation->get<std::string>() : std::string();
        if (a == "gelu_new" || a == "gelu_pytorch_tanh" || a == "gelu_fast")
            c.gelu = LmGelu::Tanh;
        else if (a != "gelu")
            throw ModelFileError(name, "hidden_act " + hfShown(*activation) +
                                           " is not one AttnLab computes (gelu, gelu_new, gelu_pytorch_tanh, gelu_fast)");
    }
    const auto positions = j.find("position_embedding_type");
    if (positions != j.end() && !positions->is_null() && *positions != "absolute")
        throw ModelFileError(name, "position_embedding_type " + hfShown(*positions) + " is not supported (absolute only)");
    if (hfFlag(j, name, "is_decoder", false)) throw ModelFileError(name, "is_decoder true is not supported");
    if (hfFlag(j, name, "add_cross_attention", false))
        throw ModelFileError(name, "add_cross_attention true (a decoder of an encoder-decoder) is not supported");
    c.tied = true;
    c.tokenTypes = true;
    c.mlmHead = true;
    c.dropout = 0;
    c.positions = LmPositions::Learned;
    c.objective = LmObjective::Masked;
    const std::string why = validate(c);
    if (!why.empty()) throw ModelFileError(name, why);
    return c;
}

LmTokenizer lmHfTokenizerJson(const std::string& json, const std::string& name) {
    return lmHubGpt2Tokenizer(lmHubParseTokenizerJson(json, name), name);
}

LmHfFolder readLmHfFolder(const std::string& directory) {
    LmHfFolder f;
    f.directory = directory;
    f.configFile = hfIn(directory, "config.json");
    const std::string configText = hfReadFile(f.configFile, kMaxHfConfigBytes);
    hfConfigObject(configText, f.configFile, f.modelType);
    if (f.modelType == "bert") {
        f.config = lmHfBertConfig(configText, f.configFile);
        if (!hfExists(hfIn(directory, "vocab.txt")) && !hfExists(hfIn(directory, "tokenizer.json")))
            throw ModelFileError(f.configFile, std::string("model_type \"bert\" but the folder holds no vocab.txt or tokenizer.json "
                                               "(BERT's vocabulary)") +
                                                   (hfExists(hfIn(directory, "vocab.json")) ? "; its vocab.json is a gpt2 tokenizer's" : ""));
        try {
            f.tokenizer = LmTokenizer::fromWordPiece(LmWordPiece::load(directory));
        } catch (const InputError& e) {
            throw ModelFileError(e.line() > 0 ? e.file() + ":" + std::to_string(e.line()) : e.file(), e.reason());
        }
        if (f.tokenizer.specials().mask == kLmNoToken)
            throw ModelFileError(directory, "BERT's vocabulary has no [MASK] token");
    } else {
        f.config = lmHfGpt2Config(configText, f.configFile);
    }

    if (f.modelType == "bert") {
    } else if (hfExists(hfIn(directory, "vocab.json")) || hfExists(hfIn(directory, "merges.txt"))) {
        f.tokenizer = hfTokenizerFromFiles({hfIn(directory, "vocab.json"), hfIn(directory, "merges.txt")});
    } else if (hfExists(hfIn(directory, "tokenizer.json"))) {
        const std::string path = hfIn(directory, "tokenizer.json");
        f.tokenizer = lmHfTokenizerJson(hfReadFile(path, kMaxHfTokenizerBytes), path);
    } else {
        throw ModelFileError(directory, "holds no tokenizer: GPT-2's vocab.json and merges.txt, or tokenizer.json");
    }
    if (f.config.vocabulary != static_cast<std::int64_t>(f.tokenizer.size()))
        throw ModelFileError(f.configFile, "vocab_size " + std::to_string(f.config.vocabulary) + " is not the tokenizer's " +
                                               std::to_string(f.tokenizer.size()) + " tokens");

    const std::string single = hfIn(directory, "model.safetensors"), index = hfIn(directory, "model.safetensors.index.json");
    if (hfExists(single)) {
        f.weightFiles = {single};
    } else if (hfExists(index)) {
        f.weightFiles = hfShards(directory, index);
    } else {
        const std::string convert =
            "; AttnLab reads safetensors only: convert once with Python's transformers, "
            "python3 -c \"from transformers import AutoModelForCausalLM as M; "
            "M.from_pretrained('" + directory + "').save_pretrained('" + directory + "', safe_serialization=True)\"";
        if (hfExists(hfIn(directory, "pytorch_model.bin")))  // converted with Debian's python3-torch alone
            throw ModelFileError(directory, "holds pytorch_model.bin but no model.safetensors; AttnLab reads "
                                            "safetensors only: convert it once with " + lmHubConvertCommand(directory));
        if (hfExists(hfIn(directory, "pytorch_model.bin.index.json")))
            throw ModelFileError(directory, "holds pytorch_model.bin shards but no model.safetensors" + convert);
        for (const char* other : {"tf_model.h5", "flax_model.msgpack", "model.ckpt.index"})
            if (hfExists(hfIn(directory, other)))
                throw ModelFileError(directory, std::string("holds ") + other + " but no model.safetensors" + convert);
        throw ModelFileError(directory, "holds no model.safetensors (nor model.safetensors.index.json)");
    }
    return f;
}

}  // namespace attnlab
