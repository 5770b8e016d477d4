// attnlab-cli as a user or a script sees it: a separate process, its stdout, stderr and
// exit code (docs/ARCHITECTURE.md, "The CLI contract"). Every process start costs ~0.8 s (LibTorch),
// so independent runs go in parallel and each tiny model is trained once per file.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/TaskIds.h"
#include "cli/CliSupport.h"

namespace {

using namespace attnlab::test::cli;

// ---- tiny models, trained once per run, in parallel --------------------------------------------

struct Models {
    std::string gru, transformer, none;
    Args gruArgs;
    ProcessResult gruRun, transformerRun, noneRun, gruTranslation, transformerTranslation;
    std::string sentence;  // a source sentence of the copy dataset, in the models' vocabulary
};

// `translate --json` output of one sentence.
Json parseTranslation(const ProcessResult& r) {
    const auto out = lines(r.out);
    REQUIRE(out.size() == 1);
    return Json::parse(out[0]);
}

// Seeded and on one thread, so the same build always trains the same weights; trained just
// enough that the models say something for `sentence`.
const Models& models() {
    static const Models m = [] {
        Models built;
        built.gru = scratch().file("gru.safetensors");
        built.transformer = scratch().file("transformer.safetensors");
        built.none = scratch().file("none.safetensors");
        built.gruArgs = {"train", "--dataset", "copy", "--size", "256", "--max-len", "5", "--arch", "gru", "--hidden",
                     "16", "--epochs", "2", "--batch", "16", "--lr", "0.01", "--out", built.gru};
        const std::string data = scratch().file("copy-sample.tsv");
        ProcessRunner gru(kCli, built.gruArgs, userOptions());
        gru.start();
        auto results = cliAll({{"train", "--dataset", "copy", "--size", "300", "--max-len", "5", "--arch",
                                "transformer", "--hidden", "16", "--heads", "2", "--ff", "32", "--layers", "2",
                                "--dropout", "0", "--epochs", "6", "--batch", "16", "--lr", "0.01", "--out",
                                built.transformer},
                               {"train", "--dataset", "copy", "--size", "32", "--max-len", "5", "--arch", "gru",
                                "--attention", "none", "--hidden", "8", "--epochs", "1", "--out", built.none},
                               {"datasets", "--write", "copy", "--size", "1", "--max-len", "5", "--seed", "7",
                                "--out", data}});
        built.gruRun = gru.wait();
        built.transformerRun = results[0];
        built.noneRun = results[1];
        const std::string sample = readBytes(data);
        built.sentence = sample.substr(0, sample.find('\t'));
        results = cliAll({{"translate", "--model", built.gru, "--json", built.sentence},
                          {"translate", "--model", built.transformer, "--json", built.sentence}});
        built.gruTranslation = results[0];
        built.transformerTranslation = results[1];
        return built;
    }();
    INFO(describe(m.gruArgs, m.gruRun));
    REQUIRE(m.gruRun.exitCode == 0);
    INFO(describe({"train transformer"}, m.transformerRun));
    REQUIRE(m.transformerRun.exitCode == 0);
    INFO(describe({"train --attention none"}, m.noneRun));
    REQUIRE(m.noneRun.exitCode == 0);
    REQUIRE(!m.sentence.empty());
    INFO(describe({"translate --json"}, m.gruTranslation));
    REQUIRE(m.gruTranslation.exitCode == 0);
    INFO(describe({"translate --json"}, m.transformerTranslation));
    REQUIRE(m.transformerTranslation.exitCode == 0);
    return m;
}

// ---- version and help ------------------------------------------------------------------------------

TEST_CASE("--version prints the version and the git revision; every help exits 0", "[cli]") {
    // Every command: the front end's two and ATTNLAB_ENGINE_COMMANDS (app/cli/Commands.h).
    const std::vector<std::string> commands{"datasets", "inspect",  "train",    "translate", "render",
                                            "experiment", "export", "classify", "explain",   "look"};
    std::vector<Args> invocations{{"--version"}, {"--help"}};
    for (const auto& c : commands) invocations.push_back({c, "--help"});
    const auto results = cliAll(invocations);

    INFO(describe(invocations[0], results[0]));
    CHECK(results[0].exitCode == 0);
    CHECK(std::regex_match(results[0].out, std::regex(R"(attnlab-cli \d+\.\d+\.\d+ \([0-9a-zA-Z]+\)\n)")));

    INFO(describe(invocations[1], results[1]));
    CHECK(results[1].exitCode == 0);
    for (const auto& c : commands) CHECK_THAT(results[1].out, Contains("  " + c + " "));
    for (std::size_t i = 0; i < commands.size(); ++i) {
        const ProcessResult& r = results[i + 2];
        INFO(describe(invocations[i + 2], r));
        CHECK(r.exitCode == 0);
        CHECK_THAT(r.out, StartsWith("Usage: attnlab-cli " + commands[i]));
        CHECK(r.err.empty());
    }
}

// ---- datasets ------------------------------------------------------------------------------------------

TEST_CASE("datasets lists all six and writes N pairs with alignments", "[cli]") {
    const std::string tsv = scratch().file("dates.tsv"), align = scratch().file("dates.align");
    const std::string again = scratch().file("dates-again.tsv");
    const std::vector<Args> invocations{
        {"datasets"},
        {"datasets", "--write", "dates", "--size", "37", "--seed", "5", "--out", tsv, "--alignments", align},
        {"datasets", "--write", "dates", "--size", "37", "--seed", "5", "--out", again},
        {"datasets", "--write", "nonsense", "--out", scratch().file("x.tsv")}};
    const auto results = cliAll(invocations);

    INFO(describe(invocations[0], results[0]));
    REQUIRE(results[0].exitCode == 0);
    for (const char* name : {"copy", "reverse", "sort", "dates", "toy-en-fr", "toy-en-zh"})
        CHECK(std::regex_search(results[0].out, std::regex(std::string("(^|\n)") + name + " ")));

    INFO(describe(invocations[1], results[1]));
    REQUIRE(results[1].exitCode == 0);
    const auto pairs = lines(readBytes(tsv));
    CHECK(pairs.size() == 37);
    for (const auto& p : pairs) CHECK(std::count(p.begin(), p.end(), '\t') == 1);
    const auto links = lines(readBytes(align));
    CHECK(links.size() == 37);
    for (const auto& l : links) CHECK(std::regex_match(l, std::regex(R"((\d+-\d+)( \d+-\d+)*)")));
    // The same seed gives the same file.
    CHECK(readBytes(again) == readBytes(tsv));

    INFO(describe(invocations[3], results[3]));
    CHECK(results[3].exitCode == 2);
    CHECK(isOneErrorLine(results[3].err));
    CHECK_THAT(results[3].err, Contains("nonsense"));
    CHECK_FALSE(fs::exists(scratch().file("x.tsv")));
}

std::vector<std::string> splitOn(const std::string& text, char separator) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string item; std::getline(in, item, separator);)
        if (!item.empty()) out.push_back(item);
    return out;
}

