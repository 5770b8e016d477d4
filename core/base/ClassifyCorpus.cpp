#include "ClassifyCorpus.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>

#include "Corpus.h"  // kMaxLineBytes, kMaxCorpusFileBytes
#include "FileUtil.h"
#include "InputError.h"
#include "Tokenizer.h"

namespace attnlab {

namespace {

constexpr std::size_t kMaxQuotedBytes = 40;

std::string hexByte(unsigned char b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned>(b));
    return buf;
}

// A label for a message: in single quotes, cut after 40 bytes at a code point boundary (the
// text has been validated as UTF-8).
std::string quoted(const std::string& label) {
    if (label.size() <= kMaxQuotedBytes) return "'" + label + "'";
    std::size_t end = kMaxQuotedBytes;
    while (end > 0 && (static_cast<unsigned char>(label[end]) & 0xC0) == 0x80) --end;
    return "'" + label.substr(0, end) + "...'";
}

// The lines of a text with the checks of Corpus.cpp's reader, word for word, so that a file
// that reads as a translation corpus reads here too (a copy: that cursor is private to Corpus.cpp).
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
            if (pos == start + 1)
                throw InputError(name_, number_,
                                 "invalid UTF-8" + at + " (" + hexByte(b) + "); the file must be UTF-8");
        }
    }

    const std::string& text_;
    const std::string& name_;
    std::size_t pos_ = 0;
    long number_ = 0;
};

// Unicode white space off both ends (as Corpus.cpp trims); the line is valid UTF-8.
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

// Uniform in [0, bound) by rejection, so the split is the same with every standard library
// (as Batching.cpp draws).
std::uint64_t uniformBelow(std::mt19937_64& rng, std::uint64_t bound) {
    const std::uint64_t threshold = (0 - bound) % bound;
    for (;;) {
        const std::uint64_t r = rng();
        if (r >= threshold) return r % bound;
    }
}

}  // namespace

std::vector<std::string> distinctLabels(const std::vector<LabeledText>& examples) {
    std::set<std::string> labels;
    for (const LabeledText& e : examples) labels.insert(e.label);
    return {labels.begin(), labels.end()};
}

int labelIndex(const ClassificationCorpus& corpus, const std::string& label) {
    const auto it = std::lower_bound(corpus.labels.begin(), corpus.labels.end(), label);
    if (it == corpus.labels.end() || *it != label) return -1;
    return static_cast<int>(it - corpus.labels.begin());
}

ClassificationCorpus parseClassificationTsv(const std::string& text, const std::string& name) {
    ClassificationCorpus corpus;
    corpus.name = name;
    LineCursor cursor(text, name);
    long firstExtraLine = 0, extraLines = 0;
    std::size_t firstExtraColumns = 0;
    std::string line;
    while (cursor.next(line)) {
        const long number = cursor.number();
        if (isBlank(line)) {
            ++corpus.skippedLines;
            continue;
        }
        const std::size_t tab = line.find('\t');
        if (tab == std::string::npos) throw InputError(name, number, "no tab between text and label");
        std::size_t labelEnd = line.find('\t', tab + 1);
        if (labelEnd != std::string::npos) {
            if (extraLines++ == 0) {
                firstExtraLine = number;
                firstExtraColumns = 1;
                for (char c : line) firstExtraColumns += c == '\t';
            }
        } else {
            labelEnd = line.size();
        }
        LabeledText example;
        example.text = trim(line.substr(0, tab));
        example.label = trim(line.substr(tab + 1, labelEnd - tab - 1));
        example.line = number;
        // Refused, not skipped: a classifier trained without some lines' labels would be silently wrong.
        if (example.text.empty()) throw InputError(name, number, "empty text");
        if (example.label.empty()) throw InputError(name, number, "empty label");
        corpus.examples.push_back(std::move(example));
    }
    if (extraLines > 0) {
        // One warning for the whole file, as the translation reader gives.
        std::string warning = name + ":" + std::to_string(firstExtraLine) + ": extra columns ignored (" +
                              std::to_string(firstExtraColumns) + " found)";
        if (extraLines > 1) warning += "; " + std::to_string(extraLines) + " lines have extra columns";
        corpus.warnings.push_back(std::move(warning));
    }
    if (corpus.examples.empty())
        throw InputError(name, 0,
                         cursor.number() == 0 ? std::string("no labelled text (no text)")
                                              : "no labelled text (all " + std::to_string(cursor.number()) +
                                                    " lines are blank)");
    corpus.labels = distinctLabels(corpus.examples);
    if (corpus.labels.size() == 1)
        throw InputError(name, 0,
                         "only one class " + quoted(corpus.labels[0]) + "; a classification corpus needs two or more");
    if (corpus.labels.size() > kMaxClassLabels)
        throw InputError(name, 0,
                         std::to_string(corpus.labels.size()) + " distinct labels: not a classification corpus?");
    return corpus;
}

