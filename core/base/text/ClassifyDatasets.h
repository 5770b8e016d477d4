#pragma once
// Built-in text classification datasets, generated from a seed (no downloads), each example with
// its gold rationale: the indices of the words that decide its label. Text is lower-case ASCII
// words separated by single spaces, without punctuation, so word i is token i of the default
// Tokenizer and a rationale indexes the attention weights over the text directly.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ClassifyCorpus.h"

namespace attnlab {

struct ClassificationDatasetInfo {
    std::string name;         // "sentiment", "topic", "needle"
    std::string description;  // one sentence
    int defaultLength = 0;    // words per text for a dataset with a length knob (needle); 0 = none
};

// needle's length knob: words per text, the keyword included. Up to 65,536 for the long-range
// experiment (engine/LongRangeExperiment.h); a corpus holds at most kMaxNeedleWords words in all.
inline constexpr int kMinNeedleLength = 5;
inline constexpr int kMaxNeedleLength = 65536;
inline constexpr std::size_t kMaxNeedleWords = std::size_t{1} << 26;
inline constexpr int kDefaultNeedleLength = 50;

// The datasets in a fixed order.
const std::vector<ClassificationDatasetInfo>& classificationDatasets();
// The dataset of that name, or nullptr.
const ClassificationDatasetInfo* findClassificationDataset(const std::string& name);

// `size` examples (2 to 1,000,000) of the named dataset; the same seed gives the same corpus on
// every machine. Labels are balanced: each run of as many examples as there are classes holds
// every class once, in a seeded order. `length` is needle's words per text (0 = the default, 50;
// else 5 to 65,536, size x length at most kMaxNeedleWords); the other datasets have their own lengths and refuse any but 0. Throws
// ConfigError for an unknown name (listing the valid ones) or an option out of range.
ClassificationCorpus makeClassificationDataset(const std::string& name, std::size_t size, std::uint64_t seed,
                                               int length = 0);

}  // namespace attnlab
