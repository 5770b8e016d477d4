// attnlab-cli heads and translate --ablate as a script sees them: the JSON's shape (layers and
// heads from 1, importances >= 0, the pruning curves from nothing to every head removed, the
// rollout's rows summing to 1) and the usage errors (exit 2, one line naming the flag).
#include "cli/CliSupport.h"

#include <cmath>

namespace {

using namespace attnlab::test::cli;

Args trainArgs(const std::string& arch, const std::string& out) {
    Args a{"train", "--dataset", "reverse", "--size", "160", "--max-len", "6", "--arch", arch, "--hidden", "16",
           "--epochs", "4", "--batch", "16", "--lr", "0.01", "--out", out};
    if (arch == "transformer") a.insert(a.end(), {"--layers", "1", "--heads", "2", "--ff", "32"});
    return a;
}

void checkRows(const Json& matrix, std::size_t size) {
    REQUIRE(matrix.is_array());
    REQUIRE(matrix.size() == size);
    for (const auto& row : matrix) {
        REQUIRE(row.size() == size);
        double sum = 0.0;
        for (const auto& x : row) {
            CHECK(x.get<double>() >= 0.0);
            sum += x.get<double>();
        }
        CHECK_THAT(sum, WithinAbs(1.0, 1e-4));
    }
}

void checkCurve(const Json& curve, std::size_t heads) {
    REQUIRE(curve.is_array());
    REQUIRE(curve.size() == heads + 1);
    for (std::size_t k = 0; k < curve.size(); ++k) {
        CHECK(curve[k]["pruned"].get<std::size_t>() == k);
        CHECK_THAT(curve[k]["pruned_fraction"].get<double>(), WithinAbs(static_cast<double>(k) / heads, 1e-12));
        const double metric = curve[k]["metric"].get<double>();
        CHECK(metric >= 0.0);
        CHECK(metric <= 100.0);
    }
}

}  // namespace

