// attnlab-cli heads: each attention head of a translation Transformer measured over a corpus:
// the change in loss and BLEU when it alone is switched off, its gradient importance (Michel et
// al. 2019), and the pruning curves (engine/translation/HeadImportance.h).
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "ArgParser.h"
#include "Commands.h"
#include "CorpusOptions.h"
#include "engine/translation/HeadImportance.h"
#include "engine/translation/Seq2SeqModel.h"

namespace attnlab::cli {

namespace {

nlohmann::json curveJson(const std::vector<PruningPoint>& curve) {
    nlohmann::json out = nlohmann::json::array();
    for (const PruningPoint& p : curve)
        out.push_back({{"pruned", p.pruned}, {"pruned_fraction", p.prunedFraction}, {"metric", p.metric},
                       {"loss", p.loss}});
    return out;
}

// The most heads the curve removes with BLEU still at >= 90% of the baseline's.
int headsBeforeTenPercentDrop(const std::vector<PruningPoint>& curve, double baseline) {
    int best = 0;
    for (const PruningPoint& p : curve) {
        if (p.metric < 0.9 * baseline) break;
        best = p.pruned;
    }
    return best;
}

}  // namespace

int runHeads(const Args& argv) {
    std::set<std::string> values = corpusValueFlags();
    values.insert({"--model", "--limit", "--max-len", "--seed", "--random-orders"});
    ArgParser args(argv, values, {"--json"});
    const std::string path = args.required("--model");
    HeadImportanceOptions options;
    options.limit = static_cast<std::size_t>(args.integer("--limit", 0, 0, 10000000));
    options.seed = static_cast<std::uint64_t>(args.integer("--seed", 1, 0, 4294967295LL));
    options.randomOrders = static_cast<int>(args.integer("--random-orders", 3, 0, 100));
    const int maxLen = static_cast<int>(args.integer("--max-len", 0, 0, 200));
    if (!args.positionals().empty())
        throw UsageError("unexpected argument '" + args.positionals().front() + "' (see attnlab-cli heads --help)");
    const bool json = args.has("--json");
    if (!args.has("--corpus") && !args.has("--src") && !args.has("--tgt") && !args.has("--dataset") &&
        !args.has("--gettext"))
        throw UsageError("heads needs the sentences to measure on: --corpus FILE.tsv or --dataset NAME");
    const Corpus corpus = loadCorpusOnly(args, maxLen);

    const Seq2SeqModel model = Seq2SeqModel::load(path);
    if (model.config().architecture != Architecture::Transformer)
        throw UsageError("heads needs a Transformer model (" + path + " is a GRU: it has no attention heads)");

    const bool tty = isatty(STDERR_FILENO) != 0;
    const HeadImportanceReport r = measureHeadImportance(model, corpus, options, [&](int done, int total) {
        if (tty) std::fprintf(stderr, "\rmeasuring heads: %d/%d", done, total);
        if (tty && done == total) std::fprintf(stderr, "\n");
    });
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
        nlohmann::json order = nlohmann::json::array();
        for (const HeadId& h : r.pruningOrder) order.push_back(toString(h));
        nlohmann::json out{{"pairs", r.pairs},
                           {"metric", "bleu"},
                           {"baseline", {{"loss", r.baseline.loss}, {"bleu", r.baseline.bleu}, {"exact", r.baseline.exact}}},
                           {"heads", std::move(heads)},
                           {"pruning_order", std::move(order)},
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

}  // namespace attnlab::cli
