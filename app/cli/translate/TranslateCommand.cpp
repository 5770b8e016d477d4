// attnlab-cli translate: plain output lines, or one JSON object per sentence with
// every kind of attention indexed [layer][head][target][source]; --sample draws instead of
// searching (several samples side by side with --samples, each with its steps' distributions);
// --ablate switches Transformer heads off (engine/translation/HeadImportance.h) and the JSON then
// says what the full model said; a Transformer's JSON carries the encoder's attention rollout.
#include <cstdint>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "ArgParser.h"
#include "Commands.h"
#include "base/translation/HeadAblation.h"
#include "engine/translation/HeadImportance.h"
#include "engine/translation/Seq2SeqModel.h"

namespace attnlab::cli {

namespace {

nlohmann::json attentionJson(const LayeredAttention& layers) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& heads : layers) {
        nlohmann::json jl = nlohmann::json::array();
        for (const auto& map : heads) {
            nlohmann::json rows = nlohmann::json::array();
            for (int r = 0; r < map.rows; ++r) {
                nlohmann::json row = nlohmann::json::array();
                for (int c = 0; c < map.cols; ++c) row.push_back(map.at(r, c));
                rows.push_back(std::move(row));
            }
            jl.push_back(std::move(rows));
        }
        out.push_back(std::move(jl));
    }
    return out;
}

std::string join(const std::vector<std::string>& tokens) {
    std::string s;
    for (const auto& t : tokens) s += (s.empty() ? "" : " ") + t;
    return s;
}

nlohmann::json attentionJson(const Translation& t) {
    nlohmann::json attention = nlohmann::json::object();
    for (const auto& [kind, layers] : t.attention) attention[toString(kind)] = attentionJson(layers);
    return attention;
}

nlohmann::json stepsJson(const std::vector<DecodingStep>& steps) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& step : steps) {
        nlohmann::json candidates = nlohmann::json::array();
        for (const auto& c : step.candidates)
            candidates.push_back({{"token", c.token}, {"probability", c.probability}, {"kept", c.kept}});
        out.push_back({{"candidates", std::move(candidates)},
                       {"kept_count", step.keptCount},
                       {"kept_mass", step.keptMass},
                       {"chosen", step.chosen},
                       {"chosen_probability", step.chosenProbability}});
    }
    return out;
}

nlohmann::json headJson(const HeadId& h) {
    return {{"kind", toString(h.kind)}, {"layer", h.layer + 1}, {"head", h.head + 1}};
}

