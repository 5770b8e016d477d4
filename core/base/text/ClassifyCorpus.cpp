#include "ClassifyCorpus.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>

#include "base/translation/ParallelCorpus.h"  // kMaxLineBytes, kMaxCorpusFileBytes
#include "base/io/FileUtil.h"
#include "base/InputError.h"
#include "base/SeededRandom.h"
#include "base/io/TextLines.h"
#include "base/Tokenizer.h"

namespace attnlab {

namespace {

constexpr std::size_t kMaxQuotedLabelBytes = 40;

// A label for a message: in single quotes, cut after 40 bytes at a code point boundary (the
// text has been validated as UTF-8).
std::string quotedLabel(const std::string& label) {
    if (label.size() <= kMaxQuotedLabelBytes) return "'" + label + "'";
    std::size_t end = kMaxQuotedLabelBytes;
    while (end > 0 && (static_cast<unsigned char>(label[end]) & 0xC0) == 0x80) --end;
    return "'" + label.substr(0, end) + "...'";
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
    const long lines = readTwoColumns(
        text, name, "no tab between text and label", [&](long) { ++corpus.skippedLines; },
        [&](long number, const std::string& rawText, const std::string& rawLabel) {
            LabeledText example;
            example.text = trim(rawText);
            example.label = trim(rawLabel);
            example.line = number;
            // Refused, not skipped: a classifier trained without some lines' labels would be silently wrong.
            if (example.text.empty()) throw InputError(name, number, "empty text");
            if (example.label.empty()) throw InputError(name, number, "empty label");
            corpus.examples.push_back(std::move(example));
        },
        corpus.warnings);
    if (corpus.examples.empty())
        throw InputError(name, 0,
                         lines == 0 ? std::string("no labelled text (no text)")
                                    : "no labelled text (all " + std::to_string(lines) +
                                                    " lines are blank)");
    corpus.labels = distinctLabels(corpus.examples);
    if (corpus.labels.size() == 1)
        throw InputError(name, 0,
                         "only one class " + quotedLabel(corpus.labels[0]) + "; a classification corpus needs two or more");
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
