#include "base/lm/LmFortunes.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <system_error>
#include <unordered_set>
#include <utility>

#include "base/InputError.h"
#include "base/Tokenizer.h"  // decodeUtf8, appendUtf8, findInvalidUtf8
#include "base/io/FileUtil.h"

namespace attnlab {

namespace {

// The accented letter an accent mark struck over `letter` makes, or 0 when there is none.
char32_t fortuneAccented(char32_t accent, char32_t letter) {
    struct Accent {
        char32_t mark;
        const char32_t* bases;
        const char32_t* accented;
    };
    static const Accent accents[] = {
        {U'\'', U"aeiouyAEIOUY", U"\u00e1\u00e9\u00ed\u00f3\u00fa\u00fd\u00c1\u00c9\u00cd\u00d3\u00da\u00dd"},
        {U'`', U"aeiouAEIOU", U"\u00e0\u00e8\u00ec\u00f2\u00f9\u00c0\u00c8\u00cc\u00d2\u00d9"},
        {U'^', U"aeiouAEIOU", U"\u00e2\u00ea\u00ee\u00f4\u00fb\u00c2\u00ca\u00ce\u00d4\u00db"},
        {U'"', U"aeiouyAEIOU", U"\u00e4\u00eb\u00ef\u00f6\u00fc\u00ff\u00c4\u00cb\u00cf\u00d6\u00dc"},
        {U',', U"cC", U"\u00e7\u00c7"},
        {U'~', U"anoANO", U"\u00e3\u00f1\u00f5\u00c3\u00d1\u00d5"},
    };
    for (const Accent& a : accents) {
        if (a.mark != accent) continue;
        for (std::size_t i = 0; a.bases[i] != 0; ++i)
            if (a.bases[i] == letter) return a.accented[i];
    }
    return 0;
}

bool fortuneIsAccentMark(char32_t c) { return c == U'\'' || c == U'`' || c == U'^' || c == U'"' || c == U',' || c == U'~'; }

bool fortuneIsLetter(char32_t c) { return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z'); }

// What a typewriter leaves when `later` is struck over `earlier`.
char32_t fortuneOverstrike(char32_t earlier, char32_t later) {
    if (earlier == later || later == U' ' || later == U'_') return earlier;
    if (earlier == U' ' || earlier == U'_') return later;
    if (fortuneIsAccentMark(earlier) && fortuneIsLetter(later)) {
        const char32_t a = fortuneAccented(earlier, later);
        return a != 0 ? a : later;
    }
    if (fortuneIsLetter(earlier) && fortuneIsAccentMark(later)) {
        const char32_t a = fortuneAccented(later, earlier);
        return a != 0 ? a : earlier;
    }
    return later;  // as col -b
}

// The code points of a line as printed: backspaces step back a column and the next character is
// struck over the one there; bells ring and leave nothing.
void fortunePrintLine(const std::vector<char32_t>& line, std::vector<char32_t>& out) {
    std::vector<char32_t> cells;
    std::size_t column = 0;
    for (const char32_t c : line) {
        if (c == U'\b') {
            if (column > 0) --column;
        } else if (c == U'\a') {
            continue;
        } else if (column < cells.size()) {
            cells[column] = fortuneOverstrike(cells[column], c);
            ++column;
        } else {
            cells.push_back(c);
            ++column;
        }
    }
    out.insert(out.end(), cells.begin(), cells.end());
}

bool fortuneIsSpace(char32_t c) { return c == U' ' || c == U'\t' || c == U'\n'; }

// A fortune file's entries: the text between lines holding only "%" ("%\r" too), each with its lines
// joined by "\n". Blank entries (a file that starts with "%", two "%" lines in a row) are left out.
std::vector<std::string> fortuneEntries(const std::string& text) {
    std::vector<std::string> entries;
    std::string entry;
    bool blank = true;
    auto flush = [&] {
        if (!blank) entries.push_back(entry);
        entry.clear();
        blank = true;
    };
    std::size_t start = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // a BOM
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        if (line == "%" || line == "%\r") {
            flush();
            continue;
        }
        if (!entry.empty() || !blank) entry += '\n';
        entry += line;
        if (line.find_first_not_of(" \t\r") != std::string::npos) blank = false;
    }
    flush();
    return entries;
}

bool fortuneIsFile(const std::filesystem::directory_entry& e) {
    std::error_code ec;
    if (e.symlink_status(ec).type() != std::filesystem::file_type::regular || ec) return false;
    const std::string name = e.path().filename().string();
    auto endsWith = [&](const std::string& tail) {
        return name.size() >= tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
    };
    return !name.empty() && name[0] != '.' && !endsWith(".dat") && !endsWith(".u8") && name != "ascii-art";
}

const char* const kFortunesInstall = "install Debian's packages: sudo apt-get install fortunes fortunes-min";

}  // namespace

CleanFortune cleanFortune(const std::string& entry) {
    CleanFortune result;
    if (findInvalidUtf8(entry) != std::string::npos) {
        result.verdict = FortuneVerdict::NotUtf8;
        return result;
    }
    std::vector<char32_t> cps;
    cps.reserve(entry.size());
    for (std::size_t pos = 0; pos < entry.size();) cps.push_back(decodeUtf8(entry, pos));
    bool struck = false;
    for (std::size_t i = 0; i < cps.size(); ++i) {
        const char32_t c = cps[i];
        const char32_t next = i + 1 < cps.size() ? cps[i + 1] : 0;
        const bool latinPair = (c == 0xC2 || c == 0xC3) && next >= 0x80 && next <= 0xBF;  // "Â£", "Ã©"
        const bool cp1252Pair = c == 0xE2 && next == 0x20AC;  // "â€": U+2018..U+201D, U+2026... read as CP1252
        if ((c >= 0x80 && c <= 0x9F) || latinPair || cp1252Pair) {
            result.verdict = FortuneVerdict::Mangled;
            return result;
        }
    }
    for (std::size_t i = 0; i < cps.size(); ++i) {
        const char32_t c = cps[i];
        if (c == U'\b' || c == U'\a') {
            struck = true;
        } else if (c == U'\r' && (i + 1 == cps.size() || cps[i + 1] == U'\n')) {
            cps[i] = U' ';  // CRLF: white space, gone below
        } else if ((c < 0x20 && c != U'\t' && c != U'\n') || c == 0x7F) {
            result.verdict = FortuneVerdict::Control;
            return result;
        }
    }
    std::vector<char32_t> printed;
    printed.reserve(cps.size());
    if (struck) {
        std::vector<char32_t> line;
        for (std::size_t i = 0; i <= cps.size(); ++i) {
            if (i == cps.size() || cps[i] == U'\n') {
                fortunePrintLine(line, printed);
                line.clear();
                if (i < cps.size()) printed.push_back(U'\n');
            } else {
                line.push_back(cps[i]);
            }
        }
    } else {
        printed = std::move(cps);
    }
    bool space = false;
    for (const char32_t c : printed) {
        if (fortuneIsSpace(c)) {
            space = true;
            continue;
        }
        if (space && !result.text.empty()) result.text += ' ';
        space = false;
        appendUtf8(result.text, c);
    }
    result.verdict = result.text.empty() ? FortuneVerdict::Empty : struck ? FortuneVerdict::Cleaned : FortuneVerdict::Kept;
    return result;
}

std::vector<std::string> readFortunes(const std::string& folder, FortuneReport& report) {
    namespace fs = std::filesystem;
    report = {};
    std::error_code ec;
    std::vector<fs::path> files;
    if (fs::is_directory(folder, ec)) {
        for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
            if (fortuneIsFile(*it)) files.push_back(it->path());
    }
    if (files.empty())
        throw InputError(folder, 0, std::string("no fortunes here (Debian's fortunes are not installed); ") +
                                        kFortunesInstall);
    std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) {
        return a.filename().string() < b.filename().string();
    });
    std::vector<std::string> documents;
    std::unordered_set<std::string> seen;
    std::uint64_t bytes = 0;
    for (const fs::path& file : files) {
        const std::string text = readFileLimited(file.string(), kMaxLmTextBytes);
        bytes += text.size();
        if (bytes > kMaxLmTextBytes)
            throw InputError(file.string(), 0,
                             "the fortunes up to this file are over " + std::to_string(kMaxLmTextBytes >> 20) + " MiB");
        ++report.files;
        for (const std::string& entry : fortuneEntries(text)) {
            ++report.entries;
            CleanFortune f = cleanFortune(entry);
            switch (f.verdict) {
                case FortuneVerdict::Empty: ++report.empty; continue;
                case FortuneVerdict::NotUtf8: ++report.notUtf8; continue;
                case FortuneVerdict::Mangled: ++report.mangled; continue;
                case FortuneVerdict::Control: ++report.control; continue;
                case FortuneVerdict::Kept:
                case FortuneVerdict::Cleaned: break;
            }
            if (!seen.insert(f.text).second) {
                ++report.duplicates;
                continue;
            }
            if (f.verdict == FortuneVerdict::Cleaned) ++report.cleaned;
            for (const char c : f.text) report.characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
            documents.push_back(std::move(f.text));
        }
    }
    report.kept = documents.size();
    if (documents.empty())
        throw InputError(folder, 0, "no fortune left to read (" + describeFortunes(report) + ")");
    return documents;
}