TEST_CASE("heads and translate --ablate: JSON shape, usage errors", "[cli]") {
    const std::string model = scratch().file("heads-transformer.safetensors");
    const std::string gru = scratch().file("heads-gru.safetensors");
    const Args trainT = trainArgs("transformer", model), trainG = trainArgs("gru", gru);
    ProcessRunner trainingT(kCli, trainT, defaultOptions()), trainingG(kCli, trainG, defaultOptions());
    trainingT.start();
    trainingG.start();

    // Spec and flag errors come before the model is read: they run while it trains.
    const std::vector<std::pair<Args, std::vector<std::string>>> early{
        {{"translate", "--model", model, "--ablate", "cross:0:1", "a b"}, {"--ablate", "'cross:0:1'", "count from 1"}},
        {{"translate", "--model", model, "--ablate", "self:1:1", "a b"}, {"--ablate", "'self:1:1'"}},
        {{"translate", "--model", model, "--ablate", "cross:1", "a b"}, {"--ablate", "KIND:LAYER:HEAD"}},
        {{"heads", "--model", model}, {"--corpus", "--dataset"}},
        {{"heads", "--model", model, "--dataset", "reverse", "--limit", "-1"}, {"--limit"}},
    };
    std::vector<Args> invocations;
    for (const auto& [args, texts] : early) invocations.push_back(args);
    const auto errors = cliAll(invocations);
    for (std::size_t i = 0; i < early.size(); ++i) {
        INFO(describe(early[i].first, errors[i]));
        CHECK(errors[i].exitCode == 2);
        CHECK(isOneErrorLine(errors[i].err));
        for (const auto& text : early[i].second) CHECK_THAT(errors[i].err, Contains(text));
        CHECK(errors[i].out.empty());
    }

    const ProcessResult t = trainingT.wait(), g = trainingG.wait();
    INFO(describe(trainT, t));
    INFO(describe(trainG, g));
    REQUIRE(t.exitCode == 0);
    REQUIRE(g.exitCode == 0);

    const std::string sentence = "d a l f";
    const std::vector<Args> runs{
        {"translate", "--model", model, "--json", "--ablate", "cross:*:*", sentence},
        {"translate", "--model", model, "--json", sentence},
        {"heads", "--model", model, "--dataset", "reverse", "--size", "30", "--data-seed", "9", "--max-len", "6",
         "--random-orders", "2", "--json"},
        {"translate", "--model", model, "--ablate", "cross:2:1", sentence},
        {"translate", "--model", model, "--ablate", "encoder:1:3", sentence},
        {"heads", "--model", gru, "--dataset", "reverse", "--size", "10"},
        {"translate", "--model", gru, "--ablate", "cross:1:1", sentence},
        {"heads", "--model", model, "--corpus", scratch().file("no-such-corpus.tsv")},
        {"heads", "--model", model, "--dataset", "reverse", "--size", "20", "--max-len", "6"},
    };
    const auto results = cliAll(runs);

    {  // translate --ablate --json
        INFO(describe(runs[0], results[0]));
        REQUIRE(results[0].exitCode == 0);
        const Json j = Json::parse(results[0].out);
        REQUIRE(j["ablated"].size() == 2);
        for (std::size_t h = 0; h < 2; ++h) {
            CHECK(j["ablated"][h]["kind"] == "cross");
            CHECK(j["ablated"][h]["layer"] == 1);
            CHECK(j["ablated"][h]["head"] == h + 1);
        }
        const std::size_t source = j["source_tokens"].size();
        checkRows(j["rollout"]["encoder"], source);
        CHECK(j["log_prob_original"].get<double>() <= 0.0);
        CHECK(j["log_prob_original_ablated"].get<double>() <= 0.0);
        CHECK(j["original_output_tokens"].is_array());
        CHECK(j["output_changed"].is_boolean());
        CHECK(j["attention"]["cross"].size() == 1);

        // The plain translation: the rollout, no ablation keys; its output is the ablated run's
        // "original_output_tokens".
        INFO(describe(runs[1], results[1]));
        REQUIRE(results[1].exitCode == 0);
        const Json plain = Json::parse(results[1].out);
        CHECK_FALSE(plain.contains("ablated"));
        checkRows(plain["rollout"]["encoder"], source);
        CHECK(plain["output_tokens"] == j["original_output_tokens"]);
        CHECK_THAT(plain["log_probability"].get<double>(), WithinAbs(j["log_prob_original"].get<double>(), 1e-4));
    }
    {  // heads --json
        INFO(describe(runs[2], results[2]));
        REQUIRE(results[2].exitCode == 0);
        const Json j = Json::parse(results[2].out);
        for (const char* key : {"loss", "bleu", "exact"}) CHECK(j["baseline"][key].is_number());
        REQUIRE(j["heads"].size() == 6);  // 3 kinds x 1 layer x 2 heads
        const std::vector<std::string> kinds{"encoder", "encoder", "decoder", "decoder", "cross", "cross"};
        for (std::size_t h = 0; h < 6; ++h) {
            const Json& e = j["heads"][h];
            CHECK(e["kind"] == kinds[h]);
            CHECK(e["layer"] == 1);
            CHECK(e["head"] == h % 2 + 1);
            CHECK(e["importance"].get<double>() >= 0.0);
            CHECK(e["importance"].get<double>() <= 1.0 + 1e-9);
            CHECK_THAT(e["delta_loss"].get<double>(),
                       WithinAbs(e["loss"].get<double>() - j["baseline"]["loss"].get<double>(), 1e-9));
            CHECK_THAT(e["delta_metric"].get<double>(),
                       WithinAbs(e["bleu"].get<double>() - j["baseline"]["bleu"].get<double>(), 1e-9));
        }
        checkCurve(j["pruning_curve"], 6);
        checkCurve(j["random_curve"], 6);
        CHECK_THAT(j["pruning_curve"][0]["metric"].get<double>(), WithinAbs(j["baseline"]["bleu"].get<double>(), 1e-9));
        CHECK(j["pruning_order"].size() == 6);
    }
    for (std::size_t i : {std::size_t{3}, std::size_t{4}, std::size_t{5}, std::size_t{6}}) {  // out of the model's range; GRU models
        INFO(describe(runs[i], results[i]));
        CHECK(results[i].exitCode == 2);
        CHECK(isOneErrorLine(results[i].err));
    }
    CHECK_THAT(results[3].err, Contains("--ablate") && Contains("layer 2 in 'cross:2:1'") && Contains("1 layer"));
    CHECK_THAT(results[4].err, Contains("--ablate") && Contains("head 3") && Contains("2 heads"));
    CHECK_THAT(results[5].err, Contains("heads needs a Transformer model"));
    CHECK_THAT(results[6].err, Contains("--ablate needs a Transformer model"));
    INFO(describe(runs[7], results[7]));
    CHECK(results[7].exitCode == 3);
    CHECK(isOneErrorLine(results[7].err));
    // Without --json: a table of the six heads and the pruning sentence.
    INFO(describe(runs[8], results[8]));
    REQUIRE(results[8].exitCode == 0);
    CHECK(lines(results[8].out).size() == 1 + 1 + 6 + 1);
    CHECK_THAT(results[8].out, Contains("heads can go"));
}

