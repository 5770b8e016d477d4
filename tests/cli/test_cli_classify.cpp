// attnlab-cli's text classification as a script sees it: train --task classify, classify,
// explain, experiment needle's usage, datasets --write for the classification sets, bad input.
#include "cli/CliSupport.h"

#include <cmath>
#include <filesystem>
#include <numeric>

namespace {

using namespace attnlab::test::cli;

}  // namespace

TEST_CASE("train --task classify, classify and explain keep the JSON contract", "[cli]") {
    const std::string model = scratch().file("sentiment.safetensors");
    const Args train{"train", "--task", "classify", "--dataset", "sentiment", "--size", "600", "--arch", "gru",
                     "--hidden", "16", "--epochs", "2", "--out", model};
    const ProcessResult trained = cli(train);
    INFO(describe(train, trained));
    REQUIRE(trained.exitCode == 0);
    const auto epochs = lines(trained.out);
    REQUIRE(epochs.size() == 2);
    for (const auto& line : epochs) {
        const Json j = Json::parse(line);
        for (const char* key : {"epoch", "train_loss", "val_loss", "val_accuracy", "val_macro_f1", "attention_entropy",
                                "rationale_mass", "pairs_per_sec", "seconds"})
            CHECK(j.contains(key));
    }

    const std::string text = "the plot was not dull but the ending was great";
    const std::vector<Args> runs{{"classify", "--model", model, "--json", text, "a fine film"},
                                 {"explain", "--model", model, "--json", text},
                                 {"explain", "--model", model, "--class", "neutral", text},
                                 {"classify", "--model", model, "a fine film"},
                                 {"experiment", "faithfulness", "--model", model, "--dataset", "sentiment", "--size", "600",
                                  "--texts", "6", "--permutations", "3", "--baseline-epochs", "1"}};
    const auto results = cliAll(runs);
    for (std::size_t i = 0; i < runs.size(); ++i) INFO(describe(runs[i], results[i]));

    REQUIRE(results[0].exitCode == 0);
    const auto classified = lines(results[0].out);
    REQUIRE(classified.size() == 2);
    const Json c = Json::parse(classified[0]);
    CHECK(c["tokens"].size() == 10);
    CHECK((c["label"] == "positive" || c["label"] == "negative"));
    double total = 0;
    for (const auto& [label, p] : c["probabilities"].items()) total += p.get<double>();
    CHECK_THAT(total, WithinAbs(1.0, 1e-5));
    REQUIRE(c["attention"]["pooling"].size() == 1);
    const auto row = c["attention"]["pooling"][0].get<std::vector<double>>();
    CHECK(row.size() == 10);
    CHECK_THAT(sumOf(row), WithinAbs(1.0, 1e-4));

    REQUIRE(results[1].exitCode == 0);
    const Json e = Json::parse(results[1].out);
    for (const char* method : {"attention", "gradient", "grad_x_input", "integrated_gradients", "leave_one_out"}) {
        INFO(method);
        CHECK(e[method].size() == 10);
        CHECK(e["kendall_tau"].contains(method) == (std::string(method) != "attention"));
    }
    const double attributions = e["ig_completeness"]["attribution_sum"], difference = e["ig_completeness"]["output_difference"];
    CHECK(std::fabs(attributions - difference) <= 0.05 * std::fabs(difference) + 1e-3);

    CHECK(results[2].exitCode == 2);
    CHECK(isOneErrorLine(results[2].err));
    CHECK_THAT(results[2].err, Contains("--class") && Contains("negative, positive"));
    REQUIRE(results[3].exitCode == 0);
    CHECK(std::regex_match(results[3].out, std::regex("(positive|negative)\t[01]\\.\\d{3}\n")));

    REQUIRE(results[4].exitCode == 0);
    const Json f = Json::parse(results[4].out);
    CHECK(f["texts"] == 6);
    for (const char* method : {"gradient", "grad_x_input", "integrated_gradients", "leave_one_out"}) {
        INFO(method);
        const auto histogram = f["kendall_tau"][method]["tau_histogram"].get<std::vector<int>>();
        CHECK(histogram.size() == 20);
        CHECK(std::accumulate(histogram.begin(), histogram.end(), 0) <= 6);
    }
    for (const char* key : {"accuracy", "top_word_in_rationale", "permutation", "uniform_baseline_accuracy"})
        CHECK(f.contains(key));
}