// Code points of a UTF-8 string: the bytes that do not continue a sequence.
std::size_t codePoints(const std::string& s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

TEST_CASE("toy-en-zh is tokenized in Chinese words unless --split-cjk asks for characters", "[cli]") {
    const std::string tsv = scratch().file("zh.tsv"), again = scratch().file("zh-again.tsv");
    const std::string words = scratch().file("zh-words.align"), chars = scratch().file("zh-chars.align");
    const std::vector<Args> writes{
        {"datasets", "--write", "toy-en-zh", "--size", "40", "--seed", "3", "--out", tsv, "--alignments", words},
        {"datasets", "--write", "toy-en-zh", "--size", "40", "--seed", "3", "--out", again, "--alignments", chars,
         "--split-cjk"},
        {"datasets", "--json"}};
    const auto written = cliAll(writes);
    for (std::size_t i = 0; i < writes.size(); ++i) {
        INFO(describe(writes[i], written[i]));
        REQUIRE(written[i].exitCode == 0);
    }
    for (const auto& d : Json::parse(written[2].out)) {
        INFO(d.dump());
        if (d["task"] == "forecast") continue;  // a time series has no tokenizer
        CHECK(d["tokenizer"]["split_cjk_characters"] == (d["name"] != "toy-en-zh"));
    }
    CHECK(readBytes(again) == readBytes(tsv));

    // The word links index space-separated words; the character links are those, spread by hand
    // over every character of each Chinese word.
    const auto pairs = lines(readBytes(tsv));
    const auto wordLinks = lines(readBytes(words)), charLinks = lines(readBytes(chars));
    REQUIRE(pairs.size() == 40);
    REQUIRE(wordLinks.size() == 40);
    REQUIRE(charLinks.size() == 40);
    std::size_t totalWords = 0, totalCharacters = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        INFO(pairs[i] << "\n" << wordLinks[i] << "\n" << charLinks[i]);
        const auto target = splitOn(pairs[i].substr(pairs[i].find('\t') + 1), ' ');
        std::vector<std::size_t> first{0};
        for (const auto& w : target) first.push_back(first.back() + codePoints(w));
        totalWords += target.size();
        totalCharacters += first.back();
        std::vector<std::pair<int, int>> expected;
        for (const auto& link : splitOn(wordLinks[i], ' ')) {
            const int s = std::stoi(link.substr(0, link.find('-')));
            const std::size_t t = std::stoul(link.substr(link.find('-') + 1));
            REQUIRE(t < target.size());
            for (std::size_t k = first[t]; k < first[t + 1]; ++k) expected.emplace_back(s, static_cast<int>(k));
        }
        std::sort(expected.begin(), expected.end());
        std::string text;
        for (const auto& [s, t] : expected) text += (text.empty() ? "" : " ") + std::to_string(s) + "-" + std::to_string(t);
        CHECK(charLinks[i] == text);
    }
    REQUIRE(totalCharacters > totalWords);

    // inspect counts the tokens training would see: the dataset's words, a file's characters.
    const std::vector<Args> inspects{
        {"inspect", "--dataset", "toy-en-zh", "--size", "40", "--data-seed", "3"},
        {"inspect", "--dataset", "toy-en-zh", "--size", "40", "--data-seed", "3", "--split-cjk"},
        {"inspect", "--corpus", tsv},
        {"inspect", "--corpus", tsv, "--no-split-cjk"}};
    const auto inspected = cliAll(inspects);
    const std::size_t expectedTokens[] = {totalWords, totalCharacters, totalCharacters, totalWords};
    for (std::size_t i = 0; i < inspects.size(); ++i) {
        INFO(describe(inspects[i], inspected[i]));
        REQUIRE(inspected[i].exitCode == 0);
        const Json j = Json::parse(inspected[i].out);
        CHECK(j["target_tokens"] == expectedTokens[i]);
        CHECK(j["tokenizer"]["split_cjk_characters"] == (expectedTokens[i] == totalCharacters));
    }

    // Contradictions and switches that would change nothing are usage errors.
    const std::vector<Args> wrong{
        {"inspect", "--dataset", "toy-en-zh", "--split-cjk", "--no-split-cjk"},
        {"datasets", "--write", "toy-en-zh", "--out", scratch().file("never.tsv"), "--split-cjk"},
        {"datasets", "--no-split-cjk"},
        {"experiment", "bottleneck", "--dataset", "toy-en-zh", "--split-cjk", "--no-split-cjk"}};
    const auto refused = cliAll(wrong);
    for (std::size_t i = 0; i < wrong.size(); ++i) {
        INFO(describe(wrong[i], refused[i]));
        CHECK(refused[i].exitCode == 2);
        CHECK(isOneErrorLine(refused[i].err));
        CHECK_THAT(refused[i].err, Contains("split-cjk"));
    }
    CHECK_THAT(refused[1].err, Contains("--alignments"));
    CHECK_FALSE(fs::exists(scratch().file("never.tsv")));
}

// ---- inspect and the corpus layer -------------------------------------------------------------------

