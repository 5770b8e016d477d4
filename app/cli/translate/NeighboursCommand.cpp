// attnlab-cli neighbours: exBERT's search (Hoover et al. 2020) for a translation model: the tokens
// of a corpus whose contextual encoder states lie nearest, by cosine similarity, to one token's
// state in a query sentence (engine/translation/EncoderStates.h).
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "ArgParser.h"
#include "Commands.h"
#include "support/CorpusOptions.h"
#include "engine/translation/EncoderStates.h"
#include "engine/translation/Seq2SeqModel.h"

namespace attnlab::cli {

int runNeighbours(const Args& argv) {
    std::set<std::string> values = corpusValueFlags();
    values.insert({"--model", "--sentence", "--token", "--layer", "--k", "--max-len"});
    ArgParser args(argv, values, {"--json"});
    const std::string path = args.required("--model");
    const std::string sentence = args.required("--sentence");
    const long long token = args.integer("--token", 0, 0, 1000000);
    if (!args.has("--token")) throw UsageError("neighbours needs --token I (0-based, in the tokenized sentence)");
    const int layer = static_cast<int>(args.integer("--layer", 0, -1000000, 1000000));  // checked against the model
    const int k = static_cast<int>(args.integer("--k", 10, 1, 1000000));
    const int maxLen = static_cast<int>(args.integer("--max-len", 0, 0, 200));
    if (!args.positionals().empty())
        throw UsageError("unexpected argument '" + args.positionals().front() + "' (see attnlab-cli neighbours --help)");
    const bool json = args.has("--json");
    if (!args.has("--corpus") && !args.has("--src") && !args.has("--tgt") && !args.has("--dataset") &&
        !args.has("--gettext"))
        throw UsageError("neighbours needs the sentences to search: --corpus FILE.tsv or --dataset NAME");
    const ParallelCorpus corpus = loadCorpusOnly(args, maxLen);

    const Seq2SeqModel model = Seq2SeqModel::load(path);
    const ModelConfig& config = model.config();
    const bool transformer = config.architecture == Architecture::Transformer;
    if (transformer && (layer > config.layers || (args.has("--layer") && layer < 1)))
        throw UsageError("--layer must be between 1 and " + std::to_string(config.layers) + " (the model's encoder layers), got " +
                         std::to_string(layer));
    if (!transformer && (layer > 1 || (args.has("--layer") && layer < 1)))
        throw UsageError("--layer must be 1 or omitted for a GRU model (it has one set of encoder states), got " +
                         std::to_string(layer));
    const std::vector<std::string> tokens = model.sourceTokens(sentence);
    if (token >= static_cast<long long>(tokens.size()))
        throw UsageError("--token must be between 0 and " + std::to_string(tokens.size() - 1) + " (the sentence has " +
                         std::to_string(tokens.size()) + " tokens, </s> included), got " + std::to_string(token));

    std::vector<std::string> sources;
    sources.reserve(corpus.pairs.size());
    for (const SentencePair& p : corpus.pairs) sources.push_back(p.source);
    const std::vector<TokenNeighbour> found =
        nearestTokens(model, sentence, static_cast<int>(token), sources, layer, k);
    const int shownLayer = transformer ? (layer == 0 ? config.layers : layer) : 1;

    if (json) {
        nlohmann::json list = nlohmann::json::array();
        for (const TokenNeighbour& n : found)
            list.push_back({{"sentence", sources[n.sentence]},
                            {"sentence_index", n.sentence},
                            {"token", n.token},
                            {"position", n.position},
                            {"similarity", n.similarity}});
        nlohmann::json out{{"query", {{"sentence", sentence}, {"tokens", tokens}, {"position", token},
                                      {"token", tokens[static_cast<std::size_t>(token)]}}},
                           {"layer", shownLayer},
                           {"sentences", sources.size()},
                           {"neighbours", std::move(list)}};
        std::cout << out.dump() << "\n";
        return kOk;
    }
    std::printf("'%s' at %lld in \"%s\", layer %d, over %zu sentences:\n", tokens[static_cast<std::size_t>(token)].c_str(),
                token, sentence.c_str(), shownLayer, sources.size());
    for (const TokenNeighbour& n : found)
        std::printf("%8.4f  %-12s %3d  %s\n", n.similarity, n.token.c_str(), n.position, sources[n.sentence].c_str());
    return kOk;
}

}  // namespace attnlab::cli