TEST_CASE("classification input a user can get wrong is one error line with the right exit code", "[cli]") {
    const std::string noTab = scratch().file("no-tab.tsv"), oneClass = scratch().file("one-class.tsv");
    writeBytes(noTab, "good film\tpositive\nbad film negative\n");
    writeBytes(oneClass, "good film\tpositive\nfine film\tpositive\n");
    const std::string written = scratch().file("topic.tsv");
    const std::vector<Args> runs{
        {"train", "--task", "classify", "--corpus", noTab, "--arch", "gru", "--out", scratch().file("x.safetensors")},
        {"train", "--task", "classify", "--corpus", oneClass, "--arch", "gru", "--out", scratch().file("x.safetensors")},
        {"train", "--task", "sorting", "--dataset", "sentiment", "--arch", "gru", "--out", scratch().file("x.safetensors")},
        {"train", "--task", "classify", "--dataset", "sentiment", "--arch", "gru", "--attention", "max", "--out",
         scratch().file("x.safetensors")},
        {"train", "--task", "classify", "--dataset", "sentiment", "--arch", "gru", "--length", "40", "--out",
         scratch().file("x.safetensors")},
        {"classify", "--model", noTab, "a text"},
        {"experiment", "needle", "--lengths", "3"},
        {"datasets", "--write", "topic", "--size", "12", "--seed", "4", "--out", written},
        {"inspect", "--task", "classify", "--dataset", "topic", "--size", "12", "--data-seed", "4"},
        {"train", "--task", "classify", "--dataset", "sentiment", "--arch", "transformer", "--heads", "3", "--out",
         scratch().file("x.safetensors")}};
    const auto r = cliAll(runs);
    const int expected[] = {3, 3, 2, 2, 2, 4, 2, 0, 0, 2};
    for (std::size_t i = 0; i < runs.size(); ++i) {
        INFO(describe(runs[i], r[i]));
        CHECK(r[i].exitCode == expected[i]);
        if (expected[i] != 0) CHECK(isOneErrorLine(r[i].err));
    }
    CHECK_THAT(r[0].err, Contains("no-tab.tsv:2"));
    CHECK_THAT(r[1].err, Contains("one-class.tsv") && Contains("one class"));
    CHECK_THAT(r[2].err, Contains("--task"));
    CHECK_THAT(r[3].err, Contains("--attention"));
    CHECK_THAT(r[4].err, Contains("--length"));
    CHECK_THAT(r[6].err, Contains("--lengths"));
    CHECK_THAT(r[9].err, Contains("--heads 3 does not divide --hidden 64"));
    const Json inspected = Json::parse(r[8].out);
    CHECK(inspected["texts"] == 12);
    CHECK(inspected["labels"] == Json{{"food", 3}, {"music", 3}, {"science", 3}, {"sports", 3}});
    CHECK(inspected["has_rationales"] == true);
    const auto rows = lines(readBytes(written));
    CHECK(rows.size() == 12);
    for (const auto& row : rows) CHECK(std::count(row.begin(), row.end(), '\t') == 1);
}

TEST_CASE("inspect --gettext reads a catalogue; broken ones and missing languages are exit 3 naming the file",
          "[cli]") {
    const std::string po = scratch().file("t.po"), badPo = scratch().file("bad.po"), badMo = scratch().file("bad.mo");
    const std::string noLocales = scratch().file("no-locales");
    std::filesystem::create_directories(noLocales);
    writeBytes(po, "msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\n\"\n\n"
                   "msgid \"_Open File\"\nmsgstr \"打开文件(_O)\"\n\n#, fuzzy\nmsgid \"Save\"\nmsgstr \"保存\"\n\n"
                   "msgid \"Quit\"\nmsgstr \"退出\"\n");
    writeBytes(badPo, "msgid \"abc\n");
    writeBytes(badMo, "XXXXYYYYZZZZ");
    const std::vector<Args> runs{
        {"inspect", "--gettext", po},
        {"inspect", "--gettext", badPo},
        {"inspect", "--gettext", badMo},
        {"train", "--gettext", "xx_NOPE", "--locale-dir", noLocales, "--arch", "gru", "--out", scratch().file("g.safetensors")},
        {"train", "--task", "classify", "--dataset", "langid", "--locale-dir", noLocales, "--arch", "gru", "--out",
         scratch().file("l.safetensors")}};
    const auto r = cliAll(runs);
    for (std::size_t i = 0; i < runs.size(); ++i) INFO(describe(runs[i], r[i]));
    REQUIRE(r[0].exitCode == 0);
    const Json j = Json::parse(r[0].out);
    CHECK(j["pairs"] == 2);
    CHECK(j["skipped"]["fuzzy"] == 1);
    CHECK(j["messages"][0]["english"] == "Open File");
    CHECK(j["messages"][0]["translation"] == "打开文件");
    for (std::size_t i = 1; i < runs.size(); ++i) {
        INFO(describe(runs[i], r[i]));
        CHECK(r[i].exitCode == 3);
        CHECK(isOneErrorLine(r[i].err));
    }
    CHECK_THAT(r[1].err, Contains("bad.po:1:") && Contains("unterminated"));
    CHECK_THAT(r[2].err, Contains("bad.mo:") && Contains("magic"));
    CHECK_THAT(r[3].err, Contains("xx_NOPE"));
    CHECK_THAT(r[4].err, Contains("no-locales") && Contains("two or more languages"));
}

