#pragma once
// The data-source flags shared by `inspect` and `train`:
// exactly one of --corpus FILE, --src FILE --tgt FILE, --dataset NAME.
#include <set>
#include <string>

#include "ArgParser.h"
#include "base/Corpus.h"

namespace attnlab::cli {

// Flags this helper reads, to be merged into a command's value flags.
const std::set<std::string>& corpusValueFlags();

// Loads the corpus the flags name; `maxLen` (0 = dataset default) bounds generated
// sentences. Throws UsageError, InputError or ConfigError.
Corpus loadCorpus(const ArgParser& args, int maxLen);

}  // namespace attnlab::cli
