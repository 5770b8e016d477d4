#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/gettext/Gettext.h"
#include "base/InputError.h"
#include "base/Tokenizer.h"
#include "TempDir.h"

#include "InputErrors.h"
#include "MoFiles.h"
#include "Skip.h"

using namespace attnlab;

namespace {

namespace fs = std::filesystem;
using attnlab::test::TempDir;
using Entries = attnlab::test::MoEntries;
using attnlab::test::moFile;
using attnlab::test::put32;

// ---------------------------------------------------------------- a .mo file, byte by byte

void set32(std::string& bytes, std::size_t at, std::uint32_t v, bool big) {
    std::string word;
    put32(word, v, big);
    bytes.replace(at, 4, word);
}

const std::string kHeader = "Project-Id-Version: test\nContent-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=1; plural=0;\n";

std::string thirtyOneWords() {
    std::string words = "word";
    for (int i = 1; i < 31; ++i) words += " word";
    return words;
}

// One of each kind of entry a catalogue holds (msgfmt sorts them; the reader does not care).
Entries sampleEntries() {
    return {
        {"", kHeader},
        {"_Open", "\u6253\u5F00(_O)"},                                       // GTK accelerator, CJK style in the translation
        {"Save _As\u2026", "\u53E6\u5B58\u4E3A(_A)\u2026"},
        {"menu\x04" "File", "\u6587\u4EF6"},                                 // context
        {std::string("%d file\0%d files", 16), std::string("%d \u4E2A\u6587\u4EF6", 11)},  // plural
        {"Not translated", ""},
        {"%s: %s", "%s\uFF1A%s"},                                            // no letters once cleaned
        {"Open", "\u6253\u5F00"},                                            // the same English as "_Open"
        {thirtyOneWords(), "\u5F88\u957F"},                                   // too long
        {"<b>Bold</b> &amp; brave", "<b>\u7C97</b>&amp;\u52C7"},
    };
}

std::string errorOf(const std::function<void()>& f) { return attnlab::test::inputErrorOf(f); }

std::vector<GettextPair> mo(const std::string& bytes, GettextReport& report) { return parseMo(bytes, "t.mo", report); }

std::string moError(const std::string& bytes) {
    GettextReport report;
    return errorOf([&] { parseMo(bytes, "t.mo", report); });
}

std::string poError(const std::string& text) {
    GettextReport report;
    return errorOf([&] { parsePo(text, "t.po", report); });
}

bool samePairs(const std::vector<GettextPair>& a, const std::vector<std::pair<std::string, std::string>>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].english != b[i].first || a[i].translation != b[i].second) return false;
    return true;
}

const std::vector<std::pair<std::string, std::string>> kSamplePairs = {
    {"Open", "\u6253\u5F00"}, {"Save As\u2026", "\u53E6\u5B58\u4E3A\u2026"}, {"Bold & brave", "\u7C97&\u52C7"}};

// ---------------------------------------------------------------- .mo

TEST_CASE("A .mo file is read in either byte order, its entries skipped or cleaned", "[gettext]") {
    for (bool big : {false, true}) {
        INFO((big ? "big-endian" : "little-endian"));
        GettextReport report;
        const auto pairs = mo(moFile(sampleEntries(), big), report);
        CHECK(samePairs(pairs, kSamplePairs));
        CHECK(report.entries == 10);
        CHECK(report.kept == 3);
        CHECK(report.catalogues == 1);
        CHECK(report.count(GettextSkip::Header) == 1);
        CHECK(report.count(GettextSkip::Context) == 1);
        CHECK(report.count(GettextSkip::Plural) == 1);
        CHECK(report.count(GettextSkip::Untranslated) == 1);
        CHECK(report.count(GettextSkip::NoLetters) == 1);
        CHECK(report.count(GettextSkip::Duplicate) == 1);
        CHECK(report.count(GettextSkip::TooLong) == 1);
        CHECK(report.count(GettextSkip::Fuzzy) == 0);
        CHECK(report.problems.empty());
        long skipped = 0;
        for (const auto& [reason, n] : report.skipped) skipped += n;
        CHECK(skipped + report.kept == report.entries);
    }
}