TEST_CASE("explain --output-token explains one output token of a translation model over its source", "[cli]") {
    const std::string model = scratch().file("copy-explain.safetensors");
    const auto trained = cli({"train", "--dataset", "copy", "--size", "300", "--arch", "gru", "--attention", "additive",
                              "--hidden", "32", "--epochs", "2", "--lr", "0.01", "--out", model});  // outputs a few letters
    REQUIRE(trained.exitCode == 0);
    const std::vector<Args> runs{
        {"explain", "--model", model, "--output-token", "0", "--json", "a b c"},
        {"explain", "--model", model, "a b c"},
        {"explain", "--model", model, "--output-token", "99", "a b c"},
        {"explain", "--model", model, "--output-token", "0", "--class", "x", "a b c"}};
    const auto r = cliAll(runs);
    INFO(describe(runs[0], r[0]));
    REQUIRE(r[0].exitCode == 0);
    const Json j = Json::parse(r[0].out);
    CHECK(j["output_token"] == 0);
    REQUIRE(j["output_tokens"].size() >= 1);
    CHECK(j["label"] == j["output_tokens"][0]);
    CHECK(j["tokens"].back() == "</s>");
    for (const char* method : {"attention", "gradient", "grad_x_input", "integrated_gradients", "leave_one_out"})
        CHECK(j[method].size() == j["tokens"].size());
    CHECK(j["leave_one_out"].back().is_null());  // </s> is never removed
    const double sum = j["ig_completeness"]["attribution_sum"], difference = j["ig_completeness"]["output_difference"];
    CHECK(std::abs(sum - difference) <= 0.05 * std::abs(difference) + 1e-4);
    for (std::size_t i = 1; i < runs.size(); ++i) {
        INFO(describe(runs[i], r[i]));
        CHECK(r[i].exitCode == 2);
        CHECK(isOneErrorLine(r[i].err));
    }
    CHECK_THAT(r[1].err, Contains("--output-token"));
    CHECK_THAT(r[2].err, Contains("outside the translation"));
    CHECK_THAT(r[3].err, Contains("--class"));
}

TEST_CASE("the classifier's and the ViT's --attention-pattern flags: usage errors name the flag", "[cli]") {
    const std::string out = scratch().file("x.safetensors");
    const std::vector<Args> runs{
        {"train", "--task", "classify", "--dataset", "sentiment", "--arch", "gru", "--attention-pattern", "local", "--out", out},
        {"train", "--task", "classify", "--dataset", "sentiment", "--arch", "gru", "--chunk", "4", "--out", out},
        {"train", "--task", "classify", "--dataset", "sentiment", "--arch", "transformer", "--attention-pattern", "sparse",
         "--out", out},
        {"train", "--task", "classify", "--dataset", "sentiment", "--arch", "transformer", "--attention-pattern", "local",
         "--chunk", "4", "--out", out},
        {"train", "--task", "image-classify", "--dataset", "glyphs", "--arch", "vit", "--window", "2", "--out", out},
        {"train", "--task", "image-classify", "--dataset", "glyphs", "--arch", "vit", "--attention-pattern", "local",
         "--window", "0", "--out", out},
        {"train", "--task", "caption", "--dataset", "scenes", "--arch", "cnn-gru", "--attention-pattern", "chunked",
         "--out", out}};
    const auto r = cliAll(runs);
    const char* named[] = {"--attention-pattern", "--chunk", "--attention-pattern", "--chunk", "--window", "--window",
                           "--attention-pattern"};
    for (std::size_t i = 0; i < runs.size(); ++i) {
        INFO(describe(runs[i], r[i]));
        CHECK(r[i].exitCode == 2);
        CHECK(isOneErrorLine(r[i].err));
        CHECK_THAT(r[i].err, Contains(named[i]));
    }
    CHECK_THAT(r[0].err, Contains("applies to --arch transformer"));
    CHECK_THAT(r[6].err, Contains("--arch vit"));
}
