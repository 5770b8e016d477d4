// attnlab-cli experiment bottleneck|complexity|needle|faithfulness|long-range|positional: one JSON line on stdout, progress on
// stderr.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include <algorithm>
#include <cmath>

#include "Interrupt.h"
#include "ArgParser.h"
#include "ClassifierData.h"
#include "Commands.h"
#include "CorpusOptions.h"
#include "base/translation/Datasets.h"
#include "base/InputError.h"
#include "base/translation/ModelConfig.h"
#include "base/text/ClassifierConfig.h"
#include "base/text/ClassifyDatasets.h"
#include "engine/LongRangeExperiment.h"
#include "engine/text/ClassifierExperiments.h"
#include "engine/translation/PositionalExperiment.h"
#include "engine/translation/Experiments.h"
#include "engine/Runtime.h"
#include "engine/translation/Trainer.h"

namespace attnlab::cli {

namespace {

std::vector<int> parseLengths(const std::string& text, int low = 1, int high = 200) {
    std::vector<int> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        char* end = nullptr;
        const long v = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || v < low || v > high)
            throw UsageError("--lengths expects comma-separated lengths between " + std::to_string(low) + " and " +
                             std::to_string(high) + ", got '" + text + "'");
        out.push_back(static_cast<int>(v));
    }
    if (out.empty()) throw UsageError("--lengths expects at least one length");
    return out;
}

double round4(double v) { return std::round(v * 10000.0) / 10000.0; }

int runBottleneck(const Args& argv) {
    std::set<std::string> switches = splitCjkSwitches();
    switches.insert("--bidirectional");
    ArgParser args(argv, {"--dataset", "--lengths", "--epochs", "--hidden", "--seed", "--threads", "--pairs", "--attention",
                    "--lr"},
                   switches);
    if (!args.positionals().empty()) throw UsageError("unexpected argument '" + args.positionals().front() + "'");
    BottleneckOptions o;
    o.dataset = args.text("--dataset", o.dataset);
    if (!isBuiltinDataset(o.dataset)) throw UsageError("--dataset: unknown dataset '" + o.dataset + "'");
    if (auto l = args.value("--lengths")) o.lengths = parseLengths(*l);
    o.epochs = static_cast<int>(args.integer("--epochs", o.epochs, 1, 1000));
    o.hidden = static_cast<int>(args.integer("--hidden", o.hidden, 1, 4096));
    o.seed = static_cast<std::uint64_t>(args.integer("--seed", static_cast<long long>(o.seed), 0, 1LL << 62));
    o.threads = static_cast<int>(args.integer("--threads", 1, 1, 64));
    o.pairs = static_cast<std::size_t>(args.integer("--pairs", static_cast<long long>(o.pairs), 20, 1000000));
    o.learningRate = args.real("--lr", o.learningRate, 1e-6, 1.0);
    o.bidirectional = args.has("--bidirectional");
    if (auto split = splitCjkFlag(args)) {
        o.tokenizer = findBuiltinDataset(o.dataset)->tokenizer;
        o.tokenizer->splitCjkCharacters = *split;
    }
    o.attentions = {"none", args.text("--attention", "additive")};
    parseAttentionKind(o.attentions[1]);  // validates the name

    preferFastBlasKernels(programArguments());
    catchInterrupts(false);
    const bool tty = isatty(STDERR_FILENO) != 0;
    {
        std::string lengths;
        for (int len : o.lengths) lengths += (lengths.empty() ? "" : ",") + std::to_string(len);
        std::cerr << "bottleneck: " << o.dataset << ", lengths " << lengths << ", none against " << o.attentions[1]
                  << ", " << o.pairs << " pairs, " << o.epochs << " epochs, seed " << o.seed << "\n";
    }
    BottleneckResult r = runBottleneckExperiment(
        o,
        [&](int done, int total, const std::string& message) {
            std::cerr << (tty ? "\r\033[K" : "") << "[" << done << "/" << total << "] " << message
                      << (tty ? "" : "\n") << std::flush;
        },
        &interruptFlag());
    if (tty) std::cerr << "\n";
    nlohmann::json accuracy = nlohmann::json::object();
    for (const auto& [name, values] : r.accuracy) {
        nlohmann::json a = nlohmann::json::array();
        for (double v : values) a.push_back(round4(v));
        accuracy[name] = a;
    }
    std::cout << nlohmann::json{{"lengths", r.lengths}, {"accuracy", accuracy}, {"seed", o.seed}}.dump() << std::endl;
    return interruptFlag().load() ? kInterrupted : kOk;
}

