#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "base/InputError.h"
#include "base/translation/ModelConfig.h"

namespace {

using attnlab::Architecture;
using attnlab::AttentionKind;
using attnlab::ConfigError;
using attnlab::DropoutPlacement;
using attnlab::QueryOrder;
using attnlab::ModelConfig;
using Catch::Matchers::Contains;

ModelConfig validConfig() {
    ModelConfig c;
    c.sourceVocab = 120;
    c.targetVocab = 95;
    return c;
}

std::string fromJsonError(const std::string& json) {
    try {
        attnlab::modelConfigFromJson(json);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "(no error)";
}

// The JSON of a valid config with one key replaced (or removed when value is discarded).
std::string jsonWith(const std::string& key, const nlohmann::json& value) {
    auto j = nlohmann::json::parse(attnlab::toJson(validConfig()));
    if (value.is_discarded())
        j.erase(key);
    else
        j[key] = value;
    return j.dump();
}

TEST_CASE("Architecture and attention names round trip and unknown names list the choices", "[model_config]") {
    for (auto a : {Architecture::Gru, Architecture::Transformer})
        CHECK(attnlab::parseArchitecture(attnlab::toString(a)) == a);
    CHECK(attnlab::toString(Architecture::Transformer) == "transformer");
    const std::vector<std::pair<AttentionKind, std::string>> kinds = {
        {AttentionKind::None, "none"},         {AttentionKind::Dot, "dot"},
        {AttentionKind::General, "general"},   {AttentionKind::ScaledDot, "scaled-dot"},
        {AttentionKind::Additive, "additive"}, {AttentionKind::LocalM, "local-m"},
        {AttentionKind::LocalP, "local-p"}};
    for (const auto& [kind, name] : kinds) {
        CHECK(attnlab::toString(kind) == name);
        CHECK(attnlab::parseAttentionKind(name) == kind);
    }
    CHECK_THROWS_WITH(attnlab::parseAttentionKind("foo"),
                      "unknown attention 'foo' (expected one of: none, dot, general, scaled-dot, additive, "
                      "local-m, local-p)");
    CHECK_THROWS_WITH(attnlab::parseArchitecture("lstm"),
                      "unknown architecture 'lstm' (expected one of: gru, transformer)");
    CHECK_THROWS_AS(attnlab::parseArchitecture("GRU"), ConfigError);
    CHECK_THROWS_AS(attnlab::parseAttentionKind(""), ConfigError);
}

TEST_CASE("validate accepts the defaults with known vocabularies", "[model_config]") {
    CHECK(attnlab::validate(validConfig()).empty());
    ModelConfig t = validConfig();
    t.architecture = Architecture::Transformer;
    CHECK(attnlab::validate(t).empty());
    // Boundaries are inclusive where the message says so.
    ModelConfig edge = validConfig();
    edge.hidden = 4096;
    edge.embedding = 4096;
    edge.layers = 16;
    edge.dropout = 0.0f;
    edge.maxLength = 2;
    edge.sourceVocab = 5;
    CHECK(attnlab::validate(edge).empty());
}

TEST_CASE("both front ends' default model is the one docs/defaults.md measured", "[model_config]") {
    // The window's Model panel and `attnlab-cli train` both start from defaultModelConfig.
    const ModelConfig gru = attnlab::defaultModelConfig(Architecture::Gru);
    CHECK(gru.architecture == Architecture::Gru);
    CHECK(gru.hidden == 128);  // the size measured, and the CLI's classic example
    CHECK(gru.layers == 1);
    CHECK(gru.bidirectional);
    CHECK(gru.query == QueryOrder::After);
    CHECK(gru.dropoutOn == DropoutPlacement::Embeddings);
    const ModelConfig transformer = attnlab::defaultModelConfig(Architecture::Transformer);
    CHECK(transformer.architecture == Architecture::Transformer);
    CHECK(transformer.hidden == 128);
    CHECK(transformer.layers == 2);
    CHECK(transformer.heads == 4);
    CHECK(transformer.feedForward == 512);
    CHECK(transformer.maxLength == 256);
}

TEST_CASE("validate names the flag and the value at fault", "[model_config]") {
    ModelConfig c = validConfig();
    SECTION("hidden") {
        c.hidden = 0;
        CHECK(attnlab::validate(c) == "hidden size must be between 1 and 4096, got 0");
        c.hidden = 4097;
        CHECK(attnlab::validate(c) == "hidden size must be between 1 and 4096, got 4097");
    }
    SECTION("embedding") {
        c.embedding = -1;
        CHECK(attnlab::validate(c) == "embedding size must be between 0 and 4096, got -1");
    }
    SECTION("layers") {
        c.layers = 17;
        CHECK(attnlab::validate(c) == "number of layers must be between 1 and 16, got 17");
    }
    SECTION("heads") {
        c.heads = 0;
        CHECK(attnlab::validate(c) == "number of heads must be between 1 and 64, got 0");
        c.heads = 65;
        CHECK(attnlab::validate(c) == "number of heads must be between 1 and 64, got 65");
    }
    SECTION("heads must divide hidden for the Transformer only") {
        c.heads = 3;
        CHECK(attnlab::validate(c).empty());  // GRU ignores heads
        c.architecture = Architecture::Transformer;
        CHECK(attnlab::validate(c) == "number of heads 3 does not divide hidden size 128");
    }
    SECTION("feed-forward") {
        c.feedForward = 0;
        CHECK(attnlab::validate(c) == "feed-forward size must be between 1 and 16384, got 0");
    }
    SECTION("dropout") {
        c.dropout = 1.0f;
        CHECK(attnlab::validate(c) == "dropout must be at least 0 and below 1, got 1");
        c.dropout = -0.5f;
        CHECK(attnlab::validate(c) == "dropout must be at least 0 and below 1, got -0.5");
        c.dropout = std::numeric_limits<float>::quiet_NaN();
        CHECK_THAT(attnlab::validate(c), Contains("dropout must be at least 0"));
    }
    SECTION("local window") {
        c.localWindow = 0;
        CHECK(attnlab::validate(c) == "local window must be between 1 and 100, got 0");
        c.localWindow = 101;
        CHECK(attnlab::validate(c) == "local window must be between 1 and 100, got 101");
    }
    SECTION("max length") {
        c.maxLength = 1;
        CHECK(attnlab::validate(c) == "maximum length must be between 2 and 8192, got 1");
        c.maxLength = 8193;
        CHECK(attnlab::validate(c) == "maximum length must be between 2 and 8192, got 8193");
    }
    SECTION("vocabularies need the 4 specials and a word") {
        c.sourceVocab = 4;
        CHECK_THAT(attnlab::validate(c), Contains("source vocabulary") && Contains("got 4"));
        c.sourceVocab = 0;
        CHECK_THAT(attnlab::validate(c), Contains("source vocabulary") && Contains("got 0"));
        c.sourceVocab = 100;
        c.targetVocab = 3;
        CHECK_THAT(attnlab::validate(c), Contains("target vocabulary") && Contains("got 3"));
        c.targetVocab = std::int64_t{1} << 40;
        CHECK_THAT(attnlab::validate(c), Contains("target vocabulary"));
    }
}

TEST_CASE("Model config JSON round trip", "[model_config]") {
    ModelConfig c;
    c.architecture = Architecture::Transformer;
    c.attention = AttentionKind::LocalP;
    c.hidden = 256;
    c.embedding = 64;
    c.layers = 3;
    c.bidirectional = true;
    c.heads = 8;
    c.feedForward = 1024;
    c.dropout = 0.3f;
    c.localWindow = 5;
    c.maxLength = 300;
    c.sourceVocab = 1234;
    c.targetVocab = 987;
    c.query = QueryOrder::After;
    c.dropoutOn = DropoutPlacement::Embeddings;
    const std::string json = attnlab::toJson(c);

    const auto j = nlohmann::json::parse(json);
    CHECK(j["architecture"] == "transformer");
    CHECK(j["attention"] == "local-p");
    CHECK(j["feed_forward"] == 1024);
    CHECK(j["source_vocab"] == 1234);
    CHECK_THAT(json, Contains("\"dropout\":0.3,"));  // not 0.30000001192092896

    const ModelConfig back = attnlab::modelConfigFromJson(json);
    CHECK(back.architecture == c.architecture);
    CHECK(back.attention == c.attention);
    CHECK(back.hidden == c.hidden);
    CHECK(back.embedding == c.embedding);
    CHECK(back.layers == c.layers);
    CHECK(back.bidirectional == c.bidirectional);
    CHECK(back.heads == c.heads);
    CHECK(back.feedForward == c.feedForward);
    CHECK(back.dropout == c.dropout);
    CHECK(back.localWindow == c.localWindow);
    CHECK(back.maxLength == c.maxLength);
    CHECK(back.sourceVocab == c.sourceVocab);
    CHECK(back.targetVocab == c.targetVocab);
    CHECK(j["query"] == "after");
    CHECK(j["dropout_on"] == "embeddings");
    CHECK(back.query == QueryOrder::After);
    CHECK(back.dropoutOn == DropoutPlacement::Embeddings);
    // Checkpoints from before the query order and the dropout placement existed: Bahdanau's
    // order and dropout on both, as those models were trained.
    nlohmann::json older = nlohmann::json::parse(attnlab::toJson(c));
    older.erase("query");
    older.erase("dropout_on");
    const ModelConfig old = attnlab::modelConfigFromJson(older.dump());
    CHECK(old.query == QueryOrder::Before);
    CHECK(old.dropoutOn == DropoutPlacement::Both);
    // Keys a later version may add are ignored.
    CHECK(attnlab::modelConfigFromJson(jsonWith("future_option", 7)).hidden == 128);
}

TEST_CASE("Model config JSON: each malformed input is a ConfigError naming the fault", "[model_config]") {
    const auto missing = nlohmann::json::value_t::discarded;
    CHECK_THAT(fromJsonError(""), Contains("invalid JSON"));
    CHECK_THAT(fromJsonError("{\"hidden\": "), Contains("invalid JSON"));
    CHECK_THAT(fromJsonError("{\"hidden\": 1e999}"), Contains("invalid JSON"));  // overflows a double
    CHECK_THAT(fromJsonError("[1, 2]"), Contains("not a JSON object"));
    CHECK_THAT(fromJsonError(jsonWith("hidden", missing)), Contains("missing key 'hidden'"));
    CHECK_THAT(fromJsonError(jsonWith("target_vocab", missing)), Contains("missing key 'target_vocab'"));
    CHECK_THAT(fromJsonError(jsonWith("hidden", "128")), Contains("'hidden' must be an integer"));
    CHECK_THAT(fromJsonError(jsonWith("query", "sideways")),
               Contains("model config: unknown query order 'sideways' (expected one of: before, after)"));
    CHECK_THAT(fromJsonError(jsonWith("query", 1)), Contains("'query' must be a string"));
    CHECK_THAT(fromJsonError(jsonWith("dropout_on", "weights")), Contains("unknown dropout placement 'weights'"));
    CHECK_THAT(fromJsonError(jsonWith("layers", 1.5)), Contains("'layers' must be an integer"));
    CHECK_THAT(fromJsonError(jsonWith("heads", 4294967296LL)), Contains("'heads' is out of range"));
    CHECK_THAT(fromJsonError(jsonWith("source_vocab", 18446744073709551615ULL)),
               Contains("'source_vocab' is out of range"));
    CHECK_THAT(fromJsonError(jsonWith("bidirectional", 1)), Contains("'bidirectional' must be true or false"));
    CHECK_THAT(fromJsonError(jsonWith("dropout", "0.1")), Contains("'dropout' must be a number"));
    CHECK_THAT(fromJsonError(jsonWith("dropout", 1e300)), Contains("'dropout' is out of range"));
    CHECK(fromJsonError(jsonWith("architecture", 1)) == "model config: 'architecture' must be a string");
    CHECK_THAT(fromJsonError(jsonWith("attention", "foo")),
               Contains("unknown attention 'foo' (expected one of: none, dot,"));
    CHECK_THAT(fromJsonError(jsonWith("architecture", "rnn\n")), Contains("unknown architecture 'rnn?'"));
    // Well-formed but invalid: validate()'s message.
    CHECK(fromJsonError(jsonWith("hidden", 0)) == "hidden size must be between 1 and 4096, got 0");
    CHECK(fromJsonError(jsonWith("dropout", 1)) == "dropout must be at least 0 and below 1, got 1");
    CHECK_THAT(fromJsonError(jsonWith("source_vocab", 2)), Contains("source vocabulary"));
    nlohmann::json t = nlohmann::json::parse(jsonWith("architecture", "transformer"));
    t["heads"] = 3;
    CHECK(fromJsonError(t.dump()) == "number of heads 3 does not divide hidden size 128");
}

}  // namespace

TEST_CASE("a setting at fault is reported as data, for each front end to word", "[config]") {
    attnlab::ModelConfig c;
    c.architecture = attnlab::Architecture::Transformer;
    c.hidden = 30;
    c.heads = 4;
    c.sourceVocab = c.targetVocab = 10;
    const auto problem = attnlab::settingProblem(c);
    REQUIRE(problem);
    CHECK(problem->setting == attnlab::Setting::Heads);
    CHECK(problem->kind == attnlab::SettingProblem::Kind::MustDivide);
    CHECK(problem->value == "4");
    CHECK(problem->other == attnlab::Setting::Hidden);
    CHECK(problem->otherValue == "30");
    // The CLI names flags: describe() with its own names gives its message.
    auto flags = [](attnlab::Setting s) { return s == attnlab::Setting::Heads ? std::string("--heads") : std::string("--hidden"); };
    CHECK(attnlab::describe(*problem, flags) == "--heads 4 does not divide --hidden 30");
    try {
        attnlab::checkConfig(c);
        FAIL("checkConfig accepted heads that do not divide the hidden size");
    } catch (const attnlab::ConfigError& e) {
        REQUIRE(e.problem());
        CHECK(e.problem()->setting == attnlab::Setting::Heads);
        CHECK(std::string(e.what()) == "number of heads 4 does not divide hidden size 30");  // neutral
    }
    c.heads = 2;
    c.dropout = 1.0f;
    const auto dropout = attnlab::settingProblem(c);
    REQUIRE(dropout);
    CHECK(dropout->setting == attnlab::Setting::Dropout);
    CHECK(dropout->highOpen);
    CHECK_FALSE(dropout->lowOpen);
    c.dropout = 0.1f;
    CHECK_FALSE(attnlab::settingProblem(c));
    CHECK_NOTHROW(attnlab::checkConfig(c));
}
