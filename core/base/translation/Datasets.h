#pragma once
// Built-in datasets, generated from a seed (no downloads), each with gold word
// alignments. Text is generated already tokenized: lower-case, words separated by
// single spaces, and the alignments link those words. With the dataset's own tokenizer
// options (DatasetInfo::tokenizer) every word is one token. toy-en-zh writes its target
// as Chinese words ("汤姆 追逐 杰瑞") and keeps them whole; trained per character instead,
// its links are mapped onto the characters by alignmentOverTokens (ParallelCorpus.h).
#include <cstdint>
#include <string>
#include <vector>

#include "ParallelCorpus.h"
#include "base/Tokenizer.h"

namespace attnlab {

struct DatasetInfo {
    std::string name;         // "copy", "reverse", "sort", "dates", "toy-en-fr", "toy-en-zh"
    std::string description;  // one sentence
    int defaultMaxLen = 0;    // default maximum source length in tokens
    // The tokens the dataset is written in, what training uses unless the user says otherwise:
    // toy-en-zh keeps Chinese words whole, so a word is one row of the attention map.
    TokenizerOptions tokenizer;
};

struct DatasetOptions {
    std::size_t size = 2000;
    std::uint64_t seed = 1;
    int maxLen = 0;  // 0 = the dataset's default; up to 200
    int minLen = 0;  // 0 = the dataset's default (used by the bottleneck experiment to fix a length)
};

const std::vector<DatasetInfo>& builtinDatasets();
bool isBuiltinDataset(const std::string& name);
// The dataset of that name, or nullptr.
const DatasetInfo* findBuiltinDataset(const std::string& name);
// Throws ConfigError for an unknown name or out-of-range options.
ParallelCorpus generateDataset(const std::string& name, const DatasetOptions& options);

}  // namespace attnlab
