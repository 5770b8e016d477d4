// attnlab-cli's language-model task, engine part: train --task lm, and generate, attend and detect on
// a language model.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "ArgParser.h"
#include "base/InputError.h"
#include "base/lm/LmConfig.h"
#include "engine/Runtime.h"
#include "engine/lm/LmHeadStudy.h"
#include "base/lm/LmHubCache.h"
#include "engine/lm/LmModel.h"
#include "engine/lm/LmTrainer.h"
#include "lm/LmCli.h"
#include "support/HeadStudyOutput.h"
#include "support/Interrupt.h"
#include "support/TrainingFlags.h"

namespace attnlab::cli {

namespace {

using Json = nlohmann::ordered_json;

// A figure with 4 decimals, null when undefined (as every train's JSON: TrainingFlags.h's rounded).
Json r4(double v) { return std::isfinite(v) ? Json(std::round(v * 10000.0) / 10000.0) : Json(nullptr); }

std::string fixedOrNa(double v, int digits) {
    if (!std::isfinite(v)) return "n/a";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
    return buffer;
}

Json candidatesJson(const std::vector<LmCandidate>& list) {
    Json out = Json::array();
    for (const LmCandidate& c : list) {
        Json one;
        one["id"] = c.id;
        one["token"] = c.token;
        one["logprob"] = r4(c.logprob);
        out.push_back(one);
    }
    return out;
}

// {layer, head, score} of the best head (from 1), or null.
Json bestHead(const std::vector<std::vector<double>>& scores) {
    Json best(nullptr);
    double top = -1;
    for (std::size_t l = 0; l < scores.size(); ++l)
        for (std::size_t h = 0; h < scores[l].size(); ++h)
            if (scores[l][h] > top) {
                top = scores[l][h];
                best = Json::object();
                best["layer"] = l + 1;
                best["head"] = h + 1;
                best["score"] = r4(top);
            }
    return best;
}

Json scoresJson(const std::vector<std::vector<double>>& scores) {
    Json out = Json::array();
    for (const auto& layer : scores) {
        Json row = Json::array();
        for (double v : layer) row.push_back(r4(v));
        out.push_back(row);
    }
    return out;
}

Json circuitsJson(const LmCircuitScores& c) {
    Json j;
    j["copy_accuracy"] = r4(c.copyAccuracy);
    j["icl"] = r4(c.inContextLearning);
    j["best_previous_token"] = bestHead(c.heads.previousToken);
    j["best_induction"] = bestHead(c.heads.induction);
    j["previous_token"] = scoresJson(c.heads.previousToken);
    j["duplicate_token"] = scoresJson(c.heads.duplicateToken);
    j["induction"] = scoresJson(c.heads.induction);
    return j;
}

std::string headText(const Json& best) {
    if (best.is_null()) return "n/a";
    return best["score"].dump() + " (L" + best["layer"].dump() + "H" + best["head"].dump() + ")";
}

LmConfig readLmConfig(const ArgParser& args) {
    if (args.has("--attention-only") && args.has("--full")) throw UsageError("--attention-only and --full exclude each other");
    if (args.has("--tied") && args.has("--untied")) throw UsageError("--tied and --untied exclude each other");
    LmConfig c = args.has("--full") ? lmGpt2Form() : LmConfig{};
    c.layers = static_cast<int>(args.integer("--layers", c.layers, 1, 24));
    c.heads = static_cast<int>(args.integer("--heads", c.heads, 1, 64));
    c.dModel = static_cast<int>(args.integer("--hidden", c.dModel, 8, 2048));
    c.feedForward = static_cast<int>(args.integer("--ff", args.has("--full") ? 4 * c.dModel : c.feedForward, 1, 16384));
    c.context = static_cast<int>(args.integer("--context", c.context, kLmMinContext, kLmMaxContext));
    c.dropout = static_cast<float>(args.real("--dropout", c.dropout, 0.0, 0.95));
    try {
        if (args.has("--norm")) c.norm = parseLmNorm(args.text("--norm", ""));
        if (args.has("--positions")) c.positions = parseLmPositions(args.text("--positions", ""));
        if (args.has("--objective")) c.objective = parseLmObjective(args.text("--objective", ""));
    } catch (const ConfigError& e) {
        throw UsageError(std::string(args.has("--norm") ? "--norm" : args.has("--positions") ? "--positions" : "--objective") +
                         ": " + e.what());
    }
    if (args.has("--tied")) c.tied = true;
    if (args.has("--untied")) c.tied = false;
    if (c.dModel % c.heads != 0)
        throw UsageError("--heads " + std::to_string(c.heads) + " does not divide --hidden " + std::to_string(c.dModel));
    return c;
}

std::string describe(const LmConfig& c, std::int64_t parameters) {
    std::string s = std::to_string(c.layers) + " layers, " + std::to_string(c.heads) + " heads, d_model " +
                    std::to_string(c.dModel) + ", context " + std::to_string(c.context) + ", ";
    s += c.attentionOnly ? "attention only" : "MLP " + std::to_string(c.feedForward);
    s += c.norm == LmNorm::Pre ? ", pre-LayerNorm" : ", no LayerNorm";
    s += c.tied ? ", tied unembedding" : ", untied unembedding";
    if (c.positions == LmPositions::Sinusoidal) s += ", sinusoidal positions";
    if (c.objective == LmObjective::Masked) s += ", masked objective";
    return s + "; " + std::to_string(parameters) + " parameters";
}

void refuseArguments(const ArgParser& args) {
    if (!args.positionals().empty()) throw UsageError("unexpected argument '" + args.positionals().front() + "'");
}

}  // namespace

int runTrainLm(const Args& argv) {
    std::set<std::string> values = lmDataFlags();
    values.insert({"--task", "--arch", "--layers", "--heads", "--hidden", "--ff", "--context", "--dropout", "--norm",
                   "--positions", "--objective", "--steps", "--warmup", "--every", "--epochs", "--batch", "--lr",
                   "--clip", "--seed", "--threads", "--val-fraction", "--out"});
    ArgParser args(argv, values, {"--attention-only", "--full", "--tied", "--untied", "--plain", "--json"});
    refuseArguments(args);
    if (args.has("--arch") && args.text("--arch", "") != "gpt")
        throw UsageError("--arch: unknown architecture '" + args.text("--arch", "") + "' for --task lm (expected: gpt)");
    if (args.has("--epochs")) throw UsageError("--epochs does not apply to --task lm: its run is --steps long");
    const std::string out = args.outputFile("--out");
    LmConfig config = readLmConfig(args);
    LmTrainingOptions options;
    readRunFlags(args, options);
    options.epochs = 0;
    options.steps = static_cast<int>(args.integer("--steps", options.steps, 1, 10000000));
    options.warmup = static_cast<int>(args.integer("--warmup", options.warmup, 0, 10000000));
    options.evaluateEvery = static_cast<int>(args.integer("--every", options.evaluateEvery, 1, 10000000));
    if (!(options.validationFraction > 0)) throw UsageError("--val-fraction must be above 0 (held-out text is measured)");
    preferFastBlasKernels(programArguments());
    // A document of `context` tokens is read as <bos> and its first context - 1 tokens, predicting all
    // of them; a longer one is cut.
    const LmCorpus corpus = loadLmCorpus(args, config.context);
    if (corpus.cut > 0)
        std::cerr << "warning: " << corpus.cut << " documents longer than the context (" << config.context
                  << " tokens) were cut\n";
    config.vocabulary = static_cast<std::int64_t>(corpus.tokenizer.size());
    LmTrainer trainer(corpus, config, options);
    std::cerr << "training a language model (" << describe(config, trainer.model().parameterCount()) << ") on "
              << corpus.name << ": " << trainer.trainingExamples() << " documents, " << trainer.validationExamples()
              << " held out, a vocabulary of " << corpus.tokenizer.size() << "; " << options.steps << " steps\n";
    catchInterrupts(true);
    auto save = [&] { trainer.model().save(out, {{"steps_trained", std::to_string(trainer.completedSteps())}}); };
    LmTrainer::Outcome outcome;
    std::optional<Json> last;
    try {
        outcome = trainer.run(
            [&](const LmStepMetrics& m) {
                Json j;
                j["step"] = m.step;
                j["epoch"] = m.epoch;
                j["train_loss"] = r4(m.trainLoss);
                j["val_loss"] = r4(m.validationLoss);
                const Json circuits = circuitsJson(m.circuits);
                for (auto it = circuits.begin(); it != circuits.end(); ++it) j[it.key()] = it.value();
                j["tokens_per_sec"] = std::round(m.tokensPerSecond);
                j["seconds"] = std::round(m.seconds * 100) / 100;
                std::cerr << "step " << m.step << "/" << options.steps << "  loss " << fixedOrNa(m.trainLoss, 3) << " (val "
                          << fixedOrNa(m.validationLoss, 3) << ")  copy " << fixedOrNa(m.circuits.copyAccuracy, 2)
                          << "  previous-token " << headText(j["best_previous_token"]) << "  induction "
                          << headText(j["best_induction"]) << "  (" << fixedOrNa(m.seconds, 1) << " s)" << std::endl;
                std::cout << j.dump(-1, ' ', false, Json::error_handler_t::replace) << std::endl;
                last = j;
                save();
            },
            &interruptFlag());
    } catch (const TrainingDiverged& e) {
        save();
        std::cerr << "error: " << e.what() << " (saved to " << out << ")\n";
        return kInternal;
    }
    save();
    return reportSaved(outcome == LmTrainer::Outcome::Stopped, out);
}

int runAttend(const Args& argv) {
    ArgParser args(argv, {"--model", "--text", "--top", "--repeat", "--threads"}, {"--json"});
    refuseArguments(args);
    const std::string path = args.required("--model");
    const std::string text = args.required("--text");
    const int top = static_cast<int>(args.integer("--top", 10, 0, 1000));
    if (args.has("--threads")) setThreadCount(static_cast<int>(args.integer("--threads", 1, 1, 256)));
    const LmModel model = LmModel::load(lmModelArgumentPath(path));
    if (args.has("--repeat")) {
        // The speed figure: one warm-up, then N readings with every map captured; the median.
        const int n = static_cast<int>(args.integer("--repeat", 1, 1, 100000));
        const LmReading warm = model.attend(text, top);
        std::vector<double> ms;
        for (int i = 0; i < n; ++i) {
            const auto start = std::chrono::steady_clock::now();
            (void)model.attend(text, top);
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        }
        std::sort(ms.begin(), ms.end());
        const double median = n % 2 ? ms[static_cast<std::size_t>(n / 2)]
                                    : (ms[static_cast<std::size_t>(n / 2 - 1)] + ms[static_cast<std::size_t>(n / 2)]) / 2;
        Json j;
        j["forward_ms"] = median;
        j["tokens"] = warm.ids.size();
        std::cout << j.dump() << "\n";
        return kOk;
    }
    const LmReading r = model.attend(text, top);
    if (r.cut > 0) std::cerr << "note: the text's first " << r.cut << " tokens do not fit the context and were left out\n";
    if (!args.has("--json")) {
        for (std::size_t i = 0; i < r.tokens.size(); ++i) std::cout << (i ? " " : "") << r.tokens[i];
        std::cout << "\n";
        for (const LmCandidate& c : r.next) std::cout << "  next " << c.token << "  " << fixedOrNa(c.logprob, 3) << "\n";
        for (const auto& m : r.masked)
            for (const LmCandidate& c : m.top)
                std::cout << "  <mask> at " << m.position << ": " << c.token << "  " << fixedOrNa(c.logprob, 3) << "\n";
        return kOk;
    }
    Json j;
    j["ids"] = r.ids;
    j["tokens"] = r.tokens;
    Json attention = Json::array();
    for (const auto& layer : r.attention) {
        Json heads = Json::array();
        for (const AttentionMap& m : layer) {
            Json rows = Json::array();
            for (int q = 0; q < m.rows; ++q) {
                Json row = Json::array();
                for (int k = 0; k < m.cols; ++k) row.push_back(m.weights[static_cast<std::size_t>(q * m.cols + k)]);
                rows.push_back(row);
            }
            heads.push_back(rows);
        }
        attention.push_back(heads);
    }
    j["attention"] = attention;
    if (model.config().objective == LmObjective::Causal) {
        j["next"] = candidatesJson(r.next);
    } else {
        Json masked = Json::array();
        for (const auto& m : r.masked) {
            Json one;
            one["position"] = m.position;
            one["top"] = candidatesJson(m.top);
            masked.push_back(one);
        }
        j["masked"] = masked;
    }
    j["cut"] = r.cut;
    std::cout << j.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
    return kOk;
}

int runGenerate(const Args& argv) {
    ArgParser args(argv, {"--model", "--prompt", "--max-new-tokens", "--temperature", "--top-k", "--top-p", "--seed"},
                   {"--json"});
    refuseArguments(args);
    const std::string path = args.required("--model");
    const std::string prompt = args.required("--prompt");
    LmGenerateOptions o;
    o.maxNewTokens = static_cast<int>(args.integer("--max-new-tokens", o.maxNewTokens, 0, 100000));
    o.temperature = args.real("--temperature", o.temperature, 0.0, 100.0);
    o.topK = static_cast<int>(args.integer("--top-k", o.topK, 0, 1000000));
    o.topP = args.real("--top-p", o.topP, 1e-9, 1.0);
    o.seed = static_cast<std::uint64_t>(args.integer("--seed", static_cast<long long>(o.seed), 0, 1LL << 62));
    if (o.temperature == 0 && (args.has("--top-k") || args.has("--top-p") || args.has("--seed")))
        throw UsageError("--top-k, --top-p and --seed apply to sampling: give --temperature T above 0");
    const LmModel model = LmModel::load(lmModelArgumentPath(path));
    const LmGeneration g = model.generate(prompt, o);
    if (g.cut > 0) std::cerr << "note: the prompt's first " << g.cut << " tokens do not fit the context and were left out\n";
    if (!args.has("--json")) {
        std::cout << g.text << "\n";
        return kOk;
    }
    Json j;
    j["prompt_ids"] = g.prompt;
    j["ids"] = g.generated;
    Json tokens = Json::array();
    for (int id : g.generated) tokens.push_back(model.tokenizer().token(id));
    j["tokens"] = tokens;
    j["text"] = g.text;
    Json steps = Json::array();
    for (const auto& s : g.steps) steps.push_back(candidatesJson(s));
    j["steps"] = steps;
    j["attention"] = g.attention;
    j["cut"] = g.cut;
    std::cout << j.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
    return kOk;
}

int runDetect(const Args& argv) {
    ArgParser args(argv, {"--model", "--probes", "--seed"}, {"--json"});
    refuseArguments(args);
    const LmModel model = LmModel::load(lmModelArgumentPath(args.required("--model")));
    if (model.config().objective != LmObjective::Causal)
        throw UsageError("detect measures a causal model; " + args.required("--model") + " has the masked objective");
    const LmCircuitScores c = model.circuits(static_cast<int>(args.integer("--probes", 16, 1, 10000)),
                                             static_cast<std::uint64_t>(args.integer("--seed", 7, 0, 1LL << 62)));
    const Json j = circuitsJson(c);
    if (args.has("--json")) {
        std::cout << j.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
        return kOk;
    }
    std::cout << "copy accuracy " << fixedOrNa(c.copyAccuracy, 3) << ", in-context learning " << fixedOrNa(c.inContextLearning, 3)
              << "\nlayer head  previous-token  duplicate-token  induction\n";
    for (std::size_t l = 0; l < c.heads.induction.size(); ++l)
        for (std::size_t h = 0; h < c.heads.induction[l].size(); ++h)
            std::printf("%5zu %4zu  %14.3f  %15.3f  %9.3f\n", l + 1, h + 1, c.heads.previousToken[l][h],
                        c.heads.duplicateToken[l][h], c.heads.induction[l][h]);
    return kOk;
}

// heads --model M (--text FILE | --dataset repeats|gettext|fortunes): every head switched off in turn
// over the documents, read with the model's own tokenizer.
int lmHeads(const Args& argv, const std::string& path) {
    ArgParser args(argv, withStudyFlags(lmDataFlags()), {"--json", "--plain"});
    refuseArguments(args);
    if (!args.has("--text") && !args.has("--dataset"))
        throw UsageError("heads needs the text to measure on: --text FILE or --dataset repeats|gettext|fortunes");
    const LmModel model = LmModel::load(lmModelArgumentPath(path));
    const LmCorpus corpus = loadLmCorpus(args, model.config().context);
    std::vector<std::vector<int>> documents;
    for (const auto& d : corpus.documents) documents.push_back(model.tokenizer().encode(corpus.tokenizer.decode(d)));
    return printStudy(measureLmHeads(model, documents, studyOptions(args), progressLine()), "documents", args.has("--json"));
}

EngineTask lmEngineTask() {
    EngineTask t;
    t.id = kLmTask;
    t.train = runTrainLm;
    t.heads = lmHeads;
    t.exportPytorch = exportLmPytorch;
    t.commands = {{"generate", runGenerate}, {"attend", runAttend}, {"detect", runDetect}};
    return t;
}

}  // namespace attnlab::cli
