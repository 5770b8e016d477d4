// attnlab-cli's translation task, engine part: its EngineTask (train, heads, explain, render, the
// bottleneck, complexity and positional experiments), heads over a corpus (BLEU) and explain of one
// output token.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "ArgParser.h"
#include "support/CorpusOptions.h"
#include "support/ExplanationOutput.h"
#include "support/HeadStudyOutput.h"
#include "base/InputError.h"
#include "base/TaskIds.h"
#include "engine/translation/HeadImportance.h"
#include "engine/translation/Seq2SeqModel.h"
#include "engine/translation/TranslationExplanation.h"
#include "translate/TranslationCli.h"

namespace attnlab::cli {

// heads on a translation Transformer: BLEU over a corpus (engine/translation/HeadImportance.h).
int translationHeads(const Args& argv, const std::string&) {
    std::set<std::string> values = corpusValueFlags();
    values.insert({"--model", "--limit", "--max-len", "--seed", "--random-orders"});
    ArgParser args(argv, values, {"--json"});
    const std::string path = args.required("--model");
    const HeadImportanceOptions options = studyOptions(args);
    const int maxLen = static_cast<int>(args.integer("--max-len", 0, 0, 200));
    if (!args.positionals().empty())
        throw UsageError("unexpected argument '" + args.positionals().front() + "' (see attnlab-cli heads --help)");
    const bool json = args.has("--json");
    if (!args.has("--corpus") && !args.has("--src") && !args.has("--tgt") && !args.has("--dataset") &&
        !args.has("--gettext"))
        throw UsageError("heads needs the sentences to measure on: --corpus FILE.tsv or --dataset NAME");
    const ParallelCorpus corpus = loadCorpusOnly(args, maxLen);

    const Seq2SeqModel model = Seq2SeqModel::load(path);
    if (model.config().architecture != Architecture::Transformer)
        throw UsageError("heads needs a Transformer model (" + path + " is a GRU: it has no attention heads)");

    const HeadImportanceReport r = measureHeadImportance(model, corpus, options, progressLine());
    if (r.skipped)
        std::cerr << "warning: " << r.skipped << " of " << r.skipped + r.pairs
                  << " pairs skipped (an empty side, or longer than the model's maximum)\n";

    const int keep = headsBeforeTenPercentDrop(r.pruningCurve, r.baseline.bleu);
    if (json) {
        nlohmann::json heads = nlohmann::json::array();
        for (const HeadEffect& e : r.heads)
            heads.push_back({{"kind", toString(e.head.kind)},
                             {"layer", e.head.layer + 1},
                             {"head", e.head.head + 1},
                             {"loss", e.loss},
                             {"bleu", e.bleu},
                             {"exact", e.exact},
                             {"delta_loss", e.deltaLoss},
                             {"delta_metric", e.deltaMetric},
                             {"gradient", e.gradient},
                             {"importance", e.importance}});
        nlohmann::json out{{"pairs", r.pairs},
                           {"metric", "bleu"},
                           {"baseline", {{"loss", r.baseline.loss}, {"bleu", r.baseline.bleu}, {"exact", r.baseline.exact}}},
                           {"heads", std::move(heads)},
                           {"pruning_order", orderJson(r.pruningOrder)},
                           {"pruning_curve", curveJson(r.pruningCurve)},
                           {"random_curve", curveJson(r.randomCurve)},
                           {"heads_prunable_within_10_percent", keep}};
        std::cout << out.dump() << "\n";
        return kOk;
    }
    std::printf("%zu pairs: loss %.4f, BLEU %.2f, exact %.3f\n", r.pairs, r.baseline.loss, r.baseline.bleu,
                r.baseline.exact);
    std::printf("%-8s %5s %4s %10s %10s %10s\n", "kind", "layer", "head", "d_loss", "d_bleu", "importance");
    for (const HeadEffect& e : r.heads)
        std::printf("%-8s %5d %4d %10.4f %10.2f %10.4f\n", toString(e.head.kind), e.head.layer + 1, e.head.head + 1,
                    e.deltaLoss, e.deltaMetric, e.importance);
    std::printf("%d of %zu heads can go (least important first) before BLEU falls below 90%% of %.2f\n", keep,
                r.heads.size(), r.baseline.bleu);
    return kOk;
}

// explain --model TRANSLATION --output-token I TEXT: one output token's cross-attention beside the
// attribution methods over the source.
int explainTranslation(const ArgParser& args, const std::string& path) {
    for (const char* flag : {"--boxes", "--word", "--objects"})
        if (args.has(flag)) throw UsageError(std::string(flag) + " applies to a vision model; " + path + " is not one");
    const bool json = args.has("--json");
    const int steps = static_cast<int>(args.integer("--steps", kDefaultIgSteps, 1, 10000));
    if (args.positionals().size() != 1) throw UsageError("give exactly one TEXT (quote it)");
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

EngineTask translationEngineTask() {
    EngineTask t;
    t.id = tasks::kTranslate;
    t.train = trainTranslation;
    t.heads = translationHeads;
    t.explain = explainTranslation;
    t.render = renderTranslation;
    t.exportPytorch = exportTranslation;
    t.experiments = {{"bottleneck", runBottleneck}, {"complexity", runComplexity}, {"positional", runPositional}};
    return t;
}

}  // namespace attnlab::cli