TEST_CASE("A .mo file's revision 1 is read; an empty one gives no pairs", "[gettext]") {
    GettextReport report;
    CHECK(samePairs(mo(moFile({{"", kHeader}, {"Quit", "Quitter"}}, false, 0x00010001), report), {{"Quit", "Quitter"}}));
    CHECK(mo(moFile({}), report).empty());
    CHECK(report.catalogues == 2);
}

TEST_CASE("ISO-8859-1 and -15 catalogues are converted; other charsets are refused", "[gettext]") {
    GettextReport report;
    const std::string latin1 = "Content-Type: text/plain; charset=ISO-8859-1\n";
    CHECK(samePairs(mo(moFile({{"", latin1}, {"Delete", "Supprimer l\xE0"}}), report), {{"Delete", "Supprimer l\u00E0"}}));
    const std::string latin9 = "Content-Type: text/plain; charset=iso-8859-15\n";
    CHECK(samePairs(mo(moFile({{"", latin9}, {"Price", "Prix \xA4"}}), report), {{"Price", "Prix \u20AC"}}));
    CHECK(moError(moFile({{"", "Content-Type: text/plain; charset=EUC-JP\n"}, {"a", "b"}})) ==
          "t.mo: charset EUC-JP is not supported (UTF-8, ASCII, ISO-8859-1 and ISO-8859-15 are); convert it with "
          "msgconv --to-code=UTF-8");
    // A UTF-8 catalogue with a broken string: that entry is skipped, the rest read.
    GettextReport broken;
    CHECK(samePairs(mo(moFile({{"", kHeader}, {"Bad", "mauvais \xFF"}, {"Good", "bon"}}), broken), {{"Good", "bon"}}));
    CHECK(broken.count(GettextSkip::InvalidUtf8) == 1);
}

TEST_CASE("A damaged .mo file is an InputError naming the file and the fault", "[gettext]") {
    const std::string good = moFile(sampleEntries());
    CHECK(moError("") == "t.mo: truncated header (0 bytes; a .mo file starts with a 28-byte header)");
    CHECK(moError(good.substr(0, 20)) == "t.mo: truncated header (20 bytes; a .mo file starts with a 28-byte header)");
    CHECK(moError("Project-Id-Version: not a .mo at all") ==
          "t.mo: wrong magic number 0x6a6f7250 (not a GNU .mo file; expected 0x950412de in either byte order)");

    std::string revision = good;
    set32(revision, 4, 0x00020000, false);
    CHECK(moError(revision) == "t.mo: unsupported .mo revision 2.0 (major revisions 0 and 1 are defined)");

    std::string absurd = good;
    set32(absurd, 8, 0xFFFFFFFF, false);
    CHECK(moError(absurd) == "t.mo: absurd string count 4294967295 for a file of " + std::to_string(good.size()) + " bytes");

    std::string table = good;
    set32(table, 16, static_cast<std::uint32_t>(good.size()) - 8, false);  // translations' table at the end
    CHECK(moError(table) == "t.mo: table of translation strings (10 entries at offset " + std::to_string(good.size() - 8) +
                                ") runs past the end of the file (" + std::to_string(good.size()) + " bytes)");
    std::string tableWrap = good;
    set32(tableWrap, 12, 0xFFFFFFF0, false);  // would wrap around in 32 bits
    CHECK_THAT(moError(tableWrap), Catch::Matchers::StartsWith("t.mo: table of original strings (10 entries at offset 4294967280)"));

    std::string offset = good;
    set32(offset, 28 + 8 * 1 + 4, 0xFFFFFFFF, false);  // original 1's offset
    CHECK(moError(offset) == "t.mo: original string 1 (5 bytes at offset 4294967295) runs past the end of the file (" +
                                 std::to_string(good.size()) + " bytes)");
    std::string length = good;
    set32(length, 28 + 80 + 8 * 2, 0x7FFFFFFF, false);  // translation 2's length
    CHECK_THAT(moError(length), Catch::Matchers::StartsWith("t.mo: translation string 2 (2147483647 bytes at offset"));

    // The string may end exactly at the end of the file (the NUL after it is not needed).
    CHECK(moError(moFile({{"Quit", "Quitter"}}).substr(0, moFile({{"Quit", "Quitter"}}).size() - 1)) == "(no InputError)");
}