LmCorpus lmFortunes(const std::string& folder, LmTokenKind kind, int context, const LmTextOptions& options,
                    FortuneReport* report) {
    FortuneReport local;
    const std::vector<std::string> documents = readFortunes(folder, report != nullptr ? *report : local);
    std::string text;
    for (const std::string& d : documents) {
        text += d;
        text += '\n';
    }
    return parseLmText(text, "fortunes (" + folder + ")", kind, context, options);
}

std::string describeFortunes(const FortuneReport& r) {
    std::string s = std::to_string(r.files) + (r.files == 1 ? " file, " : " files, ") +
                    std::to_string(r.entries) + " entries, " + std::to_string(r.kept) + " documents of " +
                    std::to_string(r.characters) + " characters";
    if (r.cleaned > 0) s += " (" + std::to_string(r.cleaned) + " cleaned of overstrikes and bells)";
    std::vector<std::string> dropped;
    auto add = [&](std::size_t n, const char* what) {
        if (n > 0) dropped.push_back(std::to_string(n) + " " + what);
    };
    add(r.notUtf8, "not UTF-8");
    add(r.mangled, "with a mangled encoding");
    add(r.control, "with control characters");
    add(r.duplicates, r.duplicates == 1 ? "duplicate" : "duplicates");
    add(r.empty, "empty");
    if (!dropped.empty()) {
        s += "; dropped: ";
        for (std::size_t i = 0; i < dropped.size(); ++i) s += (i > 0 ? ", " : "") + dropped[i];
    }
    return s;
}

}  // namespace attnlab
