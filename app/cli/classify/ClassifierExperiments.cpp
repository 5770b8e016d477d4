// attnlab-cli experiment needle|long-range|faithfulness (the text classifier's): one JSON line on
// stdout, progress on stderr.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ArgParser.h"
#include "support/CorpusOptions.h"
#include "support/ExperimentSupport.h"
#include "support/Interrupt.h"
#include "base/InputError.h"
#include "engine/Runtime.h"
#include "base/text/ClassifierConfig.h"
#include "base/text/ClassifyDatasets.h"
#include "classify/ClassifierCli.h"
#include "classify/ClassifierData.h"
#include "engine/LongRangeExperiment.h"
#include "engine/text/ClassifierExperiments.h"

namespace attnlab::cli {

namespace {


// "2G", "1536M", "2048" (megabytes) -> bytes.
double parseMemoryBudget(const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    std::string unit(end ? end : "");
    for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (!unit.empty() && unit.back() == 'B') unit.pop_back();
    const double scale = unit == "G" ? 1024.0 * 1024 * 1024 : unit == "M" || unit.empty() ? 1024.0 * 1024 : 0.0;
    if (text.empty() || end == text.c_str() || scale == 0.0 || !std::isfinite(v) || v <= 0)
        throw UsageError("--memory-budget expects a size such as 2G or 512M, got '" + text + "'");
    return v * scale;
}

}  // namespace

int runNeedle(const Args& argv) {
    ArgParser args(argv, {"--lengths", "--epochs", "--size", "--hidden", "--seed", "--attention"}, {"--bidirectional"});
    if (!args.positionals().empty()) throw UsageError("unexpected argument '" + args.positionals().front() + "'");
    NeedleOptions o;
    if (auto list = args.value("--lengths")) o.lengths = parseLengths(*list, kMinNeedleLength, kMaxNeedleLength);
    o.epochs = static_cast<int>(args.integer("--epochs", o.epochs, 1, 1000));
    o.texts = static_cast<std::size_t>(args.integer("--size", static_cast<long long>(o.texts), 20, 1000000));
    o.hidden = static_cast<int>(args.integer("--hidden", o.hidden, 1, 4096));
    o.seed = static_cast<std::uint64_t>(args.integer("--seed", 1, 0, 1LL << 62));
    o.bidirectional = args.has("--bidirectional");
    const std::string attention = args.text("--attention", "additive");
    try {
        if (!poolingAttends(parsePooling(attention))) throw ConfigError("'" + attention + "' does not attend");
    } catch (const ConfigError& e) {
        throw UsageError(std::string("--attention: ") + e.what() + " (expected additive, dot or scaled-dot)");
    }
    o.poolings = {"none", attention};

    preferFastBlasKernels(programArguments());
    catchInterrupts(false);
    const bool tty = isatty(STDERR_FILENO) != 0;
    std::cerr << "needle: last state (none) against " << attention << " pooling, " << o.texts << " texts, "
              << o.epochs << " epochs, hidden " << o.hidden << (o.bidirectional ? ", bidirectional" : ", one-way")
              << ", seed " << o.seed << "\n";
    const NeedleResult r = runNeedleExperiment(
        o,
        [&](int done, int total, const std::string& message) {
            std::cerr << (tty ? "\r\033[K" : "") << "[" << done << "/" << total << "] " << message
                      << (tty ? "" : "\n") << std::flush;
        },
        &interruptFlag());
    if (tty) std::cerr << "\n";
    nlohmann::json accuracy = nlohmann::json::object(), byPosition = nlohmann::json::object();
    for (const auto& [name, values] : r.accuracy) {
        nlohmann::json a = nlohmann::json::array();
        for (double v : values) a.push_back(round4(v));
        accuracy[name] = a;
    }
    for (const auto& [name, halves] : r.byPosition) {
        nlohmann::json a = nlohmann::json::array();
        for (const auto& [early, late] : halves) a.push_back({{"first_half", round4(early)}, {"second_half", round4(late)}});
        byPosition[name] = a;
    }
    std::cout << nlohmann::json{{"lengths", r.lengths}, {"accuracy", accuracy}, {"by_keyword_position", byPosition},
                                {"seed", o.seed}}
                     .dump()
              << std::endl;
    return interruptFlag().load() ? kInterrupted : kOk;
}

int runLongRange(const Args& argv) {
    ArgParser args(argv, {"--lengths", "--patterns", "--steps", "--extend-steps", "--warmup-steps", "--warmup-length",
                          "--texts", "--batch", "--max-length", "--memory-budget", "--window", "--hidden", "--seed"},
                   {"--no-extend"});
    if (!args.positionals().empty()) throw UsageError("unexpected argument '" + args.positionals().front() + "'");
    LongRangeOptions o;
    if (auto l = args.value("--lengths")) o.lengths = parseLengths(*l, 8, 65536);
    if (auto p = args.value("--patterns")) {
        o.patterns = parseNames("--patterns", *p);
        for (const auto& name : o.patterns) {
            try {
                parseAttentionPattern(name);
            } catch (const ConfigError& e) {
                throw UsageError(std::string("--patterns: ") + e.what());
            }
        }
    }
    o.steps = static_cast<int>(args.integer("--steps", o.steps, 1, 100000));
    o.extendSteps = static_cast<int>(args.integer("--extend-steps", o.extendSteps, 1, 100000));
    o.warmupSteps = static_cast<int>(args.integer("--warmup-steps", o.warmupSteps, 0, 100000));
    o.warmupLength = static_cast<int>(args.integer("--warmup-length", o.warmupLength, 8, 65536));
    o.texts = static_cast<std::size_t>(args.integer("--texts", static_cast<long long>(o.texts), 4, 100000));
    o.batch = static_cast<int>(args.integer("--batch", o.batch, 1, 1024));
    o.maxLength = static_cast<int>(args.integer("--max-length", o.maxLength, 8, 65536));
    o.window = static_cast<int>(args.integer("--window", o.window, 1, 100));
    o.hidden = static_cast<int>(args.integer("--hidden", o.hidden, 2, 1024));
    if (o.hidden % o.heads != 0) throw UsageError("--hidden must be even (two heads)");
    o.seed = static_cast<std::uint64_t>(args.integer("--seed", static_cast<long long>(o.seed), 0, 1LL << 62));
    if (auto b = args.value("--memory-budget")) o.memoryBudget = parseMemoryBudget(*b);
    o.extend = !args.has("--no-extend");
    {
        const double physical = static_cast<double>(physicalMemoryBytes());
        if (o.memoryBudget < 16.0 * 1024 * 1024 || (physical > 0 && o.memoryBudget > 0.8 * physical))
            throw UsageError("--memory-budget must be between 16M and 80% of this machine's memory (" +
                             std::to_string(static_cast<long long>(0.8 * physical / 1048576)) + "M)");
    }

    preferFastBlasKernels(programArguments());
    catchInterrupts(false);
    const bool tty = isatty(STDERR_FILENO) != 0;
    std::cerr << "long-range: classifier Transformer on needle, warmed up for " << o.warmupSteps << " steps at N = "
              << o.warmupLength << ", " << o.steps << " steps per length (then "
              << o.extendSteps << " per doubling up to " << o.maxLength << "), batch " << o.batch << ", "
              << o.texts << " validation texts, memory budget " << std::llround(o.memoryBudget / 1048576) << " MB\n";
    const LongRangeResult r = runLongRangeExperiment(
        o, [&](int done, int total, const std::string& m) { progressLine(tty, done, total, m); }, &interruptFlag());
    if (tty) std::cerr << "\n";
    nlohmann::json patterns = nlohmann::json::object();
    for (const auto& name : o.patterns) {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& row : r.rows) {
            if (row.pattern != name) continue;
            nlohmann::json j = {{"length", row.length},
                                {"status", row.ran ? "ran" : "over_budget"},
                                {"steps", row.steps},
                                {"predicted_bytes", std::llround(row.predictedBytes)}};
            if (row.ran) {
                j["accuracy"] = round4(row.accuracy);
                j["seconds_per_step"] = round4(row.secondsPerStep);
                j["cpu_seconds_per_step"] = round4(row.cpuSecondsPerStep);
                j["peak_bytes"] = std::llround(row.peakBytes);
            }
            rows.push_back(j);
        }
        int longest = 0;
        for (const auto& [p, n] : r.longest)
            if (p == name) longest = n;
        patterns[name] = {{"complexity", patternComplexity(name)}, {"longest", longest}, {"rows", rows}};
    }
    std::cout << nlohmann::json{{"lengths", o.lengths},
                                {"memory_budget", std::llround(o.memoryBudget)},
                                {"steps", o.steps},
                                {"extend_steps", o.extendSteps},
                                {"warmup", {{"length", o.warmupLength}, {"steps", o.warmupSteps}}},
                                {"batch", o.batch},
                                {"patterns", patterns},
                                {"seed", o.seed}}
                     .dump()
              << std::endl;
    return interruptFlag().load() ? kInterrupted : kOk;
}

