#pragma once
// GNU gettext catalogues as data: the English messages of a program and their translations,
// read from `.mo` (binary) and `.po` (text) files with our own code over the formats the GNU
// gettext manual documents (sections "The Format of PO Files" and "The Format of GNU MO Files").
// Every Linux desktop has thousands under /usr/share/locale/LANG/LC_MESSAGES/, which gives a
// translation corpus (English -> LANG message pairs) and a language identification dataset.
//
// What is kept is a pair of plain sentences: entries that are not one English message with one
// translation are skipped and counted (GettextSkip), and both sides are cleaned of what a user
// never reads (cleanGettextMessage).
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/text/ClassifyCorpus.h"

namespace attnlab {

struct GettextPair {
    std::string english;      // msgid, cleaned
    std::string translation;  // msgstr, cleaned
};

// Why an entry gives no pair, in the order the checks run (the first that applies counts).
enum class GettextSkip {
    Obsolete,      // a `#~` entry of a .po file
    Header,        // the catalogue's header (msgid "")
    Context,       // has a msgctxt (in a .mo: the key holds "\x04")
    Plural,        // has msgid_plural (in a .mo: the key holds a NUL)
    Fuzzy,         // flagged `#, fuzzy` (.po; msgfmt leaves them out of a .mo)
    Untranslated,  // empty msgstr
    InvalidUtf8,   // a .mo string that is not valid UTF-8 after charset conversion
    NoLetters,     // after cleaning, one side has no letter ("%s: %s", "100%", "...")
    TooLong,       // after cleaning, one side is over kMaxGettextChars code points or kMaxGettextWords words
                   // (or was over 16 KiB before it)
    Duplicate,     // the same cleaned English as an earlier pair (the first one is kept)
};
inline constexpr int kGettextSkipCount = 10;
// "obsolete", "header", "context", "plural", "fuzzy", "untranslated", "invalid UTF-8",
// "no letters", "too long", "duplicate".
const char* toString(GettextSkip reason);

// Longer messages are paragraphs (--help texts, licences), not sentences to learn from.
inline constexpr std::size_t kMaxGettextChars = 200;
inline constexpr std::size_t kMaxGettextWords = 30;
// Larger files are refused before reading (the largest catalogue on a desktop is ~1 MiB).
inline constexpr std::uint64_t kMaxGettextFileBytes = 64ull * 1024 * 1024;

struct GettextReport {
    long entries = 0;                      // entries seen, the header included
    long kept = 0;                         // pairs returned
    std::map<GettextSkip, long> skipped;   // count by reason (reasons that occurred only)
    long catalogues = 0;                   // files read
    std::vector<std::string> problems;     // files that could not be read: "FILE: reason" (multi-file calls)

