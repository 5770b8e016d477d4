// attnlab-cli classify and explain: a text classifier's label, probabilities and pooling
// attention; and the explanation lab's attribution methods beside the attention.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "JsonOut.h"
#include "ArgParser.h"
#include "Commands.h"
#include "base/InputError.h"
#include "base/TaskIds.h"
#include "engine/vision/ImageModels.h"
#include "engine/translation/Seq2SeqModel.h"
#include "engine/text/TextClassifier.h"
#include "engine/translation/TranslationExplanation.h"

namespace attnlab::cli {

namespace {

std::vector<std::string> textsOf(const ArgParser& args) {
    std::vector<std::string> texts = args.positionals();
    if (texts.empty()) {  // one text per line from stdin
        for (std::string line; std::getline(std::cin, line);)
            if (line.find_first_not_of(" \t\r") != std::string::npos) texts.push_back(line);
        if (texts.empty()) throw UsageError("give at least one TEXT (or lines on standard input)");
    }
    return texts;
}

// The file's vision task, or "" (also for a file that is no model: the text classifier's loader
// then says what is wrong with it).
std::string visionTaskOrNone(const std::string& path) {
    try {
        return visionTaskOf(path);
    } catch (const ModelFileError&) {
        return {};
    }
}

// A translation model or any other file is refused with the reason (exit 4).
TextClassifier loadClassifier(const std::string& path) { return TextClassifier::load(path); }

}  // namespace

int runClassify(const Args& argv) {
    ArgParser args(argv, {"--model"}, {"--json"});
    const std::string path = args.required("--model");
    const bool json = args.has("--json");
    const std::vector<std::string> texts = textsOf(args);
    const TextClassifier model = loadClassifier(path);
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const Classification c = model.classify(texts[i]);
        if (c.truncated)
            std::cerr << "warning: text " << i + 1 << " is longer than the model's maximum of "
                      << model.config().maxLength << " tokens; truncated\n";
        if (json) {
            nlohmann::json probabilities = nlohmann::json::object();
            for (std::size_t k = 0; k < model.labels().size(); ++k) probabilities[model.labels()[k]] = c.probabilities[k];
            nlohmann::json j{{"tokens", c.tokens}, {"label", c.label}, {"probabilities", probabilities}};
            nlohmann::json attention = nlohmann::json::object();
            if (!c.pooling.empty()) attention["pooling"] = c.pooling;
            if (!c.rollout.empty()) {
                nlohmann::json layers = nlohmann::json::array();
                for (const auto& heads : c.encoder) {
                    nlohmann::json jl = nlohmann::json::array();
                    for (const auto& map : heads) {
                        nlohmann::json rows = nlohmann::json::array();
                        for (int r = 0; r < map.rows; ++r)
                            rows.push_back(std::vector<float>(map.weights.begin() + r * map.cols,
                                                              map.weights.begin() + (r + 1) * map.cols));
                        jl.push_back(std::move(rows));
                    }
                    layers.push_back(std::move(jl));
                }
                attention["encoder"] = std::move(layers);
                attention["rollout"] = c.rollout;
            }
            j["attention"] = attention;
            std::cout << j.dump() << "\n";
        } else {
            std::printf("%s\t%.3f\n", c.label.c_str(), c.probabilities[static_cast<std::size_t>(c.labelIndex)]);
        }
    }
    return kOk;
}

