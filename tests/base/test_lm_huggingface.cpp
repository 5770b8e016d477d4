// A Hugging Face GPT-2 folder's config.json and tokenizer.json (base/lm/LmHuggingFace.h), and the
// two LmConfig members they brought (gelu, layerNormEps). The tensors, the whole folder and the
// numbers against a reference: tests/python/test_hf_gpt2.py.
#include <catch2/catch.hpp>

#include <string>

#include "base/InputError.h"
#include "base/lm/LmConfig.h"
#include "base/lm/LmHuggingFace.h"

using namespace attnlab;
using Catch::Matchers::Contains;

namespace {

std::string hfConfigError(const std::string& json) {
    try {
        lmHfGpt2Config(json, "config.json");
    } catch (const ModelFileError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("config.json of GPT-2 gives GPT-2's form at its sizes, GPT2Config's defaults for what it leaves out", "[lm][hf]") {
    const LmConfig c = lmHfGpt2Config(
        R"({"model_type": "gpt2", "n_embd": 32, "n_layer": 2, "n_head": 2, "n_positions": 64, "vocab_size": 50257,
            "n_inner": null, "layer_norm_epsilon": 1e-6, "activation_function": "gelu_new"})",
        "config.json");
    CHECK(c.dModel == 32);
    CHECK(c.layers == 2);
    CHECK(c.heads == 2);
    CHECK(c.context == 64);
    CHECK(c.vocabulary == 50257);
    CHECK(c.feedForward == 128);
    CHECK(c.layerNormEps == 1e-6f);
    CHECK(c.gelu == LmGelu::Tanh);
    CHECK(c.norm == LmNorm::Pre);
    CHECK(c.tied);
    CHECK_FALSE(c.attentionOnly);
    CHECK(c.positions == LmPositions::Learned);
    CHECK(c.dropout == 0);
    const LmConfig small = lmHfGpt2Config(R"({"model_type": "gpt2"})", "config.json");  // gpt2's own sizes
    CHECK(small.dModel == 768);
    CHECK(small.layers == 12);
    CHECK(small.context == 1024);
    CHECK(small.feedForward == 3072);
    CHECK(small.layerNormEps == 1e-5f);
    const LmConfig exact = lmHfGpt2Config(
        R"({"model_type": "gpt2", "n_ctx": 128, "n_inner": 100, "activation_function": "gelu", "tie_word_embeddings": false})",
        "config.json");
    CHECK(exact.context == 128);
    CHECK(exact.feedForward == 100);
    CHECK(exact.gelu == LmGelu::Exact);
    CHECK_FALSE(exact.tied);
}

TEST_CASE("a config.json AttnLab cannot open says why in one line naming the file", "[lm][hf]") {
    CHECK_THAT(hfConfigError(R"({"model_type": "bert"})"), Contains("config.json: model_type \"bert\"") && Contains("supported: gpt2"));
    CHECK_THAT(hfConfigError(R"({"n_embd": 8})"), Contains("has no model_type"));
    CHECK_THAT(hfConfigError(R"({"model_type": "gpt2", "n_positions": 1000000000})"),
               Contains("n_positions 1000000000 is not in 4..4096"));
    CHECK_THAT(hfConfigError(R"({"model_type": "gpt2", "n_embd": 30, "n_head": 4})"), Contains("does not divide"));
    CHECK_THAT(hfConfigError(R"({"model_type": "gpt2", "activation_function": "relu"})"), Contains("activation_function"));
    CHECK_THAT(hfConfigError(R"({"model_type": "gpt2", "scale_attn_by_inverse_layer_idx": true})"), Contains("not supported"));
    CHECK_THAT(hfConfigError(R"({"model_type": "gpt2", "layer_norm_epsilon": -1})"), Contains("layer_norm_epsilon"));
    CHECK_THAT(hfConfigError(R"({"model_type": "gpt2", "n_layer": "12"})"), Contains("n_layer \"12\" is not an integer"));
    CHECK_THAT(hfConfigError("{"), Contains("config.json: not JSON"));
    CHECK_THAT(hfConfigError("[]"), Contains("not a JSON object"));
}

TEST_CASE("gelu and layer_norm_eps are written only when not the defaults, and read back", "[lm][hf]") {
    LmConfig c = lmGpt2Form();
    c.vocabulary = 10;
    const std::string plain = toJson(c);
    CHECK(plain.find("gelu") == std::string::npos);
    CHECK(plain.find("layer_norm_eps") == std::string::npos);
    const LmConfig back = lmConfigFromJson(plain);
    CHECK(back.gelu == LmGelu::Tanh);
    CHECK(back.layerNormEps == 1e-5f);
    c.gelu = LmGelu::Exact;
    c.layerNormEps = 1e-12f;
    const LmConfig other = lmConfigFromJson(toJson(c));
    CHECK(other.gelu == LmGelu::Exact);
    CHECK(other.layerNormEps == 1e-12f);
    c.layerNormEps = 0;
    CHECK_THAT(validate(c), Contains("layer_norm_eps"));
}

TEST_CASE("tokenizer.json's merges as strings or as pairs give the same tokenizer; a broken one names the file", "[lm][hf]") {
    // A byte-level BPE over the 256 byte tokens plus "Ġt" and "Ġth" and <|endoftext|>.
    std::string vocab = "{";
    const auto& table = lmBytesToUnicode();
    for (int b = 0; b < 256; ++b) {
        std::string token;
        const char32_t cp = table[static_cast<std::size_t>(b)];
        if (cp < 0x80) {
            token = std::string(1, static_cast<char>(cp));
        } else {  // 2-byte UTF-8 (every code point of the table is below U+0800)
            token += static_cast<char>(0xc0 | (cp >> 6));
            token += static_cast<char>(0x80 | (cp & 0x3f));
        }
        if (token == "\"" || token == "\\") token = "\\" + token;
        vocab += "\"" + token + "\": " + std::to_string(b) + ", ";
    }
    vocab += "\"\xc4\xa0t\": 256, \"\xc4\xa0th\": 257, \"<|endoftext|>\": 258}";
    const std::string strings = R"({"model": {"type": "BPE", "vocab": )" + vocab + R"(, "merges": ["Ġ t", "Ġt h"]}})";
    const std::string pairs = R"({"model": {"type": "BPE", "vocab": )" + vocab + R"(, "merges": [["Ġ", "t"], ["Ġt", "h"]]}})";
    const LmTokenizer a = lmHfTokenizerJson(strings, "tokenizer.json");
    const LmTokenizer b = lmHfTokenizerJson(pairs, "tokenizer.json");
    CHECK(a.size() == 259);
    CHECK(a.encode(" the") == std::vector<int>{257, table['e'] == U'e' ? 'e' : -1});
    CHECK(b.encode(" the") == a.encode(" the"));
    CHECK(a.toJson() == b.toJson());
    auto error = [](const std::string& json) {
        try {
            lmHfTokenizerJson(json, "tokenizer.json");
        } catch (const ModelFileError& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    CHECK_THAT(error(R"({"model": {"type": "WordPiece"}})"), Contains("tokenizer.json: model.type \"WordPiece\" is not BPE"));
    CHECK_THAT(error(R"({"model": {"type": "BPE", "vocab": )" + vocab + R"(, "merges": [3]}})"), Contains("merge 1"));
    CHECK_THAT(error(R"({"model": {"type": "BPE", "vocab": )" + vocab + R"(, "merges": ["Ġ x"]}})"), Contains("tokenizer.json"));
    CHECK_THAT(error("nope"), Contains("tokenizer.json:1: not JSON"));
}
