// GNU gettext catalogues, read with our own code from the layouts the GNU gettext manual
// documents:
//
// .mo ("The Format of GNU MO Files"): a header of 32-bit words in the byte order of the
// machine that wrote it, which the magic number 0x950412de tells: magic, revision (major in
// the high 16 bits; 0 and 1 are defined, 1 adds system-dependent strings we do not need), N
// strings, offset O of the originals' table, offset T of the translations' table, hash table
// size and offset (unused here). Each table holds N (length, offset) pairs; a string is
// `length` bytes at `offset` (a NUL follows, not counted). An original "ctxt\x04id" has a
// context, "id\0plural" is a plural entry (its translation is "form0\0form1..."), the empty
// original is the header (its translation holds "Content-Type: ...; charset=...").
//
// .po ("The Format of PO Files"): entries of `msgctxt`, `msgid`, `msgid_plural`, `msgstr` or
// `msgstr[N]` keywords each followed by a C string, continued by lines holding only a string;
// `#` starts a comment, `#,` lists flags (fuzzy), `#~` marks an obsolete entry.
//
// Every length and offset from a file is checked against the file's size in 64-bit arithmetic
// before it is used, so a damaged file is an InputError, never a read out of bounds.
//
// This file holds both parsers (parseMo, parsePo), readGettextFile, the charset conversion and
// the checks every entry passes before it becomes a pair (Collector); the cleaning is in
// GettextClean.cpp, catalogue discovery and the datasets in Gettext.cpp.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "base/translation/ParallelCorpus.h"  // kMaxLineBytes
#include "base/io/FileUtil.h"
#include "Gettext.h"
#include "GettextDetail.h"
#include "base/InputError.h"
#include "base/io/TextLines.h"
#include "base/Tokenizer.h"

namespace attnlab {

namespace {

using gettext_detail::hasLetter;
using gettext_detail::isAsciiDigit;
using gettext_detail::isAsciiLetter;

constexpr std::uint32_t kMoMagic = 0x950412de;
constexpr std::uint64_t kMoHeaderBytes = 28;
// A message longer than this in bytes is too long whatever cleaning would take out of it.
constexpr std::size_t kMaxRawBytes = 16 * 1024;

std::string hex32(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", static_cast<unsigned>(v));
    return buf;
}

std::size_t codePoints(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

std::size_t words(const std::string& s) {
    return s.empty() ? 0 : static_cast<std::size_t>(std::count(s.begin(), s.end(), ' ')) + 1;
}

// ---------------------------------------------------------------- charsets

enum class Charset { Utf8, Latin1, Latin9 };

// The charset a header names ("Content-Type: text/plain; charset=UTF-8"); UTF-8 if none.
// Throws InputError for one we cannot convert.
Charset headerCharset(const std::string& header, const std::string& name, long line) {
    std::string lower = header;
    for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    const std::size_t at = lower.find("charset=");
    if (at == std::string::npos) return Charset::Utf8;
    std::size_t end = at + 8;
    while (end < lower.size() && lower[end] != ' ' && lower[end] != ';' && lower[end] != '\n' && lower[end] != '\r' &&
           lower[end] != '\t')
        ++end;
    const std::string cs = lower.substr(at + 8, end - at - 8);
    // "charset" is the placeholder of a template (.pot) that nobody filled in.
    if (cs.empty() || cs == "utf-8" || cs == "utf8" || cs == "ascii" || cs == "us-ascii" || cs == "ansi_x3.4-1968" ||
        cs == "charset")
        return Charset::Utf8;
    if (cs == "iso-8859-1" || cs == "iso8859-1" || cs == "iso_8859-1" || cs == "latin1" || cs == "latin-1")
        return Charset::Latin1;
    if (cs == "iso-8859-15" || cs == "iso8859-15" || cs == "iso_8859-15" || cs == "latin9" || cs == "latin-9")
        return Charset::Latin9;
    std::string shown = header.substr(at + 8, std::min<std::size_t>(end - at - 8, 40));
    for (char& c : shown)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F) c = '?';
    throw InputError(name, line,
                     "charset " + shown +
                         " is not supported (UTF-8, ASCII, ISO-8859-1 and ISO-8859-15 are); convert it with msgconv "
                         "--to-code=UTF-8");
}

std::string toUtf8(const std::string& s, Charset charset) {
    if (charset == Charset::Utf8) return s;
    std::string out;
    out.reserve(s.size() + s.size() / 4);
    for (unsigned char b : s) {
        char32_t cp = b;
        if (charset == Charset::Latin9) {
            switch (b) {  // where ISO-8859-15 differs from ISO-8859-1
                case 0xA4: cp = 0x20AC; break;
                case 0xA6: cp = 0x0160; break;
                case 0xA8: cp = 0x0161; break;
                case 0xB4: cp = 0x017D; break;
                case 0xB8: cp = 0x017E; break;
                case 0xBC: cp = 0x0152; break;
                case 0xBD: cp = 0x0153; break;
                case 0xBE: cp = 0x0178; break;
                default: break;
            }
        }
        appendUtf8(out, cp);
    }
    return out;
}

// ---------------------------------------------------------------- collecting pairs

// The pairs of one catalogue and its report; applies the content checks (after the structural
// ones, which each parser makes) and the deduplication.
class Collector {
public:
    explicit Collector(GettextReport& report) : report_(report) {}