int runComplexity(const Args& argv) {
    ArgParser args(argv, {"--max-len", "--dim", "--window", "--repeats"}, {});
    if (!args.positionals().empty()) throw UsageError("unexpected argument '" + args.positionals().front() + "'");
    ComplexityOptions o;
    const int maxLen = static_cast<int>(args.integer("--max-len", 8192, 64, 16384));
    o.lengths.clear();
    for (int n = 64; n <= maxLen; n *= 2) o.lengths.push_back(n);
    o.dim = static_cast<int>(args.integer("--dim", o.dim, 1, 1024));
    o.window = static_cast<int>(args.integer("--window", o.window, 1, 1024));
    o.repeats = static_cast<int>(args.integer("--repeats", o.repeats, 1, 100));
    o.fitFrom = std::min(512, o.lengths.size() > 2 ? o.lengths[o.lengths.size() - 3] : 64);
    preferFastBlasKernels(programArguments());
    ComplexityResult r = runComplexityExperiment(o, [](const std::string& m) { std::cerr << m << "\n"; });
    nlohmann::json methods = nlohmann::json::object();
    for (const auto& [name, s] : r.methods) {
        methods[name] = {{"seconds", s.seconds},
                         {"bytes", s.bytes},
                         {"time_slope", round4(s.timeSlope)},
                         {"memory_slope", round4(s.memorySlope)}};
    }
    std::cout << nlohmann::json{{"lengths", r.lengths}, {"dim", o.dim}, {"window", o.window}, {"methods", methods}}
                     .dump()
              << std::endl;
    return kOk;
}

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

std::vector<std::string> parseNames(const std::string& flag, const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        if (item.empty()) throw UsageError(flag + " expects comma-separated names, got '" + text + "'");
        out.push_back(item);
    }
    if (out.empty()) throw UsageError(flag + " expects at least one name");
    return out;
}

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

void progressLine(bool tty, int done, int total, const std::string& message) {
    std::cerr << (tty ? "\r\033[K" : "") << "[" << done << "/" << total << "] " << message << (tty ? "" : "\n")
              << std::flush;
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

int runPositional(const Args& argv) {
    ArgParser args(argv, {"--dataset", "--lengths", "--models", "--epochs", "--hidden", "--pairs", "--lr", "--seed",
                          "--threads"},
                   {});
    if (!args.positionals().empty()) throw UsageError("unexpected argument '" + args.positionals().front() + "'");
    PositionalOptions o;
    o.dataset = args.text("--dataset", o.dataset);
    if (!isBuiltinDataset(o.dataset)) throw UsageError("--dataset: unknown dataset '" + o.dataset + "'");
    if (auto l = args.value("--lengths")) o.lengths = parseLengths(*l, 2, 100);
    if (auto m = args.value("--models")) {
        o.models = parseNames("--models", *m);
        for (const auto& name : o.models)
            if (name != "gru" && name != "sinusoidal" && name != "learned" && name != "none")
                throw UsageError("--models: unknown model '" + name + "' (expected sinusoidal, learned, none or gru)");
    }
    o.epochs = static_cast<int>(args.integer("--epochs", o.epochs, 1, 1000));
    o.hidden = static_cast<int>(args.integer("--hidden", o.hidden, 4, 4096));
    if (o.hidden % o.heads != 0) throw UsageError("--hidden must be a multiple of 4 (the Transformer's heads)");
    o.pairs = static_cast<std::size_t>(args.integer("--pairs", static_cast<long long>(o.pairs), 20, 1000000));
    o.learningRate = args.real("--lr", o.learningRate, 1e-6, 1.0);
    o.seed = static_cast<std::uint64_t>(args.integer("--seed", static_cast<long long>(o.seed), 0, 1LL << 62));
    o.threads = static_cast<int>(args.integer("--threads", 1, 1, 64));

    preferFastBlasKernels(programArguments());
    catchInterrupts(false);
    const bool tty = isatty(STDERR_FILENO) != 0;
    std::cerr << "positional: " << o.dataset << ", " << o.pairs << " pairs per length, " << o.epochs
              << " epochs, hidden " << o.hidden << ", seed " << o.seed << "\n";
    const PositionalResult r = runPositionalExperiment(
        o, [&](int done, int total, const std::string& m) { progressLine(tty, done, total, m); }, &interruptFlag());
    if (tty) std::cerr << "\n";
    auto table = [](const std::map<std::string, std::vector<double>>& values) {
        nlohmann::json j = nlohmann::json::object();
        for (const auto& [name, v] : values) {
            nlohmann::json a = nlohmann::json::array();
            for (double x : v) a.push_back(round4(x));
            j[name] = a;
        }
        return j;
    };
    std::cout << nlohmann::json{{"dataset", o.dataset},
                                {"lengths", r.lengths},
                                {"models", r.models},
                                {"token_accuracy", table(r.tokenAccuracy)},
                                {"exact_match", table(r.exactMatch)},
                                {"epochs", o.epochs},
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

}  // namespace

int runExperiment(const Args& args) {
    const char* names = "bottleneck, needle, faithfulness, deletion, complexity, long-range or positional";
    if (args.empty()) throw UsageError(std::string("name an experiment: ") + names);
    const Args rest(args.begin() + 1, args.end());
    if (args.front() == "bottleneck") return runBottleneck(rest);
    if (args.front() == "complexity") return runComplexity(rest);
    if (args.front() == "needle") return runNeedle(rest);
    if (args.front() == "faithfulness") return runFaithfulness(rest);
    if (args.front() == "deletion") return runDeletionExperiment(rest);
    if (args.front() == "long-range") return runLongRange(rest);
    if (args.front() == "positional") return runPositional(rest);
    throw UsageError("unknown experiment '" + args.front() + "' (expected " + names + ")");
}

}  // namespace attnlab::cli
