// fuzz_series_csv: the forecasting task's CSV reader (base/forecast/Series.h) on the bytes, as text
// (parseCsvColumns, parseSeriesCsv for the column "y" and for up to four of the header's columns,
// each with the first column as the timestamp column when it is another), and, when a read
// succeeds, through the writer: seriesCsvText read back as text, and once per input
// writeSeriesCsv and readSeriesCsv through a file.
// Checked beyond "no crash":
//   - only InputError escapes the reader (anything else ends the process); its file() is the name
//     given, its message starts with "NAME:" and is one line, its line is 0 or a line of the file;
//   - a series that reads has 1..kMaxSeriesValues values, every one finite, no more than the file
//     has lines; timestamps empty without a timestamp column, one per value with one; its name is
//     the column and its source the name given; the header read alone lists the column;
//   - written and read back (by text and by file), the same values bit for bit (-0 included) and
//     the same timestamps, with the header "t,NAME" or "timestamp,NAME" ('_' appended while the
//     first name equals NAME).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "FuzzCheck.h"
#include "FuzzScratch.h"
#include "base/InputError.h"
#include "base/forecast/Series.h"

namespace {

using attnlab::Series;

long lineCount(const std::string& text) {
    return static_cast<long>(std::count(text.begin(), text.end(), '\n')) + (!text.empty() && text.back() != '\n');
}

void checkError(const attnlab::InputError& e, const std::string& name, const std::string& text) {
    const std::string what = e.what();
    FUZZ_CHECK(e.file() == name);
    FUZZ_CHECK(what.rfind(name + ":", 0) == 0);
    FUZZ_CHECK(what.find('\n') == std::string::npos);
    FUZZ_CHECK(what.find('\r') == std::string::npos);
    FUZZ_CHECK(e.line() >= 0 && e.line() <= std::max(1L, lineCount(text)));
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void checkSeries(const Series& s, const std::string& text, const std::string& name, const std::string& column,
                 bool withTimestamps) {
    FUZZ_CHECK(s.name == column);
    FUZZ_CHECK(s.source == name);
    FUZZ_CHECK(!s.values.empty());
    FUZZ_CHECK(s.values.size() <= attnlab::kMaxSeriesValues);
    FUZZ_CHECK(static_cast<long>(s.values.size()) < std::max(2L, lineCount(text)));  // the header is a line
    for (double v : s.values) FUZZ_CHECK(std::isfinite(v));
    FUZZ_CHECK(s.timestamps.size() == (withTimestamps ? s.values.size() : 0));
}

// Reads `text` back as a written series and compares.
void checkSame(const Series& original, const Series& again) {
    FUZZ_CHECK(again.values.size() == original.values.size());
    for (std::size_t i = 0; i < original.values.size(); ++i) FUZZ_CHECK(sameBits(again.values[i], original.values[i]));
    FUZZ_CHECK(again.timestamps == original.timestamps);
    FUZZ_CHECK(again.name == original.name);
}

Series readWritten(const std::string& written, const std::string& name, const Series& original) {
    const std::vector<std::string> header = attnlab::parseCsvColumns(written, name);
    FUZZ_CHECK(header.size() == 2);
    FUZZ_CHECK(header[1] == original.name);
    FUZZ_CHECK(header[0] != original.name);
    const std::string expectedFirst = original.timestamps.empty() ? "t" : "timestamp";
    FUZZ_CHECK(header[0].rfind(expectedFirst, 0) == 0);
    FUZZ_CHECK(header[0].find_first_not_of('_', expectedFirst.size()) == std::string::npos);
    return attnlab::parseSeriesCsv(written, name, original.name, original.timestamps.empty() ? std::string() : header[0]);
}

void roundTrip(const Series& s, bool throughFile) {
    const std::string written = attnlab::seriesCsvText(s);
    try {
        checkSame(s, readWritten(written, "written.csv", s));
        if (throughFile) {
            static const attnlab::fuzz::ScratchDir scratch;
            const std::string path = (scratch.path() / "written.csv").string();
            attnlab::writeSeriesCsv(s, path);
            const std::vector<std::string> header = attnlab::readCsvColumns(path);
            FUZZ_CHECK(header.size() == 2);
            checkSame(s, attnlab::readSeriesCsv(path, s.name, s.timestamps.empty() ? std::string() : header[0]));
        }
    } catch (const attnlab::InputError& e) {
        std::fprintf(stderr, "round trip: %s\n", e.what());
        attnlab::fuzz::invariantFailed("a series written by seriesCsvText / writeSeriesCsv reads back", __FILE__, __LINE__);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text = attnlab::fuzz::bytesOf(data, size);
    const std::string name = "fuzz.csv";
    bool wroteFile = false;

    // The fixed column "y": every seed names its value column so.
    try {
        const Series s = attnlab::parseSeriesCsv(text, name, "y");
        checkSeries(s, text, name, "y", false);
        roundTrip(s, !wroteFile);
        wroteFile = true;
    } catch (const attnlab::InputError& e) {
        checkError(e, name, text);
    }

    std::vector<std::string> columns;
    try {
        columns = attnlab::parseCsvColumns(text, name);
    } catch (const attnlab::InputError& e) {
        checkError(e, name, text);
        return 0;
    }
    FUZZ_CHECK(!columns.empty());
    for (std::size_t k = 0; k < columns.size() && k < 4; ++k) {
        const std::string& column = columns[k];
        const bool firstIsOther = k > 0 && std::count(columns.begin(), columns.end(), columns[0]) == 1;
        const std::string time = firstIsOther ? columns[0] : std::string();
        try {
            const Series s = attnlab::parseSeriesCsv(text, name, column, time);
            FUZZ_CHECK(std::count(columns.begin(), columns.end(), column) == 1);  // a duplicated name is refused
            checkSeries(s, text, name, column, !time.empty());
            roundTrip(s, !wroteFile);
            wroteFile = true;
        } catch (const attnlab::InputError& e) {
            checkError(e, name, text);
        }
    }
    return 0;
}
