// attnlab-cli translate: plain output lines, or one JSON object per sentence with
// every kind of attention indexed [layer][head][target][source].
#include <iostream>
#include <nlohmann/json.hpp>

#include "ArgParser.h"
#include "Commands.h"
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

}  // namespace

int runTranslate(const Args& argv) {
    ArgParser args(argv, {"--model", "--beam", "--max-output"}, {"--json"});
    const std::string path = args.required("--model");
    DecodeOptions options;
    options.beam = static_cast<int>(args.integer("--beam", 1, 1, 64));
    options.maxOutput = static_cast<int>(args.integer("--max-output", 0, 0, 8192));
    const bool json = args.has("--json");
    options.captureAttention = json;

    std::vector<std::string> sentences = args.positionals();
    if (sentences.empty()) {  // read one sentence per line from stdin
        for (std::string line; std::getline(std::cin, line);)
            if (line.find_first_not_of(" \t\r") != std::string::npos) sentences.push_back(line);
        if (sentences.empty()) throw UsageError("give at least one SENTENCE (or lines on standard input)");
    }
    Seq2SeqModel model = Seq2SeqModel::load(path);
    for (std::size_t i = 0; i < sentences.size(); ++i) {
        Translation t = model.translate(sentences[i], options);
        if (t.truncated)
            std::cerr << "warning: sentence " << i + 1 << " is longer than the model's maximum of "
                      << model.config().maxLength - 1 << " tokens; truncated\n";
        if (json) {
            nlohmann::json j{{"source_tokens", t.sourceTokens}, {"output_tokens", t.outputTokens},
                             {"log_probability", t.logProbability}};
            nlohmann::json attention = nlohmann::json::object();
            for (const auto& [kind, layers] : t.attention) attention[toString(kind)] = attentionJson(layers);
            j["attention"] = std::move(attention);
            std::cout << j.dump() << "\n";
        } else {
            std::cout << join(t.outputTokens) << "\n";
        }
    }
    return kOk;
}

}  // namespace attnlab::cli