nlohmann::json mapJson(const AttentionMap& map) {
    nlohmann::json rows = nlohmann::json::array();
    for (int r = 0; r < map.rows; ++r) {
        nlohmann::json row = nlohmann::json::array();
        for (int c = 0; c < map.cols; ++c) row.push_back(map.at(r, c));
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace

int runTranslate(const Args& argv) {
    ArgParser args(argv,
                   {"--model", "--beam", "--max-output", "--temperature", "--top-k", "--top-p", "--seed", "--samples",
                    "--ablate"},
                   {"--json", "--sample", "--beam-tree"});
    const std::string path = args.required("--model");
    DecodeOptions options;
    options.beam = static_cast<int>(args.integer("--beam", 1, 1, 64));
    options.maxOutput = static_cast<int>(args.integer("--max-output", 0, 0, 8192));
    options.sample = args.has("--sample");
    if (!options.sample)
        for (const char* flag : {"--temperature", "--top-k", "--top-p", "--seed", "--samples"})
            if (args.has(flag)) throw UsageError(std::string(flag) + " needs --sample");
    if (options.sample && options.beam > 1)
        throw UsageError("--sample cannot be combined with --beam " + std::to_string(options.beam) +
                         " (sampling draws one token per step)");
    constexpr double kAny = std::numeric_limits<double>::max();  // the ranges are checkDecodeOptions'
    options.temperature = args.real("--temperature", 1.0, -kAny, kAny);
    options.topK = static_cast<int>(args.integer("--top-k", 0, 0, 1000000));
    options.topP = args.real("--top-p", 1.0, -kAny, kAny);
    options.seed = static_cast<std::uint64_t>(args.integer("--seed", 0, 0, 4294967295LL));
    const int samples = static_cast<int>(args.integer("--samples", 1, 1, 100));
    checkDecodeOptions(options);  // before the model loads: a ConfigError naming the flag (exit 2)
    const bool json = args.has("--json");
    options.captureAttention = json;
    options.recordBeam = args.has("--beam-tree");
    if (options.recordBeam && !json) throw UsageError("--beam-tree needs --json (the tree is written as JSON)");
    if (options.recordBeam && options.sample) throw UsageError("--beam-tree cannot be combined with --sample");
    // --ablate KIND:LAYER:HEAD[,...]: checked as text now, against the model once it is loaded.
    std::optional<HeadAblation> ablation;
    if (auto spec = args.value("--ablate")) ablation = parseHeadAblation(*spec, "--ablate");

    std::vector<std::string> sentences = args.positionals();
    if (sentences.empty()) {  // read one sentence per line from stdin
        for (std::string line; std::getline(std::cin, line);)
            if (line.find_first_not_of(" \t\r") != std::string::npos) sentences.push_back(line);
        if (sentences.empty()) throw UsageError("give at least one SENTENCE (or lines on standard input)");
    }
    Seq2SeqModel model = Seq2SeqModel::load(path);
    const bool transformer = model.config().architecture == Architecture::Transformer;
    std::vector<HeadId> off;
    if (ablation) {
        if (!transformer) throw UsageError("--ablate needs a Transformer model (" + path + " is a GRU: it has no heads)");
        off = resolveHeads(*ablation, model.config().layers, model.config().heads, "--ablate");
    }
    for (std::size_t i = 0; i < sentences.size(); ++i) {
        // Greedy or beam: one translation. Sampling: `samples` of them, seeds S, S+1, ...
        std::vector<Translation> drawn;
        std::optional<AblatedTranslation> compared;  // --ablate: the first translation beside the full model's
        for (int n = 0; n < (options.sample ? samples : 1); ++n) {
            DecodeOptions o = options;
            o.seed = options.seed + static_cast<std::uint64_t>(n);
            if (ablation && n == 0) {
                compared = translateWithAblation(model, sentences[i], o, off);
                drawn.push_back(compared->ablated);
            } else {
                drawn.push_back(translateAblated(model, sentences[i], o, off));
            }
        }
        const Translation& t = drawn.front();
        if (t.truncated)
            std::cerr << "warning: sentence " << i + 1 << " is longer than the model's maximum of "
                      << model.config().maxLength - 1 << " tokens; truncated\n";
        if (json) {
            nlohmann::json j{{"source_tokens", t.sourceTokens}, {"output_tokens", t.outputTokens},
                             {"log_probability", t.logProbability}};
            j["attention"] = attentionJson(t);
            if (transformer) {
                const AttentionMap rollout = compared ? compared->rollout : encoderRollout(t);
                j["rollout"] = {{"encoder", mapJson(rollout)}};
            }
            if (compared) {
                // What switching the heads off changed: the full model's translation and the
                // probability of that same translation with the heads off.
                nlohmann::json heads = nlohmann::json::array();
                for (const HeadId& h : off) heads.push_back(headJson(h));
                j["ablated"] = std::move(heads);
                j["original_output_tokens"] = compared->original.outputTokens;
                j["log_prob_original"] = compared->originalLogProbability;
                j["log_prob_original_ablated"] = compared->originalLogProbabilityAblated;
                j["output_changed"] = compared->original.outputTokens != t.outputTokens;
            }
            if (options.recordBeam) {
                // Every hypothesis each step kept, the translation's path marked "best".
                nlohmann::json tree = nlohmann::json::array();
                for (const BeamNode& n : t.beamTree)
                    tree.push_back({{"parent", n.parent}, {"step", n.step}, {"token", n.token},
                                    {"p", n.tokenProbability}, {"log_probability", n.score},
                                    {"finished", n.finished}, {"best", n.best}, {"attention", n.attention}});
                j["beam_tree"] = std::move(tree);
            }
            if (options.sample) {
                // The keys above are the first sample's; every sample (the first too) in "samples".
                j["sampling"] = {{"temperature", options.temperature}, {"top_k", options.topK},
                                 {"top_p", options.topP}, {"seed", options.seed}};
                nlohmann::json all = nlohmann::json::array();
                for (std::size_t n = 0; n < drawn.size(); ++n)
                    all.push_back({{"seed", options.seed + n},
                                   {"output_tokens", drawn[n].outputTokens},
                                   {"text", join(drawn[n].outputTokens)},
                                   {"log_probability", drawn[n].logProbability},
                                   {"steps", stepsJson(drawn[n].steps)},
                                   {"attention", attentionJson(drawn[n])}});
                j["samples"] = std::move(all);
            }
            std::cout << j.dump() << "\n";
        } else {
            for (const auto& d : drawn) std::cout << join(d.outputTokens) << "\n";
        }
    }
    return kOk;
}

}  // namespace attnlab::cli
