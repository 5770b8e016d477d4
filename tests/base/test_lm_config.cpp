#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "base/InputError.h"
#include "base/lm/LmConfig.h"

using namespace attnlab;

namespace {

std::string configError(const LmConfig& c) {
    try {
        checkConfig(c);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "(no ConfigError)";
}

std::optional<SettingProblem> problemOf(const LmConfig& c) {
    try {
        checkConfig(c);
    } catch (const ConfigError& e) {
        return e.problem();
    }
    return std::nullopt;
}

std::string jsonError(const std::string& json) {
    try {
        lmConfigFromJson(json);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "(no ConfigError)";
}

// `json` with one member's text replaced (key and value as toJson writes them).
std::string replacedIn(std::string json, const std::string& from, const std::string& to) {
    const std::size_t at = json.find(from);
    REQUIRE(at != std::string::npos);
    return json.replace(at, from.size(), to);
}
// The default config's JSON with one member's text replaced.
std::string replaced(const std::string& from, const std::string& to) {
    return replacedIn(toJson(LmConfig{}), from, to);
}

}  // namespace

TEST_CASE("LmConfig: the defaults are the attention-only form, lmGpt2Form is GPT-2's", "[lm]") {
    const LmConfig c;
    CHECK(validate(c).empty());
    CHECK(c.attentionOnly);
    CHECK(c.norm == LmNorm::None);
    CHECK_FALSE(c.tied);
    CHECK(c.positions == LmPositions::Learned);
    CHECK(c.objective == LmObjective::Causal);
    CHECK(c.vocabulary == 0);

    const LmConfig g = lmGpt2Form();
    CHECK(validate(g).empty());
    CHECK_FALSE(g.attentionOnly);
    CHECK(g.norm == LmNorm::Pre);
    CHECK(g.tied);
    CHECK(g.feedForward == 4 * g.dModel);
    CHECK(g.layers == c.layers);
    CHECK(g.heads == c.heads);
    CHECK(g.context == c.context);
}

TEST_CASE("LmConfig: the choices' names, and a wrong name lists the accepted ones", "[lm]") {
    CHECK(toString(LmNorm::Pre) == "pre");
    CHECK(toString(LmNorm::None) == "none");
    CHECK(toString(LmPositions::Learned) == "learned");
    CHECK(toString(LmPositions::Sinusoidal) == "sinusoidal");
    CHECK(toString(LmObjective::Causal) == "causal");
    CHECK(toString(LmObjective::Masked) == "masked");
    CHECK(parseLmNorm("pre") == LmNorm::Pre);
    CHECK(parseLmNorm("none") == LmNorm::None);
    CHECK(parseLmPositions("sinusoidal") == LmPositions::Sinusoidal);
    CHECK(parseLmObjective("masked") == LmObjective::Masked);
    CHECK_THROWS_WITH(parseLmNorm("post"), "unknown norm 'post' (expected one of: pre, none)");
    CHECK_THROWS_WITH(parseLmPositions("rotary"), "unknown positions 'rotary' (expected one of: learned, sinusoidal)");
    CHECK_THROWS_WITH(parseLmObjective("Causal"), "unknown objective 'Causal' (expected one of: causal, masked)");
}

TEST_CASE("LmConfig: JSON round trip of both forms and every choice", "[lm]") {
    LmConfig a;
    a.vocabulary = 204;
    LmConfig b = lmGpt2Form();
    b.layers = 3;
    b.heads = 8;
    b.dModel = 128;
    b.feedForward = 300;
    b.context = 256;
    b.dropout = 0.1f;
    b.positions = LmPositions::Sinusoidal;
    b.objective = LmObjective::Masked;
    b.vocabulary = 1'000'000;
    for (const LmConfig& c : {a, b}) {
        const LmConfig r = lmConfigFromJson(toJson(c));
        CHECK(r.layers == c.layers);
        CHECK(r.heads == c.heads);
        CHECK(r.dModel == c.dModel);
        CHECK(r.feedForward == c.feedForward);
        CHECK(r.context == c.context);
        CHECK(r.dropout == c.dropout);
        CHECK(r.attentionOnly == c.attentionOnly);
        CHECK(r.norm == c.norm);
        CHECK(r.tied == c.tied);
        CHECK(r.positions == c.positions);
        CHECK(r.objective == c.objective);
        CHECK(r.vocabulary == c.vocabulary);
        CHECK(toJson(r) == toJson(c));
    }
    // The keys, and the dropout as its shortest decimal.
    const std::string json = toJson(b);
    for (const char* key : {"\"task\":\"lm\"", "\"architecture\":\"gpt\"", "\"layers\":3", "\"heads\":8",
                            "\"d_model\":128", "\"feed_forward\":300", "\"context\":256", "\"dropout\":0.1,",
                            "\"attention_only\":false", "\"norm\":\"pre\"", "\"tied\":true",
                            "\"positions\":\"sinusoidal\"", "\"objective\":\"masked\"", "\"vocabulary\":1000000"})
        CHECK(json.find(key) != std::string::npos);
}

TEST_CASE("LmConfig: every setting out of range is refused, naming it", "[lm]") {
    struct Case {
        void (*change)(LmConfig&);
        Setting setting;
        const char* message;
    };
    const Case cases[] = {
        {[](LmConfig& c) { c.layers = 0; }, Setting::Layers, "number of layers must be between 1 and 24, got 0"},
        {[](LmConfig& c) { c.layers = 25; }, Setting::Layers, "number of layers must be between 1 and 24, got 25"},
        {[](LmConfig& c) { c.heads = 0; }, Setting::Heads, "number of heads must be between 1 and 64, got 0"},
        {[](LmConfig& c) { c.heads = 65; }, Setting::Heads, "number of heads must be between 1 and 64, got 65"},
        {[](LmConfig& c) { c.heads = 5; }, Setting::Heads, "number of heads 5 does not divide hidden size 64"},
        {[](LmConfig& c) { c.dModel = 7; c.heads = 1; }, Setting::Hidden,
         "hidden size must be between 8 and 2048, got 7"},
        {[](LmConfig& c) { c.dModel = 2049; c.heads = 1; }, Setting::Hidden,
         "hidden size must be between 8 and 2048, got 2049"},
        {[](LmConfig& c) { c.feedForward = -1; }, Setting::FeedForward,
         "feed-forward size must be between 0 and 16384, got -1"},
        {[](LmConfig& c) { c.feedForward = 16385; }, Setting::FeedForward,
         "feed-forward size must be between 0 and 16384, got 16385"},
        {[](LmConfig& c) { c.attentionOnly = false; c.feedForward = 0; }, Setting::FeedForward,
         "feed-forward size must be between 1 and 16384, got 0"},
        {[](LmConfig& c) { c.context = 3; }, Setting::Context, "context length must be between 4 and 4096, got 3"},
        {[](LmConfig& c) { c.context = 4097; }, Setting::Context,
         "context length must be between 4 and 4096, got 4097"},
        {[](LmConfig& c) { c.dropout = -0.1f; }, Setting::Dropout, "dropout must be between 0 and 0.95, got -0.1"},
        {[](LmConfig& c) { c.dropout = 0.96f; }, Setting::Dropout, "dropout must be between 0 and 0.95, got 0.96"},
        {[](LmConfig& c) { c.dropout = std::numeric_limits<float>::quiet_NaN(); }, Setting::Dropout,
         "dropout must be between 0 and 0.95, got nan"},
    };
    for (const Case& k : cases) {
        LmConfig c;
        k.change(c);
        INFO(k.message);
        CHECK(validate(c) == k.message);
        CHECK(configError(c) == k.message);
        const auto problem = problemOf(c);
        REQUIRE(problem);
        CHECK(problem->setting == k.setting);
    }
    // The ends themselves are valid.
    LmConfig ends;
    ends.layers = 24;
    ends.heads = 64;
    ends.dModel = 2048;
    ends.feedForward = 0;
    ends.context = 4096;
    ends.dropout = 0.95f;
    ends.vocabulary = 5;
    CHECK(validate(ends).empty());
    ends.dModel = 8;
    ends.heads = 1;
    ends.layers = 1;
    ends.context = 4;
    ends.vocabulary = 1'000'000;
    CHECK(validate(ends).empty());

    // The vocabulary has no Setting: a plain message.
    for (const std::int64_t v : {std::int64_t{-1}, std::int64_t{4}, std::int64_t{1'000'001}}) {
        LmConfig c;
        c.vocabulary = v;
        CHECK(validate(c) == "vocabulary size " + std::to_string(v) + " is not in 5..1000000");
        CHECK(configError(c) == validate(c));
        CHECK_FALSE(problemOf(c));
    }
    LmConfig unknown;
    unknown.norm = static_cast<LmNorm>(7);
    CHECK(validate(unknown) == "unknown norm");
    unknown = LmConfig{};
    unknown.positions = static_cast<LmPositions>(7);
    CHECK(validate(unknown) == "unknown positions");
    unknown = LmConfig{};
    unknown.objective = static_cast<LmObjective>(7);
    CHECK(validate(unknown) == "unknown objective");
}

TEST_CASE("LmConfig: malformed JSON is a ConfigError naming the member", "[lm]") {
    CHECK(jsonError("{") == "language model config: invalid JSON");
    CHECK(jsonError("[1]") == "language model config: not a JSON object");
    CHECK(jsonError(replaced("\"task\":\"lm\"", "\"task\":\"forecast\"")) ==
          "language model config: 'task' is not \"lm\"");
    CHECK(jsonError(replaced("\"architecture\":\"gpt\"", "\"architecture\":\"rnn\"")) ==
          "language model config: 'architecture' is not \"gpt\"");
    CHECK(jsonError(replaced("\"layers\":2,", "")) == "language model config: 'layers' is missing");
    CHECK(jsonError(replaced("\"layers\":2", "\"layers\":2.5")) ==
          "language model config: 'layers' must be an integer");
    CHECK(jsonError(replaced("\"layers\":2", "\"layers\":99")) == "language model config: 'layers' is out of range");
    CHECK(jsonError(replaced("\"dropout\":0.0", "\"dropout\":\"no\"")) ==
          "language model config: 'dropout' must be a number");
    CHECK(jsonError(replaced("\"tied\":false", "\"tied\":0")) == "language model config: 'tied' must be true or false");
    CHECK(jsonError(replaced("\"norm\":\"none\"", "\"norm\":\"post\"")) ==
          "language model config: unknown norm 'post' (expected one of: pre, none)");
    CHECK(jsonError(replaced("\"vocabulary\":0", "\"vocabulary\":3")) ==
          "language model config: vocabulary size 3 is not in 5..1000000");
    // Valid members, an invalid whole: an MLP without a width, heads that do not divide.
    CHECK(jsonError(replacedIn(replaced("\"attention_only\":true", "\"attention_only\":false"), "\"feed_forward\":256",
                               "\"feed_forward\":0")) ==
          "language model config: feed-forward size must be between 1 and 16384, got 0");
    CHECK(jsonError(replaced("\"heads\":4", "\"heads\":3")) ==
          "language model config: number of heads 3 does not divide hidden size 64");
}

TEST_CASE("LmConfig: parameterCount by hand for a tiny config of each form", "[lm]") {
    // D 8, 2 heads, 1 layer, context 4, V 10.
    LmConfig c;
    c.layers = 1;
    c.heads = 2;
    c.dModel = 8;
    c.context = 4;
    c.vocabulary = 10;
    // Attention-only, no norm, untied, learned positions:
    //   embedding 10*8 = 80, positions 4*8 = 32, attention 4*(64+8) = 288, unembedding 8*10 = 80 (no bias).
    CHECK(parameterCount(c) == 80 + 32 + 288 + 80);
    // Two layers, sinusoidal positions: no table, twice the attention.
    LmConfig s = c;
    s.layers = 2;
    s.positions = LmPositions::Sinusoidal;
    CHECK(parameterCount(s) == 80 + 0 + 2 * 288 + 80);
    // GPT-2's form (F = 32): embedding 80, positions 32; the layer: LayerNorm 16, attention 288,
    // LayerNorm 16, MLP 8*32+32 + 32*8+8 = 552; final LayerNorm 16; tied: no unembedding of its own.
    LmConfig g = lmGpt2Form();
    g.layers = 1;
    g.heads = 2;
    g.dModel = 8;
    g.feedForward = 32;
    g.context = 4;
    g.vocabulary = 10;
    CHECK(parameterCount(g) == 80 + 32 + (16 + 288 + 16 + 552) + 16);
    CHECK(parameterCount(g) == 1000);
    // Pre norm without MLPs: one LayerNorm per layer, plus the final one; untied.
    LmConfig p = c;
    p.norm = LmNorm::Pre;
    CHECK(parameterCount(p) == 80 + 32 + (16 + 288) + 16 + 80);
    // MLP without norm, untied.
    LmConfig m = c;
    m.attentionOnly = false;
    m.feedForward = 16;
    CHECK(parameterCount(m) == 80 + 32 + 288 + (8 * 16 + 16 + 16 * 8 + 8) + 80);
    // A vocabulary not known yet (0): neither an embedding nor an unembedding is counted.
    LmConfig unknown = c;
    unknown.vocabulary = 0;
    CHECK(parameterCount(unknown) == 32 + 288);
}
