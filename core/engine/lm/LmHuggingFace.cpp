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
// BERT (BertForMaskedLM, names with or without "bert."; Linear weights [out, in] as stored):
//   embeddings.word_embeddings / position_embeddings   tokens / positions
//   embeddings.token_type_embeddings (row 0)           token_type
//   embeddings.LayerNorm (weight/bias or gamma/beta)   embed_norm
//   encoder.layer.L.attention.self.query/key/value     blockL.attention.q / k / v
//   encoder.layer.L.attention.output.dense, LayerNorm  blockL.attention.out, blockL.norm1
//   encoder.layer.L.intermediate.dense, output.dense   blockL.ff1, blockL.ff2
//   encoder.layer.L.output.LayerNorm                   blockL.norm2
//   cls.predictions.transform.dense, LayerNorm, bias   mlm_dense, mlm_norm, mlm_bias
// embeddings.position_ids (a buffer) is skipped unread; the decoder is the word embeddings.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/InputError.h"
#include "base/io/Safetensors.h"
#include "base/lm/LmHuggingFace.h"
#include "engine/lm/LmImpl.h"

namespace attnlab {

namespace {

struct HfStoredTensor {
    const MappedTensor* record = nullptr;
    const MappedSafetensors* file = nullptr;
    std::string path;
};

// Whether every one of n floats is finite (no NaN, no infinity): the exponent bits not all set.
bool hfAllFinite(const float* p, std::size_t n) {
    std::uint32_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, p + i, 4);
        bad |= static_cast<std::uint32_t>((bits & 0x7f800000u) == 0x7f800000u);
    }
    return bad == 0;
}