TEST_CASE("inspect reports pairs, skipped lines, vocabularies and lengths; BOM, CRLF and extra columns pass",
          "[cli]") {
    const std::string path = scratch().file("good.tsv");
    writeBytes(path,
               "\xEF\xBB\xBFhello world\tle monde\r\n"  // BOM
               "hello there\tun monde\r\n"
               "\tvide\r\n"                              // empty source: skipped
               "big cat\tgros chat\textra column\r\n"    // extra column: warning
               "the end\tla fin");                       // no final newline
    const std::vector<Args> invocations{{"inspect", "--corpus", path},
                                        {"inspect", "--corpus", path, "--min-freq", "2"}};
    const auto results = cliAll(invocations);
    INFO(describe(invocations[0], results[0]));
    REQUIRE(results[0].exitCode == 0);
    const Json j = Json::parse(results[0].out);
    CHECK(j["pairs"] == 4);
    REQUIRE(j["skipped"].size() == 1);
    CHECK(j["skipped"][0]["line"] == 3);
    CHECK_FALSE(j["skipped"][0]["reason"].get<std::string>().empty());
    REQUIRE(j["warnings"].size() >= 1);
    CHECK_THAT(j["warnings"][0].get<std::string>(), StartsWith(path + ":4: "));
    CHECK(j["source_vocab"] == 4 + 7);  // <pad> <s> </s> <unk> + hello world there big cat the end
    CHECK(j["target_vocab"] == 4 + 7);  // le monde un gros chat la fin
    CHECK(j["source_tokens"] == 8);
    CHECK(j["length_histogram"]["source"] == Json{{"1-5", 4}});
    CHECK(j["length_histogram"]["target"] == Json{{"1-5", 4}});
    CHECK(j["max_source_len"] == 2);
    CHECK(j["has_alignments"] == false);

    // Only words seen twice survive --min-freq 2: "hello" (so the BOM is not part of the
    // first word) and "monde" (so CRLF is not part of the last one).
    INFO(describe(invocations[1], results[1]));
    REQUIRE(results[1].exitCode == 0);
    const Json twice = Json::parse(results[1].out);
    CHECK(twice["source_vocab"] == 5);
    CHECK(twice["target_vocab"] == 5);
}

TEST_CASE("inspect accepts the dataset flags train accepts", "[cli]") {
    const std::vector<Args> invocations{
        {"inspect", "--dataset", "reverse", "--size", "50", "--data-seed", "3", "--max-len", "6"},
        {"inspect", "--dataset", "reverse", "--seed", "3"},
        {"inspect", "--corpus", "whatever.tsv", "--size", "5"}};
    const auto results = cliAll(invocations);
    INFO(describe(invocations[0], results[0]));
    REQUIRE(results[0].exitCode == 0);
    const Json j = Json::parse(results[0].out);
    CHECK(j["pairs"] == 50);
    CHECK(j["max_source_len"].get<int>() <= 6);
    CHECK(j["has_alignments"] == true);
    for (std::size_t i = 1; i < invocations.size(); ++i) {
        INFO(describe(invocations[i], results[i]));
        CHECK(results[i].exitCode == 2);
        CHECK(isOneErrorLine(results[i].err));
    }
    CHECK_THAT(results[1].err, Contains("--seed"));
    CHECK_THAT(results[2].err, Contains("--size"));
}

TEST_CASE("every bad corpus is exit 3 with one line naming the file and line", "[cli]") {
    struct Case {
        const char* name;
        std::string bytes;
        long line;  // 0: the whole file is at fault
    };
    const std::vector<Case> cases{
        {"invalid-utf8", "ok\tfine\nbad \xFF\xFE byte\tx\n", 2},
        {"nul-byte", std::string("ok\tfine\na\0b\tc\n", 14), 2},
        {"missing-tab", "ok\tfine\nno tab on this line\n", 2},
        {"empty", "", 0},
        {"whitespace-only", "   \n\t\n \r\n", 0},
        {"long-line", "ok\tfine\n" + std::string(70 * 1024, 'a') + "\tb\n", 2},
    };
    std::vector<Args> invocations;
    std::vector<std::string> paths;
    for (const auto& c : cases) {
        paths.push_back(scratch().file(std::string("bad-") + c.name + ".tsv"));
        writeBytes(paths.back(), c.bytes);
        invocations.push_back({"inspect", "--corpus", paths.back()});
    }
    const std::string src = scratch().file("mismatch.en"), tgt = scratch().file("mismatch.fr");
    writeBytes(src, "one\ntwo\nthree\n");
    writeBytes(tgt, "un\ndeux\n");
    const std::string missing = scratch().file("does-not-exist.tsv");
    const std::string directory = scratch().file("a-directory.tsv");
    fs::create_directories(directory);
    invocations.push_back({"inspect", "--src", src, "--tgt", tgt});
    invocations.push_back({"inspect", "--corpus", missing});
    invocations.push_back({"inspect", "--corpus", directory});
    // train reads corpora through the same layer.
    invocations.push_back({"train", "--corpus", paths[0], "--arch", "gru", "--out", scratch().file("never.st")});
    const auto results = cliAll(invocations);

    for (std::size_t i = 0; i < cases.size(); ++i) {
        const ProcessResult& r = results[i];
        INFO(cases[i].name << "\n" << describe(invocations[i], r));
        CHECK(r.exitCode == 3);
        CHECK(isOneErrorLine(r.err));
        if (cases[i].line > 0) {
            CHECK_THAT(r.err, StartsWith("error: " + paths[i] + ":" + std::to_string(cases[i].line) + ": "));
        } else {
            CHECK_THAT(r.err, StartsWith("error: " + paths[i] + ": "));
        }
        CHECK(r.out.empty());
    }
    const std::size_t base = cases.size();
    {
        const ProcessResult& r = results[base];
        INFO(describe(invocations[base], r));
        CHECK(r.exitCode == 3);
        CHECK(isOneErrorLine(r.err));
        CHECK_THAT(r.err, StartsWith("error: " + tgt + ":3: "));  // the shorter file, at its first missing line
    }
    for (std::size_t i : {base + 1, base + 2}) {
        const ProcessResult& r = results[i];
        INFO(describe(invocations[i], r));
        CHECK(r.exitCode == 3);
        CHECK(isOneErrorLine(r.err));
        CHECK_THAT(r.err, StartsWith("error: " + invocations[i][2] + ": "));
    }
    {
        const ProcessResult& r = results[base + 3];
        INFO(describe(invocations[base + 3], r));
        CHECK(r.exitCode == 3);
        CHECK(isOneErrorLine(r.err));
        CHECK_THAT(r.err, StartsWith("error: " + paths[0] + ":2: "));
        CHECK_FALSE(fs::exists(scratch().file("never.st")));
    }
}

// ---- usage errors ------------------------------------------------------------------------------------

