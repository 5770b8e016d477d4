#pragma once
// The metadata strings every AttnLab checkpoint carries beside its config (format and version,
// model task, tokenizer options, vocabularies, label lists), written and read the same way for
// every task's model (docs/ARCHITECTURE.md, "Checkpoint format").
#include <map>
#include <string>
#include <vector>

#include "base/Tokenizer.h"
#include "base/Vocabulary.h"

namespace attnlab {

using CheckpointMetadata = std::map<std::string, std::string>;

// The layout version every checkpoint carries as "format_version". Load refuses any other, so a
// change to the layout (of any task's file) bumps it.
inline constexpr int kCheckpointFormatVersion = 1;

// Sets "format" = "attnlab", "format_version" and, unless `task` is null, "task" (a TaskIds.h id;
// a translation model's file has none).
void setFormatMetadata(CheckpointMetadata& metadata, const char* task = nullptr);
// ModelFileError(path, "unsupported format version V (this build reads 1)") unless the file's
// format_version is kCheckpointFormatVersion ("not an AttnLab model: ..." when it has none).
void checkFormatVersion(const CheckpointMetadata& metadata, const std::string& path);
// Refuses another task's model: ModelFileError(path, "holds a 'T' model, not WHAT"), or "holds a
// translation model, not WHAT (use translate)" for a file without "task" (how translation models are
// written). `task` is the loader's TaskIds.h id, `what` its model in words ("a text classifier").
void checkModelTask(const CheckpointMetadata& metadata, const std::string& path, const char* task, const char* what);

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
