// attnlab-cli classify and explain: a text classifier's label, probabilities and pooling
// attention; and the explanation lab's attribution methods beside the attention.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "support/ExplanationOutput.h"
#include "support/JsonOut.h"
#include "classify/ClassifierCli.h"
#include "ArgParser.h"
#include "Commands.h"
#include "base/InputError.h"
#include "engine/text/TextClassifier.h"

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

// explain --model CLASSIFIER TEXT: the pooling attention beside the attribution methods.
int explainClassifier(const ArgParser& args, const std::string& path) {
    for (const char* flag : {"--boxes", "--word", "--objects"})
        if (args.has(flag)) throw UsageError(std::string(flag) + " applies to a vision model; " + path + " is not one");
    const bool json = args.has("--json");
    const int steps = static_cast<int>(args.integer("--steps", kDefaultIgSteps, 1, 10000));
    if (args.positionals().size() != 1) throw UsageError("give exactly one TEXT (quote it)");
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