TEST_CASE("usage errors exit 2 with one line naming the flag", "[cli]") {
    const std::string out = scratch().file("usage.safetensors");
    const Args base{"train", "--dataset", "copy", "--size", "16", "--out", out};
    auto with = [&](Args extra) {
        Args a = base;
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    };
    struct Case {
        Args args;
        std::string flag;
    };
    const std::vector<Case> cases{
        {with({"--arch", "gru", "--bogus", "1"}), "--bogus"},
        {with({"--arch", "gru", "--hidden"}), "--hidden"},
        {with({"--arch", "gru", "--hidden", "0"}), "--hidden"},
        {with({"--arch", "transformer", "--heads", "3", "--hidden", "128"}), "--heads"},
        {with({"--arch", "gru", "--dropout", "2"}), "--dropout"},
        {with({"--arch", "gru", "--query", "sideways"}), "--query"},
        {with({"--arch", "gru", "--dropout-on", "weights"}), "--dropout-on"},
        {with({"--arch", "transformer", "--query", "after"}), "--query"},
        {with({"--arch", "gru", "--bidirectional", "--no-bidirectional"}), "--no-bidirectional"},
        {with({"--arch", "gru", "--epochs", "abc"}), "--epochs"},
        {with({"--arch", "gru", "--corpus", "x.tsv"}), "--corpus"},
        {with({"--arch", "gru", "--no-split-cjk", "--split-cjk"}), "--no-split-cjk"},
        {{"train", "--dataset", "copy", "--arch", "gru"}, "--out"},
        {{"translate", "--model", out, "--beam", "0", "hi"}, "--beam"},
        {with({"--arch", "gru", "--task", "translation"}), "--task"},
        {{"inspect", "--task", "images", "--dataset", "glyphs"}, "--task"},
    };
    std::vector<Args> invocations;
    for (const auto& c : cases) invocations.push_back(c.args);
    invocations.push_back({"frobnicate"});
    const auto results = cliAll(invocations);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        INFO(describe(cases[i].args, results[i]));
        CHECK(results[i].exitCode == 2);
        CHECK(isOneErrorLine(results[i].err));
        CHECK_THAT(results[i].err, Contains(cases[i].flag));
        CHECK(results[i].out.empty());
    }
    // Core reports the setting at fault as data; the CLI words it with its flags.
    CHECK(results[3].err == "error: --heads 3 does not divide --hidden 128\n");
    // The one list of model tasks (base/TaskIds.h), the same for train and inspect.
    std::string expected;
    for (const std::string& id : attnlab::tasks::modelTaskIds()) expected += (expected.empty() ? "" : ", ") + id;
    for (std::size_t i : {cases.size() - 2, cases.size() - 1})
        CHECK_THAT(results[i].err, Contains("(expected one of: " + expected + ")"));
    INFO(describe(invocations.back(), results.back()));
    CHECK(results.back().exitCode == 2);
    CHECK(isOneErrorLine(results.back().err));
    CHECK_FALSE(fs::exists(out));
}

// ---- train and translate ------------------------------------------------------------------------------

TEST_CASE("train prints one JSON object per epoch with the contract keys and saves the model", "[cli]") {
    const Models& m = models();
    INFO(describe(m.gruArgs, m.gruRun));
    const auto out = lines(m.gruRun.out);
    REQUIRE(out.size() == 2);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const Json j = Json::parse(out[i]);
        CHECK(j["epoch"] == i + 1);
        for (const char* key : {"train_loss", "val_loss", "val_token_acc", "val_exact", "val_bleu", "pairs_per_sec",
                                "seconds"}) {
            INFO(key);
            REQUIRE(j.contains(key));
            CHECK(j[key].is_number());
        }
        CHECK(j["val_token_acc"].get<double>() >= 0.0);
        CHECK(j["val_token_acc"].get<double>() <= 1.0);
        CHECK(j["val_bleu"].get<double>() >= 0.0);
        CHECK(j["val_bleu"].get<double>() <= 100.0);
    }
    CHECK(fs::file_size(m.gru) > 8);
    CHECK(readBytes(m.gru).find("__metadata__") != std::string::npos);
}

TEST_CASE("train --alignments measures AER against a Pharaoh file; a bad one is exit 3 naming file and line", "[cli]") {
    // The built-in dataset writes its gold links in the Pharaoh format beside the TSV.
    const std::string tsv = scratch().file("pharaoh.tsv"), gold = scratch().file("pharaoh.align");
    const auto written = cli({"datasets", "--write", "toy-en-zh", "--out", tsv, "--alignments", gold, "--size", "200",
                              "--seed", "3"});
    INFO(written.err);
    REQUIRE(written.exitCode == 0);
    const std::string model = scratch().file("pharaoh.safetensors");
    const Args train{"train", "--corpus", tsv, "--no-split-cjk", "--alignments", gold, "--arch", "gru", "--hidden",
                     "16", "--epochs", "1", "--batch", "16", "--out", model};
    // Gold that does not fit the corpus: an index past a sentence, too few lines, junk.
    const std::string small = scratch().file("pharaoh-small.tsv");
    writeBytes(small, "a b\tx y\nc\tz\n");
    struct Bad {
        const char* name;
        std::string bytes;
        long line;
    };
    const std::vector<Bad> bad{
        {"past-the-end", "0-0 1-1\n0-5\n", 2},
        {"too-few-lines", "0-0\n", 2},
        {"junk", "0-0 zero-one\n0-0\n", 1},
        {"possible-past-the-end", "0-0 1?7\n0-0\n", 1},
    };
    std::vector<Args> invocations{train};
    std::vector<std::string> paths;
    for (const Bad& b : bad) {
        paths.push_back(scratch().file(std::string("pharaoh-") + b.name + ".align"));
        writeBytes(paths.back(), b.bytes);
        invocations.push_back({"inspect", "--corpus", small, "--alignments", paths.back()});
    }
    invocations.push_back({"inspect", "--dataset", "copy", "--alignments", gold});
    const std::string good = scratch().file("pharaoh-good.align");
    writeBytes(good, "0-0 1?1\n\n");
    invocations.push_back({"inspect", "--corpus", small, "--alignments", good});
    const auto results = cliAll(invocations);

    INFO(describe(train, results[0]));
    REQUIRE(results[0].exitCode == 0);
    const auto epochs = lines(results[0].out);
    REQUIRE(epochs.size() == 1);
    const Json j = Json::parse(epochs[0]);
    for (const char* key : {"aer", "align_precision", "align_recall"}) {
        INFO(key);
        REQUIRE(j[key].is_number());
        CHECK(j[key].get<double>() >= 0.0);
        CHECK(j[key].get<double>() <= 1.0);
    }
    for (std::size_t i = 0; i < bad.size(); ++i) {
        const ProcessResult& r = results[i + 1];
        INFO(bad[i].name << "\n" << describe(invocations[i + 1], r));
        CHECK(r.exitCode == 3);
        CHECK(isOneErrorLine(r.err));
        CHECK_THAT(r.err, StartsWith("error: " + paths[i] + ":" + std::to_string(bad[i].line) + ": "));
    }
    const ProcessResult& dataset = results[bad.size() + 1];
    INFO(describe(invocations[bad.size() + 1], dataset));
    CHECK(dataset.exitCode == 2);
    CHECK_THAT(dataset.err, Contains("--alignments"));
    INFO(describe(invocations.back(), results.back()));
    CHECK(results.back().exitCode == 0);
}

