#pragma once
// Internal to the text readers of core/base (translation corpora, classification corpora, .po
// catalogues): the lines of a UTF-8 text with the checks that make a file unusable, each refusal
// an InputError naming the file and line, and the white-space helpers the readers share.
#include <functional>
#include <string>
#include <vector>

namespace attnlab {

// "0xAB", for messages about a byte.
std::string hexByte(unsigned char b);

// Hands out the lines of a text one at a time (LF or CRLF ends, optional final newline, a leading
// UTF-8 BOM skipped; UTF-16 and gzip refused on line 1), each checked: at most 64 KiB, no NUL byte,
// no carriage return inside, valid UTF-8. `text` and `name` must outlive the cursor.
class LineCursor {
public:
    LineCursor(const std::string& text, const std::string& name);
    bool next(std::string& line);
    long number() const { return number_; }
    const std::string& name() const { return name_; }
    // Lines in the whole text, counted without checking them.
    long countLines() const;

private:
    void check(const std::string& line) const;
    const std::string& text_;
    const std::string& name_;
    std::size_t pos_ = 0;
    long number_ = 0;
};

// Strips Unicode white space (no-break and ideographic space included) from both ends of valid UTF-8.
std::string trim(const std::string& s);
// True if the valid UTF-8 text is empty or only white space.
bool isBlank(const std::string& s);

// The rows of a two-column TSV text (`first<TAB>second`): blank lines go to onBlank(line number),
// every other line to onRow(line number, first, second) untrimmed; a line without a tab is an
// InputError(name, line, noTab). Extra columns are ignored, with one warning for the whole file
// appended to `warnings` ("NAME:LINE: extra columns ignored (N found); M lines have extra columns").
// Returns the number of lines read.
long readTwoColumns(const std::string& text, const std::string& name, const std::string& noTab,
                    const std::function<void(long)>& onBlank,
                    const std::function<void(long, const std::string&, const std::string&)>& onRow,
                    std::vector<std::string>& warnings);

// The rows of a TSV text with exactly `columns` tab-separated columns whose first cell (trimmed)
// is `key` (an empty key: every row), each row's cells trimmed. Every line, kept or not, must have the columns and a whole
// number in 0..1,000,000 in each of the `numeric` columns (0-based); otherwise InputError(name,
// line, reason), the reason listing `header` (the columns' names).
std::vector<std::vector<std::string>> tsvRowsFor(const std::string& text, const std::string& name, std::size_t columns,
                                                 const std::string& header, const std::vector<std::size_t>& numeric,
                                                 const std::string& key);
// A cell that tsvRowsFor checked to be a whole number.
int tsvNumber(const std::string& cell);

}  // namespace attnlab
