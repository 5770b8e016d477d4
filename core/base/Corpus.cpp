#include "Corpus.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "FileUtil.h"
#include "InputError.h"
#include "Tokenizer.h"

namespace attnlab {

namespace {

std::string hexByte(unsigned char b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned>(b));
    return buf;
}

// Hands out the lines of a text one at a time (LF or CRLF ends, optional final
// newline, a leading UTF-8 BOM skipped), each checked for what makes a file unusable.
class LineCursor {
public:
    LineCursor(const std::string& text, const std::string& name) : text_(text), name_(name) {
        auto startsWith = [&](const char* prefix, std::size_t n) { return text_.compare(0, n, prefix, n) == 0; };
        if (startsWith("\xFF\xFE", 2) || startsWith("\xFE\xFF", 2))
            throw InputError(name_, 1, "looks like UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8");
        if (startsWith("\x1F\x8B", 2)) throw InputError(name_, 1, "looks gzip-compressed; decompress it first");
        if (startsWith("\xEF\xBB\xBF", 3)) pos_ = 3;
    }

    bool next(std::string& line) {
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

    long number() const { return number_; }
    const std::string& name() const { return name_; }

    // Lines in the whole text, counted without checking them.
    long countLines() const {
        const std::size_t start = text_.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
        if (start >= text_.size()) return 0;
        long lines = 0;
        for (std::size_t i = start; i < text_.size(); ++i) lines += text_[i] == '\n';
        return lines + (text_.back() != '\n' ? 1 : 0);
    }

private:
    void check(const std::string& line) const {
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

    const std::string& text_;
    const std::string& name_;
    std::size_t pos_ = 0;
    long number_ = 0;
};

// Strips Unicode white space (incl. no-break and ideographic space) from both ends.
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

// Adds the pair, or records why it is skipped.
void addPair(Corpus& corpus, const std::string& rawSource, const std::string& rawTarget, long line) {
    std::string source = trim(rawSource), target = trim(rawTarget);
    if (source.empty() && target.empty()) {
        corpus.skipped.push_back({line, "blank line"});
    } else if (source.empty()) {
        corpus.skipped.push_back({line, "empty source"});
    } else if (target.empty()) {
        corpus.skipped.push_back({line, "empty target"});
    } else {
        SentencePair pair;
        pair.source = std::move(source);
        pair.target = std::move(target);
        pair.line = line;
        corpus.pairs.push_back(std::move(pair));
    }
}

void requireUsablePair(const Corpus& corpus, long lines, const std::string& name) {
    if (!corpus.pairs.empty()) return;
    throw InputError(name, 0,
                     lines == 0 ? std::string("no usable sentence pair (no text)")
                                : "no usable sentence pair (all " + std::to_string(lines) +
                                      " lines are blank or have an empty side)");
}

}  // namespace

Corpus parseTsvCorpus(const std::string& text, const std::string& name) {
    Corpus corpus;
    corpus.name = name;
    LineCursor cursor(text, name);
    long firstExtraLine = 0, extraLines = 0;
    std::size_t firstExtraColumns = 0;
    std::string line;
    while (cursor.next(line)) {
        const long number = cursor.number();
        if (isBlank(line)) {
            corpus.skipped.push_back({number, "blank line"});
            continue;
        }
        const std::size_t tab = line.find('\t');
        if (tab == std::string::npos) throw InputError(name, number, "no tab between source and target");
        std::size_t targetEnd = line.find('\t', tab + 1);
        if (targetEnd != std::string::npos) {
            if (extraLines++ == 0) {
                firstExtraLine = number;
                firstExtraColumns = 1;
                for (char c : line) firstExtraColumns += c == '\t';
            }
        } else {
            targetEnd = line.size();
        }
        addPair(corpus, line.substr(0, tab), line.substr(tab + 1, targetEnd - tab - 1), number);
    }
    if (extraLines > 0) {
        // One warning for the whole file: a Tatoeba export has extra columns on every line.
        std::string warning = name + ":" + std::to_string(firstExtraLine) + ": extra columns ignored (" +
                              std::to_string(firstExtraColumns) + " found)";
        if (extraLines > 1) warning += "; " + std::to_string(extraLines) + " lines have extra columns";
        corpus.warnings.push_back(std::move(warning));
    }
    requireUsablePair(corpus, cursor.number(), name);
    return corpus;
}

Corpus readTsvCorpus(const std::string& path) {
    return parseTsvCorpus(readFileLimited(path, kMaxCorpusFileBytes), path);
}

Corpus readParallelCorpus(const std::string& sourcePath, const std::string& targetPath) {
    const std::string sourceText = readFileLimited(sourcePath, kMaxCorpusFileBytes);
    const std::string targetText = readFileLimited(targetPath, kMaxCorpusFileBytes);
    LineCursor source(sourceText, sourcePath), target(targetText, targetPath);
    const long sourceLines = source.countLines(), targetLines = target.countLines();

    Corpus corpus;
    corpus.name = sourcePath + " + " + targetPath;
    std::string sourceLine, targetLine;
    for (;;) {
        const bool hasSource = source.next(sourceLine);
        const bool hasTarget = target.next(targetLine);
        if (!hasSource && !hasTarget) break;
        if (hasSource && hasTarget) {
            addPair(corpus, sourceLine, targetLine, source.number());
            continue;
        }
        // One file ran out. Blank lines at the end of the other are harmless.
        const std::string& rest = hasSource ? sourceLine : targetLine;
        const long number = hasSource ? source.number() : target.number();
        if (!isBlank(rest)) {
            const LineCursor& shorter = hasSource ? target : source;
            const LineCursor& longer = hasSource ? source : target;
            const long shorterLines = hasSource ? targetLines : sourceLines;
            throw InputError(shorter.name(), shorterLines + 1,
                             "line missing: the file has " + std::to_string(shorterLines) + " lines but " +
                                 longer.name() + " has " + std::to_string(hasSource ? sourceLines : targetLines));
        }
        corpus.skipped.push_back({number, "blank line"});
    }
    requireUsablePair(corpus, std::max(sourceLines, targetLines), corpus.name);
    return corpus;
}

namespace {

// For each white-space-separated word of `text`, the index of its first token; one more entry
// holds the token count. Empty if the words' tokens differ from the sentence's.
std::vector<int> wordTokenStarts(const std::string& text, const Tokenizer& tokenizer) {
    std::vector<int> starts;
    std::vector<std::string> joined;
    std::string word;
    auto endWord = [&] {
        if (word.empty()) return;
        starts.push_back(static_cast<int>(joined.size()));
        for (auto& t : tokenizer.tokenize(word)) joined.push_back(std::move(t));
        word.clear();
    };
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t start = pos;
        if (isWhitespaceCodePoint(decodeUtf8(text, pos)))
            endWord();
        else
            word.append(text, start, pos - start);
    }
    endWord();
    starts.push_back(static_cast<int>(joined.size()));
    if (joined != tokenizer.tokenize(text)) return {};
    return starts;
}

}  // namespace

std::vector<AlignmentLink> alignmentOverTokens(const SentencePair& pair, const Tokenizer& tokenizer) {
    if (pair.alignment.empty()) return {};
    const std::vector<int> source = wordTokenStarts(pair.source, tokenizer);
    const std::vector<int> target = wordTokenStarts(pair.target, tokenizer);
    if (source.empty() || target.empty()) return {};
    const int sourceWords = static_cast<int>(source.size()) - 1, targetWords = static_cast<int>(target.size()) - 1;
    std::vector<AlignmentLink> links;
    for (const AlignmentLink& l : pair.alignment) {
        if (l.source < 0 || l.source >= sourceWords || l.target < 0 || l.target >= targetWords) return {};
        for (int s = source[static_cast<std::size_t>(l.source)]; s < source[static_cast<std::size_t>(l.source) + 1]; ++s)
            for (int t = target[static_cast<std::size_t>(l.target)]; t < target[static_cast<std::size_t>(l.target) + 1];
                 ++t)
                links.push_back({s, t});
    }
    std::sort(links.begin(), links.end(), [](const AlignmentLink& a, const AlignmentLink& b) {
        return a.source != b.source ? a.source < b.source : a.target < b.target;
    });
    links.erase(std::unique(links.begin(), links.end()), links.end());
    return links;
}

void writeTsvCorpus(const Corpus& corpus, const std::string& path, const std::string& alignmentPath) {
    std::string tsv, alignments;
    for (std::size_t i = 0; i < corpus.pairs.size(); ++i) {
        const SentencePair& pair = corpus.pairs[i];
        for (const std::string* side : {&pair.source, &pair.target}) {
            if (side->find_first_of("\t\r\n") != std::string::npos)
                throw std::runtime_error(path + ": pair " + std::to_string(i + 1) +
                                         " contains a tab or line break and cannot be written as TSV");
        }
        tsv += pair.source;
        tsv += '\t';
        tsv += pair.target;
        tsv += '\n';
        if (!alignmentPath.empty()) {
            for (std::size_t k = 0; k < pair.alignment.size(); ++k) {
                if (k > 0) alignments += ' ';
                alignments += std::to_string(pair.alignment[k].source) + "-" + std::to_string(pair.alignment[k].target);
            }
            alignments += '\n';
        }
    }
    writeFileAtomically(path, tsv);
    if (!alignmentPath.empty()) writeFileAtomically(alignmentPath, alignments);
}

}  // namespace attnlab