TEST_CASE("Every prefix and many corruptions of a .mo file are read or refused, never more", "[gettext]") {
    const std::string good = moFile(sampleEntries(), true);
    for (std::size_t n = 0; n < good.size(); ++n) {
        GettextReport report;
        try {
            parseMo(good.substr(0, n), "t.mo", report);
        } catch (const InputError& e) {
            CHECK(e.file() == "t.mo");
            CHECK(std::string(e.what()).find('\n') == std::string::npos);
        }
    }
    std::uint32_t state = 12345;
    for (int round = 0; round < 2000; ++round) {
        std::string bytes = good;
        for (int k = 0; k < 3; ++k) {
            state = state * 1103515245u + 12345u;
            bytes[(state >> 8) % bytes.size()] = static_cast<char>(state >> 24);
        }
        GettextReport report;
        try {
            for (const auto& p : parseMo(bytes, "t.mo", report)) {
                CHECK(findInvalidUtf8(p.english) == std::string::npos);
                CHECK(findInvalidUtf8(p.translation) == std::string::npos);
            }
        } catch (const InputError&) {
        }
    }
}

// ---------------------------------------------------------------- .po

const char* const kPo = R"PO(# French translations for test.
# Copyright (C) 2024
#
msgid ""
msgstr ""
"Project-Id-Version: test 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\n"

#: src/main.c:10
#, c-format
msgid "_Quit"
msgstr "_Quitter"

#. A continued message with escapes.
msgid ""
"Cannot open \"%s\":\t"
"no such file"
msgstr "Impossible d\342\200\231ouvrir « %s » :\t"
"fichier introuvable"

#, fuzzy
msgid "Print"
msgstr "Imprimer"

msgid "One file"
msgid_plural "%d files"
msgstr[0] "Un fichier"
msgstr[1] "%d fichiers"

msgctxt "verb"
msgid "Close"
msgstr "Fermer"

msgid "Empty"
msgstr ""

msgid "Caf\xc3\xa9 \x26 tea"
msgstr "Caf\303\251 et th\xc3\xa9"

#~ msgid "Old"
#~ msgstr "Vieux"

#~| msgid "Older"
#~ msgid "Obsolete one"
#~ msgstr ""
#~ "Obsol\303\250te"
msgid "Last"
msgstr "Dernier"
)PO";

TEST_CASE("A .po file: continuation lines, escapes, fuzzy, plural, context and obsolete entries", "[gettext]") {
    GettextReport report;
    const auto pairs = parsePo(kPo, "t.po", report);
    CHECK(samePairs(pairs, {{"Quit", "Quitter"},
                            {"Cannot open : no such file", "Impossible d\u2019ouvrir : fichier introuvable"},
                            {"Caf\u00E9 & tea", "Caf\u00E9 et th\u00E9"},
                            {"Last", "Dernier"}}));
    CHECK(report.entries == 11);
    CHECK(report.kept == 4);
    CHECK(report.count(GettextSkip::Header) == 1);
    CHECK(report.count(GettextSkip::Fuzzy) == 1);
    CHECK(report.count(GettextSkip::Plural) == 1);
    CHECK(report.count(GettextSkip::Context) == 1);
    CHECK(report.count(GettextSkip::Untranslated) == 1);
    CHECK(report.count(GettextSkip::Obsolete) == 2);
}

TEST_CASE("A .po file with a BOM and CRLF line ends reads the same", "[gettext]") {
    std::string crlf;
    for (const char* p = kPo; *p; ++p) {
        if (*p == '\n') crlf += '\r';
        crlf += *p;
    }
    GettextReport report;
    CHECK(parsePo("\xEF\xBB\xBF" + crlf, "t.po", report).size() == 4);
}

