#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "base/translation/Alignments.h"
#include "base/InputError.h"
#include "base/analysis/Metrics.h"
#include "TempDir.h"

namespace {

namespace fs = std::filesystem;
using attnlab::AlignmentLink;
using attnlab::AlignmentScore;
using attnlab::AttentionMap;
using attnlab::InputError;
using attnlab::SentenceAlignment;
using Catch::Matchers::WithinAbs;
using Lengths = std::vector<std::pair<int, int>>;
using Links = std::vector<AlignmentLink>;

using attnlab::test::TempDir;

// What readPharaoh threw: the kind, and for an InputError its file, line and message.
struct Thrown {
    std::string kind = "nothing";
    std::string file;
    long line = -1;
    std::string what;
};

Thrown thrownBy(const std::function<void()>& f) {
    Thrown t;
    try {
        f();
    } catch (const InputError& e) {
        t.kind = "InputError";
        t.file = e.file();
        t.line = e.line();
        t.what = e.what();
    } catch (const std::exception& e) {
        t.kind = "other exception";
        t.what = e.what();
    }
    return t;
}

// Writes `content` to a file, reads it against `lengths` and checks that the error is an
// InputError for that file at `line` whose message is exactly "FILE:LINE: reason".
void checkRefused(const std::string& content, const Lengths& lengths, long line, const std::string& reason) {
    TempDir dir;
    const std::string path = dir.file("bad.align", content);
    const Thrown t = thrownBy([&] { attnlab::readPharaoh(path, lengths); });
    INFO("content: " << content);
    CHECK(t.kind == "InputError");
    CHECK(t.file == path);
    CHECK(t.line == line);
    CHECK(t.what == path + ":" + std::to_string(line) + ": " + reason);
}

const char* const kBadToken = ": expected i-j (sure) or i?j (possible), where i and j are word indices from 0";

// ---------------------------------------------------------------------------------------------
// (a) Reading valid files

TEST_CASE("Pharaoh files are read with sure and possible links, a BOM, CRLF and empty lines", "[alignments]") {
    TempDir dir;
    // Line 1: a BOM, links out of order, a tab. Line 2: empty (no links). Line 3: "0?0" and "0-0"
    // (the same link as possible and as sure: sure), "1?0" twice (once). No final newline.
    const std::string path = dir.file("gold.align", "\xEF\xBB\xBF" "2-1 1?1\t0-0\r\n"
                                                    "\r\n"
                                                    "0?0  0-0 1?0 1?0 ");
    const std::vector<SentenceAlignment> a = attnlab::readPharaoh(path, {{3, 2}, {4, 4}, {2, 1}});
    REQUIRE(a.size() == 3);
    CHECK(a[0].sure == Links{{0, 0}, {2, 1}});
    CHECK(a[0].possible == Links{{1, 1}});
    CHECK(attnlab::allLinks(a[0]) == Links{{0, 0}, {1, 1}, {2, 1}});
    CHECK(a[1].sure.empty());
    CHECK(a[1].possible.empty());
    CHECK(a[2].sure == Links{{0, 0}});
    CHECK(a[2].possible == Links{{1, 0}});
}

TEST_CASE("A final newline ends the last line and adds no empty one", "[alignments]") {
    // fast_align's output: LF after every line, one empty line for a pair without links.
    std::vector<SentenceAlignment> a = attnlab::parsePharaoh("0-0 1-1\n\n1-0\n", "f.align", {{2, 2}, {1, 1}, {2, 1}});
    REQUIRE(a.size() == 3);
    CHECK(a[0].sure == Links{{0, 0}, {1, 1}});
    CHECK(a[1] == SentenceAlignment{});
    CHECK(a[2].sure == Links{{1, 0}});
    // The same without the final newline, and with CRLF.
    CHECK(attnlab::parsePharaoh("0-0 1-1\n\n1-0", "f.align", {{2, 2}, {1, 1}, {2, 1}}) == a);
    CHECK(attnlab::parsePharaoh("0-0 1-1\r\n\r\n1-0\r\n", "f.align", {{2, 2}, {1, 1}, {2, 1}}) == a);
    // "\n" is one pair without links; an empty file (or just a BOM) is no pairs at all.
    CHECK(attnlab::parsePharaoh("\n", "f.align", {{3, 3}}) == std::vector<SentenceAlignment>{{}});
    CHECK(attnlab::parsePharaoh("", "f.align", {}).empty());
    CHECK(attnlab::parsePharaoh("\xEF\xBB\xBF", "f.align", {}).empty());
    // Blank lines and surrounding white space are no links.
    CHECK(attnlab::parsePharaoh(" \t \n  2?2  \n", "f.align", {{1, 1}, {3, 3}}) ==
          std::vector<SentenceAlignment>{{}, {{}, {{2, 2}}}});
}

TEST_CASE("The largest index that fits an int parses, and leading zeros are digits", "[alignments]") {
    const SentenceAlignment a =
        attnlab::parsePharaohLine("2147483646-0 007?01", "f.align", 1, 2147483647, 2);
    CHECK(a.sure == Links{{2147483646, 0}});
    CHECK(a.possible == Links{{7, 1}});
}

// ---------------------------------------------------------------------------------------------
// (b) Every kind of bad file: an InputError naming the file and the 1-based line

TEST_CASE("Tokens that are not i-j or i?j are refused at their line", "[alignments]") {
    const Lengths three{{5, 5}, {5, 5}, {5, 5}};
    SECTION("junk") { checkRefused("0-0\nhello\n1-1\n", three, 2, std::string("bad link \"hello\"") + kBadToken); }
    SECTION("letters for numbers") { checkRefused("a-b\n\n\n", three, 1, std::string("bad link \"a-b\"") + kBadToken); }
    SECTION("a negative source index") {
        checkRefused("\n\n0-0 -1-2\n", three, 3, "bad link \"-1-2\": word indices cannot be negative");
    }
    SECTION("a negative target index") {
        checkRefused("\n1--2\n\n", three, 2, "bad link \"1--2\": word indices cannot be negative");
        checkRefused("\n1?-2\n\n", three, 2, "bad link \"1?-2\": word indices cannot be negative");
    }
    SECTION("a missing target") { checkRefused("1-\n\n\n", three, 1, std::string("bad link \"1-\"") + kBadToken); }
    SECTION("a missing source") { checkRefused("\n?2\n\n", three, 2, std::string("bad link \"?2\"") + kBadToken); }
    SECTION("a missing separator") { checkRefused("\n\n12\n", three, 3, std::string("bad link \"12\"") + kBadToken); }
    SECTION("a lone separator") { checkRefused("0-0 -\n\n\n", three, 1, std::string("bad link \"-\"") + kBadToken); }
    SECTION("another separator") {
        checkRefused("\n1:2\n\n", three, 2, std::string("bad link \"1:2\"") + kBadToken);
        checkRefused("\n1=2\n\n", three, 2, std::string("bad link \"1=2\"") + kBadToken);
    }
    SECTION("trailing characters") {
        checkRefused("\n0-0 1-2x\n\n", three, 2, std::string("bad link \"1-2x\"") + kBadToken);
        checkRefused("\n\n1-2-3\n", three, 3, std::string("bad link \"1-2-3\"") + kBadToken);
        checkRefused("1-2,\n\n\n", three, 1, std::string("bad link \"1-2,\"") + kBadToken);
    }
    SECTION("a sign") { checkRefused("+1-2\n\n\n", three, 1, std::string("bad link \"+1-2\"") + kBadToken); }
    SECTION("a decimal point") {
        checkRefused("\n1.0-2\n\n", three, 2, std::string("bad link \"1.0-2\"") + kBadToken);
    }
    SECTION("non-ASCII digits and control bytes are shown escaped") {
        // Full-width "１-２" (U+FF11, U+FF12) and a NUL byte.
        checkRefused("\n\xEF\xBC\x91-\xEF\xBC\x92\n\n", three, 2,
                     std::string("bad link \"\\xEF\\xBC\\x91-\\xEF\\xBC\\x92\"") + kBadToken);
        checkRefused(std::string("\n\n1-\0", 5) + "2\n", three, 3, std::string("bad link \"1-\\x002\"") + kBadToken);
    }
    SECTION("a long token is cut in the message") {
        checkRefused(std::string(50, 'x') + "\n\n\n", three, 1,
                     "bad link \"" + std::string(40, 'x') + "...\"" + kBadToken);
    }
    SECTION("numbers too large to parse") {
        checkRefused("\n\n2147483648-0\n", three, 3, "bad link \"2147483648-0\": word index 2147483648 is too large");
        checkRefused("\n0?99999999999999999999999\n\n", three, 2,
                     "bad link \"0?99999999999999999999999\": word index 99999999999999999999999 is too large");
    }
    SECTION("a carriage return inside a line") {
        checkRefused("0-0\r1-1\n\n\n", three, 1,
                     "carriage return inside the line at byte 4 (only LF or CRLF line ends are supported)");
    }
}

TEST_CASE("Links past the end of their sentence are refused at their line", "[alignments]") {
    // Pair 2 has 5 source words (0..4) and 3 target words (0..2).
    const Lengths lengths{{8, 8}, {5, 3}, {8, 8}};
    SECTION("source") {
        checkRefused("7-7\n0-0 7-2\n\n", lengths, 2,
                     "link \"7-2\": source word 7 is past the end of the sentence (5 words)");
    }
    SECTION("source, one past the end (1-based indices?)") {
        checkRefused("\n5?0\n\n", lengths, 2,
                     "link \"5?0\": source word 5 is past the end of the sentence (5 words); word indices start at 0");
    }
    SECTION("target") {
        checkRefused("\n4-2 4-3\n\n", lengths, 2,
                     "link \"4-3\": target word 3 is past the end of the sentence (3 words); word indices start at 0");
        checkRefused("\n4?9\n\n", lengths, 2,
                     "link \"4?9\": target word 9 is past the end of the sentence (3 words)");
    }
    SECTION("a sentence of one word, and of none") {
        checkRefused("0-0 0-1\n", {{1, 1}}, 1,
                     "link \"0-1\": target word 1 is past the end of the sentence (1 word); word indices start at 0");
        checkRefused("0-0\n", {{0, 4}}, 1, "link \"0-0\": source word 0 is past the end of the sentence (0 words)");
    }
    SECTION("the largest int") {
        checkRefused("\n2147483647-0\n\n", lengths, 2,
                     "link \"2147483647-0\": source word 2147483647 is past the end of the sentence (5 words)");
    }
}

TEST_CASE("A file whose line count differs from the corpus's pair count is refused", "[alignments]") {
    const Lengths three{{5, 5}, {5, 5}, {5, 5}};
    SECTION("too many lines: reported at the first extra one") {
        checkRefused("0-0\n1-1\n2-2\n3-3\n", three, 4,
                     "extra line: the file has 4 lines but the corpus has 3 sentence pairs");
        checkRefused("0-0\n", {}, 1, "extra line: the file has 1 line but the corpus has 0 sentence pairs");
    }
    SECTION("an empty line after the last one is a line too") {
        checkRefused("0-0\n1-1\n2-2\n\n", three, 4,
                     "extra line: the file has 4 lines but the corpus has 3 sentence pairs");
        checkRefused("0-0\r\n1-1\r\n2-2\r\n\r\n", three, 4,
                     "extra line: the file has 4 lines but the corpus has 3 sentence pairs");
    }
    SECTION("too few lines: reported at the line after the last") {
        checkRefused("0-0\n1-1\n", three, 3, "line missing: the file has 2 lines but the corpus has 3 sentence pairs");
        checkRefused("0-0", three, 2, "line missing: the file has 1 line but the corpus has 3 sentence pairs");
        checkRefused("", {{5, 5}}, 1, "line missing: the file has 0 lines but the corpus has 1 sentence pair");
        checkRefused("\xEF\xBB\xBF", {{5, 5}}, 1,
                     "line missing: the file has 0 lines but the corpus has 1 sentence pair");
    }
    SECTION("the count is checked before the links") {
        checkRefused("junk\n", three, 2, "line missing: the file has 1 line but the corpus has 3 sentence pairs");
    }
}

TEST_CASE("UTF-16 and gzip files are refused with a hint", "[alignments]") {
    checkRefused("\xFF\xFE" "0", {{1, 1}}, 1,
                 "looks like UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8");
    checkRefused("\x1F\x8B\x08", {{1, 1}}, 1, "looks gzip-compressed; decompress it first");
}

TEST_CASE("Missing, directory and too large alignment files are input errors", "[alignments]") {
    TempDir dir;
    const std::string missing = dir / "nope.align";
    Thrown t = thrownBy([&] { attnlab::readPharaoh(missing, {{1, 1}}); });
    CHECK(t.kind == "InputError");
    CHECK(t.file == missing);
    CHECK(t.what == missing + ": no such file");

    t = thrownBy([&] { attnlab::readPharaoh(dir.path.string(), {{1, 1}}); });
    CHECK(t.kind == "InputError");
    CHECK(t.what == dir.path.string() + ": is a directory");

    // A sparse file one byte over the limit: refused from its size, before anything is read.
    const std::string huge = dir.file("huge.align", "");
    std::error_code ec;
    fs::resize_file(huge, attnlab::kMaxCorpusFileBytes + 1, ec);
    if (!ec) {
        t = thrownBy([&] { attnlab::readPharaoh(huge, {{1, 1}}); });
        CHECK(t.kind == "InputError");
        CHECK(t.file == huge);
        CHECK(t.line == 0);
        CHECK(t.what == huge + ": file is too large (513 MiB; the limit is 512 MiB)");
    }
}

// ---------------------------------------------------------------------------------------------
// (c) Precision, recall and AER with possible links, by hand

TEST_CASE("Precision, recall and AER with sure and possible links, summed over the corpus", "[alignments]") {
    // Sentence 1 (3 source x 3 target words), gold "0-0 1-2 1?1 2?1":
    //   S1 = {0-0, 1-2}                      |S1| = 2
    //   P1 = {0-0, 1-2, 1-1, 2-1}            |P1| = 4
    //   A1 = {0-0, 1-1, 2-2} (0-0 given twice, counted once)   |A1| = 3
    //   A1∩S1 = {0-0}        -> 1;   A1∩P1 = {0-0, 1-1} -> 2
    // Sentence 2 (2 source x 3 target words), gold "0-1 1?0 1?2 0?1" (0-1 sure and possible: sure):
    //   S2 = {0-1}                           |S2| = 1
    //   P2 = {0-1, 1-0, 1-2}                 |P2| = 3
    //   A2 = {0-1, 1-2}                      |A2| = 2
    //   A2∩S2 = {0-1}        -> 1;   A2∩P2 = {0-1, 1-2} -> 2
    // ParallelCorpus: |A| = 5, |S| = 3, |P| = 7, |A∩S| = 2, |A∩P| = 4
    //   precision = |A∩P| / |A| = 4/5
    //   recall    = |A∩S| / |S| = 2/3
    //   AER       = 1 - (|A∩S| + |A∩P|) / (|A| + |S|) = 1 - (2 + 4) / (5 + 3) = 1 - 6/8 = 1/4
    // (Averaging per sentence would give a different AER: (1 - 3/5 + 1 - 3/3) / 2 = 1/5.)
    TempDir dir;
    const std::string goldPath = dir.file("gold.align", "0-0 1-2 1?1 2?1\n0-1 1?0 1?2 0?1\n");
    const std::vector<SentenceAlignment> gold = attnlab::readPharaoh(goldPath, {{3, 3}, {2, 3}});
    REQUIRE(gold.size() == 2);
    CHECK(gold[1].sure == Links{{0, 1}});
    CHECK(gold[1].possible == Links{{1, 0}, {1, 2}});

    const std::vector<Links> predicted{{{0, 0}, {1, 1}, {2, 2}, {0, 0}}, {{1, 2}, {0, 1}}};
    const AlignmentScore score = attnlab::scoreAlignments(predicted, gold);
    CHECK(score.predicted == 5);
    CHECK(score.sure == 3);
    CHECK(score.possible == 7);
    CHECK(score.sureHits == 2);
    CHECK(score.possibleHits == 4);
    CHECK_THAT(score.precision, WithinAbs(4.0 / 5.0, 1e-12));
    CHECK_THAT(score.recall, WithinAbs(2.0 / 3.0, 1e-12));
    CHECK_THAT(score.aer, WithinAbs(1.0 / 4.0, 1e-12));

    // The same prediction read from a Pharaoh file (an aligner's "?" links count as predicted too).
    const std::string predictedPath = dir.file("fast_align.out", "0-0 1?1 2-2\n1-2 0-1\n");
    std::vector<Links> read;
    for (const SentenceAlignment& a : attnlab::readPharaoh(predictedPath, {{3, 3}, {2, 3}}))
        read.push_back(attnlab::allLinks(a));
    const AlignmentScore fromFile = attnlab::scoreAlignments(read, gold);
    CHECK_THAT(fromFile.aer, WithinAbs(1.0 / 4.0, 1e-12));
    CHECK(fromFile.predicted == 5);
}

TEST_CASE("Alignment scores of empty link sets are defined by convention", "[alignments]") {
    const SentenceAlignment gold{{{0, 0}, {1, 1}}, {{1, 0}}};
    SECTION("nothing predicted: precision 1, recall 0, AER 1") {
        const AlignmentScore s = attnlab::scoreAlignments({{}}, {gold});
        CHECK(s.precision == 1.0);
        CHECK(s.recall == 0.0);
        CHECK(s.aer == 1.0);
        CHECK(s.predicted == 0);
        CHECK(s.sure == 2);
        CHECK(s.possible == 3);
    }
    SECTION("no sure gold link: recall 1, AER = 1 - precision") {
        // A = {0-0, 1-0, 1-1}, S = {}, P = {1-0}: precision 1/3, AER = 1 - (0 + 1) / (3 + 0) = 2/3.
        const AlignmentScore s = attnlab::scoreAlignments({{{0, 0}, {1, 0}, {1, 1}}}, {SentenceAlignment{{}, {{1, 0}}}});
        CHECK(s.recall == 1.0);
        CHECK_THAT(s.precision, WithinAbs(1.0 / 3.0, 1e-12));
        CHECK_THAT(s.aer, WithinAbs(2.0 / 3.0, 1e-12));
    }
    SECTION("nothing predicted and nothing sure: precision 1, recall 1, AER 0") {
        const AlignmentScore s = attnlab::scoreAlignments({{}, {}}, {SentenceAlignment{{}, {{1, 0}}}, {}});
        CHECK(s.precision == 1.0);
        CHECK(s.recall == 1.0);
        CHECK(s.aer == 0.0);
        CHECK(s.possible == 1);
        const AlignmentScore none = attnlab::scoreAlignments({}, {});
        CHECK(none.precision == 1.0);
        CHECK(none.recall == 1.0);
        CHECK(none.aer == 0.0);
    }
    SECTION("a perfect prediction of the sure links") {
        const AlignmentScore s = attnlab::scoreAlignments({{{1, 1}, {0, 0}}}, {gold});
        CHECK(s.precision == 1.0);
        CHECK(s.recall == 1.0);
        CHECK(s.aer == 0.0);
    }
    SECTION("predicted links outside the sentence match nothing") {
        const AlignmentScore s = attnlab::scoreAlignments({{{0, 0}, {1, 1}, {-1, 7}, {9, 9}}}, {gold});
        CHECK_THAT(s.precision, WithinAbs(0.5, 1e-12));
        CHECK(s.recall == 1.0);
        CHECK_THAT(s.aer, WithinAbs(1.0 - 4.0 / 6.0, 1e-12));
    }
    SECTION("the lists must be the same size") {
        CHECK_THROWS_AS(attnlab::scoreAlignments({{}, {}}, {gold}), std::invalid_argument);
    }
}

// ---------------------------------------------------------------------------------------------
// (d) Without possible links, the same AER as Metrics' alignmentErrorRate

// The links alignmentErrorRate predicts: for each target row < rowLimit, the column < colLimit
// with most weight (the first on ties) as the source word.
Links handArgmaxLinks(const AttentionMap& map, int rowLimit, int colLimit) {
    Links links;
    for (int r = 0; r < rowLimit; ++r) {
        int best = -1;
        float bestWeight = -std::numeric_limits<float>::infinity();
        for (int c = 0; c < colLimit; ++c)
            if (map.at(r, c) > bestWeight) {
                best = c;
                bestWeight = map.at(r, c);
            }
        if (best >= 0) links.push_back({best, r});
    }
    return links;
}

TEST_CASE("With sure links only, the AER is the one alignmentErrorRate computes", "[alignments]") {
    SECTION("the map of test_metrics") {
        const AttentionMap map{3, 4, {0.7f, 0.1f, 0.1f, 0.1f, 0.1f, 0.2f, 0.3f, 0.4f, 0.0f, 0.0f, 0.0f, 1.0f}};
        // A = {s0-t0, s2-t1} over rows < 2 and columns < 3.
        for (const Links& gold : {Links{{0, 0}, {1, 1}}, Links{{0, 0}, {1, 1}, {2, 1}}, Links{{0, 0}, {2, 1}},
                                  Links{{1, 1}}, Links{}}) {
            const AlignmentScore s =
                attnlab::scoreAlignments({handArgmaxLinks(map, 2, 3)}, {SentenceAlignment{gold, {}}});
            CHECK_THAT(s.aer, WithinAbs(attnlab::alignmentErrorRate(map, gold, 2, 3), 1e-12));
        }
        CHECK_THAT(attnlab::scoreAlignments({handArgmaxLinks(map, 2, 3)}, {SentenceAlignment{{{0, 0}, {1, 1}}, {}}}).aer,
                   WithinAbs(0.5, 1e-12));
    }
    SECTION("random maps and gold, per sentence and summed over the corpus") {
        std::mt19937 rng(20261201);
        std::uniform_int_distribution<int> dim(1, 7);
        std::uniform_real_distribution<float> weight(0.0f, 1.0f);
        std::vector<Links> predicted;
        std::vector<SentenceAlignment> gold;
        std::size_t hits = 0, total = 0;  // for 1 - 2 sum|A∩S| / sum(|A| + |S|)
        for (int trial = 0; trial < 200; ++trial) {
            AttentionMap map;
            map.rows = dim(rng);
            map.cols = dim(rng);
            for (int i = 0; i < map.rows * map.cols; ++i) map.weights.push_back(weight(rng));
            const int rowLimit = std::uniform_int_distribution<int>(1, map.rows)(rng);
            const int colLimit = std::uniform_int_distribution<int>(1, map.cols)(rng);
            Links sure;
            const int goldLinks = std::uniform_int_distribution<int>(0, 6)(rng);
            for (int k = 0; k < goldLinks; ++k)
                sure.push_back({std::uniform_int_distribution<int>(0, colLimit - 1)(rng),
                                std::uniform_int_distribution<int>(0, rowLimit - 1)(rng)});
            const Links a = handArgmaxLinks(map, rowLimit, colLimit);
            const AlignmentScore s = attnlab::scoreAlignments({a}, {SentenceAlignment{sure, {}}});
            INFO("trial " << trial);
            CHECK_THAT(s.aer, WithinAbs(attnlab::alignmentErrorRate(map, sure, rowLimit, colLimit), 1e-12));
            CHECK(s.possible == s.sure);
            CHECK(s.possibleHits == s.sureHits);
            hits += s.sureHits;
            total += s.predicted + s.sure;
            predicted.push_back(a);
            gold.push_back(SentenceAlignment{sure, {}});
        }
        const AlignmentScore corpus = attnlab::scoreAlignments(predicted, gold);
        REQUIRE(total > 0);
        CHECK_THAT(corpus.aer, WithinAbs(1.0 - 2.0 * static_cast<double>(hits) / static_cast<double>(total), 1e-12));
    }
}

}  // namespace
