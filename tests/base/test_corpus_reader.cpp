#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>

#include "base/translation/ParallelCorpus.h"
#include "base/io/FileUtil.h"
#include "base/InputError.h"
#include "InputErrors.h"
#include "Skip.h"
#include "TempDir.h"

namespace {

namespace fs = std::filesystem;
using attnlab::ParallelCorpus;
using attnlab::InputError;

using attnlab::test::TempDir;

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

using attnlab::test::inputErrorOf;

std::string corpusParseError(const std::string& text) {
    return inputErrorOf([&] { attnlab::parseTsvCorpus(text, "c.tsv"); });
}

TEST_CASE("TSV pairs are read with trimmed sides and their line numbers", "[corpus]") {
    ParallelCorpus c = attnlab::parseTsvCorpus("hello\tbonjour\n  the cat \t le chat\u3000\n", "c.tsv");
    CHECK(c.name == "c.tsv");
    REQUIRE(c.pairs.size() == 2);
    CHECK(c.pairs[0].source == "hello");
    CHECK(c.pairs[0].target == "bonjour");
    CHECK(c.pairs[0].line == 1);
    CHECK(c.pairs[1].source == "the cat");
    CHECK(c.pairs[1].target == "le chat");
    CHECK(c.pairs[1].line == 2);
    CHECK(c.skipped.empty());
    CHECK(c.warnings.empty());
    CHECK_FALSE(c.hasAlignments);
}

TEST_CASE("A BOM, CRLF line ends and a missing final newline are accepted", "[corpus]") {
    ParallelCorpus c = attnlab::parseTsvCorpus("\xEF\xBB\xBFTom\t\u6C64\u59C6\r\nJerry\t\u6770\u745E", "c.tsv");
    REQUIRE(c.pairs.size() == 2);
    CHECK(c.pairs[0].source == "Tom");
    CHECK(c.pairs[0].target == "\u6C64\u59C6");
    CHECK(c.pairs[1].source == "Jerry");
    CHECK(c.pairs[1].target == "\u6770\u745E");
}

TEST_CASE("Extra columns are ignored with one warning naming the first line", "[corpus]") {
    ParallelCorpus c = attnlab::parseTsvCorpus("a\tb\nc\td\t1234\ne\tf\t5\tCC-BY\n", "c.tsv");
    REQUIRE(c.pairs.size() == 3);
    CHECK(c.pairs[1].target == "d");
    CHECK(c.pairs[2].target == "f");
    REQUIRE(c.warnings.size() == 1);
    CHECK(c.warnings[0] == "c.tsv:2: extra columns ignored (3 found); 2 lines have extra columns");

    ParallelCorpus single = attnlab::parseTsvCorpus("a\tb\tx\n", "s.tsv");
    REQUIRE(single.warnings.size() == 1);
    CHECK(single.warnings[0] == "s.tsv:1: extra columns ignored (3 found)");
}

TEST_CASE("Blank lines and pairs with an empty side are skipped and reported", "[corpus]") {
    ParallelCorpus c = attnlab::parseTsvCorpus("a\tb\n\n   \n\tonly target\nonly source\t  \nc\td\n", "c.tsv");
    REQUIRE(c.pairs.size() == 2);
    CHECK(c.pairs[1].line == 6);
    REQUIRE(c.skipped.size() == 4);
    CHECK(c.skipped[0].line == 2);
    CHECK(c.skipped[0].reason == "blank line");
    CHECK(c.skipped[1].line == 3);
    CHECK(c.skipped[1].reason == "blank line");
    CHECK(c.skipped[2].line == 4);
    CHECK(c.skipped[2].reason == "empty source");
    CHECK(c.skipped[3].line == 5);
    CHECK(c.skipped[3].reason == "empty target");
}

TEST_CASE("Malformed lines are reported with file and line", "[corpus]") {
    CHECK(corpusParseError("a\tb\nno tab here\n") == "c.tsv:2: no tab between source and target");
    CHECK(corpusParseError("a\tb\nc\td\xFF\n") == "c.tsv:2: invalid UTF-8 at byte 4 (0xFF); the file must be UTF-8");
    CHECK(corpusParseError("a\tb\nc\td\ne\tf\xC3\n\xFF\n") ==
          "c.tsv:3: invalid UTF-8 at byte 4 (0xC3); the file must be UTF-8");  // the first bad byte wins
    CHECK(corpusParseError("a\tb\xE0\x80\xAF\n") == "c.tsv:1: invalid UTF-8 at byte 4 (0xE0); the file must be UTF-8");
    CHECK(corpusParseError(std::string("a\tb\nc\t\0d\n", 9)) == "c.tsv:2: NUL byte at byte 3 (is this a binary file?)");
    CHECK(corpusParseError("a\tb\rc\td\n") ==
          "c.tsv:1: carriage return inside the line at byte 4 (only LF or CRLF line ends are supported)");
    CHECK(corpusParseError("\xFF\xFE" "a\0\t\0b\0") ==
          "c.tsv:1: looks like UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8");
    CHECK(corpusParseError("\x1F\x8B\x08\x00") == "c.tsv:1: looks gzip-compressed; decompress it first");
}

TEST_CASE("A line over 64 KiB is refused; one of exactly 64 KiB is read", "[corpus]") {
    const std::string limit = std::string(attnlab::kMaxLineBytes - 2, 'a') + "\tb";
    REQUIRE(limit.size() == attnlab::kMaxLineBytes);
    CHECK(attnlab::parseTsvCorpus("x\ty\n" + limit + "\r\n", "c.tsv").pairs.size() == 2);
    CHECK(corpusParseError("x\ty\n" + limit + "b\n") == "c.tsv:2: line is longer than 64 KiB (65537 bytes)");
}

TEST_CASE("A file with no usable pair is an error", "[corpus]") {
    CHECK(corpusParseError("") == "c.tsv: no usable sentence pair (no text)");
    CHECK(corpusParseError("\xEF\xBB\xBF") == "c.tsv: no usable sentence pair (no text)");
    CHECK(corpusParseError(" \n\t\n\r\n") == "c.tsv: no usable sentence pair (all 3 lines are blank or have an empty side)");
    CHECK(corpusParseError("a\t \n \tb\n") ==
          "c.tsv: no usable sentence pair (all 2 lines are blank or have an empty side)");
}

TEST_CASE("Random bytes are either read or rejected with an InputError", "[corpus]") {
    std::mt19937 rng(11);
    std::uniform_int_distribution<int> byte(0, 255), pick(0, 9), length(0, 200);
    const char* pieces[] = {"\t", "\n", "\r\n", "a", " ", "\xE6\xB1\xA4", "\xEF\xBB\xBF"};
    for (int round = 0; round < 3000; ++round) {
        std::string text;
        for (int i = length(rng); i > 0; --i) {
            int p = pick(rng);
            text += p < 7 ? std::string(pieces[p]) : std::string(1, static_cast<char>(byte(rng)));
        }
        try {
            ParallelCorpus c = attnlab::parseTsvCorpus(text, "fuzz.tsv");
            CHECK_FALSE(c.pairs.empty());
        } catch (const InputError& e) {
            CHECK(std::string(e.what()).rfind("fuzz.tsv", 0) == 0);
        }
    }
}

TEST_CASE("Reading a TSV file from disk", "[corpus]") {
    TempDir dir;
    const std::string path = dir.file("train.tsv", "I run.\tJe cours.\nI walk.\tJe marche.\n");
    ParallelCorpus c = attnlab::readTsvCorpus(path);
    CHECK(c.name == path);
    REQUIRE(c.pairs.size() == 2);
    CHECK(c.pairs[1].target == "Je marche.");

    const std::string bad = dir.file("bad.tsv", "ok\tfine\nbroken\n");
    CHECK(inputErrorOf([&] { attnlab::readTsvCorpus(bad); }) == bad + ":2: no tab between source and target");
}

TEST_CASE("Missing files and directories are input errors", "[corpus]") {
    TempDir dir;
    const std::string missing = dir / "nope.tsv";
    CHECK(inputErrorOf([&] { attnlab::readTsvCorpus(missing); }) == missing + ": no such file");
    CHECK(inputErrorOf([&] { attnlab::readTsvCorpus(dir.path.string()); }) == dir.path.string() + ": is a directory");
    CHECK(inputErrorOf([&] { attnlab::readTsvCorpus(dir / "nope/x.tsv"); }) ==
          (dir / "nope/x.tsv") + ": no such file");
}

TEST_CASE("An unreadable file is an input error", "[corpus][needs-non-root]") {
    if (::geteuid() == 0) ATTNLAB_SKIP("running as root, which reads every file");
    TempDir dir;
    const std::string locked = dir.file("locked.tsv", "a\tb\n");
    fs::permissions(locked, fs::perms::none);
    CHECK(inputErrorOf([&] { attnlab::readTsvCorpus(locked); }) == locked + ": permission denied");
}

TEST_CASE("readFileLimited refuses a file over the cap", "[corpus]") {
    TempDir dir;
    const std::string path = dir.file("ten.txt", "0123456789");
    CHECK(attnlab::readFileLimited(path, 10) == "0123456789");
    CHECK_THROWS_WITH(attnlab::readFileLimited(path, 9), Catch::StartsWith(path + ": file is too large"));
}

TEST_CASE("Two line-aligned files are read as pairs", "[corpus]") {
    TempDir dir;
    const std::string en = dir.file("train.en", "\xEF\xBB\xBFI run.\r\n\nI walk.\nhello\n");
    const std::string fr = dir.file("train.fr", "Je cours.\n\nJe marche.\n  \n");
    ParallelCorpus c = attnlab::readParallelCorpus(en, fr);
    REQUIRE(c.pairs.size() == 2);
    CHECK(c.pairs[0].source == "I run.");
    CHECK(c.pairs[0].target == "Je cours.");
    CHECK(c.pairs[1].line == 3);
    REQUIRE(c.skipped.size() == 2);
    CHECK(c.skipped[0].reason == "blank line");
    CHECK(c.skipped[1].line == 4);
    CHECK(c.skipped[1].reason == "empty target");
}

TEST_CASE("Line counts that differ name the shorter file and the first line it lacks", "[corpus]") {
    TempDir dir;
    const std::string en = dir.file("a.en", "one\ntwo\nthree\n");
    const std::string fr = dir.file("a.fr", "un\ndeux");
    CHECK(inputErrorOf([&] { attnlab::readParallelCorpus(en, fr); }) ==
          fr + ":3: line missing: the file has 2 lines but " + en + " has 3");
    CHECK(inputErrorOf([&] { attnlab::readParallelCorpus(fr, en); }) ==
          fr + ":3: line missing: the file has 2 lines but " + en + " has 3");

    // Trailing blank lines in the longer file do not count as a mismatch.
    const std::string padded = dir.file("b.fr", "un\ndeux\ntrois\n\n\n");
    CHECK(attnlab::readParallelCorpus(en, padded).pairs.size() == 3);
}

TEST_CASE("Each of two files is checked like a TSV file", "[corpus]") {
    TempDir dir;
    const std::string en = dir.file("c.en", "one\ntwo\n");
    const std::string fr = dir.file("c.fr", "un\nd\xC3\x28ux\n");
    CHECK(inputErrorOf([&] { attnlab::readParallelCorpus(en, fr); }) ==
          fr + ":2: invalid UTF-8 at byte 2 (0xC3); the file must be UTF-8");
    const std::string empty = dir.file("empty.fr", "");
    const std::string emptyEn = dir.file("empty.en", "\n");
    CHECK(inputErrorOf([&] { attnlab::readParallelCorpus(emptyEn, empty); }) ==
          emptyEn + " + " + empty + ": no usable sentence pair (all 1 lines are blank or have an empty side)");
    CHECK(inputErrorOf([&] { attnlab::readParallelCorpus(en, dir / "missing.fr"); }) ==
          (dir / "missing.fr") + ": no such file");
}

TEST_CASE("writeTsvCorpus writes a file the reader reads back, with alignments", "[corpus]") {
    TempDir dir;
    ParallelCorpus c;
    c.pairs.push_back({"tom chases jerry", "\u6C64\u59C6 \u8FFD\u9010 \u6770\u745E", 0, {{0, 0}, {1, 1}, {2, 2}}, {}});
    c.pairs.push_back({"a b", "b a", 0, {{0, 1}, {1, 0}}, {}});
    const std::string tsv = dir / "out.tsv", align = dir / "out.align";
    attnlab::writeTsvCorpus(c, tsv, align);
    CHECK(readAll(align) == "0-0 1-1 2-2\n0-1 1-0\n");
    ParallelCorpus back = attnlab::readTsvCorpus(tsv);
    REQUIRE(back.pairs.size() == 2);
    CHECK(back.pairs[0].source == c.pairs[0].source);
    CHECK(back.pairs[0].target == c.pairs[0].target);
    CHECK(back.pairs[1].target == "b a");
    CHECK(dir.entries() == 2);  // no temporary files left behind
}

TEST_CASE("A failed write leaves the existing file untouched and no temporary file", "[corpus]") {
    TempDir dir;
    const std::string tsv = dir.file("keep.tsv", "old\tcontent\n");
    ParallelCorpus c;
    c.pairs.push_back({"has\ta tab", "x", 0, {}, {}});
    CHECK_THROWS_WITH(attnlab::writeTsvCorpus(c, tsv), Catch::StartsWith(tsv + ": pair 1 contains a tab"));
    CHECK(readAll(tsv) == "old\tcontent\n");

    fs::create_directories(dir.path / "sub");
    CHECK_THROWS_WITH(attnlab::writeFileAtomically(dir / "sub", "bytes"), Catch::StartsWith(dir / "sub"));
    CHECK(fs::is_directory(dir.path / "sub"));
    CHECK_THROWS_AS(attnlab::writeFileAtomically(dir / "no/such/dir.tsv", "x"), std::runtime_error);
    CHECK(dir.entries() == 2);

    attnlab::writeFileAtomically(tsv, "new\tcontent\n");
    CHECK(readAll(tsv) == "new\tcontent\n");
    CHECK(dir.entries() == 2);
}

}  // namespace
