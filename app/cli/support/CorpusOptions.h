#pragma once
// The data-source flags shared by `inspect` and `train`:
// exactly one of --corpus FILE, --src FILE --tgt FILE, --dataset NAME;
// and the tokenizer switches, whose defaults follow the dataset.
#include <optional>
#include <set>
#include <string>

#include "ArgParser.h"
#include "base/translation/ParallelCorpus.h"
#include "base/gettext/Gettext.h"
#include "base/Tokenizer.h"

namespace attnlab::cli {

// Where GNU gettext catalogues live on Debian (LANG/LC_MESSAGES/*.mo); --locale-dir changes it.

// English -> LANG pairs from every catalogue of LANG (--gettext LANG), as a translation corpus;
// says on stderr how many were read and what was skipped.
ParallelCorpus gettextCorpus(const std::string& localeDir, const std::string& lang);
std::string describeSkips(const GettextReport& report);  // "12 duplicate, 3 plural" or "none"

// Flags this helper reads, to be merged into a command's value flags.
const std::set<std::string>& corpusValueFlags();

// Loads the corpus the flags name; `maxLen` (0 = dataset default) bounds generated
// sentences. Throws UsageError, InputError or ConfigError.
ParallelCorpus loadCorpus(const ArgParser& args, int maxLen);
// The same without --alignments.
ParallelCorpus loadCorpusOnly(const ArgParser& args, int maxLen);

// --split-cjk / --no-split-cjk (also used by `datasets` and `experiment`).
const std::set<std::string>& splitCjkSwitches();
// Every tokenizer switch: the above plus --no-lowercase and --no-split-punct.
const std::set<std::string>& tokenizerSwitches();

// True for --split-cjk, false for --no-split-cjk, nullopt for neither; both is a UsageError.
std::optional<bool> splitCjkFlag(const ArgParser& args);

// The tokenizer for the corpus the flags name: a built-in dataset's own options
// (DatasetInfo::tokenizer; toy-en-zh keeps Chinese words whole), otherwise the
// defaults, then whatever the switches change.
TokenizerOptions tokenizerOptions(const ArgParser& args);

}  // namespace attnlab::cli
