#pragma once
// Built-in datasets, generated from a seed (no downloads), each with gold word
// alignments. Text is generated already tokenized: lower-case, tokens separated by
// single spaces, so Tokenizer{} returns exactly the tokens the alignments index.
// toy-en-zh writes its target as Chinese words ("汤姆 追逐 杰瑞"); the Tokenizer splits Han
// per character, so its links index characters ("tom" -> "汤" and "姆").
#include <cstdint>
#include <string>
#include <vector>

#include "Corpus.h"

namespace attnlab {

struct DatasetInfo {
    std::string name;         // "copy", "reverse", "sort", "dates", "toy-en-fr", "toy-en-zh"
    std::string description;  // one sentence
    int defaultMaxLen = 0;    // default maximum source length in tokens
};

struct DatasetOptions {
    std::size_t size = 2000;
    std::uint64_t seed = 1;
    int maxLen = 0;  // 0 = the dataset's default; up to 200
    int minLen = 0;  // 0 = the dataset's default (used by the bottleneck experiment to fix a length)
};

const std::vector<DatasetInfo>& builtinDatasets();
bool isBuiltinDataset(const std::string& name);
// Throws ConfigError for an unknown name or out-of-range options.
Corpus generateDataset(const std::string& name, const DatasetOptions& options);

}  // namespace attnlab
