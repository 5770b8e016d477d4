#pragma once
// What every task's part of `heads` shares (HeadsCommand.cpp and each task's heads function): the
// study's options from the flags, the progress line, and the report as JSON or a table.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "ArgParser.h"
#include "Commands.h"
#include "base/InputError.h"
#include "engine/HeadStudy.h"

namespace attnlab::cli {

inline nlohmann::json curveJson(const std::vector<PruningPoint>& curve) {
    nlohmann::json out = nlohmann::json::array();
    for (const PruningPoint& p : curve)
        out.push_back({{"pruned", p.pruned}, {"pruned_fraction", p.prunedFraction}, {"metric", p.metric},
                       {"loss", p.loss}});
    return out;
}

inline nlohmann::json orderJson(const std::vector<HeadId>& order) {
    nlohmann::json out = nlohmann::json::array();
    for (const HeadId& h : order) out.push_back(toString(h));
    return out;
}

// The most heads the curve removes with BLEU still at >= 90% of the baseline's.
inline int headsBeforeTenPercentDrop(const std::vector<PruningPoint>& curve, double baseline) {
    HeadStudyReport r;
    r.baseline.metric = baseline;
    r.pruningCurve = curve;
    return headsWithinTenPercent(r);
}

inline HeadStudyOptions studyOptions(const ArgParser& args) {
    HeadStudyOptions options;
    options.limit = static_cast<std::size_t>(args.integer("--limit", 0, 0, 10000000));
    options.seed = static_cast<std::uint64_t>(args.integer("--seed", 1, 0, 4294967295LL));
    options.randomOrders = static_cast<int>(args.integer("--random-orders", 3, 0, 100));
    return options;
}

inline std::set<std::string> withStudyFlags(std::set<std::string> values) {
    values.insert({"--model", "--limit", "--seed", "--random-orders"});
    return values;
}

inline void noPositionals(const ArgParser& args) {
    if (!args.positionals().empty())
        throw UsageError("unexpected argument '" + args.positionals().front() + "' (see attnlab-cli heads --help)");
}

inline HeadStudyProgress progressLine() {
    const bool tty = isatty(STDERR_FILENO) != 0;
    return [tty](int done, int total) {
        if (tty) std::fprintf(stderr, "\rmeasuring heads: %d/%d", done, total);
        if (tty && done == total) std::fprintf(stderr, "\n");
    };
}

// A classifier's, the ViT's or the forecaster's report, as JSON or a table.
inline int printStudy(const HeadStudyReport& r, const char* items, bool json) {
    if (r.skipped)
        std::cerr << "warning: " << r.skipped << " of " << r.skipped + r.items << " " << items
                  << " skipped (a class the model does not know, or empty)\n";
    const int keep = headsWithinTenPercent(r);
    const std::string metric = r.metric == "MAE" ? "mae" : r.metric;
    if (json) {
        nlohmann::json heads = nlohmann::json::array();
        for (const HeadStudyEffect& e : r.heads)
            heads.push_back({{"kind", toString(e.head.kind)},
                             {"layer", e.head.layer + 1},
                             {"head", e.head.head + 1},
                             {"loss", e.score.loss},
                             {metric, e.score.metric},
                             {"delta_loss", e.deltaLoss},
                             {"delta_metric", e.deltaMetric},
                             {"gradient", e.gradient},
                             {"importance", e.importance}});
        nlohmann::json out{{items, r.items},
                           {"metric", metric},
                           {"higher_is_better", r.higherIsBetter},
                           {"baseline", {{"loss", r.baseline.loss}, {metric, r.baseline.metric}}},
                           {"heads", std::move(heads)},
                           {"pruning_order", orderJson(r.pruningOrder)},
                           {"pruning_curve", curveJson(r.pruningCurve)},
                           {"random_curve", curveJson(r.randomCurve)},
                           {"heads_prunable_within_10_percent", keep}};
        std::cout << out.dump() << "\n";
        return kOk;
    }
    std::printf("%zu %s: loss %.4f, %s %.4f\n", r.items, items, r.baseline.loss, r.metric.c_str(), r.baseline.metric);
    std::printf("%-8s %5s %4s %10s %10s %10s\n", "kind", "layer", "head", "d_loss", ("d_" + metric).c_str(),
                "importance");
    for (const HeadStudyEffect& e : r.heads)
        std::printf("%-8s %5d %4d %10.4f %10.4f %10.4f\n", toString(e.head.kind), e.head.layer + 1, e.head.head + 1,
                    e.deltaLoss, e.deltaMetric, e.importance);
    std::printf("%d of %zu heads can go (least important first) before %s moves 10%% %s %.4f\n", keep, r.heads.size(),
                r.metric.c_str(), r.higherIsBetter ? "below" : "above", r.baseline.metric);
    return kOk;
}

}  // namespace attnlab::cli
