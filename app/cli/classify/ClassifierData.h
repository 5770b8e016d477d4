#pragma once
// The data flags of the classification commands (`train --task classify`, `inspect --task
// classify`, `experiment faithfulness`): exactly one of --corpus FILE.tsv or --dataset NAME
// (sentiment, topic, needle) with --size, --data-seed and --length.
#include <set>
#include <string>

#include "ArgParser.h"
#include "base/text/ClassifyCorpus.h"

namespace attnlab::cli {

const std::set<std::string>& classifierDataFlags();
// Throws UsageError, InputError or ConfigError (naming the flag).
ClassificationCorpus loadClassificationCorpus(const ArgParser& args);

}  // namespace attnlab::cli