TEST_CASE("A broken .po file is an InputError naming the file and line", "[gettext]") {
    CHECK(poError("msgid \"a\"\nmsgstr \"b\n") == "t.po:2: unterminated string (no closing \")");
    CHECK(poError("msgid \"a\\\"\nmsgstr \"b\"\n") == "t.po:1: unterminated string (no closing \")");
    CHECK(poError("msgid \"a\"\nmsgstr \"b\\\n") == "t.po:2: unterminated string (a \\ ends the line)");
    CHECK(poError("# comment\n\"orphan\"\nmsgid \"a\"\nmsgstr \"b\"\n") ==
          "t.po:2: a string with no keyword (msgid, msgstr, ...) before it");
    CHECK(poError("msgid \"a\"\nmsgstr \"b\"\n\n\"after a blank line\"\n") ==
          "t.po:4: a string with no keyword (msgid, msgstr, ...) before it");
    CHECK(poError("msgid \"a\\q\"\nmsgstr \"b\"\n") == "t.po:1: invalid escape \\q");
    CHECK(poError("msgid \"a\\0\"\nmsgstr \"b\"\n") == "t.po:1: invalid escape \\0 (a NUL byte)");
    CHECK(poError("msgid \"a\\xZZ\"\nmsgstr \"b\"\n") == "t.po:1: invalid escape \\x without hex digits");
    CHECK(poError("msgid \"a\" junk\nmsgstr \"b\"\n") == "t.po:1: unexpected text after the string: 'junk'");
    CHECK(poError("msgid \"a\"\nmsgtxt \"b\"\n") == "t.po:2: unknown keyword 'msgtxt'");
    CHECK(poError("msgid \"a\"\nmsgstr\n") == "t.po:2: expected a string after msgstr");
    CHECK(poError("msgid \"a\"\n= \"b\"\n") == "t.po:2: expected a keyword (msgctxt, msgid, msgid_plural, msgstr) or a string, found '= \"b\"'");
    CHECK(poError("msgstr \"b\"\n") == "t.po:1: msgstr without msgid");
    CHECK(poError("msgid \"a\"\nmsgid \"b\"\nmsgstr \"c\"\n") == "t.po:1: msgid without msgstr");
    CHECK(poError("msgid \"a\"\nmsgstr \"b\"\nmsgid \"c\"\n") == "t.po:3: msgid without msgstr");
    CHECK(poError("msgctxt \"a\"\n") == "t.po:1: msgctxt without msgid");
    CHECK(poError("msgid \"a\"\nmsgstr \"b\"\nmsgstr \"c\"\n") == "t.po:3: a second msgstr in one entry");
    CHECK(poError("msgid_plural \"a\"\n") == "t.po:1: msgid_plural without msgid");
    CHECK(poError("msgid \"a\"\nmsgstr \"\\303\"\n") == "t.po:1: invalid UTF-8 in a string (made by an escape)");
    CHECK(poError("msgid \"a\"\nmsgstr \"b\xFF\"\n") == "t.po:2: invalid UTF-8 at byte 10 (0xFF); the file must be UTF-8");
    CHECK(poError(std::string("msgid \"a\0\"\n", 11)) == "t.po:1: NUL byte at byte 9 (is this a binary file?)");
    CHECK(poError("msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=ISO-8859-2\\n\"\n") ==
          "t.po:1: charset ISO-8859-2 is not supported (UTF-8, ASCII, ISO-8859-1 and ISO-8859-15 are); convert it "
          "with msgconv --to-code=UTF-8");
    CHECK(poError("msgid \"a\"\nmsgstr \"" + std::string(70000, 'b') + "\"\n") ==
          "t.po:2: line is longer than 64 KiB (70009 bytes)");
    // An empty or comment-only file is a catalogue without messages, not an error.
    GettextReport report;
    CHECK(parsePo("", "t.po", report).empty());
    CHECK(parsePo("# nothing\n\n", "t.po", report).empty());
}

TEST_CASE("Random .po text is read or refused with an InputError", "[gettext]") {
    const char* pieces[] = {"msgid ", "msgstr ", "msgctxt ", "msgid_plural ", "msgstr[0] ", "\"", "\\", "\\n", "\n",
                            "#, fuzzy\n", "#~ ", "a", " ", "\xC3\xA9", "_", "&", "%s", "<b>", "\t"};
    std::uint32_t state = 7;
    for (int round = 0; round < 3000; ++round) {
        std::string text;
        state = state * 1103515245u + 12345u;
        for (int i = static_cast<int>((state >> 16) % 40); i > 0; --i) {
            state = state * 1103515245u + 12345u;
            text += pieces[(state >> 16) % (sizeof pieces / sizeof *pieces)];
        }
        GettextReport report;
        try {
            for (const auto& p : parsePo(text, "r.po", report)) {
                CHECK_FALSE(p.english.empty());
                CHECK_FALSE(p.translation.empty());
            }
        } catch (const InputError& e) {
            CHECK(e.file() == "r.po");
        }
    }
}

