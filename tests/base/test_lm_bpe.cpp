#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "InputErrors.h"
#include "base/InputError.h"
#include "base/lm/LmText.h"
#include "base/lm/LmTokens.h"

using namespace attnlab;
using attnlab::test::inputErrorOf;
using Ids = std::vector<int>;
using Strings = std::vector<std::string>;
using Merges = std::vector<std::pair<std::string, std::string>>;

namespace {

const std::string G = "\xC4\xA0";  // "Ġ" (U+0120), the readable form of a space

Strings pieces(const std::string& text) {
    Strings out;
    LmTokenizer::split(LmTokenKind::Bpe, text, [&](const char* p, std::size_t n) { out.emplace_back(p, n); });
    return out;
}

// The merges as readable pairs.
Merges mergesOf(const LmTokenizer& t) {
    Merges out;
    for (const auto& [left, right] : t.merges()) out.emplace_back(t.token(left), t.token(right));
    return out;
}

std::string bpeJsonError(const std::string& json) {
    try {
        LmTokenizer::fromJson(json);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "(no ConfigError)";
}

// A text of every kind: ASCII, accents, Chinese, emoji (4 bytes), white space of several kinds.
const std::string kMixed =
    "Hello, world! It's 2024: the caf\xC3\xA9 isn't open.\n\n"
    "\xE4\xB8\xAD\xE6\x96\x87\xE6\xB5\x8B\xE8\xAF\x95 \xF0\x9F\x98\x80\xF0\x9F\x8E\x89 emoji\t\ttabs   spaces \r\n"
    "e\xCC\x81 combining, \xC2\xA0nbsp, don't we'll they're I'VE  ";

// BPE learned the slow way: every pair recounted over every piece at each step, the best taken by
// the rule of LmTokens.h (count, then smaller merged bytes, then shorter left part). Byte strings.
Merges naiveMerges(const std::string& text, int merges) {
    std::map<std::string, std::int64_t> counts;
    LmTokenizer::split(LmTokenKind::Bpe, text, [&](const char* p, std::size_t n) { ++counts[std::string(p, n)]; });
    std::vector<std::pair<Strings, std::int64_t>> words;
    for (const auto& [piece, count] : counts) {
        Strings symbols;
        for (const char c : piece) symbols.emplace_back(1, c);
        words.emplace_back(symbols, count);
    }
    Merges out;
    for (int m = 0; m < merges; ++m) {
        std::map<std::pair<std::string, std::string>, std::int64_t> pairs;
        for (const auto& [symbols, count] : words)
            for (std::size_t i = 0; i + 1 < symbols.size(); ++i) pairs[{symbols[i], symbols[i + 1]}] += count;
        const std::pair<std::string, std::string>* best = nullptr;
        std::int64_t bestCount = 1;
        for (const auto& [pair, count] : pairs) {
            const bool better = best == nullptr ? count > bestCount
                                : count != bestCount ? count > bestCount
                                : pair.first + pair.second != best->first + best->second
                                    ? pair.first + pair.second < best->first + best->second
                                    : pair.first.size() < best->first.size();
            if (better) {
                best = &pair;
                bestCount = count;
            }
        }
        if (best == nullptr) break;
        const auto [left, right] = *best;
        out.emplace_back(left, right);
        for (auto& [symbols, count] : words) {
            Strings next;
            for (std::size_t i = 0; i < symbols.size(); ++i) {
                if (i + 1 < symbols.size() && symbols[i] == left && symbols[i + 1] == right) {
                    next.push_back(left + right);
                    ++i;
                } else {
                    next.push_back(symbols[i]);
                }
            }
            symbols.swap(next);
        }
    }
    return out;
}

}  // namespace

TEST_CASE("lmBytesToUnicode: GPT-2's bytes_to_unicode", "[lm]") {
    const auto& table = lmBytesToUnicode();
    CHECK(std::set<char32_t>(table.begin(), table.end()).size() == 256);
    CHECK(table[' '] == U'\u0120');  // 'Ġ'
    CHECK(table['\n'] == U'\u010A');  // 'Ċ'
    CHECK(table['\t'] == U'\u0109');
    CHECK(table['a'] == U'a');
    CHECK(table['!'] == U'!');
    CHECK(table['~'] == U'~');
    CHECK(table[0] == U'\u0100');
    CHECK(table[0x7F] == U'\u0121');
    CHECK(table[0x80] == U'\u0122');
    CHECK(table[0xA0] == U'\u0142');
    CHECK(table[0xA1] == U'\u00A1');
    CHECK(table[0xAC] == U'\u00AC');
    CHECK(table[0xAD] == U'\u0143');  // the last of the 68 shifted bytes
    CHECK(table[0xAE] == U'\u00AE');
    CHECK(table[0xFF] == U'\u00FF');
    for (int b = 0; b < 256; ++b) CHECK(table[static_cast<std::size_t>(b)] <= U'\u0143');
    CHECK(lmBpeTokenText(" the") == G + "the");
    CHECK(lmBpeTokenText("\n") == "\xC4\x8A");
    CHECK(lmBpeTokenText("\xC3\xA9") == "\xC3\x83\xC2\xA9");  // é's two bytes, each shown as itself
}

TEST_CASE("Bpe pre-tokenization: GPT-2's pieces with ASCII classes", "[lm]") {
    CHECK(pieces("Hello  world's\n\n") == Strings{"Hello", " ", " world", "'s", "\n\n"});
    CHECK(pieces("I'll 42 dogs!? ok") == Strings{"I", "'ll", " 42", " dogs", "!?", " ok"});
    CHECK(pieces("don't we've I'm he'd she's you're") ==
          Strings{"don", "'t", " we", "'ve", " I", "'m", " he", "'d", " she", "'s", " you", "'re"});
    CHECK(pieces("'RE ?'s 's") == Strings{"'", "RE", " ?'", "s", " '", "s"});  // contractions are lower case
    CHECK(pieces("3.14 x2") == Strings{"3", ".", "14", " x", "2"});
    CHECK(pieces("a\n b") == Strings{"a", "\n", " b"});
    CHECK(pieces("a \nb") == Strings{"a", " ", "\n", "b"});
    CHECK(pieces("\t\tx") == Strings{"\t", "\t", "x"});
    CHECK(pieces("x   ") == Strings{"x", "   "});
    CHECK(pieces(" ") == Strings{" "});
    CHECK(pieces("   y") == Strings{"  ", " y"});
    CHECK(pieces("") == Strings{});
    // Every byte >= 0x80 is a letter: non-ASCII text stays whole, a code point is never cut.
    CHECK(pieces("\xC3\xA9t\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87" "abc \xF0\x9F\x98\x80!") ==
          Strings{"\xC3\xA9t\xC3\xA9", " \xE4\xB8\xAD\xE6\x96\x87" "abc", " \xF0\x9F\x98\x80", "!"});
    // The pieces always make up the text, whatever the bytes.
    std::string bytes;
    for (int i = 0; i < 3000; ++i) bytes += static_cast<char>((i * 7919 + i / 13) % 256);
    std::string joined;
    for (const std::string& p : pieces(bytes + kMixed)) {
        CHECK(!p.empty());
        joined += p;
    }
    CHECK(joined == bytes + kMixed);
}

TEST_CASE("Bpe learning: the first merges of a small text, by hand", "[lm]") {
    // Sennrich et al.'s example: low x5, lower x2, newest x6, widest x3, each with its leading space.
    std::string text;
    for (const auto& [word, count] : std::vector<std::pair<std::string, int>>{
             {"low", 5}, {"lower", 2}, {"newest", 6}, {"widest", 3}})
        for (int i = 0; i < count; ++i) text += " " + word;
    const LmTokenizer t = LmTokenizer::fromText(LmTokenKind::Bpe, {text}, "s.txt", kLmMaxVocabulary, 100);
    CHECK(t.kind() == LmTokenKind::Bpe);
    // Pairs: e s 9 and s t 9 (tie: "es" < "st"), then es t 9; Ġ l, l o, o w 7 (" l" first: the space is
    // the smallest byte), ...; the newest chain at 6, widest at 3, lower's own at 2; then no pair occurs
    // twice and learning stops, far short of 100.
    const Merges expected{{"e", "s"},           {"es", "t"},         {G, "l"},           {G + "l", "o"},
                          {G + "lo", "w"},      {G, "n"},            {G + "n", "e"},     {G + "ne", "w"},
                          {G + "new", "est"},   {G, "w"},            {G + "w", "i"},     {G + "wi", "d"},
                          {G + "wid", "est"},   {G + "low", "e"},    {G + "lowe", "r"}};
    CHECK(mergesOf(t) == expected);
    REQUIRE(t.size() == 4 + 256 + 15);
    CHECK(t.token(260) == "es");
    CHECK(t.token(261) == "est");
    CHECK(t.token(264) == G + "low");
    CHECK(t.token(274) == G + "lower");
    CHECK(t.id(G + "newest") == 268);
    // The bytes come first, byte b at 4 + b, shown readably.
    CHECK(t.token(4 + ' ') == G);
    CHECK(t.token(4 + 'a') == "a");
    CHECK(t.id("a") == 4 + 'a');
    // Encoding applies the merges by rank: " lowest" is Ġlow + est, an unseen word.
    CHECK(t.encode(" lowest") == Ids{264, 261});
    CHECK(t.encode("newest") == Ids{4 + 'n', 4 + 'e', 4 + 'w', 261});  // no leading space: not the learned word
    CHECK(t.decode(t.encode(" lowest")) == " lowest");
    // The training pieces encode to single tokens.
    CHECK(t.encode(text).size() == 16);
}

TEST_CASE("Bpe learning: the same merges as recounting every pair at every step", "[lm]") {
    // Words drawn from few letters, so pairs overlap ("aaa", "abab") and many tie.
    std::string text = kMixed;
    std::uint64_t state = 12345;
    const auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<int>(state >> 33);
    };
    for (int w = 0; w < 3000; ++w) {
        text += next() % 8 == 0 ? "\n" : " ";
        const int length = 1 + next() % 7;
        for (int i = 0; i < length; ++i) text += Strings{"a", "a", "b", "b", "c", "d", "\xC3\xA9"}[next() % 7];
    }
    const int merges = 150;
    const LmTokenizer t = LmTokenizer::fromText(LmTokenKind::Bpe, {text}, "n.txt", kLmMaxVocabulary, merges);
    Merges expected;
    for (const auto& [left, right] : naiveMerges(text, merges))
        expected.emplace_back(lmBpeTokenText(left), lmBpeTokenText(right));
    CHECK(expected.size() == static_cast<std::size_t>(merges));
    CHECK(mergesOf(t) == expected);
    CHECK(t.decode(t.encode(text)) == text);
}

