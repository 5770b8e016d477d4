#include <catch2/catch.hpp>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "InputErrors.h"
#include "TempDir.h"
#include "base/InputError.h"
#include "base/lm/LmText.h"

using namespace attnlab;
using attnlab::test::inputErrorOf;
using attnlab::test::TempDir;
using Ids = std::vector<int>;

namespace {

bool startsWith(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

std::string decoded(const LmCorpus& c, std::size_t document) { return c.tokenizer.decode(c.documents.at(document)); }

}  // namespace

TEST_CASE("readLmText: one document per non-blank line, words or chars", "[lm]") {
    TempDir dir;
    const std::string path = dir.file("t.txt", "\xEF\xBB\xBFthe cat sat\r\n\r\n  \nthe dog\n\nran\n");
    const LmCorpus words = readLmText(path, LmTokenKind::Words, 8);
    CHECK(words.name == path);
    CHECK(words.cut == 0);
    CHECK(words.repeats.empty());
    REQUIRE(words.documents.size() == 3);
    CHECK(words.tokenizer.kind() == LmTokenKind::Words);
    CHECK(words.tokenizer.size() == 4 + 5);
    CHECK(words.tokenizer.token(4) == "the");
    CHECK(words.documents[0] == Ids{4, 5, 6});
    CHECK(decoded(words, 0) == "the cat sat");
    CHECK(decoded(words, 1) == "the dog");
    CHECK(decoded(words, 2) == "ran");

    const LmCorpus chars = readLmText(path, LmTokenKind::Chars, 64);
    REQUIRE(chars.documents.size() == 3);
    CHECK(chars.documents[0].size() == 11);
    CHECK(decoded(chars, 0) == "the cat sat");  // no BOM, no carriage return
    CHECK(decoded(chars, 2) == "ran");
}

TEST_CASE("readLmText: a line longer than the context is cut to it and counted", "[lm]") {
    TempDir dir;
    const std::string path = dir.file("long.txt", "a b c d e f\na b c d\na b c d e\nx\n");
    const LmCorpus c = readLmText(path, LmTokenKind::Words, 4);
    CHECK(c.cut == 2);
    REQUIRE(c.documents.size() == 4);
    CHECK(decoded(c, 0) == "a b c d");
    CHECK(decoded(c, 1) == "a b c d");
    CHECK(decoded(c, 2) == "a b c d");
    CHECK(decoded(c, 3) == "x");
    // The words that were cut off are not in the vocabulary: nothing would train them.
    CHECK(c.tokenizer.id("e") == kLmUnk);
    CHECK(c.tokenizer.id("f") == kLmUnk);
    CHECK(c.tokenizer.size() == 4 + 5);

    const LmCorpus chars = parseLmText("h\xC3\xA9llo\nhi\n", "c.txt", LmTokenKind::Chars, 4);
    CHECK(chars.cut == 1);
    CHECK(decoded(chars, 0) == "h\xC3\xA9ll");  // four code points, not four bytes
    CHECK(decoded(chars, 1) == "hi");
    for (const auto& d : c.documents) CHECK(d.size() <= 4);
}

TEST_CASE("readLmText: plain text is cut into windows of the context, nothing lost", "[lm]") {
    const LmCorpus words =
        parseLmText("one two three\n\nfour five six seven\n", "p.txt", LmTokenKind::Words, 4, {true});
    CHECK(words.cut == 0);
    REQUIRE(words.documents.size() == 2);
    CHECK(decoded(words, 0) == "one two three four");
    CHECK(decoded(words, 1) == "five six seven");
    // Chars keep the line feeds, blank lines too.
    const LmCorpus chars = parseLmText("ab\r\n\r\ncd\n", "p.txt", LmTokenKind::Chars, 4, {true});
    REQUIRE(chars.documents.size() == 2);
    CHECK(decoded(chars, 0) == "ab\n\n");
    CHECK(decoded(chars, 1) == "cd");
    CHECK(chars.documents[1].size() == 2);
}

TEST_CASE("readLmText: bad files are refused with their file and line", "[lm]") {
    TempDir dir;
    const std::string bad = dir.file("bad.txt", "fine\nab\xFF" "cd\n");
    const std::string message = inputErrorOf([&] { readLmText(bad, LmTokenKind::Chars, 16); });
    CHECK(startsWith(message, bad + ":2: "));
    CHECK(message.find("UTF-8 at byte 3") != std::string::npos);
    try {
        readLmText(bad, LmTokenKind::Words, 16, {true});
        FAIL("no InputError");
    } catch (const InputError& e) {
        CHECK(e.file() == bad);
        CHECK(e.line() == 2);
    }

    const std::string empty = dir.file("empty.txt", "");
    CHECK(inputErrorOf([&] { readLmText(empty, LmTokenKind::Words, 16); }) == empty + ": empty: no text to learn from");
    const std::string blank = dir.file("blank.txt", "\n  \n\t\n");
    CHECK(inputErrorOf([&] { readLmText(blank, LmTokenKind::Chars, 16); }) == blank + ": empty: no text to learn from");
    CHECK(inputErrorOf([&] { readLmText(blank, LmTokenKind::Chars, 16, {true}); }) ==
          blank + ": empty: no text to learn from");
    CHECK(inputErrorOf([&] { readLmText(dir.file("missing.txt"), LmTokenKind::Chars, 16); }) ==
          dir.file("missing.txt") + ": no such file");

    LmTextOptions small;
    small.maxVocabulary = 3;
    const std::string many = dir.file("many.txt", "a b\nc d\n");
    CHECK(inputErrorOf([&] { readLmText(many, LmTokenKind::Words, 16, small); }) ==
          many + ": the vocabulary has 4 distinct words, over the limit of 3 (use --tokens chars)");

    CHECK_THROWS_AS(readLmText(many, LmTokenKind::Words, 3), ConfigError);
    CHECK_THROWS_AS(readLmText(many, LmTokenKind::Words, 4097), ConfigError);
}

TEST_CASE("makeRepeats: lines of exactly `context` words whose sequence really repeats", "[lm]") {
    const LmCorpus c = makeRepeats(300, 7);
    CHECK(c.name == "repeats");
    CHECK(c.cut == 0);
    REQUIRE(c.documents.size() == 300);
    REQUIRE(c.repeats.size() == 300);
    CHECK(c.tokenizer.kind() == LmTokenKind::Words);
    REQUIRE(c.tokenizer.size() == 4 + 200);
    for (int i = 0; i < 200; ++i) CHECK(c.tokenizer.token(kLmFirstToken + i) == lmRepeatWord(i));
    std::set<int> prefixes, sequences;
    for (std::size_t n = 0; n < c.documents.size(); ++n) {
        const Ids& line = c.documents[n];
        const LmRepeat r = c.repeats[n];
        REQUIRE(line.size() == 64);
        CHECK(r.prefix >= 0);
        CHECK(r.prefix <= 12);
        CHECK(r.sequence >= 8);
        CHECK(r.sequence <= 20);
        prefixes.insert(r.prefix);
        sequences.insert(r.sequence);
        for (const int id : line) {
            CHECK(id >= kLmFirstToken);
            CHECK(id < 4 + 200);
        }
        for (std::size_t k = static_cast<std::size_t>(r.prefix + r.sequence); k < line.size(); ++k)
            REQUIRE(line[k] == line[k - static_cast<std::size_t>(r.sequence)]);
        // Encoding the decoded line gives it back: the words read as tokens.
        CHECK(c.tokenizer.encode(c.tokenizer.decode(line)) == line);
    }
    // Every prefix and sequence length turns up in 300 lines.
    CHECK(prefixes.size() == 13);
    CHECK(sequences.size() == 13);

    // The same seed gives the same lines; another seed others, with the same tokenizer.
    const LmCorpus again = makeRepeats(300, 7);
    CHECK(again.documents == c.documents);
    const LmCorpus other = makeRepeats(10, 8);
    CHECK(other.documents[0] != c.documents[0]);
    CHECK(other.tokenizer.toJson() == c.tokenizer.toJson());
    // A prefix of the lines does not depend on how many are asked for.
    const LmCorpus fewer = makeRepeats(5, 7);
    for (std::size_t n = 0; n < 5; ++n) CHECK(fewer.documents[n] == c.documents[n]);
}

TEST_CASE("makeRepeats: its options, and options out of range", "[lm]") {
    LmRepeatsOptions o;
    o.context = 16;
    o.vocabulary = 5;
    o.minPrefix = 2;
    o.maxPrefix = 2;
    o.minSequence = 3;
    o.maxSequence = 3;
    const LmCorpus c = makeRepeats(20, 1, o);
    CHECK(c.tokenizer.size() == 4 + 5);
    for (std::size_t n = 0; n < 20; ++n) {
        CHECK(c.documents[n].size() == 16);
        CHECK(c.repeats[n].prefix == 2);
        CHECK(c.repeats[n].sequence == 3);
        for (std::size_t k = 5; k < 16; ++k) CHECK(c.documents[n][k] == c.documents[n][k - 3]);
    }
    CHECK(makeRepeats(0, 1).documents.empty());

    const auto refused = [](void (*change)(LmRepeatsOptions&)) {
        LmRepeatsOptions bad;
        change(bad);
        try {
            makeRepeats(1, 1, bad);
        } catch (const ConfigError& e) {
            return std::string(e.what());
        }
        return std::string("(no ConfigError)");
    };
    CHECK(refused([](LmRepeatsOptions& b) { b.context = 3; }) == "context length must be between 4 and 4096, got 3");
    CHECK(refused([](LmRepeatsOptions& b) { b.vocabulary = 1; }) == "induction set vocabulary 1 is not in 2..4970");
    CHECK(refused([](LmRepeatsOptions& b) { b.vocabulary = 4971; }) ==
          "induction set vocabulary 4971 is not in 2..4970");
    CHECK(refused([](LmRepeatsOptions& b) { b.minPrefix = 13; }) == "minimum prefix 13 is not in 0..12");
    CHECK(refused([](LmRepeatsOptions& b) { b.maxPrefix = -1; }) == "maximum prefix -1 is not in 0..4096");
    CHECK(refused([](LmRepeatsOptions& b) { b.minSequence = 0; }) == "minimum sequence 0 is not in 1..20");
    CHECK(refused([](LmRepeatsOptions& b) { b.minSequence = 21; }) == "minimum sequence 21 is not in 1..20");
    CHECK(refused([](LmRepeatsOptions& b) { b.context = 32; }) ==
          "context length 32 leaves no room to repeat a prefix of up to 12 and a sequence of up to 20 words "
          "(it must be above 32)");
    CHECK(refused([](LmRepeatsOptions& b) { b.context = 33; }) == "(no ConfigError)");
}

TEST_CASE("lmRepeatWord: short, distinct, pronounceable, fixed", "[lm]") {
    CHECK(kLmRepeatWords == 4970);
    CHECK(lmRepeatWord(0) == "ba");
    CHECK(lmRepeatWord(1) == "be");
    CHECK(lmRepeatWord(5) == "da");
    CHECK(lmRepeatWord(69) == "vu");
    CHECK(lmRepeatWord(70) == "baba");
    CHECK(lmRepeatWord(71) == "bami");
    CHECK(lmRepeatWord(72) == "bebu");
    std::set<std::string> all;
    for (int i = 0; i < kLmRepeatWords; ++i) {
        const std::string w = lmRepeatWord(i);
        CHECK(w.size() == (i < 70 ? 2u : 4u));
        all.insert(w);
    }
    CHECK(all.size() == static_cast<std::size_t>(kLmRepeatWords));
    CHECK_THROWS_AS(lmRepeatWord(-1), std::out_of_range);
    CHECK_THROWS_AS(lmRepeatWord(kLmRepeatWords), std::out_of_range);
}