// ---------------------------------------------------------------- cleaning

TEST_CASE("Messages are cleaned of accelerators, directives, markup and entities", "[gettext]") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        // accelerators
        {"_Open", "Open"},
        {"Save _As\u2026", "Save As\u2026"},
        {"E_xit", "Exit"},
        {"\u6253\u5F00(_O)", "\u6253\u5F00"},
        {"\u6253\u5F00(&O)...", "\u6253\u5F00..."},
        {"\u4FDD\u5B58\uFF08_S\uFF09", "\u4FDD\u5B58"},
        {"_\u0424\u0430\u0439\u043B", "\u0424\u0430\u0439\u043B"},
        {"&Open", "Open"},
        {"Save &As", "Save As"},
        {"Tom && Jerry", "Tom & Jerry"},
        {"Tom & Jerry", "Tom & Jerry"},
        {"LC_ALL is set", "LC_ALL is set"},
        {"Aspect ratio if obey_child is FALSE", "Aspect ratio if obey_child is FALSE"},
        {"it_lld", "it_lld"},
        {"gtk_widget_show and _Open", "gtk_widget_show and _Open"},  // several underscores: identifiers
        {"A string with _ characters", "A string with _ characters"},
        // format directives
        {"%s files", "files"},
        {"Copied %d of %lu files (%.1f%%)", "Copied of files (%)"},
        {"Files:%d, folders:%d", "Files:, folders:"},
        {"Size%sUsed", "Size Used"},
        {"%1$s is newer than %2$s", "is newer than"},
        {"Width: %-5.2f px", "Width: px"},
        {"%(count)d new messages", "new messages"},
        {"Hello {name}, you have {0} mails", "Hello, you have mails"},
        {"Value {0:>5} and {count!r}", "Value and"},
        {"Progress %1 of %2", "Progress of"},
        {"Offset %<PRIu64> bytes", "Offset bytes"},
        {"%b %d %Y at %H:%M", "at:"},
        {"50% of the disk", "50% of the disk"},
        {"Cannot open \u201C%s\u201D: %s", "Cannot open :"},
        {"Cannot open '%s' (%s)", "Cannot open"},
        // markup and entities
        {"<b>Bold</b> and <span weight=\"bold\">heavy</span>", "Bold and heavy"},
        {"line one<br/>line two", "line one line two"},
        {"Usage: cp <source> <dest>", "Usage: cp <source> <dest>"},
        {"Fish &amp; chips &lt;3", "Fish & chips <3"},
        {"caf&#233; &#x4E2D;", "caf\u00E9 \u4E2D"},
        {"&amp;Open", "&Open"},  // an encoded ampersand is text, not an accelerator
        // white space
        {"  two\nlines\tand\u00A0spaces  ", "two lines and spaces"},
        {"\u5143\u7D20\u200B\u5C5E\u6027", "\u5143\u7D20 \u5C5E\u6027"},
        {"", ""},
    };
    for (const auto& [raw, clean] : cases) {
        INFO(raw);
        CHECK(cleanGettextMessage(raw) == clean);
    }
}

// ---------------------------------------------------------------- files and locale trees

TEST_CASE("readGettextFile tells .mo from .po by name or by magic and limits the size", "[gettext]") {
    TempDir dir;
    GettextReport report;
    CHECK(readGettextFile(dir.file("a.mo", moFile(sampleEntries())), report).size() == 3);
    CHECK(readGettextFile(dir.file("a.po", kPo), report).size() == 4);
    CHECK(readGettextFile(dir.file("compiled", moFile(sampleEntries(), true)), report).size() == 3);
    CHECK(readGettextFile(dir.file("text", kPo), report).size() == 4);
    CHECK(report.catalogues == 4);
    CHECK(errorOf([&] { readGettextFile(dir.file("b.mo", kPo), report); }) ==
          dir / "b.mo" + ": wrong magic number 0x72462023 (not a GNU .mo file; expected 0x950412de in either byte order)");
    CHECK(errorOf([&] { readGettextFile(dir / "none.po", report); }) == dir / "none.po" + ": no such file");
    const std::string huge = dir / "huge.mo";
    dir.file("huge.mo", "");
    fs::resize_file(huge, kMaxGettextFileBytes + 1);  // sparse: refused before reading
    CHECK_THAT(errorOf([&] { readGettextFile(huge, report); }), Catch::Matchers::StartsWith(huge + ": "));
    CHECK(report.catalogues == 4);  // refused files add nothing
}