TEST_CASE("Bpe: any bytes round trip, UTF-8 or not, and never <unk>", "[lm]") {
    const LmTokenizer t = LmTokenizer::fromText(LmTokenKind::Bpe, {kMixed, kMixed, "the the the"}, "m.txt");
    CHECK(t.size() > 260u);
    for (const std::string& text :
         {kMixed, std::string("\xE6\xB1\xA4\xE5\xA7\x86\xE8\xBF\xBD\xE9\x80\x90"),
          std::string("\xF0\x9F\x90\x88\xF0\x9F\x8F\xB3\xEF\xB8\x8F"),
          std::string(""), std::string("   "), std::string("\xFF\xFE\xC3(\x80 ab\x00z", 10), std::string(40, '\'')}) {
        const Ids ids = t.encode(text);
        CHECK(t.decode(ids) == text);
        for (const int id : ids) {
            CHECK(id >= kLmFirstToken);
            CHECK(id < static_cast<int>(t.size()));
        }
    }
    // decode concatenates bytes: half an emoji is returned as it is; specials read as their names.
    const Ids emoji = t.encode("\xF0\x9F\x98\x80");
    CHECK(t.decode({4 + 0xF0, 4 + 0x9F}) == "\xF0\x9F");
    CHECK(t.decode({kLmBos, 4 + 'h', 4 + 'i', kLmPad, -1, 99999}) == "<bos>hi<pad><unk><unk>");
    CHECK(t.decode(emoji) == "\xF0\x9F\x98\x80");
}

