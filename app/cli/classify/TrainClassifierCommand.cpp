// attnlab-cli train --task classify: one JSON object per epoch on stdout, the model saved
// atomically after every epoch and at the end (as `train` does for translation).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <iostream>
#include <nlohmann/json.hpp>

#include "support/Interrupt.h"
#include "classify/ClassifierData.h"
#include "Commands.h"
#include "support/CorpusOptions.h"
#include "support/TrainingFlags.h"
#include "base/InputError.h"
#include "base/text/ClassifyDatasets.h"
#include "engine/text/ClassifierTrainer.h"
#include "engine/Runtime.h"

namespace attnlab::cli {

namespace {

}  // namespace

int runTrainClassifier(const Args& argv) {
    std::set<std::string> valueFlags = classifierDataFlags();
    valueFlags.insert({"--arch", "--attention", "--hops", "--penalty", "--hidden", "--embedding", "--attention-size",
                       "--dropout", "--batch", "--epochs", "--lr", "--clip", "--seed", "--threads", "--val-fraction",
                       "--max-len", "--min-freq", "--max-vocab", "--out", "--units", "--layers", "--heads", "--ff",
                       "--attention-pattern", "--window", "--chunk"});
    std::set<std::string> switches = tokenizerSwitches();
    switches.insert({"--bidirectional", "--no-bidirectional"});
    ArgParser args(argv, valueFlags, switches);
    if (!args.positionals().empty()) throw UsageError("unexpected argument '" + args.positionals().front() + "'");
    const std::string out = args.outputFile("--out");  // before any training
    const std::string arch = args.required("--arch");
    if (arch != "gru" && arch != "transformer")
        throw UsageError("--arch: unknown architecture '" + arch + "' (expected one of: gru, transformer)");
    const bool transformer = arch == "transformer";
    for (const char* flag : {"--attention", "--hops", "--penalty", "--attention-size", "--bidirectional", "--no-bidirectional"})
        if (transformer && args.has(flag))
            throw UsageError(std::string(flag) + " applies to --arch gru (a Transformer classifies from its [CLS] token)");
    for (const char* flag : {"--layers", "--heads", "--ff"})
        if (!transformer && args.has(flag)) throw UsageError(std::string(flag) + " applies to --arch transformer");
    if (!transformer) refusePatternFlags(args, "--arch transformer");
    if (args.has("--bidirectional") && args.has("--no-bidirectional"))
        throw UsageError("--bidirectional and --no-bidirectional exclude each other");

    const ClassifierConfig defaults;
    ClassifierConfig config;
    const PatternFlags pattern = readPatternFlags(args, {defaults.pattern, defaults.window, defaults.chunk});
    config.pattern = pattern.pattern;
    config.window = pattern.window;
    config.chunk = pattern.chunk;
    try {
        config.pooling = parsePooling(args.text("--attention", toString(defaults.pooling)));
    } catch (const ConfigError& e) {
        throw UsageError(std::string("--attention: ") + e.what());
    }
    config.architecture = transformer ? ClassifierArchitecture::Transformer : ClassifierArchitecture::Gru;
    config.layers = static_cast<int>(args.integer("--layers", defaults.layers, 1, 16));
    config.heads = static_cast<int>(args.integer("--heads", defaults.heads, 1, 64));
    config.feedForward = static_cast<int>(args.integer("--ff", defaults.feedForward, 1, 16384));
    config.hops = static_cast<int>(args.integer("--hops", defaults.hops, 1, 32));
    if (!poolingAttends(config.pooling) && config.hops != 1)
        throw UsageError("--hops applies to attention pooling (additive, dot, scaled-dot)");
    config.penalty = static_cast<float>(args.real("--penalty", defaults.penalty, 0.0, 100.0));
    config.hidden = static_cast<int>(args.integer("--hidden", defaults.hidden, 1, 4096));
    if (transformer && config.hidden % config.heads != 0)  // checked here too, to name the flags
        throw UsageError("--heads " + std::to_string(config.heads) + " does not divide --hidden " +
                         std::to_string(config.hidden));
    config.embedding = static_cast<int>(args.integer("--embedding", defaults.embedding, 0, 4096));
    config.attentionSize = static_cast<int>(args.integer("--attention-size", defaults.attentionSize, 0, 4096));
    config.bidirectional = !args.has("--no-bidirectional");
    config.dropout = static_cast<float>(args.real("--dropout", defaults.dropout, 0.0, 0.95));
    // Language identification reads characters by default (a message's words are mostly unseen).
    const bool langid = args.text("--dataset", "") == "langid";
    try {
        config.units = parseTextUnits(args.text("--units", langid ? "characters" : "words"));
    } catch (const ConfigError& e) {
        throw UsageError(std::string("--units: ") + e.what());
    }
    const int maxLen = static_cast<int>(args.integer("--max-len", 0, 0, 8192));
    config.maxLength = maxLen > 0 ? maxLen : defaults.maxLength;
    // needle texts longer than the default would lose their keyword to the truncation: without
    // --max-len the model reads the whole text, up to the architecture's limit.
    if (maxLen == 0 && args.text("--dataset", "") == "needle" && args.has("--length"))
        config.maxLength = std::max(config.maxLength, std::min(static_cast<int>(args.integer("--length", 0, kMinNeedleLength, kMaxNeedleLength)),
                                                               transformer ? 4096 : 8192));

    ClassifierTrainingOptions options;
    readSharedTrainingFlags(args, options);  // --lr defaults to ClassifierTrainingOptions' 2e-3

    preferFastBlasKernels(programArguments());
    const ClassificationCorpus corpus = loadClassificationCorpus(args);
    for (const auto& w : corpus.warnings) std::cerr << "warning: " << w << "\n";
    ClassifierTrainer trainer(corpus, config, options);
    std::cerr << "training a "
              << (transformer ? "transformer classifier (" + std::to_string(config.layers) + " layers, " +
                                    std::to_string(config.heads) + " heads, [CLS]" +
                                    (config.pattern != AttentionPattern::Full ? ", " + toString(config.pattern) + " attention"
                                                                              : std::string()) + ")"
                              : "gru classifier + " + toString(config.pooling) + " pooling" +
                                    (config.hops > 1 ? " (" + std::to_string(config.hops) + " hops)" : "") +
                                    (config.bidirectional ? ", bidirectional" : ""))
              << ", reading " << toString(config.units) << " ("
              << trainer.model().parameterCount()
              << " parameters, " << corpus.labels.size() << " classes) on " << trainer.trainingExamples()
              << " texts, validating on " << trainer.validationExamples() << "\n";

    catchInterrupts(true);
    auto save = [&] {
        trainer.model().save(out, {{"epochs_trained", std::to_string(trainer.completedEpochs())}});
    };
    ClassifierTrainer::Outcome outcome;
    try {
        outcome = trainer.run(
            [&](const ClassifierEpochMetrics& m) {
                nlohmann::json j{{"epoch", m.epoch},
                                 {"train_loss", rounded(m.trainLoss)},
                                 {"val_loss", rounded(m.validationLoss)},
                                 {"val_accuracy", rounded(m.accuracy)},
                                 {"val_macro_f1", rounded(m.macroF1)},
                                 {"attention_entropy", rounded(m.attentionEntropy)},
                                 {"uniform_entropy", rounded(m.uniformEntropy)}};
                if (corpus.hasRationales) {
                    j["rationale_mass"] = rounded(m.rationaleMass);
                    j["uniform_rationale_mass"] = rounded(m.uniformRationaleMass);
                }
                j["pairs_per_sec"] = std::round(m.pairsPerSecond * 10) / 10;
                j["seconds"] = std::round(m.seconds * 100) / 100;
                std::cout << j.dump() << std::endl;
                save();
            },
            &interruptFlag());
    } catch (const TrainingDiverged& e) {
        save();
        std::cerr << "error: " << e.what() << " (saved to " << out << ")\n";
        return kInternal;
    }
    save();
    return reportSaved(outcome == ClassifierTrainer::Outcome::Stopped, out);
}

}  // namespace attnlab::cli
