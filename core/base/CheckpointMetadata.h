#pragma once
// The metadata strings every AttnLab checkpoint carries beside its config (tokenizer options,
// vocabularies, label lists), written and read the same way for every task's model.
#include <map>
#include <string>
#include <vector>

#include "base/Tokenizer.h"
#include "base/Vocabulary.h"

namespace attnlab {

// metadata[key]; ModelFileError(path, "not an AttnLab KIND: metadata 'KEY' is missing") if absent.
const std::string& requiredMetadata(const std::map<std::string, std::string>& metadata, const char* key,
                                    const std::string& path, const char* kind);

std::string tokenizerToJson(const TokenizerOptions& options);
// Throws ModelFileError(path, ...) if malformed.
TokenizerOptions tokenizerFromJson(const std::string& text, const std::string& path);

std::string stringsToJson(const std::vector<std::string>& strings);
// A JSON array of strings; throws ModelFileError(path, "metadata 'KEY' ...") if it is not one.
std::vector<std::string> stringsFromJson(const std::string& text, const std::string& path, const char* key);
// A vocabulary stored as its token list; throws ModelFileError if it is not a valid one.
Vocabulary vocabularyFromJson(const std::string& text, const std::string& path, const char* key);

}  // namespace attnlab
