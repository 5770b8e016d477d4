// fuzz_gettext: the gettext readers on the raw bytes, as a .mo file and as a .po file, and
// cleanGettextMessage on them when they are valid UTF-8. A damaged catalogue must be an
// InputError naming the file (one line), never a crash or a read outside the input; the pairs
// of a catalogue that reads must be what the header promises: non-empty, valid UTF-8, cleaned
// (one space between words, no control characters, trimmed), within the length limits, one
// per English message, and counted (kept + skipped = entries).
#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "FuzzCheck.h"
#include "base/gettext/Gettext.h"
#include "base/InputError.h"
#include "base/Tokenizer.h"

namespace {

using attnlab::GettextPair;
using attnlab::GettextReport;

// What cleanGettextMessage promises for valid UTF-8.
void checkClean(const std::string& s) {
    FUZZ_CHECK(attnlab::findInvalidUtf8(s) == std::string::npos);
    FUZZ_CHECK(s.empty() || (s.front() != ' ' && s.back() != ' '));
    FUZZ_CHECK(s.find("  ") == std::string::npos);
    for (std::size_t pos = 0; pos < s.size();) {
        const char32_t cp = attnlab::decodeUtf8(s, pos);
        FUZZ_CHECK(cp >= 0x20 && cp != 0x7F && !(cp >= 0x80 && cp <= 0x9F));
        FUZZ_CHECK(cp == ' ' || !attnlab::isWhitespaceCodePoint(cp));
    }
}

std::size_t codePoints(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

void checkPairs(const std::vector<GettextPair>& pairs, const GettextReport& report) {
    FUZZ_CHECK(report.kept == static_cast<long>(pairs.size()));
    long skipped = 0;
    for (const auto& [reason, n] : report.skipped) {
        FUZZ_CHECK(n > 0);
        skipped += n;
    }
    FUZZ_CHECK(report.kept + skipped == report.entries);
    FUZZ_CHECK(report.catalogues == 1);
    std::unordered_set<std::string> english;
    for (const auto& p : pairs) {
        for (const std::string* side : {&p.english, &p.translation}) {
            FUZZ_CHECK(!side->empty());
            checkClean(*side);
            FUZZ_CHECK(codePoints(*side) <= attnlab::kMaxGettextChars);
            FUZZ_CHECK(static_cast<std::size_t>(std::count(side->begin(), side->end(), ' ')) < attnlab::kMaxGettextWords);
        }
        FUZZ_CHECK(english.insert(p.english).second);
    }
}

void checkError(const attnlab::InputError& e, const char* name, bool lines) {
    FUZZ_CHECK(e.file() == name);
    FUZZ_CHECK(lines ? e.line() >= 0 : e.line() == 0);
    FUZZ_CHECK(std::string(e.what()).find('\n') == std::string::npos);  // one line, as the CLI prints it
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes = attnlab::fuzz::bytesOf(data, size);
    try {
        GettextReport report;
        checkPairs(attnlab::parseMo(bytes, "fuzz.mo", report), report);
    } catch (const attnlab::InputError& e) {
        checkError(e, "fuzz.mo", false);
    }
    try {
        GettextReport report;
        checkPairs(attnlab::parsePo(bytes, "fuzz.po", report), report);
    } catch (const attnlab::InputError& e) {
        checkError(e, "fuzz.po", true);
    }
    if (attnlab::findInvalidUtf8(bytes) == std::string::npos) checkClean(attnlab::cleanGettextMessage(bytes));
    return 0;
}
