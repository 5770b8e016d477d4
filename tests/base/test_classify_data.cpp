#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/text/ClassifyCorpus.h"
#include "Words.h"
#include "base/text/ClassifyDatasets.h"
#include "base/translation/ParallelCorpus.h"  // kMaxLineBytes
#include "base/InputError.h"
#include "base/Tokenizer.h"
#include "InputErrors.h"
#include "TempDir.h"

using namespace attnlab;

namespace {

using attnlab::test::TempDir;

using attnlab::test::inputErrorOf;

std::string classifyParseError(const std::string& text) {
    return inputErrorOf([&] { parseClassificationTsv(text, "c.tsv"); });
}

using test::splitSpaces;

bool isNegator(const std::string& w) { return w == "not" || w == "never"; }

// ---------------------------------------------------------------- the TSV reader

TEST_CASE("Classification TSV: trimmed texts and labels, line numbers, sorted labels", "[classify]") {
    const ClassificationCorpus c =
        parseClassificationTsv("  a fine film \tpos\nawful\t neg \n\ndull\tneg\u3000\n", "c.tsv");
    CHECK(c.name == "c.tsv");
    REQUIRE(c.examples.size() == 3);
    CHECK(c.examples[0].text == "a fine film");
    CHECK(c.examples[0].label == "pos");
    CHECK(c.examples[0].line == 1);
    CHECK(c.examples[0].rationale.empty());
    CHECK(c.examples[1].label == "neg");
    CHECK(c.examples[2].line == 4);
    CHECK(c.examples[2].label == "neg");
    CHECK(c.labels == std::vector<std::string>{"neg", "pos"});
    CHECK(c.skippedLines == 1);
    CHECK(c.warnings.empty());
    CHECK_FALSE(c.hasRationales);
    CHECK(labelIndex(c, "neg") == 0);
    CHECK(labelIndex(c, "pos") == 1);
    CHECK(labelIndex(c, "neutral") == -1);
}

TEST_CASE("Classification TSV: BOM, CRLF, a missing final newline and any label strings", "[classify]") {
    const ClassificationCorpus c =
        parseClassificationTsv("\xEF\xBB\xBF\u597D\u7535\u5F71\t\u6B63\u9762\r\nbad\t2 stars\r\nok\t\u6B63\u9762", "c.tsv");
    REQUIRE(c.examples.size() == 3);
    CHECK(c.examples[0].text == "\u597D\u7535\u5F71");
    CHECK(c.examples[1].label == "2 stars");
    CHECK(c.examples[2].text == "ok");
    CHECK(c.labels == std::vector<std::string>{"2 stars", "\u6B63\u9762"});
}

TEST_CASE("Classification TSV: extra columns are ignored with one warning, as for translation corpora", "[classify]") {
    const ClassificationCorpus c = parseClassificationTsv("a\tx\tid1\nb\ty\nc\ty\t3\tCC-BY\n", "c.tsv");
    REQUIRE(c.examples.size() == 3);
    CHECK(c.examples[0].label == "x");
    CHECK(c.examples[2].label == "y");
    REQUIRE(c.warnings.size() == 1);
    CHECK(c.warnings[0] == "c.tsv:1: extra columns ignored (3 found); 2 lines have extra columns");
}

TEST_CASE("Classification TSV: bad lines are refused with file and line", "[classify]") {
    CHECK(classifyParseError("a\tx\nno tab here\nb\ty\n") == "c.tsv:2: no tab between text and label");
    CHECK(classifyParseError("a\tx\nb\t  \nc\ty\n") == "c.tsv:2: empty label");
    CHECK(classifyParseError("a\tx\n \ty\n") == "c.tsv:2: empty text");
    CHECK(classifyParseError("a\tx\nb\ty\xFF\n") == "c.tsv:2: invalid UTF-8 at byte 4 (0xFF); the file must be UTF-8");
    CHECK(classifyParseError(std::string("a\tx\nb\t\0y\n", 9)) == "c.tsv:2: NUL byte at byte 3 (is this a binary file?)");
    CHECK(classifyParseError("a\tx\rb\ty\n") ==
          "c.tsv:1: carriage return inside the line at byte 4 (only LF or CRLF line ends are supported)");
    CHECK(classifyParseError("\xFF\xFE" "a\0\t\0x\0") ==
          "c.tsv:1: looks like UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8");
    const std::string longLine = std::string(kMaxLineBytes - 1, 'a') + "\tx";
    CHECK(classifyParseError("b\ty\n" + longLine + "\n") == "c.tsv:2: line is longer than 64 KiB (65537 bytes)");
    CHECK(parseClassificationTsv("b\ty\n" + longLine.substr(1) + "\n", "c.tsv").examples.size() == 2);
}

TEST_CASE("Classification TSV: a file is refused for no example, one class, or too many labels", "[classify]") {
    CHECK(classifyParseError("") == "c.tsv: no labelled text (no text)");
    CHECK(classifyParseError("\n \n") == "c.tsv: no labelled text (all 2 lines are blank)");
    CHECK(classifyParseError("a\tspam\nb\tspam\n") == "c.tsv: only one class 'spam'; a classification corpus needs two or more");
    CHECK(classifyParseError("a\t" + std::string(50, 'z') + "\n") ==
          "c.tsv: only one class '" + std::string(40, 'z') + "...'; a classification corpus needs two or more");

    std::string many;
    for (std::size_t i = 0; i < kMaxClassLabels; ++i) many += "text " + std::to_string(i) + "\tlabel" + std::to_string(i) + "\n";
    CHECK(parseClassificationTsv(many, "c.tsv").labels.size() == kMaxClassLabels);  // exactly the limit: read
    // A translation corpus opened as a classification one: every "label" is a sentence.
    CHECK(classifyParseError(many + "one more\tlabel1000\n") == "c.tsv: 1001 distinct labels: not a classification corpus?");
}

TEST_CASE("Classification TSV files: read, written back, and a missing file named", "[classify]") {
    TempDir dir;
    const std::string path = dir.file("reviews.tsv", "great\tpos\r\nbad\tneg\r\n");
    const ClassificationCorpus c = readClassificationTsv(path);
    CHECK(c.name == path);
    REQUIRE(c.examples.size() == 2);

    const std::string out = dir / "out.tsv";
    writeClassificationTsv(c, out);
    const ClassificationCorpus again = readClassificationTsv(out);
    REQUIRE(again.examples.size() == 2);
    CHECK(again.examples[0].text == "great");
    CHECK(again.examples[1].label == "neg");

    ClassificationCorpus bad = c;
    bad.examples[1].text = "two\tcolumns";
    CHECK_THROWS_WITH(writeClassificationTsv(bad, out), Catch::Matchers::Contains("example 2 contains a tab"));

    CHECK(inputErrorOf([&] { readClassificationTsv(dir / "missing.tsv"); }) == dir / "missing.tsv" + ": no such file");
}

// ---------------------------------------------------------------- the split

ClassificationCorpus corpusWith(const std::map<std::string, int>& counts) {
    ClassificationCorpus c;
    for (const auto& [label, n] : counts)
        for (int i = 0; i < n; ++i) c.examples.push_back({label + " " + std::to_string(i), label, {}, 0});
    // Interleave so that indices do not follow the labels.
    std::vector<LabeledText> mixed;
    for (std::size_t stride = 0; stride < 7; ++stride)
        for (std::size_t i = stride; i < c.examples.size(); i += 7) mixed.push_back(c.examples[i]);
    c.examples = mixed;
    c.labels = distinctLabels(c.examples);
    return c;
}

std::map<std::string, int> labelCounts(const ClassificationCorpus& c, const std::vector<std::size_t>& indices) {
    std::map<std::string, int> counts;
    for (std::size_t i : indices) ++counts[c.examples[i].label];
    return counts;
}

TEST_CASE("The classification split is stratified, complete and a function of the seed", "[classify]") {
    const ClassificationCorpus c = corpusWith({{"a", 600}, {"b", 300}, {"c", 100}});
    const Split s = splitClassification(c, 0.1, 42);
    CHECK(s.validation.size() == 100);
    CHECK(s.train.size() == 900);
    CHECK(labelCounts(c, s.validation) == std::map<std::string, int>{{"a", 60}, {"b", 30}, {"c", 10}});
    std::set<std::size_t> all(s.train.begin(), s.train.end());
    for (std::size_t i : s.validation) CHECK(all.insert(i).second);
    CHECK(all.size() == 1000);
    CHECK(std::is_sorted(s.train.begin(), s.train.end()));
    CHECK(std::is_sorted(s.validation.begin(), s.validation.end()));

    const Split same = splitClassification(c, 0.1, 42), other = splitClassification(c, 0.1, 43);
    CHECK(same.validation == s.validation);
    CHECK(same.train == s.train);
    CHECK(other.validation != s.validation);
    CHECK(labelCounts(c, other.validation) == labelCounts(c, s.validation));
}

TEST_CASE("The classification split shares remainders fairly and keeps every class in training", "[classify]") {
    // 10% of 35 is 3.5 -> 4, shared 1.6/1.6/0.8: 1, 1, 0 by floor, then one more each to the largest
    // remainders, c's 0.8 and (a tie with b, to the earlier label) a's 0.6.
    const ClassificationCorpus c = corpusWith({{"a", 14}, {"b", 14}, {"c", 7}});
    const Split s = splitClassification(c, 0.1, 1);
    CHECK(s.validation.size() == 4);
    CHECK(labelCounts(c, s.validation) == std::map<std::string, int>{{"a", 2}, {"b", 1}, {"c", 1}});

    // A class of one is never validated; validation still gets its share from the others.
    const ClassificationCorpus rare = corpusWith({{"big", 9}, {"one", 1}});
    const Split r = splitClassification(rare, 0.5, 1);
    CHECK(r.validation.size() == 5);
    CHECK(labelCounts(rare, r.validation) == std::map<std::string, int>{{"big", 5}});
    CHECK(labelCounts(rare, r.train).at("one") == 1);

    // Everything asked for: every class keeps one training example.
    const Split all = splitClassification(rare, 1.0, 1);
    CHECK(labelCounts(rare, all.train) == std::map<std::string, int>{{"big", 1}, {"one", 1}});
    CHECK(splitClassification(rare, 0.0, 1).validation.empty());
    CHECK(splitClassification(corpusWith({{"a", 1}, {"b", 1}}), 0.01, 1).validation.empty());  // each has one
    CHECK_THROWS_AS(splitClassification(rare, -0.1, 1), ConfigError);
    CHECK_THROWS_AS(splitClassification(rare, 1.5, 1), ConfigError);
}

// ---------------------------------------------------------------- built-in datasets

TEST_CASE("classificationDatasets lists sentiment, topic and needle", "[classify]") {
    const auto& infos = classificationDatasets();
    REQUIRE(infos.size() == 3);
    CHECK(infos[0].name == "sentiment");
    CHECK(infos[1].name == "topic");
    CHECK(infos[2].name == "needle");
    for (const auto& info : infos) {
        CHECK_FALSE(info.description.empty());
        CHECK(info.description.find('\n') == std::string::npos);
        CHECK(findClassificationDataset(info.name) == &info);
    }
    CHECK(infos[2].defaultLength == 50);
    CHECK(findClassificationDataset("mnist") == nullptr);
}

TEST_CASE("Every classification dataset is seeded, balanced, tokenized and has its rationales", "[classify]") {
    for (const auto& info : classificationDatasets()) {
        DYNAMIC_SECTION(info.name) {
            const ClassificationCorpus a = makeClassificationDataset(info.name, 401, 7);
            CHECK(a.name == info.name);
            CHECK(a.hasRationales);
            REQUIRE(a.examples.size() == 401);
            CHECK(a.labels == distinctLabels(a.examples));

            const ClassificationCorpus same = makeClassificationDataset(info.name, 401, 7);
            const ClassificationCorpus other = makeClassificationDataset(info.name, 401, 8);
            bool identical = true, differs = false;
            for (std::size_t i = 0; i < a.examples.size(); ++i) {
                identical = identical && a.examples[i].text == same.examples[i].text &&
                            a.examples[i].label == same.examples[i].label &&
                            a.examples[i].rationale == same.examples[i].rationale;
                differs = differs || a.examples[i].text != other.examples[i].text;
            }
            CHECK(identical);
            CHECK(differs);

            // Balanced: each run of K examples holds every one of the K classes once.
            std::map<std::string, int> counts;
            for (const auto& e : a.examples) ++counts[e.label];
            const std::size_t k = a.labels.size();
            CHECK(k >= 2);
            for (const auto& [label, n] : counts) {
                CHECK(n >= static_cast<int>(401 / k));
                CHECK(n <= static_cast<int>(401 / k + 1));
            }
            std::set<std::string> firstRound;
            for (std::size_t i = 0; i < k; ++i) firstRound.insert(a.examples[i].label);
            CHECK(firstRound.size() == k);

            std::set<std::string> distinct;
            const Tokenizer tokenizer;  // the default options
            for (const auto& e : a.examples) {
                INFO(e.text);
                distinct.insert(e.text);
                // Word i is token i: lower-case ASCII words, single spaces, nothing the tokenizer splits.
                const std::vector<std::string> words = splitSpaces(e.text);
                CHECK(tokenizer.tokenize(e.text) == words);
                for (const auto& w : words) CHECK(std::all_of(w.begin(), w.end(), [](char ch) { return ch >= 'a' && ch <= 'z'; }));
                REQUIRE_FALSE(e.rationale.empty());
                CHECK(std::is_sorted(e.rationale.begin(), e.rationale.end()));
                CHECK(std::set<int>(e.rationale.begin(), e.rationale.end()).size() == e.rationale.size());
                CHECK(e.rationale.front() >= 0);
                CHECK(e.rationale.back() < static_cast<int>(words.size()));
                CHECK(e.line == 0);
            }
            CHECK(distinct.size() > 300);  // not a few texts repeated
        }
    }
}

TEST_CASE("sentiment: negation flips the adjective and the clause after but decides", "[classify]") {
    const ClassificationCorpus c = makeClassificationDataset("sentiment", 4000, 3);
    CHECK(c.labels == std::vector<std::string>{"negative", "positive"});

    // Each adjective has one polarity: the label, flipped when its negator is in the rationale.
    std::map<std::string, std::set<bool>> polarity;
    int negated = 0, contrast = 0, plainAdjectiveRight = 0, firstAdjectiveRight = 0;
    double fraction = 0;
    for (const auto& e : c.examples) {
        const std::vector<std::string> words = splitSpaces(e.text);
        INFO(e.text);
        CHECK(words.size() >= 6);
        CHECK(words.size() <= 20);
        fraction += static_cast<double>(e.rationale.size()) / static_cast<double>(words.size());
        REQUIRE(e.rationale.size() <= 2);
        const std::string& adjective = words[static_cast<std::size_t>(e.rationale.back())];
        CHECK_FALSE(isNegator(adjective));
        const bool isNegated = e.rationale.size() == 2;
        if (isNegated) {
            CHECK(isNegator(words[static_cast<std::size_t>(e.rationale.front())]));
            ++negated;
        }
        polarity[adjective].insert((e.label == "positive") != isNegated);

        const auto but = std::find(words.begin(), words.end(), "but");
        if (but != words.end()) {
            ++contrast;
            CHECK(e.rationale.front() > static_cast<int>(but - words.begin()));  // only the second clause decides
        }
    }
    for (const auto& [adjective, seen] : polarity) {
        INFO(adjective);
        CHECK(seen.size() == 1);
    }
    CHECK(polarity.size() >= 30);  // a varied vocabulary: ~15 adjectives of each polarity
    CHECK(negated > 600);
    CHECK(contrast > 900);
    fraction /= static_cast<double>(c.examples.size());
    CHECK(fraction > 0.10);
    CHECK(fraction < 0.20);

    // Learnable, but not by counting words: the polarity of the first adjective in the text
    // (ignoring negation and contrast) is wrong for a large share of the examples.
    for (const auto& e : c.examples) {
        const std::vector<std::string> words = splitSpaces(e.text);
        const std::string& deciding = words[static_cast<std::size_t>(e.rationale.back())];
        const bool positive = e.label == "positive";
        plainAdjectiveRight += (*polarity[deciding].begin() == positive);
        for (const auto& w : words) {
            if (polarity.count(w)) {
                firstAdjectiveRight += (*polarity[w].begin() == positive);
                break;
            }
        }
    }
    CHECK(plainAdjectiveRight < 3000);  // negation matters for over a quarter
    CHECK(firstAdjectiveRight < 2400);  // negation and contrast: the first adjective is a coin toss at best
}

TEST_CASE("sentiment: the clause before but says the opposite of the label", "[classify]") {
    const ClassificationCorpus c = makeClassificationDataset("sentiment", 2000, 5);
    std::map<std::string, bool> polarity;  // adjective -> positive, from the deciding clauses
    for (const auto& e : c.examples) {
        const auto words = splitSpaces(e.text);
        polarity[words[static_cast<std::size_t>(e.rationale.back())]] = (e.label == "positive") != (e.rationale.size() == 2);
    }
    int checked = 0;
    for (const auto& e : c.examples) {
        const auto words = splitSpaces(e.text);
        const auto but = std::find(words.begin(), words.end(), "but");
        if (but == words.end()) continue;
        bool negatedFirst = false, found = false, firstPositive = false;
        for (auto w = words.begin(); w != but; ++w) {
            if (isNegator(*w)) negatedFirst = true;
            if (polarity.count(*w)) {
                found = true;
                firstPositive = polarity[*w] != negatedFirst;
            }
        }
        if (!found) continue;  // an adjective seen only before "but" in this sample
        INFO(e.text);
        CHECK(firstPositive != (e.label == "positive"));
        ++checked;
    }
    CHECK(checked > 500);
}

TEST_CASE("topic: one or two keywords decide, the other words are shared by all topics", "[classify]") {
    const ClassificationCorpus c = makeClassificationDataset("topic", 4000, 11);
    CHECK(c.labels == std::vector<std::string>{"food", "music", "science", "sports"});
    std::map<std::string, std::set<std::string>> keywordLabels, otherLabels;
    for (const auto& e : c.examples) {
        const auto words = splitSpaces(e.text);
        CHECK(words.size() >= 8);
        CHECK(words.size() <= 16);
        CHECK(e.rationale.size() >= 1);
        CHECK(e.rationale.size() <= 2);
        const std::set<int> deciding(e.rationale.begin(), e.rationale.end());
        for (std::size_t i = 0; i < words.size(); ++i)
            (deciding.count(static_cast<int>(i)) ? keywordLabels : otherLabels)[words[i]].insert(e.label);
    }
    for (const auto& [keyword, labels] : keywordLabels) {
        INFO(keyword);
        CHECK(labels.size() == 1);                  // a keyword names one topic
        CHECK(otherLabels.count(keyword) == 0);     // and is never a distractor
    }
    CHECK(keywordLabels.size() >= 40);
    for (const auto& [word, labels] : otherLabels) {
        INFO(word);
        CHECK(labels.size() == 4);  // every distractor occurs in every topic
    }
}

TEST_CASE("needle: one keyword anywhere among noise words, length as asked", "[classify]") {
    for (int length : {5, 50, 200}) {
        const ClassificationCorpus c = makeClassificationDataset("needle", 2000, 2, length);
        std::map<std::string, std::set<std::string>> keywordLabels;
        std::set<std::string> noise;
        std::set<int> positions;
        for (const auto& e : c.examples) {
            const auto words = splitSpaces(e.text);
            REQUIRE(words.size() == static_cast<std::size_t>(length));
            REQUIRE(e.rationale.size() == 1);
            positions.insert(e.rationale[0]);
            keywordLabels[words[static_cast<std::size_t>(e.rationale[0])]].insert(e.label);
            for (std::size_t i = 0; i < words.size(); ++i)
                if (static_cast<int>(i) != e.rationale[0]) noise.insert(words[i]);
        }
        INFO("length " << length);
        CHECK(c.labels.size() == 4);
        CHECK(keywordLabels.size() == 8);  // 4 classes x 2 keywords
        for (const auto& [keyword, labels] : keywordLabels) {
            CHECK(labels.size() == 1);
            CHECK(noise.count(keyword) == 0);
        }
        CHECK(noise.size() >= 25);
        CHECK(noise.size() <= 35);
        // Uniform position: the first and last words are reached, and most positions are.
        CHECK(positions.count(0) == 1);
        CHECK(positions.count(length - 1) == 1);
        CHECK(static_cast<int>(positions.size()) > length * 9 / 10);
    }
    CHECK(splitSpaces(makeClassificationDataset("needle", 2, 1).examples[0].text).size() == 50);  // the default
}

TEST_CASE("A seed gives the same classification examples on every machine", "[classify]") {
    // mt19937_64 is fixed by the standard and the generators draw through their own helper,
    // so these hold with any standard library.
    const ClassificationCorpus needle = makeClassificationDataset("needle", 4, 1, 5);
    std::vector<std::string> texts;
    for (const auto& e : needle.examples) texts.push_back(e.label + ": " + e.text);
    CHECK(texts == std::vector<std::string>{"yellow: cup golden rope shoe rope", "blue: bag nail road road blue",
                                            "green: wind stone nail green nail", "red: rope brick crimson cup sand"});
}

TEST_CASE("Unknown classification datasets and out-of-range options are ConfigErrors", "[classify]") {
    CHECK_THROWS_AS(makeClassificationDataset("imdb", 10, 1), ConfigError);
    CHECK_THROWS_WITH(makeClassificationDataset("imdb", 10, 1),
                      "unknown classification dataset 'imdb' (valid: sentiment, topic, needle)");
    for (const auto& info : classificationDatasets()) {
        INFO(info.name);
        CHECK_THROWS_AS(makeClassificationDataset(info.name, 0, 1), ConfigError);
        CHECK_THROWS_AS(makeClassificationDataset(info.name, 1, 1), ConfigError);  // one example, one class
        CHECK_THROWS_AS(makeClassificationDataset(info.name, 1000001, 1), ConfigError);
        CHECK(makeClassificationDataset(info.name, 2, 1).labels.size() == 2);
    }
    CHECK_THROWS_WITH(makeClassificationDataset("needle", 10, 1, 4),
                      "needle length must be between 5 and 65536 words, got 4");
    CHECK_THROWS_AS(makeClassificationDataset("needle", 10, 1, 65537), ConfigError);
    CHECK_THROWS_AS(makeClassificationDataset("needle", 2000, 1, 65536), ConfigError);  // 131M words
    CHECK(makeClassificationDataset("needle", 4, 1, 4096).examples.front().rationale.size() == 1);
    CHECK_THROWS_AS(makeClassificationDataset("needle", 10, 1, -1), ConfigError);
    CHECK_THROWS_WITH(makeClassificationDataset("sentiment", 10, 1, 30),
                      "sentiment has no length setting (its texts have their own lengths), got 30");
    CHECK_THROWS_AS(makeClassificationDataset("topic", 10, 1, 50), ConfigError);
}

}  // namespace
