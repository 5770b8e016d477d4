// Seq2SeqModel::save / load: one .safetensors file whose __metadata__ holds the
// format version, the config, the tokenizer options and both vocabularies (JSON
// strings), so that Python's `safetensors` package opens it too. Loading checks
// every tensor's name and shape against the network the config describes before a
// single weight is copied; a user file never reaches torch::load.
#include <nlohmann/json.hpp>

#include "detail/ModelImpl.h"
#include "base/InputError.h"
#include "base/ModelSize.h"
#include "base/Safetensors.h"

namespace attnlab {

namespace {

std::string shapeText(const std::vector<std::int64_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

Vocabulary vocabularyFromJson(const std::string& text, const std::string& path, const char* key) {
    try {
        auto tokens = nlohmann::json::parse(text).get<std::vector<std::string>>();
        return Vocabulary::fromTokens(tokens);
    } catch (const std::exception& e) {
        throw ModelFileError(path, std::string("metadata '") + key + "' is not a valid vocabulary");
    }
}

}  // namespace

void Seq2SeqModel::save(const std::string& path, const std::map<std::string, std::string>& extraMetadata) const {
    SafetensorsContent content;
    content.metadata = extraMetadata;
    content.metadata["format"] = "attnlab";
    content.metadata["format_version"] = std::to_string(kCheckpointFormatVersion);
    content.metadata["config"] = toJson(impl_->config);
    content.metadata["source_vocab"] = nlohmann::json(impl_->source.tokens()).dump();
    content.metadata["target_vocab"] = nlohmann::json(impl_->target.tokens()).dump();
    content.metadata["tokenizer"] = nlohmann::json{{"lowercase", impl_->tokenizer.lowercase},
                                                   {"split_punctuation", impl_->tokenizer.splitPunctuation},
                                                   {"split_cjk_characters", impl_->tokenizer.splitCjkCharacters}}
                                        .dump();
    torch::NoGradGuard noGrad;
    for (const auto& item : impl_->net->named_parameters()) {
        torch::Tensor t = item.value().detach().to(torch::kFloat).contiguous();
        TensorRecord r;
        r.name = item.key();
        r.shape = t.sizes().vec();
        r.data.assign(t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
        content.tensors.push_back(std::move(r));
    }
    writeSafetensors(path, content);
}

Seq2SeqModel Seq2SeqModel::load(const std::string& path) {
    SafetensorsContent content = readSafetensors(path);  // validates the container
    auto meta = [&](const char* key) -> const std::string& {
        auto it = content.metadata.find(key);
        if (it == content.metadata.end())
            throw ModelFileError(path, std::string("not an AttnLab model: metadata '") + key + "' is missing");
        return it->second;
    };
    if (meta("format_version") != std::to_string(kCheckpointFormatVersion))
        throw ModelFileError(path, "unsupported format version " + meta("format_version") + " (this build reads " +
                                       std::to_string(kCheckpointFormatVersion) + ")");
    auto impl = std::make_unique<Impl>();
    try {
        impl->config = modelConfigFromJson(meta("config"));
    } catch (const ConfigError& e) {
        throw ModelFileError(path, std::string("bad model config: ") + e.what());
    }
    impl->source = vocabularyFromJson(meta("source_vocab"), path, "source_vocab");
    impl->target = vocabularyFromJson(meta("target_vocab"), path, "target_vocab");
    if (static_cast<std::int64_t>(impl->source.size()) != impl->config.sourceVocab ||
        static_cast<std::int64_t>(impl->target.size()) != impl->config.targetVocab)
        throw ModelFileError(path, "vocabulary sizes disagree with the config");
    try {
        auto tok = nlohmann::json::parse(meta("tokenizer"));
        impl->tokenizer.lowercase = tok.at("lowercase").get<bool>();
        impl->tokenizer.splitPunctuation = tok.at("split_punctuation").get<bool>();
        // Files from before the option split CJK per character, as the tokenizer then always did.
        impl->tokenizer.splitCjkCharacters = tok.value("split_cjk_characters", true);
    } catch (const nlohmann::json::exception&) {
        throw ModelFileError(path, "metadata 'tokenizer' is malformed");
    }

    // A config can describe a network far larger than the file (a hostile or damaged
    // file); compare sizes by arithmetic before allocating anything.
    std::int64_t stored = 0;
    for (const auto& t : content.tensors) stored += static_cast<std::int64_t>(t.data.size());
    if (attnlab::parameterCount(impl->config) != stored)
        throw ModelFileError(path, "the config describes " + std::to_string(attnlab::parameterCount(impl->config)) +
                                       " weights but the file holds " + std::to_string(stored));
    impl->net = makeNetwork(impl->config);
    auto params = impl->net->named_parameters();
    // Check everything first, copy afterwards.
    for (const auto& item : params) {
        const TensorRecord* r = content.find(item.key());
        if (!r) throw ModelFileError(path, "tensor '" + item.key() + "' is missing");
        if (r->shape != item.value().sizes().vec())
            throw ModelFileError(path, "tensor '" + item.key() + "' has shape " + shapeText(r->shape) +
                                           " but the config needs " + shapeText(item.value().sizes().vec()));
    }
    if (content.tensors.size() != params.size())
        throw ModelFileError(path, "file has " + std::to_string(content.tensors.size()) + " tensors, the config needs " +
                                       std::to_string(params.size()));
    torch::NoGradGuard noGrad;
    for (auto& item : params) {
        const TensorRecord* r = content.find(item.key());
        torch::Tensor src = torch::from_blob(const_cast<float*>(r->data.data()), item.value().sizes(), torch::kFloat);
        if (!torch::isfinite(src).all().item<bool>())
            throw ModelFileError(path, "tensor '" + item.key() + "' contains NaN or infinity");
        item.value().copy_(src);
    }
    return Seq2SeqModel(std::move(impl));
}

}  // namespace attnlab