    void skip(GettextSkip reason) { ++report_.skipped[reason]; }

    // An entry that is one message with one translation, both UTF-8.
    void offer(const std::string& rawEnglish, const std::string& rawTranslation) {
        if (rawTranslation.empty()) return skip(GettextSkip::Untranslated);
        // Far too long to clean down to a sentence, and not worth cleaning (a --help text, a licence).
        if (rawEnglish.size() > kMaxRawBytes || rawTranslation.size() > kMaxRawBytes) return skip(GettextSkip::TooLong);
        if (findInvalidUtf8(rawEnglish) != std::string::npos || findInvalidUtf8(rawTranslation) != std::string::npos)
            return skip(GettextSkip::InvalidUtf8);
        GettextPair pair{cleanGettextMessage(rawEnglish), cleanGettextMessage(rawTranslation)};
        if (!hasLetter(pair.english) || !hasLetter(pair.translation)) return skip(GettextSkip::NoLetters);
        for (const std::string* side : {&pair.english, &pair.translation})
            if (codePoints(*side) > kMaxGettextChars || words(*side) > kMaxGettextWords) return skip(GettextSkip::TooLong);
        if (!seen_.insert(pair.english).second) return skip(GettextSkip::Duplicate);
        ++report_.kept;
        pairs_.push_back(std::move(pair));
    }

    std::vector<GettextPair> take() { return std::move(pairs_); }

private:
    GettextReport& report_;
    std::unordered_set<std::string> seen_;
    std::vector<GettextPair> pairs_;
};

// ---------------------------------------------------------------- .mo

class MoReader {
public:
    MoReader(const std::string& bytes, const std::string& name) : bytes_(bytes), name_(name) {
        const std::uint64_t size = bytes_.size();
        if (size < 4) fail("truncated header (" + std::to_string(size) + " bytes; a .mo file starts with a 28-byte header)");
        const std::uint32_t little = word(0, false);
        if (little == kMoMagic) {
            big_ = false;
        } else if (word(0, true) == kMoMagic) {
            big_ = true;
        } else {
            fail("wrong magic number " + hex32(little) + " (not a GNU .mo file; expected 0x950412de in either byte order)");
        }
        if (size < kMoHeaderBytes)
            fail("truncated header (" + std::to_string(size) + " bytes; a .mo file starts with a 28-byte header)");
        const std::uint32_t revision = word(4);
        if ((revision >> 16) > 1)
            fail("unsupported .mo revision " + std::to_string(revision >> 16) + "." + std::to_string(revision & 0xFFFF) +
                 " (major revisions 0 and 1 are defined)");
        count_ = word(8);
        originals_ = word(12);
        translations_ = word(16);
        // Each string takes 8 bytes in each table: more than size / 16 cannot be there.
        if (count_ > (size - kMoHeaderBytes) / 16)
            fail("absurd string count " + std::to_string(count_) + " for a file of " + std::to_string(size) + " bytes");
        checkTable("original", originals_);
        checkTable("translation", translations_);
    }

    std::uint32_t count() const { return count_; }
    std::string original(std::uint32_t i) const { return string("original", originals_, i); }
    std::string translation(std::uint32_t i) const { return string("translation", translations_, i); }

private:
    [[noreturn]] void fail(const std::string& reason) const { throw InputError(name_, 0, reason); }

    // The 32-bit word at `offset`; the caller has checked offset + 4 <= size.
    std::uint32_t word(std::uint64_t offset) const { return word(offset, big_); }
    std::uint32_t word(std::uint64_t offset, bool big) const {
        std::uint32_t v = 0;
        for (int k = 0; k < 4; ++k) {
            const auto b = static_cast<unsigned char>(bytes_[static_cast<std::size_t>(offset) + static_cast<std::size_t>(k)]);
            v |= static_cast<std::uint32_t>(b) << (big ? 8 * (3 - k) : 8 * k);
        }
        return v;
    }

