#include "Alignments.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>

#include "base/io/FileUtil.h"
#include "base/InputError.h"

namespace attnlab {

namespace {

constexpr std::size_t kMaxQuotedTokenBytes = 40;

// "5 words", "1 word".
std::string counted(long long n, const char* singular, const char* plural) {
    return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

// The token in double quotes for a message: control and non-ASCII bytes as \xNN, cut after 40 bytes.
std::string quote(const std::string& token) {
    std::string out = "\"";
    const std::size_t shown = std::min(token.size(), kMaxQuotedTokenBytes);
    for (std::size_t i = 0; i < shown; ++i) {
        const auto b = static_cast<unsigned char>(token[i]);
        if (b < 0x20 || b >= 0x7F || b == '"' || b == '\\') {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(b));
            out += buf;
        } else {
            out += static_cast<char>(b);
        }
    }
    if (shown < token.size()) out += "...";
    out += '"';
    return out;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

bool isSeparator(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }

// Reads the decimal digits at token[pos...] into value and moves pos past them. Returns an empty
// string on success, else why not (no digits there, a minus sign, a number that does not fit an int).
std::string readIndex(const std::string& token, std::size_t& pos, int& value) {
    if (pos >= token.size() || !isDigit(token[pos])) {
        if (pos < token.size() && token[pos] == '-' && pos + 1 < token.size() && isDigit(token[pos + 1]))
            return "word indices cannot be negative";
        return {};  // the caller's general message
    }
    const std::size_t start = pos;
    long long v = 0;
    bool tooLarge = false;
    for (; pos < token.size() && isDigit(token[pos]); ++pos) {
        if (!tooLarge) {
            v = v * 10 + (token[pos] - '0');
            if (v > INT_MAX) tooLarge = true;
        }
    }
    if (tooLarge) {
        const std::size_t digits = pos - start;
        return "word index " + token.substr(start, std::min(digits, kMaxQuotedTokenBytes)) +
               (digits > kMaxQuotedTokenBytes ? "..." : "") + " is too large";
    }
    value = static_cast<int>(v);
    return {};
}

// Parses "i-j" or "i?j". On failure throws InputError with a reason naming the token.
void parseLink(const std::string& token, const std::string& name, long lineNumber, AlignmentLink& link,
               bool& sure) {
    auto fail = [&](const std::string& detail) {
        std::string reason = "bad link " + quote(token) + ": ";
        reason += detail.empty() ? "expected i-j (sure) or i?j (possible), where i and j are word indices from 0"
                                 : detail;
        throw InputError(name, lineNumber, reason);
    };
    std::size_t pos = 0;
    int source = -1, target = -1;
    std::string why = readIndex(token, pos, source);
    if (!why.empty() || source < 0) fail(why);
    if (pos >= token.size() || (token[pos] != '-' && token[pos] != '?')) fail({});
    sure = token[pos] == '-';
    ++pos;
    why = readIndex(token, pos, target);
    if (!why.empty() || target < 0) fail(why);
    if (pos != token.size()) fail({});
    link.source = source;
    link.target = target;
}

void checkInside(const std::string& token, const char* side, int index, int words, const std::string& name,
                 long lineNumber) {
    if (index < words) return;
    std::string reason = "link " + quote(token) + ": " + side + " word " + std::to_string(index) +
                         " is past the end of the sentence (" + counted(words, "word", "words") + ")";
    if (index == words && words > 0) reason += "; word indices start at 0";
    throw InputError(name, lineNumber, reason);
}

std::vector<AlignmentLink> toLinks(const std::set<std::pair<int, int>>& pairs) {
    std::vector<AlignmentLink> links;
    links.reserve(pairs.size());
    for (const auto& [s, t] : pairs) links.push_back({s, t});
    return links;
}

std::set<std::pair<int, int>> toSet(const std::vector<AlignmentLink>& links) {
    std::set<std::pair<int, int>> pairs;
    for (const AlignmentLink& l : links) pairs.emplace(l.source, l.target);
    return pairs;
}

}  // namespace

std::vector<AlignmentLink> allLinks(const SentenceAlignment& alignment) {
    std::set<std::pair<int, int>> pairs = toSet(alignment.sure);
    for (const AlignmentLink& l : alignment.possible) pairs.emplace(l.source, l.target);
    return toLinks(pairs);
}

SentenceAlignment parsePharaohLine(const std::string& line, const std::string& name, long lineNumber,
                                   int sourceWords, int targetWords) {
    std::set<std::pair<int, int>> sure, possible;
    std::size_t pos = 0;
    while (pos < line.size()) {
        if (line[pos] == '\r')
            throw InputError(name, lineNumber,
                             "carriage return inside the line at byte " + std::to_string(pos + 1) +
                                 " (only LF or CRLF line ends are supported)");
        if (isSeparator(line[pos])) {
            ++pos;
            continue;
        }
        std::size_t end = pos;
        while (end < line.size() && !isSeparator(line[end]) && line[end] != '\r') ++end;
        const std::string token = line.substr(pos, end - pos);
        pos = end;

        AlignmentLink link;
        bool isSure = true;
        parseLink(token, name, lineNumber, link, isSure);
        checkInside(token, "source", link.source, sourceWords, name, lineNumber);
        checkInside(token, "target", link.target, targetWords, name, lineNumber);
        (isSure ? sure : possible).emplace(link.source, link.target);
    }
    for (const auto& l : sure) possible.erase(l);  // given as both: sure
    return {toLinks(sure), toLinks(possible)};
}

std::vector<SentenceAlignment> parsePharaoh(const std::string& text, const std::string& name,
                                            const std::vector<std::pair<int, int>>& sentenceLengths) {
    const std::size_t start = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    if (text.compare(0, 2, "\xFF\xFE") == 0 || text.compare(0, 2, "\xFE\xFF") == 0)
        throw InputError(name, 1, "looks like UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8");
    if (text.compare(0, 2, "\x1F\x8B") == 0) throw InputError(name, 1, "looks gzip-compressed; decompress it first");

    // Lines: a final newline ends the last line rather than starting an empty one.
    long lines = 0;
    if (start < text.size()) {
        lines = static_cast<long>(std::count(text.begin() + static_cast<std::ptrdiff_t>(start), text.end(), '\n'));
        if (text.back() != '\n') ++lines;
    }
    const long pairs = static_cast<long>(sentenceLengths.size());
    if (lines != pairs) {
        const std::string counts = "the file has " + counted(lines, "line", "lines") + " but the corpus has " +
                                   counted(pairs, "sentence pair", "sentence pairs");
        if (lines > pairs) throw InputError(name, pairs + 1, "extra line: " + counts);
        throw InputError(name, lines + 1, "line missing: " + counts);
    }

    std::vector<SentenceAlignment> alignments;
    alignments.reserve(sentenceLengths.size());
    std::size_t pos = start;
    std::string line;
    for (std::size_t k = 0; k < sentenceLengths.size(); ++k) {
        const std::size_t newline = text.find('\n', pos);
        const std::size_t end = newline == std::string::npos ? text.size() : newline;
        std::size_t length = end - pos;
        if (length > 0 && text[end - 1] == '\r') --length;
        line.assign(text, pos, length);
        pos = newline == std::string::npos ? text.size() : newline + 1;
        alignments.push_back(parsePharaohLine(line, name, static_cast<long>(k) + 1, sentenceLengths[k].first,
                                              sentenceLengths[k].second));
    }
    return alignments;
}

std::vector<SentenceAlignment> readPharaoh(const std::string& path,
                                           const std::vector<std::pair<int, int>>& sentenceLengths) {
    return parsePharaoh(readFileLimited(path, kMaxCorpusFileBytes), path, sentenceLengths);
}

AlignmentScore scoreAlignments(const std::vector<std::vector<AlignmentLink>>& predicted,
                               const std::vector<SentenceAlignment>& gold) {
    if (predicted.size() != gold.size())
        throw std::invalid_argument("scoreAlignments: " + std::to_string(predicted.size()) +
                                    " predicted alignments but " + std::to_string(gold.size()) + " gold ones");
    AlignmentScore score;
    for (std::size_t k = 0; k < gold.size(); ++k) {
        const std::set<std::pair<int, int>> a = toSet(predicted[k]);
        const std::set<std::pair<int, int>> s = toSet(gold[k].sure);
        std::set<std::pair<int, int>> p = s;
        for (const AlignmentLink& l : gold[k].possible) p.emplace(l.source, l.target);
        score.predicted += a.size();
        score.sure += s.size();
        score.possible += p.size();
        for (const auto& link : a) {
            score.sureHits += s.count(link);
            score.possibleHits += p.count(link);
        }
    }
    const auto ratio = [](std::size_t num, std::size_t den) {
        return static_cast<double>(num) / static_cast<double>(den);
    };
    score.precision = score.predicted > 0 ? ratio(score.possibleHits, score.predicted) : 1.0;
    score.recall = score.sure > 0 ? ratio(score.sureHits, score.sure) : 1.0;
    score.aer = score.predicted + score.sure > 0
                    ? 1.0 - ratio(score.sureHits + score.possibleHits, score.predicted + score.sure)
                    : 0.0;
    return score;
}

namespace {

// Words as aligners count them: runs of text between white space (Pharaoh's convention).
int wordCount(const std::string& text) {
    int words = 0;
    bool inWord = false;
    for (std::size_t pos = 0; pos < text.size();) {
        const bool space = isWhitespaceCodePoint(decodeUtf8(text, pos));
        if (!space && !inWord) ++words;
        inWord = !space;
    }
    return words;
}

}  // namespace

void attachAlignments(ParallelCorpus& corpus, const std::string& path) {
    long lines = 0;
    for (const SentencePair& p : corpus.pairs) lines = std::max(lines, p.line);
    for (const SkippedLine& s : corpus.skipped) lines = std::max(lines, s.line);
    // A skipped line's links are read against no sentence: any index is accepted there.
    std::vector<std::pair<int, int>> lengths(static_cast<std::size_t>(lines), {INT_MAX, INT_MAX});
    for (const SentencePair& p : corpus.pairs)
        lengths[static_cast<std::size_t>(p.line - 1)] = {wordCount(p.source), wordCount(p.target)};
    const std::vector<SentenceAlignment> gold = readPharaoh(path, lengths);
    for (SentencePair& p : corpus.pairs) {
        const SentenceAlignment& links = gold[static_cast<std::size_t>(p.line - 1)];
        p.alignment = links.sure;
        p.possibleAlignment = links.possible;
    }
    corpus.hasAlignments = true;
}

SentenceAlignment goldOverTokens(const SentencePair& pair, const Tokenizer& tokenizer) {
    SentenceAlignment gold;
    gold.sure = alignmentOverTokens(pair, tokenizer);
    if (pair.possibleAlignment.empty()) return gold;
    SentencePair possible = pair;
    possible.alignment = pair.possibleAlignment;
    for (const AlignmentLink& link : alignmentOverTokens(possible, tokenizer))
        if (std::find(gold.sure.begin(), gold.sure.end(), link) == gold.sure.end()) gold.possible.push_back(link);
    return gold;
}

}  // namespace attnlab