// A locale tree: ROOT/LANG/LC_MESSAGES/NAME.mo for each (lang, name, entries).
struct LocaleTree {
    TempDir dir;
    void add(const std::string& lang, const std::string& name, const std::string& bytes) {
        fs::create_directories(dir.path / lang / "LC_MESSAGES");
        dir.file(lang + "/LC_MESSAGES/" + name, bytes);
    }
    std::string root() const { return dir.path.string(); }
};

TEST_CASE("A language's catalogues are listed, merged and deduplicated by English", "[gettext]") {
    LocaleTree tree;
    tree.add("fr", "b.mo", moFile({{"", kHeader}, {"Open", "Ouvrir (b)"}, {"Close", "Fermer"}}));
    tree.add("fr", "a.mo", moFile({{"", kHeader}, {"_Open", "_Ouvrir"}, {"Quit", "Quitter"}}));
    tree.add("fr", "broken.mo", "not a catalogue");
    tree.add("fr", "notes.txt", "ignored");
    tree.add("de", "a.mo", moFile({{"Open", "\u00D6ffnen"}}));
    fs::create_directories(tree.dir.path / "xx" / "LC_MESSAGES");  // no catalogue: not installed

    const auto files = gettextCatalogues(tree.root(), "fr");
    REQUIRE(files.size() == 3);
    CHECK(fs::path(files[0]).filename() == "a.mo");
    CHECK(fs::path(files[2]).filename() == "broken.mo");
    CHECK(gettextCatalogues(tree.root(), "xx").empty());
    CHECK(gettextCatalogues(tree.root(), "zz").empty());
    CHECK(gettextLanguages(tree.root()) == std::vector<std::string>{"de", "fr"});

    GettextReport report;
    const auto pairs = gettextTranslationPairs(tree.root(), "fr", report);
    CHECK(samePairs(pairs, {{"Open", "Ouvrir"}, {"Quit", "Quitter"}, {"Close", "Fermer"}}));  // a.mo's "Open" first
    CHECK(report.catalogues == 2);
    CHECK(report.kept == 3);
    CHECK(report.count(GettextSkip::Duplicate) == 1);
    REQUIRE(report.problems.size() == 1);
    CHECK_THAT(report.problems[0], Catch::Matchers::Contains("broken.mo: wrong magic number"));

    CHECK(errorOf([&] { gettextTranslationPairs(tree.root(), "ja", report); }) ==
          (tree.dir.path / "ja" / "LC_MESSAGES").string() +
              ": no gettext catalogues (*.mo) for language 'ja' (installed: de, fr)");
}

// `n` distinct messages "message number I", translated by `word` + I.
std::string numbered(int n, const std::string& word, int from = 0) {
    Entries e{{"", kHeader}};
    for (int i = from; i < from + n; ++i) e.push_back({"message number " + std::to_string(i), word + " " + std::to_string(i)});
    return moFile(e);
}

