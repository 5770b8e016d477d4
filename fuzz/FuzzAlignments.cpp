// fuzz_alignments: the Pharaoh reader (Alignments.h) two ways.
//   1. parsePharaoh on the bytes, against a corpus of as many pairs as the text has lines (counted
//      as documented: after a BOM, a final newline ends the last line), the pairs' word counts
//      cycling through 3x4, 0x0, 1x1, INT_MAX x INT_MAX (a skipped line), 7x2 and 12x12; and
//      against one pair more and one fewer, which must fail at the documented line.
//   2. attachAlignments on the bytes written as a file, for a corpus read from a TSV text: a
//      fixed five-line corpus (with a blank line and an empty source, which the reader skips), or,
//      if the input holds a 0xFF byte (never valid UTF-8), the bytes before it as the corpus's
//      TSV and the bytes after it as the Pharaoh file.
// Checked beyond "no crash":
//   - every error is an InputError naming the file, on one line, at a line within the file (or
//     the line after its last);
//   - the links read are those of an independent reading of the format (below): each token
//     N-N or N?N, sorted, once each, sure and possible disjoint, inside the sentence; a file the
//     reference reading refuses is refused at the same line; no more links than a link's three
//     bytes allow in the line;
//   - written back ("i-j" and "i?j", as the format says) and read again, they are the same; and
//     through writeTsvCorpus's alignment file (sure links only, as documented) and
//     readTsvCorpus + attachAlignments, the pairs and their sure links are the same.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "FuzzCheck.h"
#include "FuzzScratch.h"
#include "base/InputError.h"
#include "base/Tokenizer.h"
#include "base/translation/Alignments.h"
#include "base/translation/ParallelCorpus.h"

namespace {

using attnlab::AlignmentLink;
using attnlab::SentenceAlignment;
using Lengths = std::vector<std::pair<int, int>>;

const char kAlignName[] = "fuzz.align";

// The lines of a Pharaoh text as the format defines them: a leading BOM skipped, LF or CRLF ends,
// a final newline ends the last line (so "" is no line and "\n" one empty line).
std::vector<std::string> pharaohLines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t pos = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        const bool last = end == std::string::npos;
        if (last) end = text.size();
        std::string line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
        pos = last ? text.size() : end + 1;
    }
    return lines;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// The reference reading of one line: tokens between spaces, tabs, \v and \f; each decimal digits
// (no sign), '-' or '?', decimal digits, each number at most INT_MAX and below the sentence's word
// count. False if the line is not valid.
bool referenceLine(const std::string& line, int sourceWords, int targetWords, std::set<std::pair<int, int>>& sure,
                   std::set<std::pair<int, int>>& possible) {
    if (line.find('\r') != std::string::npos) return false;
    std::size_t pos = 0;
    while (pos < line.size()) {
        const std::size_t start = line.find_first_not_of(" \t\v\f", pos);
        if (start == std::string::npos) break;
        std::size_t end = line.find_first_of(" \t\v\f", start);
        if (end == std::string::npos) end = line.size();
        const std::string token = line.substr(start, end - start);
        pos = end;
        const std::size_t mark = token.find_first_of("-?");
        if (mark == std::string::npos) return false;
        long long value[2] = {0, 0};
        const std::string parts[2] = {token.substr(0, mark), token.substr(mark + 1)};
        for (int k = 0; k < 2; ++k) {
            if (parts[k].empty()) return false;
            for (char c : parts[k]) {
                if (!isDigit(c)) return false;
                value[k] = std::min<long long>(value[k] * 10 + (c - '0'), 1LL << 40);
            }
            if (value[k] > INT_MAX) return false;
        }
        if (value[0] >= sourceWords || value[1] >= targetWords) return false;
        (token[mark] == '-' ? sure : possible).emplace(static_cast<int>(value[0]), static_cast<int>(value[1]));
    }
    for (const auto& l : sure) possible.erase(l);
    return true;
}

std::vector<AlignmentLink> toLinks(const std::set<std::pair<int, int>>& pairs) {
    std::vector<AlignmentLink> links;
    for (const auto& [s, t] : pairs) links.push_back({s, t});
    return links;
}

