// attnlab-cli experiment long-range and positional as a script sees them: the JSON shape on tiny
// settings, train --positional, and bad flag values (exit 2, one error line naming the flag).
#include "cli/CliSupport.h"

namespace {

using namespace attnlab::test::cli;

}  // namespace

TEST_CASE("experiment long-range and positional print one JSON line of the documented shape", "[cli]") {
    const std::vector<Args> runs{
        {"experiment", "long-range", "--lengths", "16,32", "--patterns", "full,local,linear", "--steps", "2",
         "--warmup-steps", "1", "--warmup-length", "8", "--no-extend", "--texts", "4", "--batch", "2", "--hidden", "8"},
        {"experiment", "positional", "--lengths", "3,4", "--epochs", "1", "--pairs", "40", "--hidden", "8"}};
    const auto r = cliAll(runs);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        INFO(describe(runs[i], r[i]));
        REQUIRE(r[i].exitCode == 0);
        REQUIRE(lines(r[i].out).size() == 1);
    }
    const Json lr = Json::parse(r[0].out);
    CHECK(lr["lengths"] == Json::array({16, 32}));
    CHECK(lr["memory_budget"] == 2LL * 1024 * 1024 * 1024);
    REQUIRE(lr["patterns"].size() == 3);
    for (const char* name : {"full", "local", "linear"}) {
        INFO(name);
        const Json& p = lr["patterns"][name];
        CHECK(p["longest"] == 32);
        CHECK(p["complexity"].is_string());
        REQUIRE(p["rows"].size() == 2);
        for (const Json& row : p["rows"]) {
            CHECK(row["status"] == "ran");
            CHECK(row["accuracy"].get<double>() >= 0.0);
            CHECK(row["accuracy"].get<double>() <= 1.0);
            CHECK(row["peak_bytes"].get<long long>() > 0);
            CHECK(row["seconds_per_step"].get<double>() >= 0.0);
            CHECK(row["cpu_seconds_per_step"].get<double>() >= 0.0);
            CHECK(row["steps"] == 2);
        }
    }
    CHECK(lr["patterns"]["full"]["complexity"] == "O(N^2)");

    const Json pos = Json::parse(r[1].out);
    CHECK(pos["dataset"] == "reverse");
    CHECK(pos["lengths"] == Json::array({3, 4}));
    for (const char* model : {"sinusoidal", "learned", "none", "gru"}) {
        INFO(model);
        REQUIRE(pos["token_accuracy"][model].size() == 2);
        REQUIRE(pos["exact_match"][model].size() == 2);
        for (const Json& v : pos["token_accuracy"][model]) CHECK((v.get<double>() >= 0.0 && v.get<double>() <= 1.0));
    }
}

TEST_CASE("train --positional and the experiments' bad flag values", "[cli]") {
    const std::string model = scratch().file("learned-positions.safetensors");
    const std::vector<Args> runs{
        {"train", "--dataset", "reverse", "--size", "60", "--arch", "transformer", "--hidden", "16", "--heads", "2",
         "--layers", "1", "--ff", "16", "--epochs", "1", "--positional", "learned", "--out", model},
        {"train", "--dataset", "reverse", "--arch", "transformer", "--positional", "rotary", "--out",
         scratch().file("x.safetensors")},
        {"train", "--dataset", "reverse", "--arch", "gru", "--positional", "learned", "--out", scratch().file("x.safetensors")},
        {"experiment", "long-range", "--memory-budget", "lots"},
        {"experiment", "long-range", "--memory-budget", "1M"},
        {"experiment", "long-range", "--patterns", "full,sparse"},
        {"experiment", "long-range", "--lengths", "4"},
        {"experiment", "long-range", "--steps", "0"},
        {"experiment", "positional", "--models", "sinusoidal,rotary"},
        {"experiment", "positional", "--lengths", "500"},
        {"experiment", "positional", "--dataset", "klingon"},
        {"experiment", "positional", "--hidden", "10"}};
    const auto r = cliAll(runs);
    const char* flags[] = {nullptr, "--positional", "--positional", "--memory-budget", "--memory-budget", "--patterns",
                           "--lengths", "--steps", "--models", "--lengths", "--dataset", "--hidden"};
    for (std::size_t i = 0; i < runs.size(); ++i) {
        INFO(describe(runs[i], r[i]));
        if (!flags[i]) {
            CHECK(r[i].exitCode == 0);
            continue;
        }
        CHECK(r[i].exitCode == 2);
        CHECK(isOneErrorLine(r[i].err));
        CHECK_THAT(r[i].err, Contains(flags[i]));
    }
    // The model trained with learned positions loads and translates.
    const Args translate{"translate", "--model", model, "a b c"};
    const ProcessResult translated = cli(translate);
    INFO(describe(translate, translated));
    CHECK(translated.exitCode == 0);
}
