// The language model's prose dataset: Debian's fortune files read into one document per entry, the
// index files and links left out, overstrikes and bells cleaned, entries that are not UTF-8, mangled
// or full of control characters dropped and counted, duplicates dropped; a folder without fortunes
// named in one line that says what to install; the installed packages read without problems.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "InputErrors.h"
#include "Skip.h"
#include "TempDir.h"
#include "base/InputError.h"
#include "base/Tokenizer.h"
#include "base/lm/LmFortunes.h"

using namespace attnlab;

namespace {

std::size_t fortunesTestCodePoints(const std::string& s) {
    std::size_t n = 0;
    for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

// A folder as the packages lay it out, with one entry of each kind.
struct FortunesTestFolder {
    test::TempDir dir;
    FortunesTestFolder() {
        dir.file("alpha", "First fortune\non two lines.\n%\n\tSecond,\tindented  entry.\n\t\t-- Someone\n%\n");
        dir.file("alpha.dat", std::string("\0\0\0\2\0\0\0\2\0\0\0\x1e%\0\0\0", 16));  // strfile's index
        std::filesystem::create_symlink("alpha", dir.path / "alpha.u8");
        dir.file("beta",
                 "%\n"                                                  // a file may start with "%"
                 "It is *____\b\b\b\bonly* fun.\n\t\t-- Honor'\be de Balzac\n%\n"  // underlined, an accent
                 "na\xefve Latin-1\n%\n"                                // not UTF-8: dropped
                 "don\xc3\xa2\xc2\x80\xc2\x99t worry\n%\n"              // UTF-8 read as Latin-1: dropped
                 "\x1b[1mbold\x1b[0m\n%\n"                              // an ANSI escape: dropped
                 "First   fortune on\n  two lines.\n%\n"                // the same text as alpha's: dropped
                 "\a\a\aLook out!\n%\n"                                 // bells rung: cleaned
                 "\a\a\n%\n"                                            // nothing left: empty
                 "%\n"                                                  // a blank entry: not an entry
                 " \n");
        dir.file("crlf", "one\r\n%\r\ntwo\r\n");
        dir.file("ascii-art", "  /\\_/\\\n ( o.o )\n%\n");  // pictures: not read
        dir.file(".hidden", "hidden\n");
        dir.file("off/gamma", "offensive\n%\n");  // a folder inside: not read
    }
    std::string path() const { return dir.path.string(); }
};

}  // namespace

TEST_CASE("lm: fortunes, one entry a document, index files, links and folders left out", "[lm]") {
    const FortunesTestFolder folder;
    FortuneReport r;
    const std::vector<std::string> docs = readFortunes(folder.path(), r);
    const std::vector<std::string> expected{"First fortune on two lines.", "Second, indented entry. -- Someone",
                                            "It is *only* fun. -- Honor\u00e9 de Balzac", "Look out!", "one", "two"};
    CHECK(docs == expected);
    CHECK(r.files == 3);  // alpha, beta, crlf
    CHECK(r.entries == 11);
    CHECK(r.kept == 6);
    CHECK(r.cleaned == 2);
    CHECK(r.notUtf8 == 1);
    CHECK(r.mangled == 1);
    CHECK(r.control == 1);
    CHECK(r.duplicates == 1);
    CHECK(r.empty == 1);
    std::size_t characters = 0;
    for (const auto& d : docs) characters += fortunesTestCodePoints(d);
    CHECK(r.characters == characters);
    CHECK(describeFortunes(r) ==
          "3 files, 11 entries, 6 documents of " + std::to_string(characters) +
              " characters (2 cleaned of overstrikes and bells); dropped: 1 not UTF-8, 1 with a mangled encoding, "
              "1 with control characters, 1 duplicate, 1 empty");

    // The same order every time, whatever order the folder lists its files in.
    FortuneReport again;
    CHECK(readFortunes(folder.path(), again) == docs);

    const LmCorpus c = lmFortunes(folder.path(), LmTokenKind::Chars, 16);
    REQUIRE(c.documents.size() == docs.size());
    CHECK(c.name == "fortunes (" + folder.path() + ")");
    CHECK(c.tokenizer.decode(c.documents[3]) == "Look out!");
    CHECK(c.tokenizer.decode(c.documents[0]) == "First fortune on");  // cut to the context
    CHECK(c.cut == 3);
}

TEST_CASE("lm: a fortune's overstrikes print as a typewriter prints them", "[lm]") {
    auto clean = [](const std::string& s) { return cleanFortune(s).text; };
    CHECK(clean("_\bN persons") == "N persons");              // nroff's underlined letter
    CHECK(clean("*___\b\b\bnot*") == "*not*");                // a word underlined first
    CHECK(clean("abc\b\b\b___") == "abc");                    // or after
    CHECK(clean("whether I\bI win") == "whether I win");      // bold
    CHECK(clean("Plus ,\bca change") == "Plus \u00e7a change");
    CHECK(clean("la m^\beme chose") == "la m\u00eame chose");
    CHECK(clean("m\"\bumsige `\ba e\b'") == "m\u00fcmsige \u00e0 \u00e9");  // the letter may come first
    CHECK(clean("x\by") == "y");                              // otherwise the later character, as col -b
    CHECK(clean("\bstart") == "start");                       // no column to go back to
    CHECK(cleanFortune("plain  text\n\tsaid").verdict == FortuneVerdict::Kept);
    CHECK(clean("plain  text\n\tsaid") == "plain text said");
    CHECK(cleanFortune("a\bb").verdict == FortuneVerdict::Cleaned);
    CHECK(cleanFortune("pay \xc2\xa3" "5").verdict == FortuneVerdict::Kept);    // a real pound sign
    CHECK(cleanFortune("pay \xc3\x82\xc2\xa3" "5").verdict == FortuneVerdict::Mangled);  // "Â£5"
    CHECK(cleanFortune("don\xc3\xa2\xe2\x82\xac\xe2\x84\xa2t").verdict == FortuneVerdict::Mangled);  // "donâ€™t"
    CHECK(cleanFortune("caf\xc3\xa9 \xe2\x80\x99").verdict == FortuneVerdict::Kept);  // "café ’": real
    CHECK(cleanFortune("form\ffeed").verdict == FortuneVerdict::Control);
    CHECK(cleanFortune("a\rb").verdict == FortuneVerdict::Control);
    CHECK(cleanFortune("a\r\nb").text == "a b");
    CHECK(cleanFortune("\xff").verdict == FortuneVerdict::NotUtf8);
    CHECK(cleanFortune(" \t\n").verdict == FortuneVerdict::Empty);
}

TEST_CASE("lm: a folder without fortunes says what to install, in one line naming it", "[lm]") {
    test::TempDir dir;
    const std::string missing = dir.file("missing");
    const std::string none = test::inputErrorOf([&] { FortuneReport r; readFortunes(missing, r); });
    CHECK(none == missing + ": no fortunes here (Debian's fortunes are not installed); install Debian's packages: "
                            "sudo apt-get install fortunes fortunes-min");
    dir.file("only/fortunes.dat", "index");
    CHECK(test::inputErrorOf([&] { FortuneReport r; readFortunes(dir.file("only"), r); }) ==
          dir.file("only") + ": no fortunes here (Debian's fortunes are not installed); install Debian's packages: "
                             "sudo apt-get install fortunes fortunes-min");
    dir.file("bad/latin1", "caf\xe9\n%\n\a\n");
    CHECK(test::inputErrorOf([&] { lmFortunes(dir.file("bad"), LmTokenKind::Chars, 16); }) ==
          dir.file("bad") + ": no fortune left to read (1 file, 2 entries, 0 documents of 0 characters; dropped: 1 not "
                            "UTF-8, 1 empty)");
}

TEST_CASE("lm: Debian's fortunes, where installed, read as clean distinct lines", "[lm][needs-fortunes]") {
    const std::string dir = test::systemDataDir("ATTNLAB_TEST_FORTUNES_DIR", kFortunesDir);
    if (!std::filesystem::exists(dir + "/computers") || !std::filesystem::exists(dir + "/fortunes"))
        ATTNLAB_SKIP("fortunes and fortunes-min are not installed (no " << dir << "/computers): sudo apt-get install "
                                                                           "fortunes fortunes-min");
    FortuneReport r;
    const std::vector<std::string> docs = readFortunes(dir, r);
    INFO(describeFortunes(r));
    CHECK(r.files >= 40);  // 42 in bookworm's 1:1.99.1-7.3, ascii-art left out
    CHECK(docs.size() > 14000);
    CHECK(r.characters > 2000000);
    CHECK(r.cleaned > 50);  // the underlined words and accents of the old files
    CHECK(r.notUtf8 + r.mangled + r.control < 50);
    std::set<std::string> distinct;
    std::vector<std::string> unclean;  // not distinct, not UTF-8, a control character, odd spaces
    bool balzac = false;
    for (const std::string& d : docs) {
        if (!distinct.insert(d).second || findInvalidUtf8(d) != std::string::npos ||
            d.find_first_of(std::string("\b\a\t\n\r\x1b", 6)) != std::string::npos ||
            d.find("  ") != std::string::npos || d.empty() || d.front() == ' ' || d.back() == ' ')
            unclean.push_back(d);
        balzac = balzac || d.find("Honor\u00e9 de Balzac") != std::string::npos;
    }
    CHECK(unclean == std::vector<std::string>{});
    CHECK(balzac);  // "Honor'\be" composed
    const LmCorpus c = lmFortunes(dir, LmTokenKind::Chars, 256);
    CHECK(c.documents.size() == docs.size());
    CHECK(c.tokenizer.size() < 200);  // English characters, a few accented letters
}
