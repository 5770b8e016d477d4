#include "CheckpointMetadata.h"

#include <nlohmann/json.hpp>

#include "base/InputError.h"
#include "base/TaskIds.h"

namespace attnlab {

const std::string& requiredMetadata(const std::map<std::string, std::string>& metadata, const char* key,
                                    const std::string& path, const char* kind) {
    auto it = metadata.find(key);
    if (it == metadata.end())
        throw ModelFileError(path, std::string("not an AttnLab ") + kind + ": metadata '" + key + "' is missing");
    return it->second;
}

void setFormatMetadata(CheckpointMetadata& metadata, const char* task) {
    metadata["format"] = "attnlab";
    metadata["format_version"] = std::to_string(kCheckpointFormatVersion);
    if (task) metadata["task"] = task;
}

void checkFormatVersion(const CheckpointMetadata& metadata, const std::string& path) {
    const std::string& version = requiredMetadata(metadata, "format_version", path, "model");
    if (version != std::to_string(kCheckpointFormatVersion))
        throw ModelFileError(path, "unsupported format version " + version + " (this build reads " +
                                       std::to_string(kCheckpointFormatVersion) + ")");
}

void checkModelTask(const CheckpointMetadata& metadata, const std::string& path, const char* task, const char* what) {
    const auto found = metadata.find("task");
    if (found == metadata.end()) {
        const std::string untagged = tasks::untaggedCheckpointTask();
        if (untagged == task) return;  // from before the "task" metadata
        if (!untagged.empty() && metadata.count("source_vocab"))
            throw ModelFileError(path, std::string("holds a translation model, not ") + what + " (use translate)");
        throw ModelFileError(path, "not an AttnLab model: metadata 'task' is missing");
    }
    if (found->second != task) throw ModelFileError(path, "holds a '" + found->second + "' model, not " + what);
}

std::string tokenizerToJson(const TokenizerOptions& options) {
    return nlohmann::json{{"lowercase", options.lowercase},
                          {"split_punctuation", options.splitPunctuation},
                          {"split_cjk_characters", options.splitCjkCharacters}}
        .dump();
}

TokenizerOptions tokenizerFromJson(const std::string& text, const std::string& path) {
    try {
        auto tok = nlohmann::json::parse(text);
        TokenizerOptions options;
        options.lowercase = tok.at("lowercase").get<bool>();
        options.splitPunctuation = tok.at("split_punctuation").get<bool>();
        // Files from before the option split CJK per character, as the tokenizer then always did.
        options.splitCjkCharacters = tok.value("split_cjk_characters", true);
        return options;
    } catch (const nlohmann::json::exception&) {
        throw ModelFileError(path, "metadata 'tokenizer' is malformed");
    }
}

std::string stringsToJson(const std::vector<std::string>& strings) { return nlohmann::json(strings).dump(); }

std::vector<std::string> stringsFromJson(const std::string& text, const std::string& path, const char* key) {
    try {
        return nlohmann::json::parse(text).get<std::vector<std::string>>();
    } catch (const nlohmann::json::exception&) {
        throw ModelFileError(path, std::string("metadata '") + key + "' is not a list of strings");
    }
}

Vocabulary vocabularyFromJson(const std::string& text, const std::string& path, const char* key) {
    try {
        return Vocabulary::fromTokens(nlohmann::json::parse(text).get<std::vector<std::string>>());
    } catch (const std::exception&) {
        throw ModelFileError(path, std::string("metadata '") + key + "' is not a valid vocabulary");
    }
}

}  // namespace attnlab
