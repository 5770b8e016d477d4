#include "TextLines.h"

#include <cstdio>
#include <cstdlib>

#include "base/InputError.h"
#include "base/translation/ParallelCorpus.h"  // kMaxLineBytes
#include "base/Tokenizer.h"

namespace attnlab {

std::string hexByte(unsigned char b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned>(b));
    return buf;
}

LineCursor::LineCursor(const std::string& text, const std::string& name) : text_(text), name_(name) {
    auto startsWith = [&](const char* prefix, std::size_t n) { return text_.compare(0, n, prefix, n) == 0; };
    if (startsWith("\xFF\xFE", 2) || startsWith("\xFE\xFF", 2))
        throw InputError(name_, 1, "looks like UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8");
    if (startsWith("\x1F\x8B", 2)) throw InputError(name_, 1, "looks gzip-compressed; decompress it first");
    if (startsWith("\xEF\xBB\xBF", 3)) pos_ = 3;
}

bool LineCursor::next(std::string& line) {
    if (pos_ >= text_.size()) return false;
    const std::size_t newline = text_.find('\n', pos_);
    const std::size_t end = newline == std::string::npos ? text_.size() : newline;
    std::size_t length = end - pos_;
    if (length > 0 && text_[end - 1] == '\r') --length;
    ++number_;
    if (length > kMaxLineBytes)
        throw InputError(name_, number_, "line is longer than 64 KiB (" + std::to_string(length) + " bytes)");
    line.assign(text_, pos_, length);
    pos_ = newline == std::string::npos ? text_.size() : newline + 1;
    check(line);
    return true;
}

long LineCursor::countLines() const {
    const std::size_t start = text_.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    if (start >= text_.size()) return 0;
    long lines = 0;
    for (std::size_t i = start; i < text_.size(); ++i) lines += text_[i] == '\n';
    return lines + (text_.back() != '\n' ? 1 : 0);
}

void LineCursor::check(const std::string& line) const {
    for (std::size_t pos = 0; pos < line.size();) {
        const auto b = static_cast<unsigned char>(line[pos]);
        if (b >= 0x20 && b < 0x80) {
            ++pos;
            continue;
        }
        const std::string at = " at byte " + std::to_string(pos + 1);
        if (b == 0) throw InputError(name_, number_, "NUL byte" + at + " (is this a binary file?)");
        if (b == '\r')
            throw InputError(name_, number_, "carriage return inside the line" + at +
                                                 " (only LF or CRLF line ends are supported)");
        if (b < 0x80) {
            ++pos;
            continue;
        }
        const std::size_t start = pos;
        decodeUtf8(line, pos);
        if (pos == start + 1)  // every valid sequence starting with a byte >= 0x80 is 2-4 bytes long
            throw InputError(name_, number_,
                             "invalid UTF-8" + at + " (" + hexByte(b) + "); the file must be UTF-8");
    }
}

// Only the ends are decoded: the line has been validated, so stepping back over
// continuation bytes finds the start of the last code point.
std::string trim(const std::string& s) {
    std::size_t begin = 0;
    while (begin < s.size()) {
        std::size_t next = begin;
        if (!isWhitespaceCodePoint(decodeUtf8(s, next))) break;
        begin = next;
    }
    std::size_t end = s.size();
    while (end > begin) {
        std::size_t start = end - 1;
        while (start > begin && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
        std::size_t pos = start;
        if (!isWhitespaceCodePoint(decodeUtf8(s, pos))) break;
        end = start;
    }
    return s.substr(begin, end - begin);
}

bool isBlank(const std::string& s) {
    for (std::size_t pos = 0; pos < s.size();)
        if (!isWhitespaceCodePoint(decodeUtf8(s, pos))) return false;
    return true;
}

long readTwoColumns(const std::string& text, const std::string& name, const std::string& noTab,
                    const std::function<void(long)>& onBlank,
                    const std::function<void(long, const std::string&, const std::string&)>& onRow,
                    std::vector<std::string>& warnings) {
    LineCursor cursor(text, name);
    long firstExtraLine = 0, extraLines = 0;
    std::size_t firstExtraColumns = 0;
    std::string line;
    while (cursor.next(line)) {
        const long number = cursor.number();
        if (isBlank(line)) {
            onBlank(number);
            continue;
        }
        const std::size_t tab = line.find('\t');
        if (tab == std::string::npos) throw InputError(name, number, noTab);
        std::size_t secondEnd = line.find('\t', tab + 1);
        if (secondEnd != std::string::npos) {
            if (extraLines++ == 0) {
                firstExtraLine = number;
                firstExtraColumns = 1;
                for (char c : line) firstExtraColumns += c == '\t';
            }
        } else {
            secondEnd = line.size();
        }
        onRow(number, line.substr(0, tab), line.substr(tab + 1, secondEnd - tab - 1));
    }
    if (extraLines > 0) {
        // One warning for the whole file: a Tatoeba export has extra columns on every line.
        std::string warning = name + ":" + std::to_string(firstExtraLine) + ": extra columns ignored (" +
                              std::to_string(firstExtraColumns) + " found)";
        if (extraLines > 1) warning += "; " + std::to_string(extraLines) + " lines have extra columns";
        warnings.push_back(std::move(warning));
    }
    return cursor.number();
}

std::vector<std::vector<std::string>> tsvRowsFor(const std::string& text, const std::string& name, std::size_t columns,
                                                 const std::string& header, const std::vector<std::size_t>& numeric,
                                                 const std::string& key) {
    LineCursor lines(text, name);
    std::vector<std::vector<std::string>> rows;
    for (std::string line; lines.next(line);) {
        if (isBlank(line)) continue;
        std::vector<std::string> cells;
        std::size_t start = 0;
        for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
            cells.push_back(trim(line.substr(start, tab - start)));
        cells.push_back(trim(line.substr(start)));
        if (cells.size() != columns)
            throw InputError(name, lines.number(),
                             "expected " + std::to_string(columns) + " tab-separated columns (" + header + "), found " +
                                 std::to_string(cells.size()));
        for (std::size_t k : numeric) {
            const std::string& cell = cells[k];
            char* end = nullptr;
            const long v = std::strtol(cell.c_str(), &end, 10);
            if (cell.empty() || *end != '\0' || v < 0 || v > 1000000)
                throw InputError(name, lines.number(),
                                 "column " + std::to_string(k + 1) + ": '" + cell + "' is not a whole number >= 0");
        }
        if (key.empty() || cells[0] == key) rows.push_back(std::move(cells));
    }
    return rows;
}

int tsvNumber(const std::string& cell) { return static_cast<int>(std::strtol(cell.c_str(), nullptr, 10)); }

}  // namespace attnlab