TEST_CASE("Bpe: copies encoding at once, in several threads, share the cache safely", "[lm]") {
    const LmTokenizer t = LmTokenizer::fromText(LmTokenKind::Bpe, {kMixed}, "t.txt", kLmMaxVocabulary, 60);
    const Ids expected = LmTokenizer::fromJson(t.toJson()).encode(kMixed);  // a fresh cache
    const LmTokenizer copy = t;
    std::vector<Ids> got(4);
    std::vector<std::thread> threads;
    for (std::size_t k = 0; k < got.size(); ++k)
        threads.emplace_back([&, k] {
            const LmTokenizer& user = k % 2 == 0 ? t : copy;
            for (int round = 0; round < 20; ++round) got[k] = user.encode(kMixed + std::to_string(round % 3));
            got[k] = user.encode(kMixed);
        });
    for (std::thread& thread : threads) thread.join();
    for (const Ids& ids : got) CHECK(ids == expected);
}

TEST_CASE("Bpe: repetitive text takes fewer tokens than bytes", "[lm]") {
    std::string text;
    for (int i = 0; i < 200; ++i)
        text += "the quick brown fox jumps over the lazy dog; " + std::to_string(i % 7) + " dogs and foxes\n";
    const LmTokenizer t = LmTokenizer::fromText(LmTokenKind::Bpe, {text}, "r.txt", kLmMaxVocabulary, 200);
    const Ids ids = t.encode(text);
    CHECK(ids.size() * 3 < text.size());
    CHECK(t.decode(ids) == text);
    CHECK(t.encode(" quick brown fox").size() == 3);  // whole words, each with its space
}