TEST_CASE("heads on a classifier, a ViT and a forecaster: each task's metric, its data flags", "[cli]") {
    const std::string cls = scratch().file("heads-classifier.safetensors");
    const std::string vit = scratch().file("heads-vit.safetensors");
    const std::string fc = scratch().file("heads-forecaster.safetensors");
    const std::string gruCls = scratch().file("heads-gru-classifier.safetensors");
    const std::vector<Args> training{
        {"train", "--task", "classify", "--dataset", "topic", "--size", "120", "--arch", "transformer", "--hidden", "16",
         "--layers", "1", "--heads", "2", "--ff", "32", "--epochs", "1", "--out", cls},
        {"train", "--task", "image-classify", "--dataset", "glyphs", "--size", "64", "--arch", "vit",
         "--patch", "8", "--hidden", "16", "--heads", "2", "--layers", "1", "--epochs", "1", "--out", vit},
        {"train", "--task", "forecast", "--dataset", "seasonal", "--length", "300", "--context", "24", "--horizon", "4",
         "--d-model", "16", "--heads", "2", "--layers", "1", "--ff", "32", "--epochs", "1", "--out", fc},
        {"train", "--task", "classify", "--dataset", "topic", "--size", "60", "--arch", "gru", "--hidden", "8", "--epochs", "1",
         "--out", gruCls},
    };
    const auto trained = cliAll(training);
    for (std::size_t i = 0; i < training.size(); ++i) {
        INFO(describe(training[i], trained[i]));
        REQUIRE(trained[i].exitCode == 0);
    }

    const std::vector<Args> runs{
        {"heads", "--model", cls, "--dataset", "topic", "--size", "40", "--data-seed", "5", "--json"},
        {"heads", "--model", vit, "--dataset", "glyphs", "--size", "20", "--data-seed", "5", "--json"},
        {"heads", "--model", fc, "--dataset", "seasonal", "--length", "300", "--random-orders", "1", "--json"},
        {"heads", "--model", gruCls, "--dataset", "topic", "--size", "10"},
        {"heads", "--model", cls, "--dataset", "reverse"},
        {"heads", "--model", fc},
        {"heads", "--model", vit, "--dataset", "glyphs", "--split", "middle"},
        {"heads", "--model", fc, "--dataset", "seasonal", "--length", "300"},
    };
    const auto results = cliAll(runs);
    struct Expected {
        const char* items;
        const char* metric;
        bool higher;
        std::vector<std::string> kinds;
    };
    const std::vector<Expected> expected{
        {"texts", "accuracy", true, {"encoder", "encoder"}},
        {"images", "accuracy", true, {"encoder", "encoder"}},
        {"windows", "mae", false, {"encoder", "encoder", "decoder", "decoder", "cross", "cross"}},
    };
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO(describe(runs[i], results[i]));
        REQUIRE(results[i].exitCode == 0);
        const Json j = Json::parse(results[i].out);
        const Expected& x = expected[i];
        CHECK(j["metric"] == x.metric);
        CHECK(j["higher_is_better"] == x.higher);
        CHECK(j[x.items].get<int>() > 0);
        const double base = j["baseline"][x.metric].get<double>();
        CHECK(j["baseline"]["loss"].is_number());
        REQUIRE(j["heads"].size() == x.kinds.size());
        for (std::size_t h = 0; h < x.kinds.size(); ++h) {
            const Json& e = j["heads"][h];
            CHECK(e["kind"] == x.kinds[h]);
            CHECK(e["layer"] == 1);
            CHECK(e["head"] == h % 2 + 1);
            CHECK(e["importance"].get<double>() >= 0.0);
            CHECK_THAT(e["delta_metric"].get<double>(), WithinAbs(e[x.metric].get<double>() - base, 1e-9));
        }
        REQUIRE(j["pruning_curve"].size() == x.kinds.size() + 1);
        CHECK_THAT(j["pruning_curve"][0]["metric"].get<double>(), WithinAbs(base, 1e-9));
        CHECK(j["pruning_curve"].back()["pruned_fraction"] == 1.0);
        CHECK(j["pruning_order"].size() == x.kinds.size());
    }
    for (std::size_t i = 3; i < 7; ++i) {
        INFO(describe(runs[i], results[i]));
        CHECK(results[i].exitCode == 2);
        CHECK(isOneErrorLine(results[i].err));
        CHECK(results[i].out.empty());
    }
    CHECK_THAT(results[3].err, Contains("GRU classifier"));
    CHECK_THAT(results[4].err, Contains("--dataset") && Contains("reverse"));
    CHECK_THAT(results[5].err, Contains("--series") && Contains("--dataset"));
    CHECK_THAT(results[6].err, Contains("--split"));
    // Without --json: the forecaster's table of six heads, in MAE.
    INFO(describe(runs[7], results[7]));
    REQUIRE(results[7].exitCode == 0);
    CHECK(lines(results[7].out).size() == 1 + 1 + 6 + 1);
    CHECK_THAT(results[7].out, Contains("MAE") && Contains("above"));
}

TEST_CASE("heads has its help and its line in the overview; translate's help names --ablate", "[cli]") {
    const std::vector<Args> invocations{{"--help"}, {"heads", "--help"}, {"translate", "--help"}};
    const auto results = cliAll(invocations);
    for (std::size_t i = 0; i < invocations.size(); ++i) {
        INFO(describe(invocations[i], results[i]));
        CHECK(results[i].exitCode == 0);
        CHECK(results[i].err.empty());
    }
    CHECK_THAT(results[0].out, Contains("  heads "));
    CHECK_THAT(results[1].out, StartsWith("Usage: attnlab-cli heads"));
    CHECK_THAT(results[1].out, Contains("pruning_curve") && Contains("importance"));
    CHECK_THAT(results[2].out, Contains("--ablate SPEC") && Contains("\"rollout\""));
}