void checkAttention(const Json& kind, std::size_t layers, std::size_t heads, std::size_t rows, std::size_t cols) {
    REQUIRE(kind.is_array());
    REQUIRE(kind.size() == layers);
    for (const auto& layer : kind) {
        REQUIRE(layer.size() == heads);
        for (const auto& head : layer) {
            REQUIRE(head.size() == rows);
            for (const auto& row : head) {
                REQUIRE(row.size() == cols);
                double sum = 0;
                for (const auto& w : row) {
                    CHECK(w.get<double>() >= 0.0);
                    sum += w.get<double>();
                }
                CHECK_THAT(sum, WithinAbs(1.0, 1e-4));
            }
        }
    }
}

TEST_CASE("translate --json gives tokens and attention indexed [layer][head][target][source]", "[cli]") {
    const Models& m = models();
    const Json gru = parseTranslation(m.gruTranslation);
    const auto source = gru["source_tokens"].get<std::vector<std::string>>();
    const auto output = gru["output_tokens"].get<std::vector<std::string>>();
    REQUIRE(!source.empty());
    CHECK(source.back() == "</s>");
    CHECK(join({source.begin(), source.end() - 1}, " ") == m.sentence);
    REQUIRE(!output.empty());
    REQUIRE(gru["attention"].contains("cross"));
    checkAttention(gru["attention"]["cross"], 1, 1, output.size(), source.size());

    const Json tr = parseTranslation(m.transformerTranslation);
    const std::size_t s = tr["source_tokens"].size(), t = tr["output_tokens"].size();
    REQUIRE(t > 0);
    checkAttention(tr["attention"]["cross"], 2, 2, t, s);
    checkAttention(tr["attention"]["encoder"], 2, 2, s, s);
    checkAttention(tr["attention"]["decoder"], 2, 2, t, t);

    // Plain mode: one line of output per sentence, also read from standard input.
    ProcessOptions options = defaultOptions();
    options.input = m.sentence + "\n\n" + m.sentence + "\n";
    const ProcessResult plain = cli({"translate", "--model", m.gru}, options);
    INFO(describe({"translate", "--model", m.gru}, plain));
    CHECK(plain.exitCode == 0);
    CHECK(lines(plain.out) == std::vector<std::string>{join(output, " "), join(output, " ")});
}

// Why one model's `translate --json` of "tom chases jerry" is not the classic picture (empty: it
// is): the output 汤姆 追逐 杰瑞, and each word's row with its largest weight, and most of the row,
// on its English word (the same position).
std::string whyNotDiagonal(const Json& j) {
    if (!j.contains("output_tokens") || j.at("output_tokens") != Json{"汤姆", "追逐", "杰瑞"})
        return "output " + (j.contains("output_tokens") ? j.at("output_tokens").dump() : std::string("missing"));
    if (!j.contains("attention") || !j.at("attention").contains("cross")) return "no cross-attention";
    const Json& rows = j.at("attention").at("cross").at(0).at(0);
    if (rows.size() != 3) return "rows " + rows.dump();
    for (std::size_t word = 0; word < rows.size(); ++word) {
        const auto weights = rows[word].get<std::vector<double>>();
        const std::string row = j.at("output_tokens")[word].get<std::string>() + ": " + rows[word].dump();
        if (weights.size() != 4) return row;
        if (std::max_element(weights.begin(), weights.end()) - weights.begin() != static_cast<long>(word) ||
            weights[word] <= 0.5)
            return row;
    }
    return {};
}

// The teaching lab's classic example with nothing but the defaults (a bidirectional encoder,
// Luong's query order, dropout on the embeddings: docs/defaults.md) on toy-en-zh's Chinese words,
// 4 epochs. Measured when written: seeds 1-5 each gave the diagonal, the smallest weight on it
// 0.83. The claim is the defaults', not one seed's: seeds 1-3 train at once and each must show it.
TEST_CASE("the classic example: tom chases jerry becomes 汤姆 追逐 杰瑞 on a diagonal", "[cli]") {
    const std::vector<std::string> seeds{"1", "2", "3"};
    std::vector<Args> trainings, translations;
    for (const std::string& seed : seeds) {
        const std::string model = scratch().file("classic-" + seed + ".safetensors");
        trainings.push_back({"train", "--dataset", "toy-en-zh", "--arch", "gru", "--attention", "additive",
                             "--seed", seed, "--epochs", "4", "--out", model});
        translations.push_back({"translate", "--model", model, "--json", "tom chases jerry"});
    }
    ProcessOptions options = userOptions();
    options.timeout = 300.0;
    const auto trained = cliAll(trainings, options);
    for (std::size_t i = 0; i < trainings.size(); ++i) {
        INFO(describe(trainings[i], trained[i]));
        REQUIRE(trained[i].exitCode == 0);
    }
    const auto translated = cliAll(translations);
    int diagonals = 0;
    std::string report;
    for (std::size_t i = 0; i < translations.size(); ++i) {
        INFO(describe(translations[i], translated[i]));
        REQUIRE(translated[i].exitCode == 0);
        const Json j = parseTranslation(translated[i]);
        CHECK(j["source_tokens"] == Json{"tom", "chases", "jerry", "</s>"});  // every seed: the tokenizer's
        const std::string why = whyNotDiagonal(j);
        report += "seed " + seeds[i] + ": " + (why.empty() ? std::string("diagonal") : why) + "\n";
        if (why.empty()) ++diagonals;
    }
    INFO(report);
    CHECK(diagonals == 3);
}