TEST_CASE("Bpe: learning is deterministic and depends on the pieces alone", "[lm]") {
    const auto learn = [](const Strings& texts, int merges) {
        return LmTokenizer::fromText(LmTokenKind::Bpe, texts, "a.txt", kLmMaxVocabulary, merges);
    };
    const LmTokenizer a = learn({kMixed, "abc abd abe"}, 50);
    const LmTokenizer b = learn({kMixed, "abc abd abe"}, 50);
    CHECK(a.toJson() == b.toJson());
    // The same pieces in another order and other documents: the same merges, the same ids.
    const LmTokenizer c = learn({"abc abd", kMixed, " abe"}, 50);
    CHECK(c.toJson() == a.toJson());
    // Fewer merges learn a prefix of the same list.
    const LmTokenizer d = learn({kMixed, "abc abd abe"}, 10);
    REQUIRE(d.merges().size() == 10);
    for (std::size_t m = 0; m < 10; ++m) CHECK(d.merges()[m] == a.merges()[m]);
    // No merge at all: the bytes.
    const LmTokenizer none = learn({kMixed}, 0);
    CHECK(none.size() == 260);
    CHECK(none.encode("ab") == Ids{4 + 'a', 4 + 'b'});
}

TEST_CASE("Bpe: the vocabulary limit caps the merges", "[lm]") {
    const std::string text =
        " low low low low low lower lower newest newest newest newest newest newest widest widest widest";
    const LmTokenizer t = LmTokenizer::fromText(LmTokenKind::Bpe, {text}, "v.txt", 256 + 3, 100);
    CHECK(t.size() == 4 + 256 + 3);
    CHECK(mergesOf(t) == Merges{{"e", "s"}, {"es", "t"}, {G, "l"}});
    CHECK(LmTokenizer::fromText(LmTokenKind::Bpe, {text}, "v.txt", 256, 100).size() == 260);
    CHECK(LmTokenizer::fromText(LmTokenKind::Bpe, {text}, "v.txt", SIZE_MAX, 100).size() == 4 + 256 + 15);
    CHECK_THROWS_WITH(LmTokenizer::fromText(LmTokenKind::Bpe, {text}, "v.txt", 255, 100),
                      "the vocabulary limit of 255 cannot hold the 256 byte tokens of a bpe tokenizer");
    CHECK_THROWS_AS(LmTokenizer::fromText(LmTokenKind::Bpe, {text}, "v.txt", kLmMaxVocabulary, -1), ConfigError);
    CHECK(inputErrorOf([] { LmTokenizer::fromText(LmTokenKind::Bpe, {"ok", "ab\xC3("}, "bad.txt"); }) ==
          "bad.txt: not UTF-8 (byte 3)");
}

