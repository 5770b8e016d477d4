// LmModel::openHuggingFace: a Hugging Face GPT-2 folder's tensors into the network (LmModel.h; the
// folder's config and tokenizer: base/lm/LmHuggingFace.h).
//
// GPT-2's names (GPT2LMHeadModel, optionally under "transformer.") and where each goes; Conv1D
// stores its weight [in, out] (y = x W + b), a Linear [out, in], so each Conv1D weight is transposed:
//   wte.weight              [V, D]    tokens.weight
//   wpe.weight              [T, D]    positions.weight
//   h.L.ln_1.weight / bias  [D]       blockL.norm1
//   h.L.attn.c_attn.weight  [D, 3D]   columns 0..D-1, D..2D-1, 2D..3D-1: blockL.attention.q, k, v (transposed)
//   h.L.attn.c_attn.bias    [3D]      the same thirds: q, k, v biases
//   h.L.attn.c_proj         [D, D]    blockL.attention.out (transposed)
//   h.L.ln_2                [D]       blockL.norm2
//   h.L.mlp.c_fc            [D, F]    blockL.ff1 (transposed)
//   h.L.mlp.c_proj          [F, D]    blockL.ff2 (transposed)
//   ln_f                    [D]       final_norm
//   lm_head.weight          [V, D]    unembed.weight when untied (tied: wte is the unembedding)
// h.L.attn.bias and h.L.attn.masked_bias (the causal mask as a buffer) are skipped unread; other
// tensors not named here (a classification head, say) are ignored.
#include <map>
#include <string>
#include <vector>

#include "base/InputError.h"
#include "base/io/Safetensors.h"
#include "base/lm/LmHuggingFace.h"
#include "engine/lm/LmImpl.h"

