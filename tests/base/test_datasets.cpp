#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/translation/Datasets.h"
#include "Words.h"
#include "base/InputError.h"
#include "base/Tokenizer.h"

using namespace attnlab;

namespace {

const std::vector<std::string> kNames = {"copy", "reverse", "sort", "dates", "toy-en-fr", "toy-en-zh"};

std::vector<std::string> tokens(const std::string& text) { return Tokenizer{}.tokenize(text); }

// Han, kana and Hangul one token per character (the tokenizer's default).
const Tokenizer& perCharacter() {
    static const Tokenizer t{TokenizerOptions{}};
    return t;
}

// CJK words kept whole.
const Tokenizer& perWord() {
    static const Tokenizer t = [] {
        TokenizerOptions o;
        o.splitCjkCharacters = false;
        return Tokenizer(o);
    }();
    return t;
}

using test::splitSpaces;

ParallelCorpus make(const std::string& name, std::size_t size, std::uint64_t seed = 1, int maxLen = 0, int minLen = 0) {
    DatasetOptions o;
    o.size = size;
    o.seed = seed;
    o.maxLen = maxLen;
    o.minLen = minLen;
    return generateDataset(name, o);
}

bool hasLink(const SentencePair& p, int s, int t) {
    return std::find(p.alignment.begin(), p.alignment.end(), AlignmentLink{s, t}) != p.alignment.end();
}

// Some link pair (i, j), (i', j') with i < i' and j' < j: the target reorders the source.
bool crosses(const SentencePair& p) {
    for (const auto& a : p.alignment)
        for (const auto& b : p.alignment)
            if (a.source < b.source && b.target < a.target) return true;
    return false;
}

TEST_CASE("builtinDatasets lists the six datasets in a fixed order", "[datasets]") {
    const auto& infos = builtinDatasets();
    REQUIRE(infos.size() == kNames.size());
    for (std::size_t i = 0; i < infos.size(); ++i) {
        CHECK(infos[i].name == kNames[i]);
        CHECK_FALSE(infos[i].description.empty());
        CHECK(infos[i].defaultMaxLen > 0);
        CHECK(infos[i].defaultMaxLen <= 200);
        CHECK(isBuiltinDataset(kNames[i]));
    }
    CHECK_FALSE(isBuiltinDataset("Copy"));
    CHECK_FALSE(isBuiltinDataset(""));
}

TEST_CASE("every dataset is seeded, sized, tokenized and aligned", "[datasets]") {
    for (const auto& info : builtinDatasets()) {
        DYNAMIC_SECTION(info.name) {
            const ParallelCorpus a = make(info.name, 300, 7);
            CHECK(a.name == info.name);
            CHECK(a.hasAlignments);
            CHECK(a.skipped.empty());
            REQUIRE(a.pairs.size() == 300);

            const ParallelCorpus same = make(info.name, 300, 7);
            const ParallelCorpus other = make(info.name, 300, 8);
            bool identical = true, differs = false;
            for (std::size_t i = 0; i < a.pairs.size(); ++i) {
                identical = identical && a.pairs[i].source == same.pairs[i].source &&
                            a.pairs[i].target == same.pairs[i].target && a.pairs[i].alignment == same.pairs[i].alignment;
                differs = differs || a.pairs[i].source != other.pairs[i].source;
            }
            CHECK(identical);
            CHECK(differs);

            std::size_t distinct = 0;
            std::set<std::string> seen;
            for (const auto& p : a.pairs) distinct += seen.insert(p.source).second ? 1 : 0;
            CHECK(distinct > 100);  // not one sentence repeated

            int minSeen = 1000, maxSeen = 0;
            const Tokenizer own(info.tokenizer);
            for (const auto& p : a.pairs) {
                INFO(p.source << " => " << p.target);
                const auto src = own.tokenize(p.source);
                const auto tgt = own.tokenize(p.target);
                // Already tokenized: lower-case, single spaces, nothing the dataset's tokenizer would split,
                // so the word links are token links.
                CHECK(src == splitSpaces(p.source));
                CHECK(tgt == splitSpaces(p.target));
                CHECK(alignmentOverTokens(p, own) == p.alignment);
                CHECK(p.line == 0);
                minSeen = std::min(minSeen, static_cast<int>(src.size()));
                maxSeen = std::max(maxSeen, static_cast<int>(src.size()));
                REQUIRE_FALSE(p.alignment.empty());
                for (const auto& l : p.alignment) {
                    CHECK(l.source >= 0);
                    CHECK(l.source < static_cast<int>(src.size()));
                    CHECK(l.target >= 0);
                    CHECK(l.target < static_cast<int>(tgt.size()));
                }
                // Per character, the links still fit the tokens, and no word loses its links.
                const auto charLinks = alignmentOverTokens(p, perCharacter());
                CHECK(charLinks.size() >= p.alignment.size());
                for (const auto& l : charLinks) {
                    CHECK(l.source < static_cast<int>(perCharacter().tokenize(p.source).size()));
                    CHECK(l.target < static_cast<int>(perCharacter().tokenize(p.target).size()));
                }
            }
            CHECK(maxSeen <= info.defaultMaxLen);
            CHECK(minSeen >= 1);
            CHECK(maxSeen > minSeen);  // lengths vary
        }
    }
}

TEST_CASE("copy, reverse and sort targets are correct and aligned position by position", "[datasets]") {
    for (const auto& p : make("copy", 200).pairs) {
        const auto s = splitSpaces(p.source);
        CHECK(p.target == p.source);
        CHECK(s.size() >= 3);
        CHECK(s.size() <= 12);
        REQUIRE(p.alignment.size() == s.size());
        for (std::size_t i = 0; i < s.size(); ++i) CHECK(hasLink(p, static_cast<int>(i), static_cast<int>(i)));
    }
    for (const auto& p : make("reverse", 200).pairs) {
        auto s = splitSpaces(p.source);
        const int n = static_cast<int>(s.size());
        std::reverse(s.begin(), s.end());
        CHECK(splitSpaces(p.target) == s);
        REQUIRE(p.alignment.size() == s.size());
        for (int i = 0; i < n; ++i) CHECK(hasLink(p, i, n - 1 - i));
    }
    for (const auto& p : make("sort", 200).pairs) {
        const auto s = splitSpaces(p.source);
        const auto t = splitSpaces(p.target);
        std::vector<int> values;
        for (const auto& tok : s) values.push_back(std::atoi(tok.c_str()));
        std::sort(values.begin(), values.end());  // numerically, so "10" comes after "9"
        std::vector<std::string> expected;
        for (int v : values) expected.push_back(std::to_string(v));
        CHECK(t == expected);
        for (int v : values) CHECK((v >= 0 && v <= 49));
        // Each target token links to one source token carrying the same number, each used once.
        REQUIRE(p.alignment.size() == t.size());
        std::set<int> sources;
        for (const auto& l : p.alignment) {
            CHECK(s[static_cast<std::size_t>(l.source)] == t[static_cast<std::size_t>(l.target)]);
            sources.insert(l.source);
        }
        CHECK(sources.size() == s.size());
    }
}

TEST_CASE("sort aligns duplicates stably", "[datasets]") {
    bool sawDuplicate = false;
    for (const auto& p : make("sort", 500, 3, 30, 20).pairs) {
        const auto s = splitSpaces(p.source);
        auto links = p.alignment;
        std::sort(links.begin(), links.end(), [](auto& a, auto& b) { return a.target < b.target; });
        for (std::size_t j = 1; j < links.size(); ++j) {
            if (s[static_cast<std::size_t>(links[j].source)] == s[static_cast<std::size_t>(links[j - 1].source)]) {
                sawDuplicate = true;
                CHECK(links[j - 1].source < links[j].source);
            }
        }
    }
    CHECK(sawDuplicate);
}

// --- dates: an independent reading of the tokens

const std::vector<std::string> kMonthNames = {"january", "february", "march",     "april",   "may",      "june",
                                              "july",    "august",   "september", "october", "november", "december"};
const std::vector<std::string> kDayNames = {"sunday",   "monday", "tuesday", "wednesday",
                                            "thursday", "friday", "saturday"};

bool isDigits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int monthOf(const std::string& tok) {
    if (isDigits(tok)) return std::atoi(tok.c_str());
    for (std::size_t m = 0; m < kMonthNames.size(); ++m)
        if (tok == kMonthNames[m] || tok == kMonthNames[m].substr(0, 3)) return static_cast<int>(m) + 1;
    return -1;
}

int dayOf(const std::string& tok) {
    std::string digits = tok;
    for (const char* suffix : {"st", "nd", "rd", "th"})
        if (tok.size() > 2 && tok.compare(tok.size() - 2, 2, suffix) == 0) digits = tok.substr(0, tok.size() - 2);
    return isDigits(digits) ? std::atoi(digits.c_str()) : -1;
}

int weekdayOf(const std::string& tok) {
    for (std::size_t d = 0; d < kDayNames.size(); ++d)
        if (tok == kDayNames[d] || tok == kDayNames[d].substr(0, 3)) return static_cast<int>(d);
    return -1;
}

// Days since 1970-01-01 (Howard Hinnant's days_from_civil); 1970-01-01 was a Thursday.
long daysFromCivil(int y, int m, int d) {
    y -= m <= 2;
    const long era = (y >= 0 ? y : y - 399) / 400;
    const long yoe = y - era * 400;
    const long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

bool validDate(int y, int m, int d) {
    if (m < 1 || m > 12 || d < 1) return false;
    const long next = m == 12 ? daysFromCivil(y + 1, 1, 1) : daysFromCivil(y, m + 1, 1);
    return d <= next - daysFromCivil(y, m, 1);
}

TEST_CASE("dates map every format to the same ISO date", "[datasets]") {
    const ParallelCorpus c = make("dates", 2000, 5);
    std::set<std::string> shapes;  // the sequence of separators and words, one per format
    bool sawWeekday = false;
    for (const auto& p : c.pairs) {
        INFO(p.source << " => " << p.target);
        const auto s = splitSpaces(p.source);
        const auto t = splitSpaces(p.target);
        REQUIRE(t.size() == 5);
        CHECK(t[1] == "-");
        CHECK(t[3] == "-");
        REQUIRE(t[0].size() == 4);
        REQUIRE(isDigits(t[0]));
        REQUIRE(t[2].size() == 2);
        REQUIRE(t[4].size() == 2);
        const int y = std::atoi(t[0].c_str()), m = std::atoi(t[2].c_str()), d = std::atoi(t[4].c_str());
        CHECK(validDate(y, m, d));

        // The year, month and day tokens each have exactly one link, from a source token saying the same.
        std::map<int, std::vector<int>> byTarget;
        for (const auto& l : p.alignment) byTarget[l.target].push_back(l.source);
        REQUIRE(byTarget.size() == 3);
        REQUIRE(byTarget[0].size() == 1);
        REQUIRE(byTarget[2].size() == 1);
        REQUIRE(byTarget[4].size() == 1);
        CHECK(s[static_cast<std::size_t>(byTarget[0][0])] == t[0]);
        CHECK(monthOf(s[static_cast<std::size_t>(byTarget[2][0])]) == m);
        CHECK(dayOf(s[static_cast<std::size_t>(byTarget[4][0])]) == d);

        std::string shape;
        for (const auto& tok : s) {
            const int wd = weekdayOf(tok);
            if (wd >= 0) {
                sawWeekday = true;
                CHECK(wd == ((daysFromCivil(y, m, d) % 7) + 7 + 4) % 7);  // a real weekday, not a made-up one
            }
            shape += (isDigits(tok) ? std::string(tok.size(), '9') : monthOf(tok) > 0 ? "M" : tok) + " ";
        }
        shapes.insert(shape);
        CHECK(s.size() >= 3);
        CHECK(s.size() <= 6);
    }
    CHECK(sawWeekday);
    CHECK(shapes.size() >= 10);  // many human formats, not one
}

TEST_CASE("dates honour the length range by choosing formats", "[datasets]") {
    for (const auto& p : make("dates", 300, 2, 4, 4).pairs) CHECK(splitSpaces(p.source).size() == 4);
    for (const auto& p : make("dates", 300, 2, 3).pairs) CHECK(splitSpaces(p.source).size() == 3);
    CHECK_THROWS_AS(make("dates", 10, 1, 2), ConfigError);
    CHECK_THROWS_AS(make("dates", 10, 1, 60, 7), ConfigError);
}

TEST_CASE("toy-en-fr puts adjectives after their noun", "[datasets]") {
    const ParallelCorpus c = make("toy-en-fr", 500, 11);
    int crossing = 0;
    for (const auto& p : c.pairs) {
        INFO(p.source << " => " << p.target);
        const auto s = splitSpaces(p.source);
        CHECK(s.size() >= 4);
        CHECK(s.size() <= 15);
        // Every English word has a French counterpart.
        std::set<int> linked;
        for (const auto& l : p.alignment) linked.insert(l.source);
        CHECK(linked.size() == s.size());
        // An adjective at i and its noun at i+1 swap places.
        for (const auto& a : p.alignment)
            for (const auto& b : p.alignment)
                if (b.source == a.source + 1 && b.target < a.target) ++crossing;
    }
    CHECK(crossing > 50);

    bool sawRedCar = false;
    for (const auto& p : make("toy-en-fr", 3000, 4).pairs) {
        const auto s = splitSpaces(p.source);
        const auto t = splitSpaces(p.target);
        for (std::size_t i = 0; i + 2 < s.size(); ++i) {
            if (s[i] == "the" && s[i + 1] == "red" && s[i + 2] == "car") {
                sawRedCar = true;
                const int the = static_cast<int>(i);
                REQUIRE(!p.alignment.empty());
                int j = -1;
                for (const auto& l : p.alignment)
                    if (l.source == the) j = l.target;
                REQUIRE(j >= 0);
                REQUIRE(static_cast<std::size_t>(j) + 2 < t.size());
                CHECK(t[static_cast<std::size_t>(j)] == "la");
                CHECK(t[static_cast<std::size_t>(j) + 1] == "voiture");
                CHECK(t[static_cast<std::size_t>(j) + 2] == "rouge");
                CHECK(hasLink(p, the + 1, j + 2));
                CHECK(hasLink(p, the + 2, j + 1));
            }
        }
    }
    CHECK(sawRedCar);
}

TEST_CASE("toy-en-zh is written in Chinese words and trains on them; the others keep the defaults", "[datasets]") {
    for (const auto& info : builtinDatasets()) {
        INFO(info.name);
        CHECK(findBuiltinDataset(info.name) == &info);
        CHECK(info.tokenizer.lowercase);
        CHECK(info.tokenizer.splitPunctuation);
        CHECK(info.tokenizer.splitCjkCharacters == (info.name != "toy-en-zh"));
    }
    CHECK(findBuiltinDataset("klingon") == nullptr);
}

TEST_CASE("toy-en-zh produces tom chases jerry, aligned word by word or per character", "[datasets]") {
    const ParallelCorpus c = make("toy-en-zh", 3000, 1, 3, 3);
    const SentencePair* found = nullptr;
    for (const auto& p : c.pairs)
        if (p.source == "tom chases jerry") found = &p;
    REQUIRE(found != nullptr);
    CHECK(found->target == "汤姆 追逐 杰瑞");
    const Tokenizer own(findBuiltinDataset("toy-en-zh")->tokenizer);
    CHECK(own.tokenize(found->target) == std::vector<std::string>{"汤姆", "追逐", "杰瑞"});
    CHECK(found->alignment == std::vector<AlignmentLink>{{0, 0}, {1, 1}, {2, 2}});
    // Trained per character, the same gold links each character of a word to the English word.
    CHECK(perCharacter().tokenize(found->target) == std::vector<std::string>{"汤", "姆", "追", "逐", "杰", "瑞"});
    CHECK(alignmentOverTokens(*found, perCharacter()) ==
          std::vector<AlignmentLink>{{0, 0}, {0, 1}, {1, 2}, {1, 3}, {2, 4}, {2, 5}});
}

TEST_CASE("alignmentOverTokens maps word links onto every token of both words", "[datasets]") {
    SentencePair p;
    p.source = "in the garden";
    p.target = "在 花园 里";
    p.alignment = {{0, 0}, {2, 1}, {0, 2}};  // as generated: in -> 在, garden -> 花园, in -> 里
    CHECK(alignmentOverTokens(p, perWord()) == std::vector<AlignmentLink>{{0, 0}, {0, 2}, {2, 1}});
    // 在 花 园 里: garden covers tokens 1 and 2, 里 moves to 3.
    CHECK(alignmentOverTokens(p, perCharacter()) == std::vector<AlignmentLink>{{0, 0}, {0, 3}, {2, 1}, {2, 2}});

    // Punctuation the tokenizer splits off belongs to its word; extra white space changes nothing.
    SentencePair q;
    q.source = "  the cat.  sleeps ";
    q.target = "猫。 睡觉";
    q.alignment = {{1, 0}, {2, 1}};
    // Source tokens: the cat . sleeps; target per word: 猫 。 睡觉.
    CHECK(alignmentOverTokens(q, perWord()) == std::vector<AlignmentLink>{{1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 2}});
    // Target per character: 猫 。 睡 觉.
    CHECK(alignmentOverTokens(q, perCharacter()) ==
          std::vector<AlignmentLink>{{1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 2}, {3, 3}});
    TokenizerOptions keepPunctuation;
    keepPunctuation.splitPunctuation = false;
    keepPunctuation.splitCjkCharacters = false;
    // "cat." one token; 猫。 still two (a CJK word ends at punctuation).
    CHECK(alignmentOverTokens(q, Tokenizer(keepPunctuation)) ==
          std::vector<AlignmentLink>{{1, 0}, {1, 1}, {2, 2}});

    // Links to words the sentence lacks cannot be placed: no gold rather than wrong gold.
    SentencePair bad = p;
    bad.alignment.push_back({3, 0});
    CHECK(alignmentOverTokens(bad, perCharacter()).empty());
    bad.alignment = {{0, 3}};
    CHECK(alignmentOverTokens(bad, perWord()).empty());
    bad.alignment.clear();
    CHECK(alignmentOverTokens(bad, perWord()).empty());
}

TEST_CASE("toy-en-zh moves place and time phrases before the verb", "[datasets]") {
    int reordered = 0;
    bool sawBigCat = false;
    for (const auto& p : make("toy-en-zh", 500, 9).pairs) {
        INFO(p.source << " => " << p.target);
        const auto s = splitSpaces(p.source);
        CHECK(s.size() >= 3);
        CHECK(s.size() <= 15);
        if (crosses(p)) ++reordered;
        // Every target word, and so every character, is linked to something English.
        std::set<int> linked, linkedCharacters;
        for (const auto& l : p.alignment) linked.insert(l.target);
        for (const auto& l : alignmentOverTokens(p, perCharacter())) linkedCharacters.insert(l.target);
        CHECK(linked.size() == splitSpaces(p.target).size());
        CHECK(linkedCharacters.size() == tokens(p.target).size());
        if (p.source.find("the big cat") != std::string::npos) {
            sawBigCat = true;
            CHECK(p.target.find("大 猫") != std::string::npos);
        }
    }
    CHECK(reordered > 100);
    CHECK(sawBigCat);
}

TEST_CASE("the length knob reaches long sentences without exceeding it", "[datasets]") {
    for (const std::string name : {"copy", "toy-en-fr", "toy-en-zh", "reverse"}) {
        INFO(name);
        int longest = 0;
        for (const auto& p : make(name, 300, 1, 60).pairs) {
            const int n = static_cast<int>(splitSpaces(p.source).size());
            CHECK(n <= 60);
            longest = std::max(longest, n);
        }
        CHECK(longest >= 50);
    }
    // The bottleneck experiment fixes one length by giving minLen == maxLen.
    for (const std::string name : {"copy", "toy-en-fr", "toy-en-zh"}) {
        for (const auto& p : make(name, 100, 3, 40, 40).pairs) CHECK(splitSpaces(p.source).size() == 40);
        for (const auto& p : make(name, 50, 3, 200, 200).pairs) CHECK(splitSpaces(p.source).size() == 200);
    }
}

TEST_CASE("unknown datasets and out-of-range options are ConfigErrors", "[datasets]") {
    CHECK_THROWS_AS(make("klingon", 10), ConfigError);
    CHECK_THROWS_WITH(make("klingon", 10),
                      Catch::Matchers::Contains("klingon") && Catch::Matchers::Contains("toy-en-zh") &&
                          Catch::Matchers::Contains("copy"));
    CHECK_THROWS_AS(make("", 10), ConfigError);
    for (const auto& name : kNames) {
        INFO(name);
        CHECK_THROWS_AS(make(name, 0), ConfigError);
        CHECK_THROWS_AS(make(name, 1000001), ConfigError);
        CHECK_THROWS_AS(make(name, 10, 1, 201), ConfigError);
        CHECK_THROWS_AS(make(name, 10, 1, -1), ConfigError);
        CHECK_THROWS_AS(make(name, 10, 1, 0, -3), ConfigError);
        CHECK_THROWS_AS(make(name, 10, 1, 5, 6), ConfigError);
        CHECK(make(name, 1).pairs.size() == 1);
    }
    // Below what a grammar can say: a clause needs a subject and a verb.
    CHECK_THROWS_AS(make("toy-en-fr", 10, 1, 1), ConfigError);
    CHECK(make("toy-en-fr", 10, 1, 2).pairs.size() == 10);
    // A max length below the default min length lowers the min instead of failing.
    for (const auto& p : make("copy", 50, 1, 2).pairs) CHECK(splitSpaces(p.source).size() <= 2);
}

}  // namespace