TEST_CASE("a corrupt or missing model file is exit 4 with one line naming the file", "[cli]") {
    const Models& m = models();
    const std::string real = readBytes(m.gru);
    REQUIRE(real.size() > 64);
    std::string random(4096, '\0');
    std::uint32_t state = 12345;
    for (auto& c : random) {
        state = state * 1664525u + 1013904223u;
        c = static_cast<char>(state >> 24);
    }
    std::vector<std::pair<std::string, std::string>> files{
        {"empty.safetensors", ""},
        {"random.safetensors", random},
        {"truncated.safetensors", real.substr(0, real.size() / 2)},
        {"huge-header.safetensors", std::string(8, '\xFF') + "{}"},
    };
    std::vector<Args> invocations;
    for (const auto& [name, bytes] : files) {
        writeBytes(scratch().file(name), bytes);
        invocations.push_back({"translate", "--model", scratch().file(name), m.sentence});
    }
    const std::string dir = scratch().file("model-dir.safetensors");
    fs::create_directories(dir);
    invocations.push_back({"translate", "--model", dir, m.sentence});
    invocations.push_back({"translate", "--model", scratch().file("absent.safetensors"), m.sentence});
    const auto results = cliAll(invocations);
    for (std::size_t i = 0; i < invocations.size(); ++i) {
        INFO(describe(invocations[i], results[i]));
        CHECK(results[i].exitCode == 4);
        CHECK(isOneErrorLine(results[i].err));
        CHECK_THAT(results[i].err, StartsWith("error: " + invocations[i][2] + ": "));
        CHECK(results[i].out.empty());
    }
}

// ---- failures during training ---------------------------------------------------------------------

TEST_CASE("a non-finite loss stops training with exit 1, naming the batch, and keeps a loadable model", "[cli]") {
    const Models& m = models();
    const std::string out = scratch().file("nan.safetensors");
    const Args args{"train", "--dataset", "copy", "--size", "64", "--max-len", "5", "--arch", "gru", "--hidden",
                    "16", "--epochs", "2", "--batch", "8", "--debug-nan-at-batch", "2", "--out", out};
    const ProcessResult r = cli(args);
    INFO(describe(args, r));
    CHECK(r.exitCode == 1);
    const auto err = lines(r.err);
    REQUIRE(!err.empty());
    CHECK_THAT(err.back(), StartsWith("error: "));
    CHECK_THAT(err.back(), Contains("epoch 1"));
    CHECK_THAT(err.back(), Contains("batch 2"));
    CHECK_THAT(err.back(), Contains(out));
    CHECK(r.out.empty());  // no epoch finished

    const ProcessResult t = cli({"translate", "--model", out, m.sentence});
    INFO(describe({"translate", "--model", out}, t));
    CHECK(t.exitCode == 0);
}

// A run long enough to be interrupted: thousands of epochs of a tiny model.
Args longRun(const std::string& out) {
    return {"train", "--dataset", "copy", "--size", "400", "--max-len", "5", "--arch", "gru", "--hidden", "8",
            "--epochs", "10000", "--batch", "16", "--out", out};
}

TEST_CASE("SIGINT during training saves the model and exits 130", "[cli]") {
    const Models& m = models();
    const std::string out = scratch().file("interrupted.safetensors");
    ProcessRunner runner(kCli, longRun(out), userOptions());
    runner.start();
    REQUIRE(runner.waitForOutput("\n", 30.0));
    runner.sendSignal(SIGINT);
    const ProcessResult r = runner.wait();
    INFO(describe(longRun(out), r));
    CHECK_FALSE(r.timedOut);
    CHECK(r.exitCode == 130);
    CHECK_THAT(r.err, Contains("interrupted"));
    for (const auto& line : lines(r.out)) CHECK(Json::parse(line).contains("epoch"));

    const ProcessResult t = cli({"translate", "--model", out, m.sentence});
    INFO(describe({"translate", "--model", out}, t));
    CHECK(t.exitCode == 0);
}

// A short train whose model goes to `out`.
Args shortTrainTo(const std::string& out) {
    return {"train", "--dataset", "copy", "--size", "32", "--max-len", "5", "--arch", "gru", "--hidden",
            "8", "--epochs", "1", "--out", out};
}

TEST_CASE("a model that cannot be written is exit 1 and an existing model stays as it was", "[cli]") {
    const Models& m = models();
    // A folder that does not exist is a usage error found before training (test_cli_reliability.cpp
    // has every command's); a full disk is found by the write itself.
    const std::string missingDir = scratch().file("no-such-dir") + "/model.safetensors";
    const Args args = shortTrainTo(missingDir);
    const ProcessResult r = cli(args);
    INFO(describe(args, r));
    CHECK(r.exitCode == 2);
    CHECK(isOneErrorLine(r.err));
    CHECK_THAT(r.err, StartsWith("error: --out " + missingDir + ": the directory "));
    CHECK(r.out.empty());
    CHECK_FALSE(fs::exists(missingDir));

    // The disk fills up while the new model is written over an existing one.
    const std::string existing = scratch().file("existing.safetensors");
    fs::copy_file(m.gru, existing, fs::copy_options::overwrite_existing);
    const std::string before = readBytes(existing);
    Args overwrite = args;
    overwrite.back() = existing;
    ProcessOptions full = defaultOptions();
    full.fileSizeLimit = 1024;
    const ProcessResult r2 = cli(overwrite, full);
    INFO(describe(overwrite, r2));
    CHECK(r2.exitCode == 1);
    REQUIRE(!lines(r2.err).empty());
    CHECK_THAT(lines(r2.err).back(), StartsWith("error: " + existing + ": "));
    CHECK(readBytes(existing) == before);
    for (const auto& entry : fs::directory_iterator(fs::path(existing).parent_path()))
        CHECK(entry.path().filename().string().rfind(".existing.safetensors", 0) != 0);  // no temp file left
}