    void checkTable(const char* which, std::uint32_t offset) const {
        const std::uint64_t end = static_cast<std::uint64_t>(offset) + 8ull * count_;
        if (end > bytes_.size())
            fail(std::string("table of ") + which + " strings (" + std::to_string(count_) + " entries at offset " +
                 std::to_string(offset) + ") runs past the end of the file (" + std::to_string(bytes_.size()) + " bytes)");
    }

    std::string string(const char* which, std::uint32_t table, std::uint32_t i) const {
        const std::uint64_t entry = static_cast<std::uint64_t>(table) + 8ull * i;
        const std::uint32_t length = word(entry), offset = word(entry + 4);
        if (static_cast<std::uint64_t>(offset) + length > bytes_.size())
            fail(std::string(which) + " string " + std::to_string(i) + " (" + std::to_string(length) +
                 " bytes at offset " + std::to_string(offset) + ") runs past the end of the file (" +
                 std::to_string(bytes_.size()) + " bytes)");
        return bytes_.substr(offset, length);
    }

    const std::string& bytes_;
    const std::string& name_;
    bool big_ = false;
    std::uint32_t count_ = 0, originals_ = 0, translations_ = 0;
};

// ---------------------------------------------------------------- .po

// The lines of a .po file, with the corpus readers' checks (TextLines.h).
using PoLines = LineCursor;

struct PoEntry {
    bool hasContext = false, hasId = false, hasPlural = false, fuzzy = false, obsolete = false;
    std::string context, id, plural;
    std::vector<std::string> strs;  // msgstr, or msgstr[0], msgstr[1], ...
    long line = 0;                  // of its first keyword
    bool empty() const { return !hasContext && !hasId && strs.empty(); }
};

class PoParser {
public:
    PoParser(const std::string& text, const std::string& name, Collector& out, GettextReport& report)
        : lines_(text, name), name_(name), out_(out), report_(report) {}

    void run() {
        std::string line;
        while (lines_.next(line)) {
            line_ = lines_.number();
            std::size_t pos = skipSpaces(line, 0);
            if (pos == line.size()) {  // blank: ends a string's continuation
                target_ = nullptr;
                continue;
            }
            bool obsolete = false;
            if (line[pos] == '#') {
                if (pos + 1 < line.size() && line[pos + 1] == '~') {
                    pos += 2;
                    if (pos < line.size() && line[pos] == '|') {  // the previous msgid of an obsolete entry
                        target_ = nullptr;
                        continue;
                    }
                    pos = skipSpaces(line, pos);
                    if (pos == line.size()) continue;
                    obsolete = true;
                } else {
                    comment(line, pos);
                    continue;
                }
            }
            if (line[pos] == '"') {
                if (!target_) fail("a string with no keyword (msgid, msgstr, ...) before it");
                *target_ += readString(line, pos);
                continue;
            }
            keyword(line, pos, obsolete);
        }
        line_ = lines_.number();
        if (entry_.hasContext && !entry_.hasId) fail(entry_.line, "msgctxt without msgid");
        if (entry_.hasId && entry_.strs.empty()) fail(entry_.line, "msgid without msgstr");
        finish();
    }

private:
    [[noreturn]] void fail(const std::string& reason) const { throw InputError(name_, line_, reason); }
    [[noreturn]] void fail(long line, const std::string& reason) const { throw InputError(name_, line, reason); }

    static std::size_t skipSpaces(const std::string& s, std::size_t pos) {
        while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t')) ++pos;
        return pos;
    }

    // A comment; "#," flags belong to the entry that follows.
    void comment(const std::string& line, std::size_t pos) {
        target_ = nullptr;
        if (!entry_.strs.empty()) finish();  // a comment after a msgstr starts the next entry
        if (line.compare(pos, 2, "#,") != 0) return;
        std::size_t start = pos + 2;
        while (start <= line.size()) {
            std::size_t end = line.find(',', start);
            if (end == std::string::npos) end = line.size();
            std::size_t a = skipSpaces(line, start), b = end;
            while (b > a && (line[b - 1] == ' ' || line[b - 1] == '\t')) --b;
            if (line.compare(a, b - a, "fuzzy") == 0 && b - a == 5) fuzzyNext_ = true;
            start = end + 1;
        }
    }