// What a sentence's links must be, whoever read them.
void checkSentence(const SentenceAlignment& a, int sourceWords, int targetWords, std::size_t lineBytes) {
    for (const auto* links : {&a.sure, &a.possible}) {
        for (std::size_t i = 0; i < links->size(); ++i) {
            const AlignmentLink& l = (*links)[i];
            FUZZ_CHECK(l.source >= 0 && l.source < sourceWords);
            FUZZ_CHECK(l.target >= 0 && l.target < targetWords);
            if (i > 0) {
                const AlignmentLink& p = (*links)[i - 1];
                FUZZ_CHECK(std::make_pair(p.source, p.target) < std::make_pair(l.source, l.target));
            }
        }
    }
    for (const AlignmentLink& l : a.possible)
        FUZZ_CHECK(std::find(a.sure.begin(), a.sure.end(), l) == a.sure.end());
    // Each link is at least three bytes ("0-0") and a separator: nothing beyond what the line holds.
    FUZZ_CHECK((a.sure.size() + a.possible.size()) * 4 <= lineBytes + 1);
}

void checkError(const attnlab::InputError& e, const std::string& name, long maxLine) {
    FUZZ_CHECK(e.file() == name);
    FUZZ_CHECK(e.line() >= 0 && e.line() <= maxLine);
    FUZZ_CHECK(std::string(e.what()).find('\n') == std::string::npos);  // one line, as the CLI prints it
}

// The format's writer: "i-j" for sure links, "i?j" for possible ones, one line per pair.
std::string writePharaoh(const std::vector<SentenceAlignment>& alignments) {
    std::string text;
    for (const SentenceAlignment& a : alignments) {
        std::string line;
        for (const AlignmentLink& l : a.sure) line += (line.empty() ? "" : " ") + std::to_string(l.source) + "-" + std::to_string(l.target);
        for (const AlignmentLink& l : a.possible) line += (line.empty() ? "" : " ") + std::to_string(l.source) + "?" + std::to_string(l.target);
        text += line + "\n";
    }
    return text;
}

Lengths lengthsFor(std::size_t pairs) {
    static const std::pair<int, int> cycle[] = {{3, 4}, {0, 0}, {1, 1}, {INT_MAX, INT_MAX}, {7, 2}, {12, 12}};
    Lengths lengths;
    for (std::size_t k = 0; k < pairs; ++k) lengths.push_back(cycle[k % (sizeof cycle / sizeof cycle[0])]);
    return lengths;
}

// Part 1: parsePharaoh against word counts made for the text.
void fuzzParse(const std::string& text) {
    const std::vector<std::string> lines = pharaohLines(text);
    const long n = static_cast<long>(lines.size());
    const Lengths lengths = lengthsFor(lines.size());

    // The reference reading: the first bad line, if any.
    long firstBad = 0;
    std::vector<SentenceAlignment> expected;
    for (long k = 0; k < n && firstBad == 0; ++k) {
        std::set<std::pair<int, int>> sure, possible;
        const auto& [s, t] = lengths[static_cast<std::size_t>(k)];
        if (!referenceLine(lines[static_cast<std::size_t>(k)], s, t, sure, possible))
            firstBad = k + 1;
        else
            expected.push_back({toLinks(sure), toLinks(possible)});
    }
    const bool utf16OrGzip = text.compare(0, 2, "\xFF\xFE") == 0 || text.compare(0, 2, "\xFE\xFF") == 0 ||
                             text.compare(0, 2, "\x1F\x8B") == 0;

    std::vector<SentenceAlignment> read;
    bool ok = true;
    try {
        read = attnlab::parsePharaoh(text, kAlignName, lengths);
    } catch (const attnlab::InputError& e) {
        checkError(e, kAlignName, n);
        // Refused where the reference reading refuses it (or on line 1 for UTF-16 and gzip magic).
        FUZZ_CHECK(utf16OrGzip ? e.line() == 1 : e.line() == firstBad);
        ok = false;
    }
    if (ok) {
        FUZZ_CHECK(firstBad == 0 && !utf16OrGzip);
        FUZZ_CHECK(static_cast<long>(read.size()) == n);
        for (long k = 0; k < n; ++k) {
            const auto i = static_cast<std::size_t>(k);
            checkSentence(read[i], lengths[i].first, lengths[i].second, lines[i].size());
            FUZZ_CHECK(read[i] == expected[i]);
        }
        // Round trip through the format's own writer.
        FUZZ_CHECK(attnlab::parsePharaoh(writePharaoh(read), "round-trip.align", lengths) == read);
    }

    // A corpus of one pair more, and one fewer: the count is checked first, at the documented line.
    for (const long pairs : {n + 1, n - 1}) {
        if (pairs < 0 || utf16OrGzip) continue;
        try {
            attnlab::parsePharaoh(text, kAlignName, lengthsFor(static_cast<std::size_t>(pairs)));
            attnlab::fuzz::invariantFailed("a line count that differs from the corpus is refused", __FILE__, __LINE__);
        } catch (const attnlab::InputError& e) {
            checkError(e, kAlignName, n + 1);
            FUZZ_CHECK(e.line() == (pairs > n ? n + 1 : pairs + 1));
        }
    }
}