TEST_CASE("a model in a read-only directory is exit 1 and stays as it was", "[cli][needs-non-root]") {
    if (::geteuid() == 0) ATTNLAB_SKIP("running as root, which ignores permissions");
    const Models& m = models();
    const std::string dir = scratch().file("read-only");
    fs::create_directories(dir);
    const std::string inside = dir + "/model.safetensors";
    fs::copy_file(m.gru, inside, fs::copy_options::overwrite_existing);
    const std::string before = readBytes(inside);
    REQUIRE(::chmod(dir.c_str(), 0555) == 0);
    const Args again = shortTrainTo(inside);
    const ProcessResult ro = cli(again);
    ::chmod(dir.c_str(), 0755);
    INFO(describe(again, ro));
    CHECK(ro.exitCode == 1);
    REQUIRE(!lines(ro.err).empty());
    CHECK_THAT(lines(ro.err).back(), StartsWith("error: " + inside + ": "));
    CHECK(readBytes(inside) == before);
}

// ---- render --------------------------------------------------------------------------------------------

#ifdef ATTNLAB_HAVE_RENDER

// No display at all: render must pick the offscreen platform by itself.
ProcessOptions headless() {
    ProcessOptions o = defaultOptions();
    o.environment["QT_QPA_PLATFORM"] = std::nullopt;
    o.environment["DISPLAY"] = std::nullopt;
    o.environment["WAYLAND_DISPLAY"] = std::nullopt;
    return o;
}

std::uint32_t bigEndian32(const std::string& bytes, std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes.at(at + i));
    return v;
}

struct PngSize {
    std::uint32_t width = 0, height = 0;
};

PngSize pngSize(const std::string& bytes) {
    REQUIRE(bytes.size() > 33);
    REQUIRE(bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    REQUIRE(bytes.compare(12, 4, "IHDR") == 0);
    return {bigEndian32(bytes, 16), bigEndian32(bytes, 20)};
}

struct Npy {
    std::size_t rows = 0, cols = 0;
    std::vector<float> data;
};

Npy parseNpy(const std::string& bytes) {
    REQUIRE(bytes.size() >= 10);
    REQUIRE(bytes.compare(0, 6, "\x93NUMPY") == 0);
    REQUIRE(bytes[6] == 1);
    const std::size_t headerLength = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    REQUIRE(bytes.size() >= 10 + headerLength);
    const std::string header = bytes.substr(10, headerLength);
    CHECK((10 + headerLength) % 64 == 0);
    CHECK_THAT(header, Contains("'descr': '<f4'"));
    CHECK_THAT(header, Contains("'fortran_order': False"));
    std::smatch shape;
    REQUIRE(std::regex_search(header, shape, std::regex(R"('shape': \((\d+), (\d+)\))")));
    Npy n;
    n.rows = std::stoul(shape[1]);
    n.cols = std::stoul(shape[2]);
    REQUIRE(bytes.size() == 10 + headerLength + n.rows * n.cols * 4);
    n.data.resize(n.rows * n.cols);
    std::memcpy(n.data.data(), bytes.data() + 10 + headerLength, n.data.size() * 4);  // x86: little-endian
    return n;
}

// RFC 4180 is not needed: the tokens of these models contain no commas or quotes.
std::vector<std::string> csvFields(const std::string& line) {
    std::vector<std::string> fields;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, ',')) fields.push_back(field);
    if (!line.empty() && line.back() == ',') fields.push_back("");
    return fields;
}

TEST_CASE("render writes PNG, SVG, PDF, CSV and NPY without a display", "[cli]") {
    const Models& m = models();
    const Json tr = parseTranslation(m.gruTranslation);
    const auto source = tr["source_tokens"].get<std::vector<std::string>>();
    const auto output = tr["output_tokens"].get<std::vector<std::string>>();
    REQUIRE(!output.empty());

    auto render = [&](const std::string& file, Args extra = {}) {
        Args a{"render", "--model", m.gru, "--sentence", m.sentence, "--out", scratch().file(file)};
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    };
    const std::vector<Args> invocations{render("map.png"), render("map2x.png", {"--scale", "2", "--numbers"}),
                                        render("map.svg", {"--colormap", "magma"}), render("map.pdf"),
                                        render("map.csv"), render("map.npy")};
    const auto results = cliAll(invocations, headless());
    for (std::size_t i = 0; i < invocations.size(); ++i) {
        INFO(describe(invocations[i], results[i]));
        REQUIRE(results[i].exitCode == 0);
        CHECK(results[i].out.empty());
    }

    const PngSize png = pngSize(readBytes(scratch().file("map.png")));
    CHECK(png.width >= 50);
    CHECK(png.height >= 50);
    const PngSize png2 = pngSize(readBytes(scratch().file("map2x.png")));
    CHECK(png2.width >= 2 * png.width - 1);
    CHECK(png2.width <= 2 * png.width + 1);
    CHECK(png2.height >= 2 * png.height - 1);
    CHECK(png2.height <= 2 * png.height + 1);

    const std::string svg = readBytes(scratch().file("map.svg"));
    CHECK_THAT(svg, Contains("<svg"));
    CHECK_THAT(svg, Contains("</svg>"));

    const std::string pdf = readBytes(scratch().file("map.pdf"));
    CHECK_THAT(pdf, StartsWith("%PDF-"));
    CHECK_THAT(pdf.substr(pdf.size() > 16 ? pdf.size() - 16 : 0), Contains("%%EOF"));

    // CSV: a header row of the source tokens, then one row per output token.
    const auto csv = lines(readBytes(scratch().file("map.csv")));
    REQUIRE(csv.size() == output.size() + 1);
    std::vector<std::string> header{""};
    header.insert(header.end(), source.begin(), source.end());
    CHECK(csvFields(csv[0]) == header);
    for (std::size_t r = 0; r < output.size(); ++r) {
        const auto fields = csvFields(csv[r + 1]);
        REQUIRE(fields.size() == source.size() + 1);
        CHECK(fields[0] == output[r]);
        double sum = 0;
        for (std::size_t c = 1; c < fields.size(); ++c) sum += std::stod(fields[c]);
        CHECK_THAT(sum, WithinAbs(1.0, 1e-4));
    }

    // NPY: the same matrix, float32 [output, source], rows summing to 1, equal to the JSON.
    const Npy npy = parseNpy(readBytes(scratch().file("map.npy")));
    REQUIRE(npy.rows == output.size());
    REQUIRE(npy.cols == source.size());
    for (std::size_t r = 0; r < npy.rows; ++r) {
        double sum = 0;
        for (std::size_t c = 0; c < npy.cols; ++c) {
            sum += npy.data[r * npy.cols + c];
            CHECK_THAT(npy.data[r * npy.cols + c], WithinAbs(tr["attention"]["cross"][0][0][r][c].get<double>(), 1e-6));
        }
        CHECK_THAT(sum, WithinAbs(1.0, 1e-4));
    }
}