    void keyword(const std::string& line, std::size_t pos, bool obsolete) {
        std::size_t end = pos;
        while (end < line.size() && (isAsciiLetter(line[end]) || line[end] == '_' || isAsciiDigit(line[end]) ||
                                     line[end] == '[' || line[end] == ']'))
            ++end;
        const std::string word = line.substr(pos, end - pos);
        if (word.empty())
            fail("expected a keyword (msgctxt, msgid, msgid_plural, msgstr) or a string, found " + shown(line, pos));
        const std::size_t stringAt = skipSpaces(line, end);
        if (stringAt == line.size() || line[stringAt] != '"') {
            if (word == "msgctxt" || word == "msgid" || word == "msgid_plural" || word.rfind("msgstr", 0) == 0)
                fail("expected a string after " + word);
            fail("unknown keyword '" + word.substr(0, 40) + "'");
        }
        std::size_t at = stringAt;
        std::string value = readString(line, at);

        if (word == "msgctxt" || word == "msgid") {
            if (!entry_.strs.empty()) finish();
            if (word == "msgctxt") {
                if (entry_.hasContext || entry_.hasId)
                    fail(entry_.line, entry_.hasId ? "msgid without msgstr" : "msgctxt without msgid");
                begin(obsolete);
                entry_.hasContext = true;
                entry_.context = std::move(value);
                target_ = &entry_.context;
            } else {
                if (entry_.hasId) fail(entry_.line, "msgid without msgstr");
                if (!entry_.hasContext) begin(obsolete);
                entry_.hasId = true;
                entry_.id = std::move(value);
                target_ = &entry_.id;
            }
        } else if (word == "msgid_plural") {
            if (!entry_.hasId || !entry_.strs.empty() || entry_.hasPlural) fail("msgid_plural without msgid");
            entry_.hasPlural = true;
            entry_.plural = std::move(value);
            target_ = &entry_.plural;
        } else if (word == "msgstr" || isIndexedMsgstr(word)) {
            if (!entry_.hasId) fail("msgstr without msgid");
            if (word == "msgstr" && !entry_.strs.empty()) fail("a second msgstr in one entry");
            entry_.strs.push_back(std::move(value));
            target_ = &entry_.strs.back();
        } else {
            fail("unknown keyword '" + word.substr(0, 40) + "'");
        }
    }

    static bool isIndexedMsgstr(const std::string& w) {
        if (w.size() < 9 || w.compare(0, 7, "msgstr[") != 0 || w.back() != ']') return false;
        for (std::size_t k = 7; k + 1 < w.size(); ++k)
            if (!isAsciiDigit(w[k])) return false;
        return true;
    }

    // The whole code point at line[pos], for a message.
    static std::string codePointAt(const std::string& line, std::size_t pos) {
        std::size_t end = pos;
        decodeUtf8(line, end);
        return line.substr(pos, end - pos);
    }

    static std::string shown(const std::string& line, std::size_t pos) {
        std::size_t end = pos;
        const std::size_t limit = std::min(line.size(), pos + 20);
        while (end < limit) decodeUtf8(line, end);  // whole code points
        return "'" + line.substr(pos, end - pos) + (end < line.size() ? "...'" : "'");
    }

    void begin(bool obsolete) {
        entry_ = PoEntry{};
        entry_.obsolete = obsolete;
        entry_.fuzzy = fuzzyNext_;
        entry_.line = line_;
        fuzzyNext_ = false;
    }

    // The C string starting at line[pos] ('"'); moves pos past it and refuses anything after it.
    std::string readString(const std::string& line, std::size_t& pos) {
        std::string out;
        std::size_t i = pos + 1;
        for (;;) {
            if (i >= line.size()) fail("unterminated string (no closing \")");
            const char c = line[i];
            if (c == '"') break;
            if (c != '\\') {
                out += c;
                ++i;
                continue;
            }
            if (i + 1 >= line.size()) fail("unterminated string (a \\ ends the line)");
            const char e = line[i + 1];
            i += 2;
            switch (e) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'a': out += '\a'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'v': out += '\v'; break;
                case '\\': out += '\\'; break;
                case '"': out += '"'; break;
                case '\'': out += '\''; break;
                case '?': out += '?'; break;
                case 'x': {
                    int value = 0, n = 0;
                    for (; n < 2 && i < line.size() && std::isxdigit(static_cast<unsigned char>(line[i])); ++n, ++i) {
                        const char h = line[i];
                        value = value * 16 + (isAsciiDigit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
                    }
                    if (n == 0) fail("invalid escape \\x without hex digits");
                    if (value == 0) fail("invalid escape \\x00 (a NUL byte)");
                    out += static_cast<char>(value);
                    break;
                }
                default: {
                    if (e < '0' || e > '7') fail("invalid escape \\" + codePointAt(line, i - 1));
                    int value = e - '0';
                    for (int n = 1; n < 3 && i < line.size() && line[i] >= '0' && line[i] <= '7'; ++n, ++i)
                        value = value * 8 + (line[i] - '0');
                    if (value == 0) fail("invalid escape \\0 (a NUL byte)");
                    if (value > 0xFF) fail("invalid escape: octal value over 0377");
                    out += static_cast<char>(value);
                    break;
                }
            }
        }
        pos = skipSpaces(line, i + 1);
        if (pos != line.size()) fail("unexpected text after the string: " + shown(line, pos));
        return out;
    }

