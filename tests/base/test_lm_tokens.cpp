#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "InputErrors.h"
#include "base/InputError.h"
#include "base/lm/LmTokens.h"

using namespace attnlab;
using attnlab::test::inputErrorOf;
using Ids = std::vector<int>;

namespace {

std::string tokenizerJsonError(const std::string& json) {
    try {
        LmTokenizer::fromJson(json);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "(no ConfigError)";
}

}  // namespace

TEST_CASE("LmTokenizer: the specials sit at fixed ids in every tokenizer", "[lm]") {
    const LmTokenizer empty;
    CHECK(empty.size() == 4);
    CHECK(empty.kind() == LmTokenKind::Chars);
    CHECK(empty.token(kLmPad) == "<pad>");
    CHECK(empty.token(kLmBos) == "<bos>");
    CHECK(empty.token(kLmUnk) == "<unk>");
    CHECK(empty.token(kLmMask) == "<mask>");
    CHECK(kLmFirstToken == 4);
    const LmTokenizer words(LmTokenKind::Words, {"a", "b"});
    CHECK(words.size() == 6);
    CHECK(words.token(0) == "<pad>");
    CHECK(words.token(3) == "<mask>");
    CHECK(words.token(4) == "a");
    CHECK(words.token(5) == "b");
    CHECK(words.token(6) == "<unk>");  // out of range
    CHECK(words.token(-1) == "<unk>");
    // A text never produces a special: a literal "<unk>" is an ordinary, unknown word here.
    CHECK(words.id("<unk>") == kLmUnk);
    CHECK(words.encode("<bos> a") == Ids{kLmUnk, 4});
    const LmTokenizer literal(LmTokenKind::Words, {"<bos>"});
    CHECK(literal.encode("<bos>") == Ids{4});
}

TEST_CASE("LmTokenizer: chars are code points, ordered by frequency then first appearance", "[lm]") {
    const std::string text = "h\xC3\xA9llo \xE4\xB8\x96\xE7\x95\x8C";  // "héllo 世界"
    const LmTokenizer t = LmTokenizer::fromText(LmTokenKind::Chars, {text}, "t.txt");
    CHECK(t.kind() == LmTokenKind::Chars);
    // 8 characters, 7 distinct: "l" twice comes first, then the rest as they first appear.
    REQUIRE(t.size() == 4 + 7);
    CHECK(t.token(4) == "l");
    CHECK(t.token(5) == "h");
    CHECK(t.token(6) == "\xC3\xA9");
    CHECK(t.token(7) == "o");
    CHECK(t.token(8) == " ");
    CHECK(t.token(9) == "\xE4\xB8\x96");
    CHECK(t.token(10) == "\xE7\x95\x8C");
    CHECK(t.encode(text) == Ids{5, 6, 4, 4, 7, 8, 9, 10});
    CHECK(t.decode(t.encode(text)) == text);
    CHECK(t.encode("hex") == Ids{5, kLmUnk, kLmUnk});
    CHECK(t.decode({kLmBos, 5, kLmMask, 7, kLmPad}) == "<bos>h<mask>o<pad>");
    // Invalid UTF-8 in a text to encode: one <unk> per bad byte, the rest as usual.
    CHECK(t.encode("h\xFF\xC3l") == Ids{5, kLmUnk, kLmUnk, 4});
    // A 4-byte code point is one character; a combining accent is one of its own.
    const LmTokenizer emoji = LmTokenizer::fromText(LmTokenKind::Chars, {"\xF0\x9F\x98\x80" "e\xCC\x81"}, "e.txt");
    CHECK(emoji.encode("\xF0\x9F\x98\x80" "e\xCC\x81") == Ids{4, 5, 6});
}

TEST_CASE("LmTokenizer: words split on runs of spaces, tabs and line feeds, by frequency", "[lm]") {
    const LmTokenizer t =
        LmTokenizer::fromText(LmTokenKind::Words, {"the cat sat on the mat", "  the\tend  cat\n"}, "w.txt");
    CHECK(t.kind() == LmTokenKind::Words);
    // the 3, cat 2, then sat, on, mat, end as they first appear.
    REQUIRE(t.size() == 4 + 6);
    CHECK(t.token(4) == "the");
    CHECK(t.token(5) == "cat");
    CHECK(t.token(6) == "sat");
    CHECK(t.token(7) == "on");
    CHECK(t.token(8) == "mat");
    CHECK(t.token(9) == "end");
    CHECK(t.id("mat") == 8);
    CHECK(t.id("dog") == kLmUnk);
    CHECK(t.encode("the dog sat") == Ids{4, kLmUnk, 6});
    CHECK(t.encode(" \t the   cat \n") == Ids{4, 5});
    CHECK(t.encode("") == Ids{});
    CHECK(t.decode({kLmBos, 4, kLmUnk, 6}) == "<bos> the <unk> sat");
    CHECK(t.decode(t.encode("the cat sat on the mat")) == "the cat sat on the mat");
    // Case, punctuation and other white space stay inside a word.
    const LmTokenizer u = LmTokenizer::fromText(LmTokenKind::Words, {"Cat. cat a\xC2\xA0" "b"}, "u.txt");
    CHECK(u.size() == 4 + 3);
    CHECK(u.token(6) == "a\xC2\xA0" "b");
}

TEST_CASE("LmTokenizer: text that is not UTF-8 and too many distinct tokens are refused, naming the file", "[lm]") {
    CHECK(inputErrorOf([] { LmTokenizer::fromText(LmTokenKind::Chars, {"ok", "ab\xC3("}, "bad.txt"); }) ==
          "bad.txt: not UTF-8 (byte 3)");
    CHECK(inputErrorOf([] { LmTokenizer::fromText(LmTokenKind::Words, {"a b c d"}, "big.txt", 3); }) ==
          "big.txt: the vocabulary has 4 distinct words, over the limit of 3 (use --tokens chars)");
    CHECK(inputErrorOf([] { LmTokenizer::fromText(LmTokenKind::Chars, {"abcd"}, "big.txt", 3); }) ==
          "big.txt: the vocabulary has 4 distinct characters, over the limit of 3");
    // At the limit is fine.
    CHECK(LmTokenizer::fromText(LmTokenKind::Words, {"a b c a"}, "ok.txt", 3).size() == 7);
    CHECK(kLmMaxVocabulary == 20'000);
}

TEST_CASE("LmTokenizer: JSON round trip keeps the kind and every id", "[lm]") {
    for (const LmTokenKind kind : {LmTokenKind::Chars, LmTokenKind::Words}) {
        const LmTokenizer t = LmTokenizer::fromText(kind, {"b a \xE4\xB8\x96 a", "\"quoted\" \\"}, "j.txt");
        const std::string json = t.toJson();
        const LmTokenizer r = LmTokenizer::fromJson(json);
        CHECK(r.kind() == kind);
        REQUIRE(r.size() == t.size());
        for (int id = 0; id < static_cast<int>(t.size()); ++id) CHECK(r.token(id) == t.token(id));
        CHECK(r.toJson() == json);
        CHECK(r.encode("a b \xE4\xB8\x96") == t.encode("a b \xE4\xB8\x96"));
    }
    CHECK(LmTokenizer(LmTokenKind::Words, {"x"}).toJson() ==
          R"({"kind":"words","tokens":["<pad>","<bos>","<unk>","<mask>","x"]})");
    CHECK(toString(LmTokenKind::Chars) == "chars");
    CHECK(toString(LmTokenKind::Words) == "words");
    CHECK(parseLmTokenKind("words") == LmTokenKind::Words);
    CHECK(parseLmTokenKind("bpe") == LmTokenKind::Bpe);
    CHECK(toString(LmTokenKind::Bpe) == "bpe");
    CHECK_THROWS_WITH(parseLmTokenKind("pieces"), "unknown token kind 'pieces' (expected one of: chars, words, bpe, gpt2)");
}

TEST_CASE("LmTokenizer: a bad token list is refused", "[lm]") {
    const std::string specials = R"("<pad>","<bos>","<unk>","<mask>")";
    CHECK(tokenizerJsonError("{") == "language model tokenizer config: invalid JSON");
    CHECK(tokenizerJsonError("[]") == "language model tokenizer config: not a JSON object");
    CHECK(tokenizerJsonError(R"({"tokens":[)" + specials + "]}") == "language model tokenizer config: 'kind' is missing");
    CHECK(tokenizerJsonError(R"({"kind":"pieces","tokens":[)" + specials + "]}") ==
          "language model tokenizer config: unknown token kind 'pieces' (expected one of: chars, words, bpe, gpt2)");
    CHECK(tokenizerJsonError(R"({"kind":"words"})") == "language model tokenizer config: 'tokens' is missing");
    CHECK(tokenizerJsonError(R"({"kind":"words","tokens":"a"})") == "language model tokenizer config: 'tokens' must be a list");
    CHECK(tokenizerJsonError(R"({"kind":"words","tokens":["<pad>"]})") ==
          "language model tokenizer config: 'tokens' lacks the four specials");
    CHECK(tokenizerJsonError(R"({"kind":"words","tokens":["<pad>","<unk>","<bos>","<mask>"]})") ==
          "language model tokenizer config: 'tokens' must start with <pad>, <bos>, <unk>, <mask>");
    CHECK(tokenizerJsonError(R"({"kind":"words","tokens":[)" + specials + ",1]}") ==
          "language model tokenizer config: 'tokens' must hold strings");
    CHECK(tokenizerJsonError(R"({"kind":"words","tokens":[)" + specials + R"(,"a","a"]})") ==
          "language model tokenizer config: token list: 'a' appears twice");
    CHECK(tokenizerJsonError(R"({"kind":"words","tokens":[)" + specials + R"(,"a b"]})") ==
          "language model tokenizer config: token list: the word 'a b' holds a space, tab or line break");
    CHECK(tokenizerJsonError(R"({"kind":"chars","tokens":[)" + specials + R"(,"ab"]})") ==
          "language model tokenizer config: token list: 'ab' is not one character");
    CHECK(tokenizerJsonError(R"({"kind":"chars","tokens":[)" + specials + R"(,""]})") ==
          "language model tokenizer config: token list: an empty token");
    CHECK_THROWS_AS(LmTokenizer(LmTokenKind::Chars, {std::string("\xFF")}), ConfigError);
    CHECK_THROWS_AS(LmTokenizer(LmTokenKind::Words, {"ok", "a\tb"}), ConfigError);
    // A line feed is a character like any other (running text has them).
    CHECK(LmTokenizer(LmTokenKind::Chars, {"\n"}).encode("\n\n") == Ids{4, 4});
}