TEST_CASE("langid: translated messages labelled by language, for the languages with enough of them", "[gettext]") {
    LocaleTree tree;
    tree.add("xx", "a.mo", numbered(1200, "xenon"));
    tree.add("yy", "a.mo", numbered(1100, "yttrium"));
    tree.add("zz", "a.mo", numbered(500, "zinc"));                        // too few for the default selection
    tree.add("en_GB", "a.mo", numbered(2000, "colour"));                 // English: never chosen by default
    tree.add("yy", "b.mo", moFile({{"OK", "OK"}, {"Linux", "Linux X"}}));  // same as English; shared with xx
    tree.add("xx", "b.mo", moFile({{"Linux", "Linux X"}, {"Ok", "Xok"}}));

    LangidReport report;
    const ClassificationCorpus c = langidDataset(tree.root(), {}, 1000, 3, &report);
    CHECK(c.labels == std::vector<std::string>{"xx", "yy"});
    REQUIRE(c.examples.size() == 2000);
    REQUIRE(report.used.size() == 2);
    CHECK(report.used[0].code == "xx");
    CHECK(report.used[0].available == 1201);  // 1200 + "Xok"; "Linux X" is in two languages
    CHECK(report.used[0].used == 1000);
    CHECK(report.used[1].available == 1100);
    REQUIRE(report.leftOut.size() == 1);
    CHECK(report.leftOut[0].code == "zz");
    CHECK(report.leftOut[0].available == 500);
    CHECK(report.sameAsEnglish == 1);
    CHECK(report.shared == 2);
    std::set<std::string> texts;
    for (const auto& e : c.examples) {
        if (e.label == "xx")
            CHECK((e.text.rfind("xenon ", 0) == 0 || e.text == "Xok"));
        else
            CHECK(e.text.rfind("yttrium ", 0) == 0);
        CHECK(e.text != "Linux X");
        texts.insert(e.text);
    }
    CHECK(texts.size() == 2000);
    // Shuffled: the first examples are not all one language.
    std::set<std::string> first;
    for (std::size_t i = 0; i < 20; ++i) first.insert(c.examples[i].label);
    CHECK(first.size() == 2);

    const ClassificationCorpus same = langidDataset(tree.root(), {}, 1000, 3);
    const ClassificationCorpus other = langidDataset(tree.root(), {}, 1000, 4);
    bool identical = true, differs = false;
    for (std::size_t i = 0; i < c.examples.size(); ++i) {
        identical = identical && same.examples[i].text == c.examples[i].text;
        differs = differs || other.examples[i].text != c.examples[i].text;
    }
    CHECK(identical);
    CHECK(differs);

    // Chosen languages are used whatever their size, English too.
    const ClassificationCorpus chosen = langidDataset(tree.root(), {"zz", "xx", "en_GB"}, 300, 1);
    CHECK(chosen.labels == std::vector<std::string>{"en_GB", "xx", "zz"});
    CHECK(chosen.examples.size() == 900);
}

TEST_CASE("langid refuses clearly with fewer than two languages", "[gettext]") {
    LocaleTree tree;
    tree.add("xx", "a.mo", numbered(1200, "xenon"));
    tree.add("zz", "a.mo", numbered(10, "zinc"));
    CHECK(errorOf([&] { langidDataset(tree.root(), {}, 100, 1); }) ==
          tree.root() + ": language identification needs two or more languages with at least 1000 usable messages; "
                        "found 1: xx (1200); too few: zz (10)");
    CHECK(errorOf([&] { langidDataset(tree.root(), {"xx"}, 100, 1); }) ==
          tree.root() + ": language identification needs two or more languages with usable messages; found 1: xx (1200)");
    CHECK_THAT(errorOf([&] { langidDataset(tree.root(), {"xx", "qq"}, 100, 1); }),
               Catch::Matchers::Contains("no gettext catalogues (*.mo) for language 'qq'"));
    TempDir empty;
    CHECK(errorOf([&] { langidDataset(empty.path.string(), {}, 100, 1); }) ==
          empty.path.string() + ": language identification needs two or more languages with at least 1000 usable "
                                "messages; found 0 (no gettext catalogues under LANG/LC_MESSAGES/)");
    CHECK_THROWS_AS(langidDataset(tree.root(), {}, 0, 1), ConfigError);
}

TEST_CASE("The system's catalogues, where there are any, read without problems", "[gettext][needs-locales]") {
    const std::string root = test::systemDataDir("ATTNLAB_TEST_LOCALE_DIR", "/usr/share/locale");
    if (gettextCatalogues(root, "fr").empty()) ATTNLAB_SKIP("no French catalogues under " << root);
    GettextReport report;
    const auto pairs = gettextTranslationPairs(root, "fr", report);
    CHECK(pairs.size() > 100);
    std::set<std::string> english;
    for (const auto& p : pairs) {
        CHECK(english.insert(p.english).second);
        CHECK(findInvalidUtf8(p.translation) == std::string::npos);
        CHECK(p.english.find_first_of("\t\n") == std::string::npos);
        CHECK(p.translation.find_first_of("\t\n") == std::string::npos);
    }
}

}  // namespace
