// attnlab-cli translate --sample as a script sees it: the samples side by side in the JSON, with
// each step's candidates and the cut; one seed repeats across processes; top-k 1 is greedy; the
// sampling flags without --sample, with --beam above 1 or out of range are usage errors (exit 2).
#include "cli/CliSupport.h"

#include <cmath>
#include <map>

namespace {

using namespace attnlab::test::cli;

}  // namespace

TEST_CASE("translate --sample: samples with their steps, repeatable, greedy at top-k 1, usage errors",
          "[cli]") {
    const std::string model = scratch().file("sampling-gru.safetensors");
    const Args train{"train", "--dataset", "copy", "--size", "128", "--max-len", "5", "--arch", "gru", "--hidden",
                     "16", "--epochs", "1", "--batch", "16", "--lr", "0.01", "--out", model};
    ProcessRunner training(kCli, train, defaultOptions());
    training.start();

    // The usage errors come before the model is read: they run while it trains. (Every sampling
    // flag without --sample is refused by one loop; three of them stand for the rest.)
    const std::string sentence = "a b c";
    const std::vector<std::pair<Args, std::string>> usage{
        {{"translate", "--model", model, "--temperature", "0.5", sentence}, "--temperature needs --sample"},
        {{"translate", "--model", model, "--top-p", "0.9", sentence}, "--top-p needs --sample"},
        {{"translate", "--model", model, "--samples", "2", sentence}, "--samples needs --sample"},
        {{"translate", "--model", model, "--sample", "--beam", "2", sentence},
         "--sample cannot be combined with --beam 2"},
        {{"translate", "--model", model, "--sample", "--temperature", "0", sentence}, "--temperature must be above 0"},
        {{"translate", "--model", model, "--sample", "--top-p", "0", sentence}, "--top-p must be above 0"},
        {{"translate", "--model", model, "--sample", "--top-k", "-1", sentence}, "--top-k"},
        {{"translate", "--model", model, "--beam", "3", "--beam-tree", sentence}, "--beam-tree needs --json"},
        {{"translate", "--model", model, "--sample", "--json", "--beam-tree", sentence},
         "--beam-tree cannot be combined with --sample"},
    };
    std::vector<Args> invocations;
    for (const auto& [args, text] : usage) invocations.push_back(args);
    const auto errors = cliAll(invocations);
    for (std::size_t i = 0; i < usage.size(); ++i) {
        INFO(describe(usage[i].first, errors[i]));
        CHECK(errors[i].exitCode == 2);
        CHECK(isOneErrorLine(errors[i].err));
        CHECK_THAT(errors[i].err, Contains(usage[i].second));
        CHECK(errors[i].out.empty());
    }

    const ProcessResult trained = training.wait();
    INFO(describe(train, trained));
    REQUIRE(trained.exitCode == 0);
    const Args sampled{"translate", "--model", model, "--sample", "--temperature", "1.5", "--top-p", "0.9", "--seed",
                       "7", "--samples", "3", "--json", sentence};
    const std::vector<Args> runs{
        sampled,
        sampled,
        {"translate", "--model", model, "--sample", "--top-k", "1", "--seed", "3", sentence},
        {"translate", "--model", model, sentence},
        {"translate", "--model", model, "--sample", "--seed", "7", "--samples", "2", sentence, "b c"},
        {"translate", "--model", model, "--beam", "3", "--json", "--beam-tree", sentence},
    };
    const auto results = cliAll(runs);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        INFO(describe(runs[i], results[i]));
        REQUIRE(results[i].exitCode == 0);
    }

    // The JSON: the existing keys (the first sample's), then "sampling" and "samples".
    const auto out = lines(results[0].out);
    REQUIRE(out.size() == 1);
    const Json j = Json::parse(out[0]);
    for (const char* key : {"source_tokens", "output_tokens", "log_probability", "attention", "sampling", "samples"})
        CHECK(j.contains(key));
    CHECK(j["sampling"]["temperature"] == 1.5);
    CHECK(j["sampling"]["top_p"] == 0.9);
    CHECK(j["sampling"]["top_k"] == 0);
    CHECK(j["sampling"]["seed"] == 7);
    REQUIRE(j["samples"].size() == 3);
    CHECK(j["samples"][0]["output_tokens"] == j["output_tokens"]);
    CHECK(j["samples"][0]["attention"] == j["attention"]);
    for (std::size_t s = 0; s < 3; ++s) {
        const Json& sample = j["samples"][s];
        INFO("sample " << s);
        CHECK(sample["seed"] == 7 + s);
        const auto tokens = sample["output_tokens"].get<std::vector<std::string>>();
        CHECK(sample["text"] == join(tokens, " "));
        CHECK(sample["log_probability"].get<double>() <= 0.0);
        const Json& steps = sample["steps"];
        REQUIRE(steps.size() >= tokens.size());
        REQUIRE(steps.size() <= tokens.size() + 1);
        REQUIRE(sample["attention"]["cross"][0][0].size() == tokens.size());
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const Json& step = steps[i];
            INFO("step " << i);
            if (i < tokens.size()) CHECK(step["chosen"] == tokens[i]);
            else CHECK(step["chosen"] == "</s>");
            REQUIRE(!step["candidates"].empty());
            CHECK(step["candidates"].size() <= 10);
            double kept = 0;
            int keptCount = 0;
            for (const Json& c : step["candidates"]) {
                CHECK(c["token"].is_string());
                CHECK(c["probability"].get<double>() >= 0.0);
                if (c["kept"].get<bool>()) {
                    kept += c["probability"].get<double>();
                    ++keptCount;
                }
            }
            CHECK(keptCount >= 1);
            if (step["kept_count"].get<int>() <= 10) {
                CHECK(keptCount == step["kept_count"].get<int>());
                CHECK_THAT(kept, WithinAbs(step["kept_mass"].get<double>(), 1e-4));
                // The smallest set reaching 0.9.
                CHECK(kept >= 0.9 - 1e-4);
            }
            CHECK(step["chosen_probability"].get<double>() > 0.0);
        }
    }
    // One seed repeats, process after process.
    CHECK(results[1].out == results[0].out);
    // Top-k 1 is greedy.
    CHECK(results[2].out == results[3].out);
    // Without --json: one line per sample, per sentence.
    CHECK(lines(results[4].out).size() == 4);

    // --beam-tree: every hypothesis kept, at most three per step, the "best" ones one path that
    // spells the translation.
    const Json beam = Json::parse(lines(results[5].out).at(0));
    const Json& tree = beam["beam_tree"];
    REQUIRE(tree.is_array());
    REQUIRE(!tree.empty());
    std::map<int, int> perStep;
    std::vector<std::string> spelt;
    int previous = -1;
    for (std::size_t i = 0; i < tree.size(); ++i) {
        const Json& n = tree[i];
        INFO("node " << i);
        ++perStep[n["step"].get<int>()];
        CHECK(n["parent"].get<int>() < static_cast<int>(i));
        CHECK(n["p"].get<double>() > 0.0);
        CHECK(n["attention"].size() == beam["source_tokens"].size());
        if (n["best"].get<bool>()) {
            CHECK(n["parent"].get<int>() == previous);
            previous = static_cast<int>(i);
            if (!n["finished"].get<bool>()) spelt.push_back(n["token"].get<std::string>());
        }
    }
    for (const auto& [step, count] : perStep) CHECK(count <= 3);
    CHECK(spelt == beam["output_tokens"].get<std::vector<std::string>>());
}