bool hfEndsWith(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool hfIsGpt2Buffer(const std::string& name) { return hfEndsWith(name, ".attn.bias") || hfEndsWith(name, ".attn.masked_bias"); }
// BERT's buffers (embeddings.position_ids, token_type_ids: int64 in older files), skipped unread.
bool hfIsBertBuffer(const std::string& name) { return hfEndsWith(name, "position_ids") || hfEndsWith(name, "token_type_ids"); }

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
    const bool bert = folder.modelType == "bert";
    options.skip = bert ? hfIsBertBuffer : hfIsGpt2Buffer;
    std::vector<MappedSafetensors> files;
    files.reserve(folder.weightFiles.size());
    std::map<std::string, HfStoredTensor> stored;  // by GPT-2's name, "transformer." taken off
    for (const std::string& file : folder.weightFiles) {
        files.push_back(mapSafetensors(file, options));
        for (const MappedTensor& t : files.back().tensors) {
            const std::string prefix = bert ? "bert." : "transformer.";
            const std::string name = t.name.rfind(prefix, 0) == 0 ? t.name.substr(prefix.size()) : t.name;
            const long long layer = bert ? -1 : hfLayerOf(name);
            if (layer >= c.layers)
                throw ModelFileError(file, "tensor '" + t.name + "' is of layer " + std::to_string(layer) +
                                               " but config.json says n_layer " + std::to_string(c.layers));
            if (!stored.emplace(name, HfStoredTensor{&t, &files.back(), file}).second)
                throw ModelFileError(file, "tensor '" + name + "' is stored twice (with and without '" + prefix + "')");
        }
    }

    const std::int64_t D = c.dModel, F = c.feedForward, V = c.vocabulary, T = c.context;
    auto take = [&](const std::string& name, const std::vector<std::int64_t>& shape) -> const HfStoredTensor& {
        const auto it = stored.find(name);
        if (it == stored.end())
            throw ModelFileError(weightsName, "has no tensor '" + name + "' (config.json: n_layer " + std::to_string(c.layers) +
                                                  ", n_embd " + std::to_string(D) + ")");
        if (it->second.record->shape != shape)
            throw ModelFileError(it->second.path, "tensor '" + it->second.record->name + "' has shape " +
                                                      hfShapeOf(it->second.record->shape) + " where config.json's sizes make it " +
                                                      hfShapeOf(shape));
        return it->second;
    };

    auto impl = std::make_unique<Impl>();
    impl->config = c;
    impl->tokenizer = std::move(folder.tokenizer);
    impl->net = std::make_shared<nn::LmNetImpl>(c, /*randomInit=*/false);  // every parameter is set below
    std::map<std::string, torch::Tensor> parameters;
    for (const auto& item : impl->net->named_parameters()) parameters.emplace(item.key(), item.value());

    // Each file's pages as one float tensor's storage: the tensors stored F32 at an offset a float
    // can start at (all of them in the files Hugging Face writes) are borrowed from it, not copied;
    // the storage keeps the mapping alive as long as any parameter uses it.
    std::vector<torch::Tensor> wholeFiles;
    for (const MappedSafetensors& f : files) {
        const std::shared_ptr<void> keep = f.mapping;
        wholeFiles.push_back(f.size < 4 || !f.base ? torch::Tensor()
                                                   : torch::from_blob(const_cast<char*>(f.base), {static_cast<std::int64_t>(f.size / 4)},
                                                                      [keep](void*) {}, torch::kFloat));
    }
    auto wholeOf = [&](const HfStoredTensor& s) -> const torch::Tensor& {
        return wholeFiles[static_cast<std::size_t>(s.file - files.data())];
    };
    auto borrowable = [&](const HfStoredTensor& s) {
        return s.record->dtype == "F32" && s.record->offset % 4 == 0 && wholeOf(s).defined();
    };

    torch::NoGradGuard noGrad;
    std::size_t assigned = 0;
    auto parameterFor = [&](const std::string& parameter, const HfStoredTensor& from, const std::vector<std::int64_t>& shape) -> torch::Tensor& {
        const auto it = parameters.find(parameter);
        if (it == parameters.end() || it->second.sizes() != torch::IntArrayRef(shape))
            throw ModelFileError(from.path, "internal: no parameter " + parameter + " of that shape for '" + from.record->name + "'");
        ++assigned;
        return it->second;
    };
    auto nonFinite = [&](const HfStoredTensor& s) {
        return ModelFileError(s.path, "tensor '" + s.record->name + "' holds NaN or infinity");
    };
    // The stored tensor's values as floats: its own pages when F32 and aligned, else a converted copy.
    auto floatsOf = [&](const HfStoredTensor& s, std::vector<float>& scratch) -> const float* {
        if (borrowable(s)) return reinterpret_cast<const float*>(s.record->data);
        scratch.resize(static_cast<std::size_t>(s.record->bytes / (s.record->dtype == "F32" ? 4 : 2)));
        safetensorsToFloat(*s.record, scratch.data());
        return scratch.data();
    };
    // parameter = elements [start, start + count) of the stored tensor, as `shape` (contiguous).
    auto plainPart = [&](const std::string& parameter, const HfStoredTensor& s, std::int64_t start,
                         const std::vector<std::int64_t>& shape) {
        torch::Tensor& p = parameterFor(parameter, s, shape);
        const std::int64_t count = shape.size() == 1 ? shape[0] : shape[0] * shape[1];
        std::vector<float> scratch;
        const float* values = floatsOf(s, scratch) + start;
        if (!hfAllFinite(values, static_cast<std::size_t>(count))) throw nonFinite(s);
        if (borrowable(s)) {
            p.set_(wholeOf(s).storage(), static_cast<std::int64_t>(s.record->offset / 4) + start, shape,
                   shape.size() == 1 ? std::vector<std::int64_t>{1} : std::vector<std::int64_t>{shape[1], 1});
        } else {
            p.set_(torch::empty(shape));
            std::memcpy(p.data_ptr<float>(), values, static_cast<std::size_t>(count) * 4);
        }
    };
    auto plain = [&](const std::string& name, const std::vector<std::int64_t>& shape, const std::string& parameter) {
        plainPart(parameter, take(name, shape), 0, shape);
    };
    // A Conv1D weight [in, out] as `parts` Linear weights [out / parts, in] (c_attn: q, k, v), each a
    // transposed view of its column block, not a copy: x W_linearᵀ is then x W_conv1d, the product
    // PyTorch's GPT-2 computes, and the three blocks of c_attn stay one matrix that the attention
    // multiplies by at once (MultiHeadAttention::fusedQkv). Borrowed from the file's pages when
    // stored F32 and aligned; F16 and BF16 converted into a buffer of the same layout.
    auto conv1dWeight = [&](const HfStoredTensor& w, std::int64_t in, std::int64_t out, const std::vector<std::string>& parts) {
        c10::Storage storage;
        std::int64_t offset = 0;
        if (borrowable(w)) {
            if (!hfAllFinite(reinterpret_cast<const float*>(w.record->data), static_cast<std::size_t>(in * out))) throw nonFinite(w);
            storage = wholeOf(w).storage();
            offset = static_cast<std::int64_t>(w.record->offset / 4);
        } else {
            const torch::Tensor converted = torch::empty({in, out});
            safetensorsToFloat(*w.record, converted.data_ptr<float>());
            if (!hfAllFinite(converted.data_ptr<float>(), static_cast<std::size_t>(in * out))) throw nonFinite(w);
            storage = converted.storage();
        }
        const std::int64_t each = out / static_cast<std::int64_t>(parts.size());
        for (std::size_t k = 0; k < parts.size(); ++k)
            parameterFor(parts[k], w, {each, in}).set_(storage, offset + static_cast<std::int64_t>(k) * each, {each, in}, {1, out});
    };
    auto conv1d = [&](const std::string& name, std::int64_t in, std::int64_t out, const std::string& parameter) {
        conv1dWeight(take(name + ".weight", {in, out}), in, out, {parameter + ".weight"});
        plain(name + ".bias", {out}, parameter + ".bias");
    };
    auto layerNorm = [&](const std::string& name, const std::string& parameter) {
        // BERT's old files (bert-base-uncased's own) name a LayerNorm's weight and bias gamma and beta.
        const bool old = !stored.count(name + ".weight") && stored.count(name + ".gamma");
        plain(name + (old ? ".gamma" : ".weight"), {D}, parameter + ".weight");
        plain(name + (old ? ".beta" : ".bias"), {D}, parameter + ".bias");
    };
    // A Linear stored as PyTorch's [out, in] with its bias.
    auto linear = [&](const std::string& name, std::int64_t in, std::int64_t out, const std::string& parameter) {
        plain(name + ".weight", {out, in}, parameter + ".weight");
        plain(name + ".bias", {out}, parameter + ".bias");
    };

    if (bert) {
        // BertForMaskedLM (optionally "bert."-prefixed): Linear weights [out, in]; the decoder is tied
        // to the word embeddings (cls.predictions.decoder.weight, when stored, is that copy: ignored).
        const std::string e = "embeddings.";
        plain(e + "word_embeddings.weight", {V, D}, "tokens.weight");
        plain(e + "position_embeddings.weight", {T, D}, "positions.weight");
        const auto types = stored.find(e + "token_type_embeddings.weight");
        if (types == stored.end() || types->second.record->shape.size() != 2 || types->second.record->shape[0] < 1 ||
            types->second.record->shape[1] != D)
            take(e + "token_type_embeddings.weight", {2, D});  // the message for a missing or misshapen one
        plainPart("token_type", types->second, 0, {D});     // segment 0's row
        layerNorm(e + "LayerNorm", "embed_norm");
        for (int l = 0; l < c.layers; ++l) {
            const std::string h = "encoder.layer." + std::to_string(l) + ".", block = "block" + std::to_string(l) + ".";
            linear(h + "attention.self.query", D, D, block + "attention.q");
            linear(h + "attention.self.key", D, D, block + "attention.k");
            linear(h + "attention.self.value", D, D, block + "attention.v");
            linear(h + "attention.output.dense", D, D, block + "attention.out");
            layerNorm(h + "attention.output.LayerNorm", block + "norm1");
            linear(h + "intermediate.dense", D, F, block + "ff1");
            linear(h + "output.dense", F, D, block + "ff2");
            layerNorm(h + "output.LayerNorm", block + "norm2");
        }
        linear("cls.predictions.transform.dense", D, D, "mlm_dense");
        layerNorm("cls.predictions.transform.LayerNorm", "mlm_norm");
        plain("cls.predictions.bias", {V}, "mlm_bias");
        const std::string extra = "encoder.layer." + std::to_string(c.layers) + ".attention.self.query.weight";
        if (stored.count(extra))
            throw ModelFileError(weightsName, "has a tensor of layer " + std::to_string(c.layers) +
                                                  " but config.json says num_hidden_layers " + std::to_string(c.layers));
    } else {
    plain("wte.weight", {V, D}, "tokens.weight");
    plain("wpe.weight", {T, D}, "positions.weight");
    for (int l = 0; l < c.layers; ++l) {
        const std::string h = "h." + std::to_string(l) + ".", block = "block" + std::to_string(l) + ".";
        layerNorm(h + "ln_1", block + "norm1");
        const HfStoredTensor& qkv = take(h + "attn.c_attn.weight", {D, 3 * D});
        const HfStoredTensor& qkvBias = take(h + "attn.c_attn.bias", {3 * D});
        const std::string a = block + "attention.";
        conv1dWeight(qkv, D, 3 * D, {a + "q.weight", a + "k.weight", a + "v.weight"});
        const char* parts[] = {"q", "k", "v"};
        for (int p = 0; p < 3; ++p) plainPart(a + parts[p] + ".bias", qkvBias, p * D, {D});
        conv1d(h + "attn.c_proj", D, D, block + "attention.out");
        layerNorm(h + "ln_2", block + "norm2");
        conv1d(h + "mlp.c_fc", D, F, block + "ff1");
        conv1d(h + "mlp.c_proj", F, D, block + "ff2");
    }
    layerNorm("ln_f", "final_norm");
    if (!c.tied) plain("lm_head.weight", {V, D}, "unembed.weight");
    }
    if (assigned != parameters.size())
        throw ModelFileError(weightsName, "internal: " + std::to_string(assigned) + " of the network's " +
                                              std::to_string(parameters.size()) + " parameters were read");
    return LmModel(std::move(impl));
}

}  // namespace attnlab
