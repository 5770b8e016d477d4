// attnlab-cli's language model as a script sees it: datasets --write repeats, train --task lm (one
// JSON object per report), attend --json (the contract: rows summing to 1, nothing above the
// diagonal of a causal model, next agreeing with greedy generate), detect --json, inspect, and the
// mistakes a user can make (one error line naming the file, line or flag; the exit code).
#include "cli/CliSupport.h"

namespace {

using namespace attnlab::test::cli;

// A tiny model on 200 lines of the induction set, trained once for the file.
struct TrainedLm {
    std::string text = scratch().file("repeats.txt"), model = scratch().file("lm.safetensors");
    ProcessResult written, trained;
    TrainedLm() {
        written = cli({"datasets", "--write", "repeats", "--size", "200", "--seed", "3", "--out", text});
        trained = cli({"train", "--task", "lm", "--text", text, "--tokens", "words", "--hidden", "16", "--heads", "2",
                       "--steps", "40", "--every", "20", "--out", model});
    }
};

const TrainedLm& trainedLm() {
    static const TrainedLm t;
    return t;
}

}  // namespace

TEST_CASE("train --task lm reports every N steps with each head's scores", "[cli][lm]") {
    const TrainedLm& t = trainedLm();
    INFO(describe({"datasets"}, t.written));
    REQUIRE(t.written.exitCode == 0);
    CHECK(lines(readBytes(t.text)).size() == 200);
    INFO(describe({"train"}, t.trained));
    REQUIRE(t.trained.exitCode == 0);
    const auto reports = lines(t.trained.out);
    REQUIRE(reports.size() == 2);
    const Json r = Json::parse(reports[1]);
    CHECK(r["step"] == 40);
    for (const char* key : {"train_loss", "val_loss", "copy_accuracy", "icl", "best_previous_token", "best_induction",
                            "tokens_per_sec", "seconds"})
        CHECK(r.contains(key));
    REQUIRE(r["induction"].size() == 2);     // layers
    REQUIRE(r["induction"][1].size() == 2);  // heads
    CHECK(r["best_induction"]["layer"].get<int>() >= 1);

    const ProcessResult inspect = cli({"inspect", "--task", "lm", "--text", t.text, "--tokens", "words", "--json"});
    REQUIRE(inspect.exitCode == 0);
    const Json i = Json::parse(inspect.out);
    CHECK(i["documents"] == 200);
    CHECK(i["tokens"] == 200 * 64);
    CHECK(i["vocabulary"] == 204);  // 200 words and 4 specials
}

TEST_CASE("attend --json: distributions over the keys, none after the query; next is generate's first", "[cli][lm]") {
    const TrainedLm& t = trainedLm();
    REQUIRE(t.trained.exitCode == 0);
    const std::string text = "ba be bi bo ba be";
    const auto runs = cliAll({{"attend", "--model", t.model, "--text", text, "--json"},
                              {"generate", "--model", t.model, "--prompt", text, "--max-new-tokens", "2", "--json"},
                              {"detect", "--model", t.model, "--json"},
                              {"heads", "--model", t.model, "--text", t.text, "--tokens", "words", "--limit", "20",
                               "--random-orders", "1", "--json"}});
    for (const auto& r : runs) {
        INFO(describe({"attend/generate/detect"}, r));
        REQUIRE(r.exitCode == 0);
    }
    const Json a = Json::parse(runs[0].out);
    REQUIRE(a["tokens"].size() == 7);  // <bos> and six words
    CHECK(a["tokens"][0] == "<bos>");
    REQUIRE(a["attention"].size() == 2);
    for (const auto& layer : a["attention"])
        for (const auto& head : layer) {
            REQUIRE(head.size() == 7);
            for (std::size_t q = 0; q < 7; ++q) {
                double sum = 0;
                for (std::size_t k = 0; k < 7; ++k) {
                    const double w = head[q][k].get<double>();
                    if (k > q) CHECK(w == 0.0);
                    sum += w;
                }
                CHECK_THAT(sum, WithinAbs(1.0, 1e-5));
            }
        }
    REQUIRE(a["next"].size() == 10);
    const Json g = Json::parse(runs[1].out);
    REQUIRE(g["ids"].size() == 2);
    CHECK(g["ids"][0] == a["next"][0]["id"]);
    const Json d = Json::parse(runs[2].out);
    CHECK(d["previous_token"].size() == 2);
    CHECK(d.contains("copy_accuracy"));
    const Json h = Json::parse(runs[3].out);  // every head switched off in turn
    REQUIRE(h["heads"].size() == 4);
    CHECK(h["heads"][0]["kind"] == "decoder");
}

TEST_CASE("a broken text, a wrong flag or a foreign model gets one line naming it", "[cli][lm]") {
    const TrainedLm& t = trainedLm();
    const std::string latin1 = scratch().file("latin1.txt"), empty = scratch().file("empty.txt");
    writeBytes(latin1, "a good line\nna\xefve\n");
    writeBytes(empty, "\n\n");
    const std::string out = scratch().file("o.safetensors");
    const std::vector<Args> runs{
        {"train", "--task", "lm", "--text", latin1, "--out", out},                                   // 3: its line
        {"train", "--task", "lm", "--text", empty, "--out", out},                                    // 3
        {"train", "--task", "lm", "--text", scratch().file("missing.txt"), "--out", out},            // 3
        {"train", "--task", "lm", "--dataset", "poems", "--out", out},                               // 2
        {"train", "--task", "lm", "--dataset", "repeats", "--epochs", "3", "--out", out},            // 2
        {"train", "--task", "lm", "--dataset", "repeats", "--heads", "3", "--out", out},             // 2
        {"generate", "--model", t.model, "--prompt", "ba", "--top-k", "5"},                          // 2
        {"attend", "--model", latin1, "--text", "ba", "--json"},                                     // 4
    };
    const auto bad = cliAll(runs);
    const int expected[] = {3, 3, 3, 2, 2, 2, 2, 4};
    for (std::size_t i = 0; i < runs.size(); ++i) {
        INFO(describe(runs[i], bad[i]));
        CHECK(bad[i].exitCode == expected[i]);
        CHECK(isOneErrorLine(bad[i].err));
    }
    CHECK_THAT(bad[0].err, Contains("latin1.txt:2"));
    CHECK_THAT(bad[1].err, Contains("empty.txt"));
    CHECK_THAT(bad[2].err, Contains("missing.txt"));
    CHECK_THAT(bad[3].err, Contains("--dataset"));
    CHECK_THAT(bad[4].err, Contains("--steps"));
    CHECK_THAT(bad[5].err, Contains("--heads"));
    CHECK_THAT(bad[6].err, Contains("--temperature"));
    CHECK_THAT(bad[7].err, Contains("latin1.txt"));
}
