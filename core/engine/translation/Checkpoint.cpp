// Seq2SeqModel::save / load: one .safetensors file whose __metadata__ holds the
// format version, the config, the tokenizer options and both vocabularies (JSON
// strings), so that Python's `safetensors` package opens it too. Loading checks
// every tensor's name and shape against the network the config describes before a
// single weight is copied; a user file never reaches torch::load.
#include <nlohmann/json.hpp>

#include "engine/detail/ModelImpl.h"
#include "engine/detail/ModuleTensors.h"
#include "base/io/CheckpointMetadata.h"
#include "base/InputError.h"
#include "base/translation/ModelSize.h"
#include "base/io/Safetensors.h"
#include "base/TaskIds.h"

namespace attnlab {

void Seq2SeqModel::save(const std::string& path, const std::map<std::string, std::string>& extraMetadata) const {
    SafetensorsContent content;
    content.metadata = extraMetadata;
    setFormatMetadata(content.metadata);  // a translation model's file has no "task"
    content.metadata["config"] = toJson(impl_->config);
    content.metadata["source_vocab"] = nlohmann::json(impl_->source.tokens()).dump();
    content.metadata["target_vocab"] = nlohmann::json(impl_->target.tokens()).dump();
    content.metadata["tokenizer"] = tokenizerToJson(impl_->tokenizer);
    appendTensors(*impl_->net, content);
    writeSafetensors(path, content);
}

Seq2SeqModel Seq2SeqModel::load(const std::string& path) {
    SafetensorsContent content = readSafetensors(path);  // validates the container
    auto meta = [&](const char* key) -> const std::string& {
        return requiredMetadata(content.metadata, key, path, "model");
    };
    checkModelTask(content.metadata, path, tasks::kTranslate, "a translation model");
    checkFormatVersion(content.metadata, path);
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
    impl->tokenizer = tokenizerFromJson(meta("tokenizer"), path);

    // A config can describe a network far larger than the file (a hostile or damaged
    // file); compare sizes by arithmetic before allocating anything.
    if (attnlab::parameterCount(impl->config) != storedWeights(content))
        throw ModelFileError(path, "the config describes " + std::to_string(attnlab::parameterCount(impl->config)) +
                                       " weights but the file holds " + std::to_string(storedWeights(content)));
    impl->net = makeNetwork(impl->config);
    loadTensorsInto(content, *impl->net, path);
    return Seq2SeqModel(std::move(impl));
}

}  // namespace attnlab
