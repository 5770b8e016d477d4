#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "base/Vocabulary.h"

namespace {

using attnlab::Vocabulary;
using Tokens = std::vector<std::string>;

const Tokens kSpecials = {"<pad>", "<s>", "</s>", "<unk>"};

Tokens withSpecials(const Tokens& rest) {
    Tokens all = kSpecials;
    all.insert(all.end(), rest.begin(), rest.end());
    return all;
}

TEST_CASE("A new vocabulary holds the four specials at fixed ids", "[vocabulary]") {
    Vocabulary v;
    CHECK(v.size() == 4);
    CHECK(v.tokens() == kSpecials);
    CHECK(v.id("<pad>") == Vocabulary::kPad);
    CHECK(v.id("<s>") == Vocabulary::kBos);
    CHECK(v.id("</s>") == Vocabulary::kEos);
    CHECK(v.id("<unk>") == Vocabulary::kUnk);
}

TEST_CASE("build orders by frequency, ties by first appearance", "[vocabulary]") {
    const std::vector<Tokens> sentences = {{"b", "a", "c"}, {"a", "d", "c"}, {"a", "e"}};
    // a:3, c:2, then b, d, e once each in order of first appearance
    Vocabulary v = Vocabulary::build(sentences);
    CHECK(v.tokens() == withSpecials({"a", "c", "b", "d", "e"}));
    // Same input, same ids: a model's vocabulary must not depend on hashing order.
    CHECK(Vocabulary::build(sentences).tokens() == v.tokens());
}

TEST_CASE("build drops rare tokens and caps the size including the specials", "[vocabulary]") {
    const std::vector<Tokens> sentences = {{"x", "y", "z"}, {"x", "y"}, {"x", "w"}};
    CHECK(Vocabulary::build(sentences, 2).tokens() == withSpecials({"x", "y"}));
    CHECK(Vocabulary::build(sentences, 1, 6).tokens() == withSpecials({"x", "y"}));
    CHECK(Vocabulary::build(sentences, 1, 5).tokens() == withSpecials({"x"}));
    CHECK(Vocabulary::build(sentences, 1, 2).size() == 4);  // the specials are never dropped
    CHECK(Vocabulary::build(sentences, 1, 0).size() == 8);  // 0 = unlimited
    CHECK(Vocabulary::build(sentences, 4).size() == 4);
    CHECK(Vocabulary::build(sentences, 2).id("z") == Vocabulary::kUnk);
}

TEST_CASE("Special tokens written in the text are not added twice", "[vocabulary]") {
    Vocabulary v = Vocabulary::build({{"<unk>", "hello", "</s>", "<pad>", "<s>", "<unk>"}});
    CHECK(v.tokens() == withSpecials({"hello"}));
    CHECK(v.id("<unk>") == Vocabulary::kUnk);
}

TEST_CASE("Unknown tokens and out-of-range ids map to <unk>", "[vocabulary]") {
    Vocabulary v = Vocabulary::build({{"cat", "dog"}});
    CHECK(v.id("cat") == 4);
    CHECK(v.id("cow") == Vocabulary::kUnk);
    CHECK(v.token(5) == "dog");
    CHECK(v.token(6) == "<unk>");
    CHECK(v.token(-1) == "<unk>");
    CHECK(v.encode({"dog", "cow", "cat"}) == std::vector<std::int64_t>{5, Vocabulary::kUnk, 4});
    CHECK(v.decode({4, 5, Vocabulary::kEos}) == Tokens{"cat", "dog", "</s>"});
    CHECK(v.contains("cat"));
    CHECK_FALSE(v.contains("cow"));
}

TEST_CASE("fromTokens restores a saved vocabulary with the same ids", "[vocabulary]") {
    Vocabulary built = Vocabulary::build({{"le", "chat", "le", "chien"}});
    Vocabulary restored = Vocabulary::fromTokens(built.tokens());
    CHECK(restored.tokens() == built.tokens());
    for (const auto& t : built.tokens()) CHECK(restored.id(t) == built.id(t));
}

TEST_CASE("fromTokens rejects malformed lists", "[vocabulary]") {
    CHECK_THROWS_AS(Vocabulary::fromTokens({}), std::invalid_argument);
    CHECK_THROWS_AS(Vocabulary::fromTokens({"<pad>", "<s>", "</s>"}), std::invalid_argument);
    CHECK_THROWS_AS(Vocabulary::fromTokens({"<s>", "<pad>", "</s>", "<unk>"}), std::invalid_argument);
    CHECK_THROWS_AS(Vocabulary::fromTokens(withSpecials({"a", "b", "a"})), std::invalid_argument);
    CHECK_THROWS_AS(Vocabulary::fromTokens(withSpecials({"a", "<unk>"})), std::invalid_argument);
    CHECK_THROWS_AS(Vocabulary::fromTokens(withSpecials({"a", ""})), std::invalid_argument);
    CHECK_THROWS_WITH(Vocabulary::fromTokens(withSpecials({"a", "b", "a"})), Catch::Contains("entry 6"));
    CHECK_NOTHROW(Vocabulary::fromTokens(kSpecials));
}

}  // namespace
