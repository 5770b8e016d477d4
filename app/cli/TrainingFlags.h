#pragma once
// The training flags every task's `train` shares (--epochs, --batch, --lr, --clip, --seed, --threads,
// --val-fraction, --min-freq, --max-vocab and the tokenizer's), read into a task's options struct
// (TrainingOptions, ClassifierTrainingOptions: the same member names). --lr defaults to the struct's
// own learning rate; the other defaults and ranges are the same for every task.
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "ArgParser.h"
#include "CorpusOptions.h"

namespace attnlab::cli {

// A figure of a training run's per-epoch JSON: 4 decimals, null when undefined (NaN).
inline nlohmann::json rounded(double v) {
    return std::isfinite(v) ? nlohmann::json(std::round(v * 10000.0) / 10000.0) : nlohmann::json(nullptr);
}

template <typename Options>
void readSharedTrainingFlags(const ArgParser& args, Options& options) {
    options.epochs = static_cast<int>(args.integer("--epochs", 10, 1, 100000));
    options.batchSize = static_cast<int>(args.integer("--batch", 32, 1, 4096));
    options.learningRate = args.real("--lr", options.learningRate, 1e-9, 10.0);
    options.clip = args.real("--clip", 1.0, 0.0, 1e6);
    options.seed = static_cast<std::uint64_t>(args.integer("--seed", 1, 0, 1LL << 62));
    options.threads = static_cast<int>(args.integer("--threads", 1, 1, 64));
    options.validationFraction = args.real("--val-fraction", 0.1, 0.0, 0.9);
    options.minFrequency = static_cast<int>(args.integer("--min-freq", 1, 1, 1000000));
    options.maxVocabulary = static_cast<std::size_t>(args.integer("--max-vocab", 0, 0, 10000000));
    options.tokenizer = tokenizerOptions(args);
}

}  // namespace attnlab::cli