namespace attnlab {

namespace {

struct HfStoredTensor {
    const TensorRecord* record = nullptr;
    std::string file;
};

bool hfEndsWith(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool hfIsGpt2Buffer(const std::string& name) { return hfEndsWith(name, ".attn.bias") || hfEndsWith(name, ".attn.masked_bias"); }

std::string hfShapeOf(const std::vector<std::int64_t>& shape) {
    std::string out = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + "]";
}

// The layer a GPT-2 tensor name belongs to ("h.3.ln_1.weight" -> 3), or -1.
long long hfLayerOf(const std::string& name) {
    if (name.rfind("h.", 0) != 0) return -1;
    const std::size_t dot = name.find('.', 2);
    if (dot == std::string::npos || dot == 2 || dot - 2 > 9) return -1;
    long long n = 0;
    for (std::size_t i = 2; i < dot; ++i) {
        if (name[i] < '0' || name[i] > '9') return -1;
        n = n * 10 + (name[i] - '0');
    }
    return n;
}

}  // namespace

LmModel LmModel::openHuggingFace(const std::string& directory) {
    LmHfFolder folder = readLmHfFolder(directory);
    const LmConfig& c = folder.config;
    const std::string weightsName =
        folder.weightFiles.size() == 1 ? folder.weightFiles.front() : folder.directory + "/model.safetensors.index.json";

    SafetensorsOptions options;
    options.halfPrecision = true;
    options.skip = hfIsGpt2Buffer;
    std::vector<SafetensorsContent> contents;
    contents.reserve(folder.weightFiles.size());
    std::map<std::string, HfStoredTensor> stored;  // by GPT-2's name, "transformer." taken off
    for (const std::string& file : folder.weightFiles) {
        contents.push_back(readSafetensors(file, options));
        for (const TensorRecord& t : contents.back().tensors) {
            const std::string prefix = "transformer.";
            const std::string name = t.name.rfind(prefix, 0) == 0 ? t.name.substr(prefix.size()) : t.name;
            const long long layer = hfLayerOf(name);
            if (layer >= c.layers)
                throw ModelFileError(file, "tensor '" + t.name + "' is of layer " + std::to_string(layer) +
                                               " but config.json says n_layer " + std::to_string(c.layers));
            if (!stored.emplace(name, HfStoredTensor{&t, file}).second)
                throw ModelFileError(file, "tensor '" + name + "' is stored twice (with and without 'transformer.')");
        }
    }

    const std::int64_t D = c.dModel, F = c.feedForward, V = c.vocabulary, T = c.context;
    auto take = [&](const std::string& name, const std::vector<std::int64_t>& shape) -> const HfStoredTensor& {
        const auto it = stored.find(name);
        if (it == stored.end())
            throw ModelFileError(weightsName, "has no tensor '" + name + "' (config.json: n_layer " + std::to_string(c.layers) +
                                                  ", n_embd " + std::to_string(D) + ")");
        if (it->second.record->shape != shape)
            throw ModelFileError(it->second.file, "tensor '" + it->second.record->name + "' has shape " +
                                                      hfShapeOf(it->second.record->shape) + " where config.json's sizes make it " +
                                                      hfShapeOf(shape));
        return it->second;
    };

    auto impl = std::make_unique<Impl>();
    impl->config = c;
    impl->tokenizer = std::move(folder.tokenizer);
    impl->net = std::make_shared<nn::LmNetImpl>(c);
    std::map<std::string, torch::Tensor> parameters;
    for (const auto& item : impl->net->named_parameters()) parameters.emplace(item.key(), item.value());

    torch::NoGradGuard noGrad;
    std::size_t assigned = 0;
    // value: a view of the stored tensor (already transposed or sliced as the parameter needs it).
    auto put = [&](const std::string& parameter, const HfStoredTensor& from, const torch::Tensor& value) {
        const auto it = parameters.find(parameter);
        if (it == parameters.end() || it->second.sizes() != value.sizes())
            throw ModelFileError(from.file, "internal: no parameter " + parameter + " of that shape for '" + from.record->name + "'");
        if (!torch::isfinite(value).all().item<bool>())
            throw ModelFileError(from.file, "tensor '" + from.record->name + "' holds NaN or infinity");
        it->second.copy_(value);
        ++assigned;
    };
    auto view = [](const HfStoredTensor& s) {
        return torch::from_blob(const_cast<float*>(s.record->data.data()), s.record->shape, torch::kFloat);
    };
    auto plain = [&](const std::string& name, const std::vector<std::int64_t>& shape, const std::string& parameter) {
        const HfStoredTensor& s = take(name, shape);
        put(parameter, s, view(s));
    };
    auto conv1d = [&](const std::string& name, std::int64_t in, std::int64_t out, const std::string& parameter) {
        const HfStoredTensor& w = take(name + ".weight", {in, out});
        put(parameter + ".weight", w, view(w).t());
        plain(name + ".bias", {out}, parameter + ".bias");
    };
    auto layerNorm = [&](const std::string& name, const std::string& parameter) {
        plain(name + ".weight", {D}, parameter + ".weight");
        plain(name + ".bias", {D}, parameter + ".bias");
    };

    plain("wte.weight", {V, D}, "tokens.weight");
    plain("wpe.weight", {T, D}, "positions.weight");
    for (int l = 0; l < c.layers; ++l) {
        const std::string h = "h." + std::to_string(l) + ".", block = "block" + std::to_string(l) + ".";
        layerNorm(h + "ln_1", block + "norm1");
        const HfStoredTensor& qkv = take(h + "attn.c_attn.weight", {D, 3 * D});
        const HfStoredTensor& qkvBias = take(h + "attn.c_attn.bias", {3 * D});
        const char* parts[] = {"q", "k", "v"};
        for (int p = 0; p < 3; ++p) {
            const std::string to = block + "attention." + parts[p];
            put(to + ".weight", qkv, view(qkv).narrow(1, p * D, D).t());
            put(to + ".bias", qkvBias, view(qkvBias).narrow(0, p * D, D));
        }
        conv1d(h + "attn.c_proj", D, D, block + "attention.out");
        layerNorm(h + "ln_2", block + "norm2");
        conv1d(h + "mlp.c_fc", D, F, block + "ff1");
        conv1d(h + "mlp.c_proj", F, D, block + "ff2");
    }
    layerNorm("ln_f", "final_norm");
    if (!c.tied) plain("lm_head.weight", {V, D}, "unembed.weight");
    if (assigned != parameters.size())
        throw ModelFileError(weightsName, "internal: " + std::to_string(assigned) + " of the network's " +
                                              std::to_string(parameters.size()) + " parameters were read");
    return LmModel(std::move(impl));
}

}  // namespace attnlab
