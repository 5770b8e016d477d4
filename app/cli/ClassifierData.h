#pragma once
// The data flags of the classification commands (`train --task classify`, `inspect --task
// classify`, `experiment faithfulness`): exactly one of --corpus FILE.tsv or --dataset NAME
// (sentiment, topic, needle) with --size, --data-seed and --length.
#include <set>
#include <string>

#include "ArgParser.h"
#include "base/ClassifyCorpus.h"

namespace attnlab::cli {

const std::set<std::string>& classifierDataFlags();
// Throws UsageError, InputError or ConfigError (naming the flag).
ClassificationCorpus loadClassificationCorpus(const ArgParser& args);

// "translate" unless the arguments hold --task NAME (or --task=NAME); UsageError for an
// unknown task.
std::string taskOf(const std::vector<std::string>& args,
                   const std::vector<std::string>& known = {"translate", "classify"});

}  // namespace attnlab::cli