TEST_CASE("Bpe: JSON keeps the merges and rebuilds the same tokenizer", "[lm]") {
    const LmTokenizer t =
        LmTokenizer::fromText(LmTokenKind::Bpe, {kMixed, "\"quoted\" \\ back"}, "j.txt", kLmMaxVocabulary, 40);
    const std::string json = t.toJson();
    const LmTokenizer r = LmTokenizer::fromJson(json);
    CHECK(r.kind() == LmTokenKind::Bpe);
    REQUIRE(r.size() == t.size());
    for (int id = 0; id < static_cast<int>(t.size()); ++id) CHECK(r.token(id) == t.token(id));
    CHECK(r.merges() == t.merges());
    CHECK(r.toJson() == json);
    CHECK(r.encode(kMixed) == t.encode(kMixed));
    CHECK(r.encode("\xF0\x9F\x98\x80 isn't") == t.encode("\xF0\x9F\x98\x80 isn't"));

    const LmTokenizer small = LmTokenizer::fromMerges({{G, "t"}, {G + "t", "h"}});
    const std::string smallJson = small.toJson();
    CHECK(smallJson.find(R"("kind":"bpe")") != std::string::npos);
    CHECK(smallJson.find(R"("merges":[["Ġ","t"],["Ġt","h"]])") != std::string::npos);
    CHECK(smallJson.find(R"("<mask>","Ā","ā")") != std::string::npos);  // bytes 0 and 1
    CHECK(smallJson.find(R"("ÿ","Ġt","Ġth"])") != std::string::npos);
    CHECK(small.encode(" the") == Ids{261, 4 + 'e'});

    // A merge whose result is already a token adds none (the bytes "abc" reached twice).
    const LmTokenizer twice = LmTokenizer::fromMerges({{"a", "b"}, {"ab", "c"}, {"b", "c"}, {"a", "bc"}});
    CHECK(twice.size() == 260 + 3);
    CHECK(twice.merges().size() == 4);
    CHECK(twice.id("abc") == 261);
    CHECK(twice.encode("abc") == Ids{261});
    CHECK(LmTokenizer::fromJson(twice.toJson()).toJson() == twice.toJson());

    CHECK_THROWS_WITH(LmTokenizer::fromMerges({{"a", "b"}, {"ab", "cd"}}), "merge 2: 'cd' is not a token");
    CHECK_THROWS_WITH(LmTokenizer::fromMerges({{"a", "b"}, {"a", "b"}}), "merge 2: 'a b' appears twice");
    CHECK_THROWS_WITH(LmTokenizer::fromMerges({{" ", "t"}}), "merge 1: ' ' is not a token");  // not the readable form
    CHECK_THROWS_AS(LmTokenizer(LmTokenKind::Bpe, {"a"}), ConfigError);

    // Broken files.
    CHECK(bpeJsonError(R"({"kind":"bpe","tokens":["<pad>","<bos>","<unk>","<mask>"]})") ==
          "language model tokenizer config: 'merges' is missing");
    CHECK(bpeJsonError(R"({"kind":"bpe","tokens":["<pad>","<bos>","<unk>","<mask>"],"merges":{}})") ==
          "language model tokenizer config: 'merges' must be a list");
    CHECK(bpeJsonError(R"({"kind":"bpe","tokens":["<pad>","<bos>","<unk>","<mask>"],"merges":[["a"]]})") ==
          "language model tokenizer config: 'merges' must hold pairs of strings");
    CHECK(bpeJsonError(R"({"kind":"bpe","tokens":["<pad>","<bos>","<unk>","<mask>"],"merges":[["a","zz"]]})") ==
          "language model tokenizer config: merge 1: 'zz' is not a token");
    // The specials alone: the byte tokens are missing.
    CHECK(bpeJsonError(R"({"kind":"bpe","tokens":["<pad>","<bos>","<unk>","<mask>"],"merges":[]})") ==
          "language model tokenizer config: 'tokens' are not the ones the merges make");
    std::string swapped = smallJson;
    const std::string order = R"("Ġt","Ġth")";
    swapped.replace(swapped.find(order), order.size(), R"("Ġth","Ġt")");
    CHECK(bpeJsonError(swapped) == "language model tokenizer config: 'tokens' are not the ones the merges make");
    CHECK(LmTokenizer::fromJson(smallJson).encode(" the") == small.encode(" the"));
}