    void finish() {
        if (entry_.empty()) return;
        const PoEntry e = std::move(entry_);
        entry_ = PoEntry{};
        target_ = nullptr;
        ++report_.entries;
        for (const std::string* s : {&e.context, &e.id, &e.plural})
            if (findInvalidUtf8(*s) != std::string::npos) fail(e.line, "invalid UTF-8 in a string (made by an escape)");
        for (const std::string& s : e.strs)
            if (findInvalidUtf8(s) != std::string::npos) fail(e.line, "invalid UTF-8 in a string (made by an escape)");
        if (e.obsolete) return out_.skip(GettextSkip::Obsolete);
        if (!e.hasContext && e.id.empty()) {
            headerCharset(e.strs.front(), name_, e.line);  // refuses what we cannot read; the rest is UTF-8
            return out_.skip(GettextSkip::Header);
        }
        if (e.hasContext) return out_.skip(GettextSkip::Context);
        if (e.hasPlural || e.strs.size() > 1) return out_.skip(GettextSkip::Plural);
        if (e.fuzzy) return out_.skip(GettextSkip::Fuzzy);
        out_.offer(e.id, e.strs.front());
    }

    PoLines lines_;
    const std::string& name_;
    Collector& out_;
    GettextReport& report_;
    PoEntry entry_;
    std::string* target_ = nullptr;  // the string a continuation line extends
    bool fuzzyNext_ = false;
    long line_ = 0;
};

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::vector<GettextPair> parseMo(const std::string& bytes, const std::string& name, GettextReport& report) {
    const MoReader mo(bytes, name);
    // Every string is checked before any pair is made: a damaged file gives nothing but its error.
    std::vector<std::pair<std::string, std::string>> entries;
    entries.reserve(mo.count());
    for (std::uint32_t i = 0; i < mo.count(); ++i) entries.emplace_back(mo.original(i), mo.translation(i));

    Charset charset = Charset::Utf8;
    for (const auto& [original, translation] : entries)
        if (original.empty()) charset = headerCharset(translation, name, 0);

    GettextReport local;
    Collector out(local);
    for (const auto& [original, translation] : entries) {
        ++local.entries;
        if (original.empty()) {
            out.skip(GettextSkip::Header);
        } else if (original.find('\x04') != std::string::npos) {
            out.skip(GettextSkip::Context);
        } else if (original.find('\0') != std::string::npos || translation.find('\0') != std::string::npos) {
            out.skip(GettextSkip::Plural);
        } else {
            out.offer(toUtf8(original, charset), toUtf8(translation, charset));
        }
    }
    ++local.catalogues;
    report.merge(local);
    return out.take();
}

std::vector<GettextPair> parsePo(const std::string& text, const std::string& name, GettextReport& report) {
    GettextReport local;
    Collector out(local);
    PoParser(text, name, out, local).run();
    ++local.catalogues;
    report.merge(local);  // only for a file that parsed: a refused one adds nothing
    return out.take();
}

std::vector<GettextPair> readGettextFile(const std::string& path, GettextReport& report) {
    const std::string bytes = readFileLimited(path, kMaxGettextFileBytes);
    bool mo = endsWith(path, ".mo");
    if (!mo && !endsWith(path, ".po") && !endsWith(path, ".pot") && bytes.size() >= 4) {
        const auto b = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
        mo = (b(0) == 0xde && b(1) == 0x12 && b(2) == 0x04 && b(3) == 0x95) ||
             (b(0) == 0x95 && b(1) == 0x04 && b(2) == 0x12 && b(3) == 0xde);
    }
    return mo ? parseMo(bytes, path, report) : parsePo(bytes, path, report);
}

}  // namespace attnlab