    long count(GettextSkip reason) const;  // 0 if none
    void merge(const GettextReport& other);
};

// Cleans one message as it would be read on screen: removes accelerators (GTK "_Open" and Qt
// "&Open"; "&&" is a literal "&"; a CJK-style "(_O)" or "(&O)" suffix goes whole), format
// directives (printf "%s %d %1$s %-5.2f %lu %<PRIu64>", "%%" becomes "%"; Qt "%1"; Python
// "%(name)s"; brace "{0}" "{name}" "{0:>5}"), markup tags of Pango/HTML/Qt rich text ("<b>",
// "</span>", "<a href=...>": known tag names only, so "cp <source> <dest>" keeps its
// placeholders), XML entities ("&amp;" -> "&", "&#233;" -> "é"); then control characters, tabs,
// newlines and every Unicode space become one space, runs of spaces collapse, both ends are
// trimmed. A GTK "_" counts as an accelerator only if it is the message's one underscore and a
// letter follows: at the start of a word, or inside one in a short label starting with a capital
// ("E_xit"); identifiers keep theirs ("LC_ALL", "obey_child is FALSE", "it_lld").
std::string cleanGettextMessage(const std::string& message);

// Parses a .mo file's bytes (either byte order; revisions 0 and 1). Throws InputError(name, 0,
// reason) for a wrong magic number, a truncated header, an unknown major revision, a string
// count the file has no room for, tables or strings past the end of the file, an unsupported
// charset (UTF-8, ASCII, ISO-8859-1 and ISO-8859-15 are read) and an invalid header. Never
// reads outside `bytes`.
std::vector<GettextPair> parseMo(const std::string& bytes, const std::string& name, GettextReport& report);

// Parses a .po file's text: msgctxt, msgid, msgid_plural, msgstr, msgstr[N], "..." continuation
// lines with C escapes (\n \t \" \\ \a \b \f \v \r \? \' octal \NNN, hex \xHH), `#` comments,
// `#, fuzzy` flags, `#~` obsolete entries, a BOM and CRLF. Throws InputError(name, line,
// reason) for an unterminated string, an invalid escape, text after a string, a string with no
// keyword before it, an unknown keyword, a msgstr without msgid (and a msgid without msgstr),
// invalid UTF-8, a NUL byte, a line over 64 KiB, and an unsupported charset in the header.
std::vector<GettextPair> parsePo(const std::string& text, const std::string& name, GettextReport& report);

// Reads a .mo or .po file: a name ending in ".mo" is read as .mo, ".po" or ".pot" as .po, any
// other by its first bytes (the .mo magic number or not). Refuses a file over
// kMaxGettextFileBytes. Adds to `report` (catalogues counts one more).
std::vector<GettextPair> readGettextFile(const std::string& path, GettextReport& report);

// LOCALEROOT/LANG/LC_MESSAGES/*.mo, sorted; empty if there are none.
std::vector<std::string> gettextCatalogues(const std::string& localeRoot, const std::string& lang);

// The LANG directories of localeRoot that hold at least one .mo catalogue, sorted.
std::vector<std::string> gettextLanguages(const std::string& localeRoot);

// Where Linux systems keep their catalogues.
inline constexpr const char* kDefaultLocaleDir = "/usr/share/locale";

// The default langid languages: of twelve distinct languages most Linux systems carry translations
// for (de es fr it ja ko nl pl pt_BR ru sv zh_CN), those installed under localeRoot.
std::vector<std::string> defaultLangidLanguages(const std::string& localeRoot);

// English -> LANG pairs over all of that language's catalogues, deduplicated by English (the
// first catalogue in name order wins; later copies count as Duplicate). A catalogue that cannot
// be read is left out and named in report.problems. Throws InputError(LOCALEROOT/LANG/LC_MESSAGES,
// 0, reason) when the language has no catalogue (listing some installed languages).
std::vector<GettextPair> gettextTranslationPairs(const std::string& localeRoot, const std::string& lang,
                                                 GettextReport& report);

// Languages the default langid dataset uses must have at least this many usable messages.
inline constexpr std::size_t kLangidMinMessages = 1000;

struct LangidLanguage {
    std::string code;     // LANG, the label
    long available = 0;   // usable messages (after the drops below)
    long used = 0;        // examples in the dataset
};

struct LangidReport {
    std::vector<LangidLanguage> used;      // the labels, sorted by code
    std::vector<LangidLanguage> leftOut;   // default selection only: fewer than kLangidMinMessages
    long sameAsEnglish = 0;                // translations identical to their English, dropped
    long shared = 0;                       // texts found in more than one language, dropped from all
    GettextReport gettext;                 // over every catalogue read
};

// A classification corpus of translated messages labelled by their language code. `languages`
// empty: every installed language but English and its variants ("en", "en_GB", "en@quot") with
// at least kLangidMinMessages usable messages; else exactly those (each must have a catalogue
// and at least one usable message). A translation identical to its English and a text that
// occurs in two languages ("OK", "Linux") are dropped: neither tells a language. At most
// `perLanguage` messages per language (> 0), sampled by the seed; the examples are shuffled by
// the seed. Throws InputError naming the locale root when fewer than two languages are
// available, saying which were found, and ConfigError for perLanguage 0.
ClassificationCorpus langidDataset(const std::string& localeRoot, const std::vector<std::string>& languages,
                                   std::size_t perLanguage, std::uint64_t seed, LangidReport* report = nullptr);

}  // namespace attnlab