int runFaithfulness(const Args& argv) {
    std::set<std::string> valueFlags = classifierDataFlags();
    valueFlags.insert({"--model", "--texts", "--permutations", "--steps", "--baseline-epochs", "--seed", "--val-fraction"});
    ArgParser args(argv, valueFlags, {});
    if (!args.positionals().empty()) throw UsageError("unexpected argument '" + args.positionals().front() + "'");
    const std::string path = args.required("--model");
    FaithfulnessOptions o;
    o.maxTexts = static_cast<std::size_t>(args.integer("--texts", 200, 1, 100000));
    o.permutations = static_cast<int>(args.integer("--permutations", 20, 1, 1000));
    o.igSteps = static_cast<int>(args.integer("--steps", 64, 1, 10000));
    o.baselineEpochs = static_cast<int>(args.integer("--baseline-epochs", 10, 0, 1000));
    o.seed = static_cast<std::uint64_t>(args.integer("--seed", 1, 0, 1LL << 62));
    o.validationFraction = args.real("--val-fraction", 0.1, 0.01, 0.9);
    const TextClassifier model = TextClassifier::load(path);
    preferFastBlasKernels(programArguments());
    const ClassificationCorpus corpus = loadClassificationCorpus(args);
    catchInterrupts(false);
    std::cerr << "faithfulness: " << path << " on the validation texts of " << corpus.name << " (seed " << o.seed
              << ", fraction " << o.validationFraction << ": the split train holds out with the same values)\n";
    const FaithfulnessResult r = runFaithfulnessExperiment(
        model, corpus, o, [](int done, int total, const std::string& m) {
            std::cerr << "[" << done << "/" << total << "] " << m << "\n";
        }, &interruptFlag());
    auto finite = [](double v) { return std::isfinite(v) ? nlohmann::json(round4(v)) : nlohmann::json(nullptr); };
    nlohmann::json agreement = nlohmann::json::object();
    for (const auto& [method, a] : r.agreement) {
        std::vector<int> histogram(20, 0);  // tau in [-1, 1], bins of 0.1
        for (double t : a.taus) ++histogram[static_cast<std::size_t>(std::clamp(static_cast<int>((t + 1.0) * 10.0), 0, 19))];
        agreement[method] = {{"mean_tau", finite(a.meanTau)}, {"median_tau", finite(a.medianTau)},
                             {"mean_spearman", finite(a.meanRho)}, {"tau_histogram", histogram}};
    }
    std::cout << nlohmann::json{{"texts", r.texts},
                                {"accuracy", finite(r.accuracy)},
                                {"kendall_tau", agreement},
                                {"top_word_in_rationale", finite(r.topWordInRationale)},
                                {"permutation", {{"median_output_change", finite(r.permutationMedianChange)},
                                                 {"share_below_0.05", finite(r.permutationShareSmall)},
                                                 {"permutations", o.permutations}}},
                                {"uniform_baseline_accuracy", finite(r.uniformAccuracy)},
                                {"seed", o.seed}}
                     .dump()
              << std::endl;
    return interruptFlag().load() ? kInterrupted : kOk;
}

}  // namespace attnlab::cli