namespace {

// The explanation as JSON (one object) or as a table; `extra` adds members (a translation's output tokens).
void printExplanation(const Explanation& ex, bool json, const nlohmann::json& extra, const char* what) {
    static const char* kMethods[] = {"attention", "gradient", "grad_x_input", "integrated_gradients", "leave_one_out"};
    if (json) {
        nlohmann::json j{{"tokens", ex.tokens}, {"label", ex.label}, {"probability", ex.probability}};
        for (const auto& [key, value] : extra.items()) j[key] = value;
        for (const char* method : kMethods) {
            auto it = ex.methods.find(method);
            j[method] = it == ex.methods.end() ? nlohmann::json(nullptr) : finiteOrNullList(it->second);
        }
        nlohmann::json tau = nlohmann::json::object(), rho = nlohmann::json::object();
        for (const auto& [method, value] : ex.kendallTau) tau[method] = finiteOrNull(value);
        for (const auto& [method, value] : ex.spearman) rho[method] = finiteOrNull(value);
        j["kendall_tau"] = tau;
        j["spearman"] = rho;
        j["ig_completeness"] = {{"attribution_sum", ex.igAttributionSum},
                                {"output_difference", ex.igOutputDifference},
                                {"steps", ex.igSteps}};
        std::cout << j.dump() << "\n";
        return;
    }
    static const char* kShortNames[] = {"attention", "gradient", "grad*input", "int.grads", "leave-1-out"};
    std::printf("%s %s (p = %.3f)\n\n%-16s", what, ex.label.c_str(), ex.probability, "token");
    for (std::size_t m = 0; m < std::size(kMethods); ++m)
        if (ex.methods.count(kMethods[m])) std::printf(" %12s", kShortNames[m]);
    std::printf("\n");
    for (std::size_t i = 0; i < ex.tokens.size(); ++i) {
        std::printf("%-16s", ex.tokens[i].c_str());
        for (const char* method : kMethods)
            if (auto it = ex.methods.find(method); it != ex.methods.end()) std::printf(" %12.4f", it->second[i]);
        std::printf("\n");
    }
    if (!ex.kendallTau.empty()) {
        std::printf("\nattention against      Kendall tau   Spearman rho\n");
        for (const auto& [method, tau] : ex.kendallTau)
            std::printf("%-22s %11.3f %14.3f\n", method.c_str(), tau, ex.spearman.at(method));
    }
    std::printf("\nintegrated gradients (%d steps): attributions sum to %.4f, logit difference %.4f\n", ex.igSteps,
                ex.igAttributionSum, ex.igOutputDifference);
}

}  // namespace

int runExplain(const Args& argv) {
    ArgParser args(argv, {"--model", "--class", "--steps", "--output-token", "--boxes", "--word", "--objects"}, {"--json"});
    const std::string path = args.required("--model");
    const std::string vision = visionTaskOrNone(path);
    if (!vision.empty()) return explainImage(args, path, vision == tasks::kCaption);
    for (const char* flag : {"--boxes", "--word", "--objects"})
        if (args.has(flag)) throw UsageError(std::string(flag) + " applies to a vision model; " + path + " is not one");
    const bool json = args.has("--json");
    const int steps = static_cast<int>(args.integer("--steps", kDefaultIgSteps, 1, 10000));
    if (args.positionals().size() != 1) throw UsageError("give exactly one TEXT (quote it)");
    if (!TextClassifier::isClassifierFile(path)) {  // a translation model: one output token over the source
        if (!args.has("--output-token"))
            throw UsageError(path + " is a translation model: say which output token to explain with --output-token I "
                                    "(0 = the first)");
        if (args.has("--class")) throw UsageError("--class applies to a classifier; a translation model takes --output-token");
        const int index = static_cast<int>(args.integer("--output-token", 0, 0, 100000));
        const Seq2SeqModel model = Seq2SeqModel::load(path);
        OutputTokenExplanation out;
        try {
            out = explainOutputToken(model, args.positionals().front(), index, steps);
        } catch (const ConfigError& e) {
            throw UsageError(std::string("--output-token: ") + e.what());
        }
        printExplanation(out.explanation, json, {{"output_tokens", out.outputTokens}, {"output_token", out.outputIndex}},
                         "output token");
        return kOk;
    }
    if (args.has("--output-token")) throw UsageError("--output-token applies to a translation model; " + path + " is a classifier");
    const TextClassifier model = loadClassifier(path);
    int classIndex = -1;
    if (auto label = args.value("--class")) {
        classIndex = model.labelIndex(*label);
        if (classIndex < 0) {
            std::string labels;
            for (const auto& l : model.labels()) labels += (labels.empty() ? "" : ", ") + l;
            throw UsageError("--class: the model has no class '" + *label + "' (its classes: " + labels + ")");
        }
    }
    printExplanation(model.explain(args.positionals().front(), classIndex, steps), json, nlohmann::json::object(), "class");
    return kOk;
}
}  // namespace attnlab::cli