// Words as aligners count them: runs between white space code points.
int words(const std::string& text) {
    int count = 0;
    bool inWord = false;
    for (std::size_t pos = 0; pos < text.size();) {
        const bool space = attnlab::isWhitespaceCodePoint(attnlab::decodeUtf8(text, pos));
        count += !space && !inWord;
        inWord = !space;
    }
    return count;
}

const char kFixedCorpus[] =
    "the cat sat\tle chat s'est assis\n"
    "\n"
    "big\xE3\x80\x80white space\t  des   mots  \n"
    "\tempty source\n"
    "one\tun\n";

// Part 2: attachAlignments on a file, and the round trip through writeTsvCorpus.
void fuzzAttach(const std::string& bytes) {
    static const attnlab::fuzz::ScratchDir scratch;
    const std::size_t split = bytes.find('\xFF');
    const std::string tsv = split == std::string::npos ? std::string(kFixedCorpus) : bytes.substr(0, split);
    const std::string pharaoh = split == std::string::npos ? bytes : bytes.substr(split + 1);
    attnlab::ParallelCorpus corpus;
    try {
        corpus = attnlab::parseTsvCorpus(tsv, "fuzz.tsv");
    } catch (const attnlab::InputError& e) {
        checkError(e, "fuzz.tsv", LONG_MAX);  // fuzz_corpus_reader's business
        return;
    }
    long corpusLines = 0;
    for (const auto& p : corpus.pairs) corpusLines = std::max(corpusLines, p.line);
    for (const auto& s : corpus.skipped) corpusLines = std::max(corpusLines, s.line);
    const std::vector<std::string> lines = pharaohLines(pharaoh);
    const long n = static_cast<long>(lines.size());

    const std::string path = scratch.write("gold.align", pharaoh);
    try {
        attnlab::attachAlignments(corpus, path);
    } catch (const attnlab::InputError& e) {
        checkError(e, path, std::max(n, corpusLines) + 1);
        return;
    }
    FUZZ_CHECK(corpus.hasAlignments);
    FUZZ_CHECK(n == corpusLines);
    for (const auto& p : corpus.pairs) {
        const std::size_t i = static_cast<std::size_t>(p.line - 1);
        const int s = words(p.source), t = words(p.target);
        const SentenceAlignment a{p.alignment, p.possibleAlignment};
        checkSentence(a, s, t, lines[i].size());
        std::set<std::pair<int, int>> sure, possible;
        FUZZ_CHECK(referenceLine(lines[i], s, t, sure, possible));
        FUZZ_CHECK(a == (SentenceAlignment{toLinks(sure), toLinks(possible)}));
    }

    // Round trip: the corpus and its sure links through writeTsvCorpus, read back.
    const std::string tsvPath = (scratch.path() / "written.tsv").string();
    const std::string alignPath = (scratch.path() / "written.align").string();
    attnlab::writeTsvCorpus(corpus, tsvPath, alignPath);
    attnlab::ParallelCorpus again;
    try {
        again = attnlab::readTsvCorpus(tsvPath);
        attnlab::attachAlignments(again, alignPath);
    } catch (const attnlab::InputError& e) {
        std::fprintf(stderr, "round trip: %s\n", e.what());
        attnlab::fuzz::invariantFailed("a corpus and alignments written by writeTsvCorpus read back", __FILE__, __LINE__);
    }
    FUZZ_CHECK(again.pairs.size() == corpus.pairs.size());
    FUZZ_CHECK(again.skipped.empty());
    for (std::size_t i = 0; i < corpus.pairs.size(); ++i) {
        FUZZ_CHECK(again.pairs[i].source == corpus.pairs[i].source);
        FUZZ_CHECK(again.pairs[i].target == corpus.pairs[i].target);
        FUZZ_CHECK(again.pairs[i].alignment == corpus.pairs[i].alignment);
        FUZZ_CHECK(again.pairs[i].possibleAlignment.empty());  // the writer keeps sure links only
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes = attnlab::fuzz::bytesOf(data, size);
    fuzzParse(bytes);
    fuzzAttach(bytes);
    return 0;
}
