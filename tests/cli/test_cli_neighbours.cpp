// attnlab-cli neighbours as a script sees it: the JSON's shape, K results with similarities in
// [-1, 1], descending, the query's own occurrence first when it is in the corpus, and the errors
// (exit 2 naming the flag, exit 3 for a missing corpus).
#include "cli/CliSupport.h"

namespace {

using namespace attnlab::test::cli;

}  // namespace

TEST_CASE("neighbours: JSON shape, order, own occurrence first, errors", "[cli]") {
    const std::string model = scratch().file("neighbours-transformer.safetensors");
    const std::string gru = scratch().file("neighbours-gru.safetensors");
    const std::string corpus = scratch().file("neighbours-corpus.tsv");
    {
        std::ofstream out(corpus);
        out << "a b c\tc b a\nd a l f\tf l a d\nf l a d\td a l f\nl l\tl l\n";
    }
    Args trainT{"train", "--dataset", "reverse", "--size", "160", "--max-len", "6", "--arch", "transformer",
                "--hidden", "16", "--epochs", "1", "--batch", "16", "--lr", "0.01", "--layers", "2", "--heads", "2",
                "--ff", "32", "--out", model};
    Args trainG{"train", "--dataset", "reverse", "--size", "160", "--max-len", "6", "--arch", "gru", "--hidden", "16",
                "--epochs", "1", "--batch", "16", "--lr", "0.01", "--out", gru};
    const auto trained = cliAll({trainT, trainG});
    INFO(describe(trainT, trained[0]));
    INFO(describe(trainG, trained[1]));
    REQUIRE(trained[0].exitCode == 0);
    REQUIRE(trained[1].exitCode == 0);

    const Args base{"neighbours", "--model", model, "--corpus", corpus, "--sentence", "d a l f"};
    auto with = [](Args a, const Args& more) {
        a.insert(a.end(), more.begin(), more.end());
        return a;
    };
    const std::vector<Args> runs{
        with(base, {"--token", "1", "--k", "5", "--json"}),
        with(base, {"--token", "1", "--k", "3", "--layer", "1", "--json"}),
        {"neighbours", "--model", gru, "--corpus", corpus, "--sentence", "d a l f", "--token", "0", "--k", "4", "--json"},
        with(base, {"--token", "5", "--k", "3"}),
        with(base, {"--token", "1", "--layer", "3", "--k", "3"}),
        with(base, {"--token", "1", "--k", "0"}),
        {"neighbours", "--model", gru, "--corpus", corpus, "--sentence", "d a l f", "--token", "0", "--layer", "2"},
        {"neighbours", "--model", model, "--corpus", scratch().file("no-such.tsv"), "--sentence", "a", "--token", "0"},
        with(base, {"--token", "1", "--k", "100", "--json"}),
    };
    const auto results = cliAll(runs);
    for (std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{2}}) {
        INFO(describe(runs[i], results[i]));
        REQUIRE(results[i].exitCode == 0);
        const Json j = Json::parse(results[i].out);
        const std::size_t k = i == 0 ? 5 : i == 1 ? 3 : 4;
        REQUIRE(j["neighbours"].size() == k);
        CHECK(j["query"]["tokens"].size() == 5);  // d a l f </s>
        CHECK(j["layer"] == (i == 0 ? 2 : 1));
        double previous = 2.0;
        for (const Json& n : j["neighbours"]) {
            for (const char* key : {"sentence", "token", "position", "similarity"}) CHECK(n.contains(key));
            const double s = n["similarity"].get<double>();
            CHECK(s >= -1.0);
            CHECK(s <= 1.0);
            CHECK(s <= previous);
            previous = s;
        }
        const std::size_t position = i == 2 ? 0 : 1;
        CHECK(j["neighbours"][0]["sentence"] == "d a l f");
        CHECK(j["neighbours"][0]["position"] == position);
        CHECK(j["neighbours"][0]["token"] == (i == 2 ? "d" : "a"));
        CHECK_THAT(j["neighbours"][0]["similarity"].get<double>(), WithinAbs(1.0, 1e-9));
    }
    {  // K above the corpus' tokens: all of them (4 + 5 + 5 + 3 with </s>)
        INFO(describe(runs[8], results[8]));
        REQUIRE(results[8].exitCode == 0);
        CHECK(Json::parse(results[8].out)["neighbours"].size() == 17);
    }
    const std::vector<std::pair<std::size_t, std::string>> usage{
        {3, "--token"}, {4, "--layer"}, {5, "--k"}, {6, "--layer"}};
    for (const auto& [i, flag] : usage) {
        INFO(describe(runs[i], results[i]));
        CHECK(results[i].exitCode == 2);
        CHECK(isOneErrorLine(results[i].err));
        CHECK_THAT(results[i].err, Contains(flag));
        CHECK(results[i].out.empty());
    }
    INFO(describe(runs[7], results[7]));
    CHECK(results[7].exitCode == 3);
    CHECK(isOneErrorLine(results[7].err));
}

TEST_CASE("neighbours has its help and its line in the overview", "[cli]") {
    const auto results = cliAll({{"--help"}, {"neighbours", "--help"}});
    CHECK(results[0].exitCode == 0);
    CHECK_THAT(results[0].out, Contains("  neighbours "));
    CHECK(results[1].exitCode == 0);
    CHECK_THAT(results[1].out, StartsWith("Usage: attnlab-cli neighbours") && Contains("0-based"));
}