TEST_CASE("readLmText with bpe: lines learned whole, their ids cut to the context", "[lm]") {
    const std::string text = "the cat sat on the mat\n\nthe cat\nthe cat sat on the mat and the dog sat too\n";
    LmTextOptions o;
    o.bpeMerges = 30;
    const LmCorpus c = parseLmText(text, "b.txt", LmTokenKind::Bpe, 6, o);
    CHECK(c.tokenizer.kind() == LmTokenKind::Bpe);
    CHECK(c.tokenizer.merges().size() <= 30u);
    REQUIRE(c.documents.size() == 3);
    CHECK(c.tokenizer.decode(c.documents[1]) == "the cat");
    for (const auto& d : c.documents) CHECK(d.size() <= 6);
    CHECK(c.cut == static_cast<int>(c.tokenizer.encode("the cat sat on the mat").size() > 6) +
                       static_cast<int>(c.tokenizer.encode("the cat sat on the mat and the dog sat too").size() > 6));
    CHECK(c.cut >= 1);
    const Ids whole = c.tokenizer.encode("the cat sat on the mat and the dog sat too");
    CHECK(c.documents[2] == Ids(whole.begin(), whole.begin() + 6));

    // Plain text: windows of the context over the whole text, nothing lost.
    const LmCorpus p = parseLmText(text, "b.txt", LmTokenKind::Bpe, 4, {true, kLmMaxVocabulary, 30});
    std::string joined;
    for (const auto& d : p.documents) joined += p.tokenizer.decode(d);
    CHECK(joined == "the cat sat on the mat\n\nthe cat\nthe cat sat on the mat and the dog sat too");
    CHECK(p.cut == 0);

    // The default merges: 1,000 at most (this text has far fewer pairs that occur twice).
    const LmCorpus d = parseLmText(text, "b.txt", LmTokenKind::Bpe, 64);
    CHECK(d.tokenizer.merges().size() < static_cast<std::size_t>(kLmBpeMerges));
    CHECK(d.tokenizer.merges().size() > 10u);
    LmTextOptions bad;
    bad.bpeMerges = -1;
    CHECK_THROWS_AS(parseLmText(text, "b.txt", LmTokenKind::Bpe, 64, bad), ConfigError);
    bad.bpeMerges = 0;
    bad.maxVocabulary = 100;
    CHECK_THROWS_AS(parseLmText(text, "b.txt", LmTokenKind::Bpe, 64, bad), ConfigError);
}
