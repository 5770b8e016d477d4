// attnlab-cli train --task translate (the default): one JSON object per epoch on stdout, a progress
// bar on stderr when it is a terminal, the model saved atomically after every epoch and at the end.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "support/Interrupt.h"
#include "Commands.h"
#include "translate/TranslationCli.h"
#include "support/CorpusOptions.h"
#include "support/TrainingFlags.h"
#include "base/InputError.h"
#include "engine/Runtime.h"
#include "engine/translation/TranslationTrainer.h"

namespace attnlab::cli {

namespace {

nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

double roundedFinite4(double v) { return std::isfinite(v) ? std::round(v * 10000.0) / 10000.0 : v; }

class ProgressBar {
public:
    explicit ProgressBar(int epochs) : enabled_(isatty(STDERR_FILENO) != 0), epochs_(epochs) {}
    void update(const BatchReport& r) {
        if (!enabled_) return;
        const auto now = std::chrono::steady_clock::now();
        if (r.batch == 1) epochStart_ = now;
        const double elapsed = std::chrono::duration<double>(now - epochStart_).count();
        const double fraction = static_cast<double>(r.batch) / r.batchesPerEpoch;
        const int eta = fraction > 0 ? static_cast<int>(elapsed / fraction - elapsed) : 0;
        const int width = 30, filled = static_cast<int>(fraction * width);
        std::fprintf(stderr, "\repoch %d/%d [%s%s] %3.0f%% loss %.4f ETA %d:%02d ", r.epoch, epochs_,
                     std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(), fraction * 100,
                     r.loss, eta / 60, eta % 60);
        std::fflush(stderr);
    }
    void clear() {
        if (enabled_) std::fprintf(stderr, "\r%*s\r", 79, "");
    }

private:
    bool enabled_;
    int epochs_;
    std::chrono::steady_clock::time_point epochStart_ = std::chrono::steady_clock::now();
};

// A named choice (--arch, --attention, --query, --dropout-on): a bad value is a usage error
// that names the flag.
template <typename Parse>
auto parseChoice(const ArgParser& args, const char* flag, const std::string& fallback, Parse parse) {
    try {
        return parse(args.text(flag, fallback));
    } catch (const ConfigError& e) {
        throw UsageError(std::string(flag) + ": " + e.what());
    }
}

}  // namespace

int trainTranslation(const Args& argv) {
    std::set<std::string> valueFlags = corpusValueFlags();
    valueFlags.insert({"--task", "--arch", "--attention", "--query", "--dropout-on", "--hidden", "--embedding", "--layers", "--heads", "--ff", "--window",
                       "--attention-pattern", "--chunk", "--positional",
                       "--dropout", "--batch", "--epochs", "--lr", "--clip", "--teacher-forcing", "--seed",
                       "--threads", "--val-fraction", "--max-len", "--min-freq", "--max-vocab", "--out",
                       "--debug-nan-at-batch", "--coverage-penalty", "--guided-alignment", "--alignment-head"});
    std::set<std::string> switches = tokenizerSwitches();
    switches.insert({"--bidirectional", "--no-bidirectional"});
    ArgParser args(argv, valueFlags, switches);
    if (!args.positionals().empty()) throw UsageError("unexpected argument '" + args.positionals().front() + "'");

    const std::string out = args.outputFile("--out");  // before any training
    const Architecture architecture = parseChoice(args, "--arch", args.required("--arch"), parseArchitecture);
    // The window's defaults too; the GRU's chosen by measurement (docs/defaults.md).
    const ModelConfig defaults = defaultModelConfig(architecture);
    ModelConfig config = defaults;
    const bool transformer = config.architecture == Architecture::Transformer;
    if (transformer && args.has("--attention"))
        throw UsageError("--attention applies to --arch gru (a Transformer uses multi-head attention)");
    for (const char* flag : {"--query", "--dropout-on", "--bidirectional", "--no-bidirectional"})
        if (transformer && args.has(flag)) throw UsageError(std::string(flag) + " applies to --arch gru");
    if (args.has("--bidirectional") && args.has("--no-bidirectional"))
        throw UsageError("--bidirectional and --no-bidirectional exclude each other");
    if (!transformer && (args.has("--heads") || args.has("--ff")))
        throw UsageError(std::string(args.has("--heads") ? "--heads" : "--ff") + " applies to --arch transformer");
    for (const char* flag : {"--attention-pattern", "--chunk", "--positional"})
        if (!transformer && args.has(flag)) throw UsageError(std::string(flag) + " applies to --arch transformer");
    config.pattern = parseChoice(args, "--attention-pattern", toString(defaults.pattern), parseAttentionPattern);
    const bool banded = config.pattern == AttentionPattern::Local || config.pattern == AttentionPattern::Strided;
    const bool blocked = config.pattern == AttentionPattern::Strided || config.pattern == AttentionPattern::Chunked;
    if (transformer && args.has("--window") && !banded)
        throw UsageError("--window applies to --attention-pattern local or strided (or a GRU's local-m and local-p)");
    if (args.has("--chunk") && !blocked) throw UsageError("--chunk applies to --attention-pattern strided or chunked");
    config.chunk = static_cast<int>(args.integer("--chunk", defaults.chunk, 0, 8192));
    config.positional = parseChoice(args, "--positional", toString(defaults.positional), parsePositionalKind);
    config.attention = parseChoice(args, "--attention", toString(defaults.attention), parseAttentionKind);
    config.query = parseChoice(args, "--query", toString(defaults.query), parseQueryOrder);
    config.dropoutOn = parseChoice(args, "--dropout-on", toString(defaults.dropoutOn), parseDropoutPlacement);
    config.hidden = static_cast<int>(args.integer("--hidden", defaults.hidden, 1, 4096));
    config.embedding = static_cast<int>(args.integer("--embedding", defaults.embedding, 0, 4096));
    config.layers = static_cast<int>(args.integer("--layers", defaults.layers, 1, 16));
    config.bidirectional = !transformer && (args.has("--bidirectional") ||
                                            (defaults.bidirectional && !args.has("--no-bidirectional")));
    config.heads = static_cast<int>(args.integer("--heads", defaults.heads, 1, 64));
    config.feedForward = static_cast<int>(args.integer("--ff", defaults.feedForward, 1, 16384));
    config.localWindow = static_cast<int>(args.integer("--window", defaults.localWindow, 1, 100));
    config.dropout = static_cast<float>(args.real("--dropout", defaults.dropout, 0.0, 0.95));
    const int maxLen = static_cast<int>(args.integer("--max-len", 0, 0, 8191));
    config.maxLength = maxLen > 0 ? maxLen + 1 : defaults.maxLength;

    TranslationTrainingOptions options;
    readSharedTrainingFlags(args, options);  // --lr defaults to TranslationTrainingOptions' 1e-3
    options.teacherForcing = args.real("--teacher-forcing", 1.0, 0.0, 1.0);
    options.coveragePenalty = args.real("--coverage-penalty", 0.0, 0.0, 100.0);
    options.guidedAlignment = args.real("--guided-alignment", 0.0, 0.0, 100.0);
    if (auto head = args.value("--alignment-head")) {
        if (!transformer) throw UsageError("--alignment-head applies to --arch transformer (a GRU has one map)");
        if (!args.has("--guided-alignment")) throw UsageError("--alignment-head needs --guided-alignment");
        int layer = 0, h = 0;
        char colon = 0, extra = 0;
        if (std::sscanf(head->c_str(), "%d%c%d%c", &layer, &colon, &h, &extra) != 3 || colon != ':' || layer < 1 ||
            h < 1)
            throw UsageError("--alignment-head must be LAYER:HEAD, both counted from 1 (e.g. 2:1), got '" + *head + "'");
        options.alignmentLayer = layer - 1;
        options.alignmentHead = h - 1;
    }
    options.injectNonFiniteAtBatch = args.integer("--debug-nan-at-batch", 0, 0, 1LL << 62);
    checkConfig([&] {
        ModelConfig c = config;  // vocabulary sizes are not known yet
        c.sourceVocab = c.targetVocab = 5;
        return c;
    }());

    // Arguments are valid: training is worth the re-exec for faster BLAS kernels.
    preferFastBlasKernels(programArguments());
    ParallelCorpus corpus = loadCorpus(args, maxLen);
    for (const auto& w : corpus.warnings) std::cerr << "warning: " << w << "\n";
    TranslationTrainer trainer(corpus, config, options);
    if (trainer.skippedTooLong() > 0)
        std::cerr << "warning: skipped " << trainer.skippedTooLong() << " pairs longer than "
                  << trainer.model().config().maxLength - 1 << " tokens\n";
    std::cerr << "training " << toString(config.architecture)
              << (transformer && config.pattern != AttentionPattern::Full
                      ? ", " + toString(config.pattern) + " attention" : std::string())
              << (transformer ? "" : " + " + toString(config.attention) + ", query " + toString(config.query) +
                                         (config.bidirectional ? ", bidirectional encoder" : ""))
              << " (" << trainer.model().parameterCount()
              << " parameters) on " << trainer.trainingExamples() << " pairs, validating on "
              << trainer.validationExamples() << "\n";

    catchInterrupts(true);
    ProgressBar bar(options.epochs);
    auto save = [&] { trainer.model().save(out, {{"epochs_trained", std::to_string(trainer.completedEpochs())}}); };
    TranslationTrainer::Outcome outcome;
    try {
        outcome = trainer.run([&](const BatchReport& r) { bar.update(r); },
                              [&](const TranslationEpochMetrics& m) {
                                  bar.clear();
                                  nlohmann::json j{{"epoch", m.epoch},
                                                   {"train_loss", roundedFinite4(m.trainLoss)},
                                                   {"val_loss", roundedFinite4(m.validationLoss)},
                                                   {"val_token_acc", roundedFinite4(m.tokenAccuracy)},
                                                   {"val_exact", roundedFinite4(m.exactMatch)},
                                                   {"val_bleu", roundedFinite4(m.bleu)},
                                                   {"attention_entropy", number(roundedFinite4(m.attentionEntropy))},
                                                   {"uncovered", number(roundedFinite4(m.uncoveredShare))},
                                                   {"aer", number(roundedFinite4(m.alignmentErrorRate))},
                                                   {"align_precision", number(roundedFinite4(m.alignmentPrecision))},
                                                   {"align_recall", number(roundedFinite4(m.alignmentRecall))},
                                                   {"pairs_per_sec", std::round(m.pairsPerSecond * 10) / 10},
                                                   {"seconds", std::round(m.seconds * 100) / 100}};
                                  std::cout << j.dump() << std::endl;
                                  save();
                              },
                              &interruptFlag());
    } catch (const TrainingDiverged& e) {
        bar.clear();
        save();
        std::cerr << "error: " << e.what() << " (saved to " << out << ")\n";
        return kInternal;
    }
    bar.clear();
    save();
    return reportSaved(outcome == TranslationTrainer::Outcome::Stopped, out);
}

}  // namespace attnlab::cli