ClassificationCorpus readClassificationTsv(const std::string& path) {
    return parseClassificationTsv(readFileLimited(path, kMaxCorpusFileBytes), path);
}

Split splitClassification(const ClassificationCorpus& corpus, double validationFraction, std::uint64_t seed) {
    if (!(validationFraction >= 0.0 && validationFraction <= 1.0))
        throw ConfigError("validation fraction must be between 0 and 1, got " + std::to_string(validationFraction));
    const std::size_t n = corpus.examples.size();
    std::size_t wanted = static_cast<std::size_t>(std::llround(static_cast<double>(n) * validationFraction));
    if (validationFraction > 0.0 && n >= 2) wanted = std::max<std::size_t>(wanted, 1);
    if (n >= 1) wanted = std::min(wanted, n - 1);

    // The examples of each label, labels in byte order (a std::map, so the order does not depend
    // on corpus.labels being filled in).
    std::map<std::string, std::vector<std::size_t>> byLabel;
    for (std::size_t i = 0; i < n; ++i) byLabel[corpus.examples[i].label].push_back(i);

    // Largest remainder: floor of each label's share first, then one more to the largest remainders.
    struct Share {
        std::vector<std::size_t>* members;
        std::size_t count;
        double remainder;
    };
    std::vector<Share> shares;
    std::size_t given = 0;
    for (auto& [label, members] : byLabel) {
        const double exact = n == 0 ? 0.0 : static_cast<double>(members.size()) * static_cast<double>(wanted) /
                                                 static_cast<double>(n);
        const std::size_t floor = std::min(static_cast<std::size_t>(exact), members.size() - 1);
        shares.push_back({&members, floor, exact - static_cast<double>(floor)});
        given += floor;
    }
    std::vector<std::size_t> order(shares.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return shares[a].remainder > shares[b].remainder; });
    // Rounds over the labels until the count is reached or every label is down to one training example.
    for (bool progress = true; given < wanted && progress;) {
        progress = false;
        for (std::size_t k = 0; k < order.size() && given < wanted; ++k) {
            Share& s = shares[order[k]];
            if (s.count + 1 < s.members->size()) {
                ++s.count;
                ++given;
                progress = true;
            }
        }
    }

    std::mt19937_64 rng(seed);
    Split split;
    for (Share& s : shares) {
        std::vector<std::size_t>& members = *s.members;
        for (std::size_t i = members.size(); i > 1; --i)  // Fisher-Yates
            std::swap(members[i - 1], members[static_cast<std::size_t>(uniformBelow(rng, i))]);
        split.validation.insert(split.validation.end(), members.begin(),
                                members.begin() + static_cast<std::ptrdiff_t>(s.count));
        split.train.insert(split.train.end(), members.begin() + static_cast<std::ptrdiff_t>(s.count), members.end());
    }
    std::sort(split.validation.begin(), split.validation.end());
    std::sort(split.train.begin(), split.train.end());
    return split;
}

void writeClassificationTsv(const ClassificationCorpus& corpus, const std::string& path) {
    std::string tsv;
    for (std::size_t i = 0; i < corpus.examples.size(); ++i) {
        const LabeledText& e = corpus.examples[i];
        for (const std::string* side : {&e.text, &e.label}) {
            if (side->find_first_of("\t\r\n") != std::string::npos)
                throw std::runtime_error(path + ": example " + std::to_string(i + 1) +
                                         " contains a tab or line break and cannot be written as TSV");
        }
        tsv += e.text;
        tsv += '\t';
        tsv += e.label;
        tsv += '\n';
    }
    writeFileAtomically(path, tsv);
}

}  // namespace attnlab
