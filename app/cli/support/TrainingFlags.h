#pragma once
// The training flags every task's `train` shares, read into engine/TrainingRun.h's options: the
// loop's (--epochs, --batch, --lr, --clip, --seed, --threads, --val-fraction) for every task, the
// vocabulary's (--min-freq, --max-vocab and the tokenizer's) for the text tasks. Each flag defaults
// to the task's options struct's own value; the ranges are the same for every task.
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "ArgParser.h"
#include "support/CorpusOptions.h"
#include "base/InputError.h"
#include "base/translation/ModelConfig.h"
#include "engine/TrainingRun.h"

namespace attnlab::cli {

// A figure of a training run's per-epoch JSON: 4 decimals, null when undefined (NaN).
inline nlohmann::json rounded(double v) {
    return std::isfinite(v) ? nlohmann::json(std::round(v * 10000.0) / 10000.0) : nlohmann::json(nullptr);
}

// `minValidationFraction`: 0 for the text tasks; a vision run needs a held-out set (0.01).
inline void readRunFlags(const ArgParser& args, TrainingRunOptions& options, double minValidationFraction = 0.0) {
    options.epochs = static_cast<int>(args.integer("--epochs", options.epochs, 1, 100000));
    options.batchSize = static_cast<int>(args.integer("--batch", options.batchSize, 1, 4096));
    options.learningRate = args.real("--lr", options.learningRate, 1e-9, 10.0);
    options.clip = args.real("--clip", options.clip, 0.0, 1e6);
    options.seed = static_cast<std::uint64_t>(args.integer("--seed", static_cast<long long>(options.seed), 0, 1LL << 62));
    options.threads = static_cast<int>(args.integer("--threads", options.threads, 1, 64));
    options.validationFraction = args.real("--val-fraction", options.validationFraction, minValidationFraction, 0.9);
}

inline void readSharedTrainingFlags(const ArgParser& args, TextTrainingRunOptions& options) {
    readRunFlags(args, options);
    options.minFrequency = static_cast<int>(args.integer("--min-freq", 1, 1, 1000000));
    options.maxVocabulary = static_cast<std::size_t>(args.integer("--max-vocab", 0, 0, 10000000));
    options.tokenizer = tokenizerOptions(args);
}

// --attention-pattern, --window, --chunk for an encoder Transformer (the classifier's, the ViT's),
// with translation's usage errors: --window only for local and strided, --chunk only for strided
// and chunked. The ranges are checkConfig's (Setting::LocalWindow, Setting::AttentionChunk).
struct PatternFlags {
    AttentionPattern pattern = AttentionPattern::Full;
    int window = 3;
    int chunk = 0;
};
inline PatternFlags readPatternFlags(const ArgParser& args, const PatternFlags& defaults) {
    PatternFlags out;
    try {
        out.pattern = parseAttentionPattern(args.text("--attention-pattern", toString(defaults.pattern)));
    } catch (const ConfigError& e) {
        throw UsageError(std::string("--attention-pattern: ") + e.what());
    }
    const bool banded = out.pattern == AttentionPattern::Local || out.pattern == AttentionPattern::Strided;
    const bool blocked = out.pattern == AttentionPattern::Strided || out.pattern == AttentionPattern::Chunked;
    if (args.has("--window") && !banded) throw UsageError("--window applies to --attention-pattern local or strided");
    if (args.has("--chunk") && !blocked) throw UsageError("--chunk applies to --attention-pattern strided or chunked");
    out.window = static_cast<int>(args.integer("--window", defaults.window, 1, 100));
    out.chunk = static_cast<int>(args.integer("--chunk", defaults.chunk, 0, 8192));
    return out;
}
// A model without a Transformer encoder refuses the three flags, naming the first given.
inline void refusePatternFlags(const ArgParser& args, const std::string& appliesTo) {
    for (const char* flag : {"--attention-pattern", "--window", "--chunk"})
        if (args.has(flag)) throw UsageError(std::string(flag) + " applies to " + appliesTo);
}

}  // namespace attnlab::cli