// --layer and --head count from 1; the JSON's arrays from 0.
TEST_CASE("render draws any layer, head and kind of a Transformer, and all heads as a grid", "[cli]") {
    const Models& m = models();
    const Json tr = parseTranslation(m.transformerTranslation);
    const auto source = tr["source_tokens"].get<std::vector<std::string>>();
    const auto output = tr["output_tokens"].get<std::vector<std::string>>();
    REQUIRE(!output.empty());
    auto render = [&](const std::string& file, Args extra) {
        Args a{"render", "--model", m.transformer, "--sentence", m.sentence, "--out", scratch().file(file)};
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    };
    const std::vector<Args> invocations{
        render("grid.png", {"--head", "all"}),
        render("grid.svg", {"--head", "all", "--layer", "1", "--kind", "encoder"}),
        render("decoder.csv", {"--kind", "decoder", "--layer", "1", "--head", "2"}),
        render("encoder.npy", {"--kind", "encoder", "--head", "2"}),
        render("last.npy", {}),
    };
    const auto results = cliAll(invocations, headless());
    for (std::size_t i = 0; i < invocations.size(); ++i) {
        INFO(describe(invocations[i], results[i]));
        REQUIRE(results[i].exitCode == 0);
    }
    const PngSize grid = pngSize(readBytes(scratch().file("grid.png")));
    CHECK(grid.width >= 100);
    CHECK(grid.height >= 50);
    CHECK_THAT(readBytes(scratch().file("grid.svg")), Contains("</svg>"));

    // Decoder self-attention: columns are the decoder's inputs, "<s>" then the output shifted right.
    const auto csv = lines(readBytes(scratch().file("decoder.csv")));
    REQUIRE(csv.size() == output.size() + 1);
    std::vector<std::string> header{"", "<s>"};
    header.insert(header.end(), output.begin(), output.end() - 1);
    CHECK(csvFields(csv[0]) == header);

    const Npy encoder = parseNpy(readBytes(scratch().file("encoder.npy")));
    CHECK(encoder.rows == source.size());
    CHECK(encoder.cols == source.size());
    const auto& expected = tr["attention"]["encoder"][1][1];  // default layer: the last one; --head 2
    for (std::size_t r = 0; r < encoder.rows; ++r)
        for (std::size_t c = 0; c < encoder.cols; ++c)
            CHECK_THAT(encoder.data[r * encoder.cols + c], WithinAbs(expected[r][c].get<double>(), 1e-6));

    const Npy last = parseNpy(readBytes(scratch().file("last.npy")));
    REQUIRE(last.rows == output.size());
    REQUIRE(last.cols == source.size());
    const auto& cross = tr["attention"]["cross"][1][0];
    for (std::size_t r = 0; r < last.rows; ++r)
        for (std::size_t c = 0; c < last.cols; ++c)
            CHECK_THAT(last.data[r * last.cols + c], WithinAbs(cross[r][c].get<double>(), 1e-6));
}

TEST_CASE("render refuses what it cannot draw with a one-line error", "[cli]") {
    const Models& m = models();
    auto render = [&](const std::string& model, const std::string& file, Args extra) {
        Args a{"render", "--model", model, "--sentence", m.sentence, "--out", file};
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    };
    const std::string png = scratch().file("refused.png");
    const std::string unwritable = scratch().file("no-such-dir") + "/map.png";
    struct Case {
        Args args;
        int exitCode;
        std::vector<std::string> mentions;
    };
    const std::vector<Case> cases{
        {render(m.gru, png, {"--kind", "encoder"}), 2, {"--kind", "cross"}},
        {render(m.transformer, png, {"--kind", "sideways"}), 2, {"--kind", "cross, encoder or decoder"}},
        {render(m.transformer, png, {"--layer", "3"}), 2, {"--layer", "between 1 and 2"}},
        {render(m.transformer, png, {"--layer", "0"}), 2, {"--layer", "between 1 and 2"}},
        {render(m.transformer, png, {"--head", "3"}), 2, {"--head", "from 1 to 2 or 'all'"}},
        {render(m.transformer, png, {"--head", "0"}), 2, {"--head", "from 1 to 2 or 'all'"}},
        {render(m.gru, scratch().file("map.jpg"), {}), 2, {"--out", ".png, .svg, .pdf, .csv or .npy"}},
        {render(m.transformer, scratch().file("grid.csv"), {"--head", "all"}), 2, {"--head all", "images"}},
        {render(m.gru, png, {"--colormap", "rainbow"}), 2, {"--colormap", "viridis"}},
        {render(m.none, png, {}), 2, {m.none, "no attention"}},
        {render(m.gru, unwritable, {}), 2, {"error: --out " + unwritable + ": ", "does not exist"}},
    };
    std::vector<Args> invocations;
    for (const auto& c : cases) invocations.push_back(c.args);
    const auto results = cliAll(invocations, headless());
    for (std::size_t i = 0; i < cases.size(); ++i) {
        INFO(describe(cases[i].args, results[i]));
        CHECK(results[i].exitCode == cases[i].exitCode);
        CHECK(isOneErrorLine(results[i].err));
        for (const auto& text : cases[i].mentions) CHECK_THAT(results[i].err, Contains(text));
    }
    CHECK_FALSE(fs::exists(png));
    CHECK_FALSE(fs::exists(scratch().file("map.jpg")));

    // A platform the user forces but that cannot start is an error line, not an abort.
    ProcessOptions xcb = headless();
    xcb.environment["QT_QPA_PLATFORM"] = "xcb";
    const Args args = render(m.gru, png, {});
    const ProcessResult r = cli(args, xcb);
    INFO(describe(args, r));
    CHECK(r.exitCode == 1);
    CHECK(isOneErrorLine(r.err));
    CHECK_THAT(r.err, Contains("QT_QPA_PLATFORM=xcb"));
    CHECK_FALSE(fs::exists(png));
}

#else

TEST_CASE("render says it is unavailable in a build without the GUI", "[cli]") {
    const ProcessResult r = cli({"render", "--model", "m", "--sentence", "s", "--out", "x.png"});
    CHECK(r.exitCode == 1);
    CHECK(isOneErrorLine(r.err));
    CHECK_THAT(r.err, Contains("not available"));
}

#endif

}  // namespace
