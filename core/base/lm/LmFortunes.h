#pragma once
// Real English prose for the language model from a Debian package: the quotations, jokes, poems and
// definitions of `fortunes` and `fortunes-min` (/usr/share/games/fortunes), the text the fortune(6)
// program prints. A fortune file is plain text, its entries separated by a line holding only "%";
// each entry is one document, its lines joined by single spaces (docs/lm.md, "Data", says why).
//
// The folder. Every regular file directly in it is a fortune file, read in byte order of the names,
// except: *.dat (strfile's binary index), *.u8 and every other symbolic link (Debian's *.u8 point at
// the files themselves), names starting with "." and the file "ascii-art" (pictures, whose meaning is
// their layout). Folders inside it (off/, the offensive fortunes of fortunes-off; the other languages'
// packages' de/, fr/, ...) are not read. The order of the documents is the files' and, inside a file,
// the entries': it depends on nothing but the folder.
//
// An entry, cleaned (cleanFortune):
//   - not valid UTF-8: dropped (NotUtf8). Debian's files are UTF-8; a Latin-1 file, whose encoding
//     can not be told from CP1252 or another, is not guessed at;
//   - mojibake (UTF-8 read as Latin-1 or CP1252 and written again): a C1 control U+0080..U+009F (the
//     bytes of "’" read as Latin-1 are "â" and two of them), "Â" or "Ã" followed by U+0080..U+00BF
//     ("Â£5" for "£5", "Ã©" for "é"), or "â€" (the start of "’", "“", "…" read as CP1252): dropped
//     (Mangled);
//   - typewriter overstrikes, nroff's underlining and accents: a backspace moves back one column and
//     the next character is struck over the one there: "_" under a character is dropped (underlined
//     "____\b\b\b\bonly" is "only"), an accent struck with a letter makes the accented letter
//     ("Honor'\be" is "Honoré", ",\bc" is "ç", "^\be" is "ê", "\"\bu" is "ü"; ' ` ^ " , ~ are
//     acute, grave, circumflex, diaeresis, cedilla and tilde), the same character twice is one
//     (bold), and otherwise the later character wins (as `col -b`). A bell (\a) is removed. An entry
//     so changed is kept and counted as Cleaned;
//   - any other control character (an ANSI escape, a form feed, a carriage return inside a line,
//     DEL): dropped (Control). A carriage return ending a line (CRLF) is accepted;
//   - white space (line breaks, tabs, runs of spaces) becomes single spaces, none at either end; an
//     entry with no text left is skipped (Empty).
// Across the folder, an entry whose cleaned text an earlier entry already had is dropped (a quotation
// filed under two subjects): the documents are distinct, so no text is both trained on and held out.
#include <cstddef>
#include <string>
#include <vector>

#include "base/lm/LmText.h"

namespace attnlab {

// Where Debian's fortunes packages put their files.
inline constexpr const char* kFortunesDir = "/usr/share/games/fortunes";

enum class FortuneVerdict {
    Kept,     // text as it was (white space aside)
    Cleaned,  // overstrikes or bells removed, then kept
    Empty,    // no text: skipped
    NotUtf8,  // dropped
    Mangled,  // dropped: mojibake
    Control,  // dropped: a control character other than tab, line feed, backspace and bell
};

struct CleanFortune {
    std::string text;  // one line of text when Kept or Cleaned, else empty
    FortuneVerdict verdict = FortuneVerdict::Empty;
};

// One entry as it stands in its file (lines separated by "\n", no "%" line) cleaned as above.
CleanFortune cleanFortune(const std::string& entry);

// What reading the folder found.
struct FortuneReport {
    std::size_t files = 0;       // fortune files read
    std::size_t entries = 0;     // entries found, the empty ones too
    std::size_t kept = 0;        // documents: distinct entries kept (cleaned ones included)
    std::size_t cleaned = 0;     // of those, the ones whose overstrikes or bells were removed
    std::size_t empty = 0;       // skipped: no text
    std::size_t notUtf8 = 0;     // dropped
    std::size_t mangled = 0;     // dropped
    std::size_t control = 0;     // dropped
    std::size_t duplicates = 0;  // dropped: the same text as an earlier entry
    std::size_t characters = 0;  // code points in the documents
};

// The folder's fortunes, one cleaned line each, in the folder's order (above). Throws InputError
// naming the folder when it is missing or holds no fortune file ("... install Debian's packages: sudo
// apt-get install fortunes fortunes-min") or when no entry is left, and naming a file that can not be
// read or whose size would take the folder's text over kMaxLmTextBytes.
std::vector<std::string> readFortunes(const std::string& folder, FortuneReport& report);

// The same as a corpus (parseLmText of the documents, one per line; `options` as there, --plain too).
// Its name is "fortunes (FOLDER)".
LmCorpus lmFortunes(const std::string& folder, LmTokenKind kind, int context, const LmTextOptions& options = {},
                    FortuneReport* report = nullptr);

// What was read, for the user: "42 files, 15207 entries, 15086 documents of 2463062 characters (99
// cleaned of overstrikes and bells); dropped: 4 with a mangled encoding, 117 duplicates" (counts of
// zero left out).
std::string describeFortunes(const FortuneReport& report);

}  // namespace attnlab
