// attnlab-cli experiment bottleneck|complexity|positional (the translation task's): one JSON line on
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
#include "base/translation/Datasets.h"
#include "base/translation/ModelConfig.h"
#include "engine/translation/Experiments.h"
#include "engine/translation/PositionalExperiment.h"
#include "engine/translation/TranslationTrainer.h"
#include "translate/TranslationCli.h"

namespace attnlab::cli {

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

}  // namespace attnlab::cli
