// fuzz_classify_corpus: the classification TSV reader (ClassifyCorpus.h) on the bytes, as text
// (parseClassificationTsv) and, when that reads, through its file path and writer: the corpus
// written with writeClassificationTsv (what `datasets --write sentiment` uses) and read back with
// readClassificationTsv. The TSV has no rationale column: rationales come only from the built-in
// datasets, and a third column (a rationale, a Tatoeba id) is an extra column, ignored with one
// warning; the seeds hold such files.
// Checked beyond "no crash":
//   - every error is an InputError naming the file, on one line, at a line within the file, and
//     line 0 only for the whole-file faults (no example, one class, too many labels);
//   - a corpus that reads has one example per non-blank line (examples + blank lines = lines),
//     in line order, each text and label non-empty, trimmed, valid UTF-8, without tab, line break
//     or NUL; labels are the distinct labels, sorted, 2..kMaxClassLabels, each example's found by
//     labelIndex; no rationale (hasRationales false); at most one warning, on one line;
//   - written and read back, the same texts and labels, no blank line, no warning;
//   - splitClassification (0.2, seed from the input) is a partition of the examples, both halves
//     sorted, no larger a validation half than asked, every label kept in training.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "FuzzCheck.h"
#include "FuzzScratch.h"
#include "base/InputError.h"
#include "base/io/TextLines.h"
#include "base/Tokenizer.h"
#include "base/text/ClassifyCorpus.h"

namespace {

using attnlab::ClassificationCorpus;

using attnlab::fuzz::isWhitespaceAt;
using attnlab::fuzz::lastCodePoint;

void checkSide(const std::string& side) {
    FUZZ_CHECK(!side.empty());
    FUZZ_CHECK(attnlab::findInvalidUtf8(side) == std::string::npos);
    FUZZ_CHECK(side.find_first_of(std::string("\t\r\n\0", 4)) == std::string::npos);
    FUZZ_CHECK(!isWhitespaceAt(side, 0));  // trimmed
    FUZZ_CHECK(!isWhitespaceAt(side, lastCodePoint(side)));
}

void checkCorpus(const ClassificationCorpus& corpus, const std::string& text, const std::string& name) {
    FUZZ_CHECK(corpus.name == name);
    FUZZ_CHECK(!corpus.examples.empty());
    FUZZ_CHECK(!corpus.hasRationales);
    // The text read, so every line is valid: count them.
    attnlab::LineCursor cursor(text, name);
    long lines = 0, blank = 0;
    for (std::string line; cursor.next(line); ++lines) blank += attnlab::isBlank(line);
    FUZZ_CHECK(corpus.skippedLines == blank);
    FUZZ_CHECK(static_cast<long>(corpus.examples.size()) + blank == lines);
    long previous = 0;
    for (const auto& e : corpus.examples) {
        FUZZ_CHECK(e.line > previous && e.line <= lines);
        previous = e.line;
        checkSide(e.text);
        checkSide(e.label);
        FUZZ_CHECK(e.rationale.empty());
        const int k = attnlab::labelIndex(corpus, e.label);
        FUZZ_CHECK(k >= 0 && corpus.labels[static_cast<std::size_t>(k)] == e.label);
    }
    FUZZ_CHECK(corpus.labels == attnlab::distinctLabels(corpus.examples));
    FUZZ_CHECK(corpus.labels.size() >= 2 && corpus.labels.size() <= attnlab::kMaxClassLabels);
    FUZZ_CHECK(std::adjacent_find(corpus.labels.begin(), corpus.labels.end(),
                                  [](const std::string& a, const std::string& b) { return !(a < b); }) ==
               corpus.labels.end());
    FUZZ_CHECK(corpus.warnings.size() <= 1);
    for (const auto& w : corpus.warnings) {
        FUZZ_CHECK(w.rfind(name + ":", 0) == 0);
        FUZZ_CHECK(w.find('\n') == std::string::npos);
    }
}

// Lines in the text (a final newline ends the last one), counted without checking them: the
// LineCursor constructor refuses UTF-16 and gzip text.
long lineCount(const std::string& text) {
    return static_cast<long>(std::count(text.begin(), text.end(), '\n')) + (!text.empty() && text.back() != '\n');
}

void checkError(const attnlab::InputError& e, const std::string& name, const std::string& text) {
    FUZZ_CHECK(e.file() == name);
    FUZZ_CHECK(std::string(e.what()).find('\n') == std::string::npos);  // one line, as the CLI prints it
    FUZZ_CHECK(e.line() >= 0 && e.line() <= std::max(1L, lineCount(text)));
    if (e.line() == 0) {
        const std::string& r = e.reason();
        FUZZ_CHECK(r.rfind("no labelled text", 0) == 0 || r.rfind("only one class", 0) == 0 ||
                   r.find("distinct labels") != std::string::npos);
    }
}

void checkSplit(const ClassificationCorpus& corpus, std::uint64_t seed) {
    const attnlab::Split split = attnlab::splitClassification(corpus, 0.2, seed);
    const std::size_t n = corpus.examples.size();
    FUZZ_CHECK(split.train.size() + split.validation.size() == n);
    FUZZ_CHECK(std::is_sorted(split.train.begin(), split.train.end()));
    FUZZ_CHECK(std::is_sorted(split.validation.begin(), split.validation.end()));
    std::vector<int> seen(n, 0);
    for (const auto* half : {&split.train, &split.validation})
        for (std::size_t i : *half) {
            FUZZ_CHECK(i < n);
            ++seen[i];
        }
    FUZZ_CHECK(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
    std::size_t wanted = static_cast<std::size_t>(std::llround(static_cast<double>(n) * 0.2));
    wanted = std::min(std::max<std::size_t>(wanted, 1), n - 1);
    FUZZ_CHECK(split.validation.size() <= wanted);
    std::vector<int> inTraining(corpus.labels.size(), 0);
    for (std::size_t i : split.train) inTraining[static_cast<std::size_t>(attnlab::labelIndex(corpus, corpus.examples[i].label))] = 1;
    FUZZ_CHECK(std::all_of(inTraining.begin(), inTraining.end(), [](int c) { return c == 1; }));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text = attnlab::fuzz::bytesOf(data, size);
    ClassificationCorpus corpus;
    try {
        corpus = attnlab::parseClassificationTsv(text, "fuzz.tsv");
    } catch (const attnlab::InputError& e) {
        checkError(e, "fuzz.tsv", text);
        return 0;
    }
    checkCorpus(corpus, text, "fuzz.tsv");
    checkSplit(corpus, size);

    // The file path and the writer: write the corpus, read it back.
    static const attnlab::fuzz::ScratchDir scratch;
    const std::string path = (scratch.path() / "written.tsv").string();
    attnlab::writeClassificationTsv(corpus, path);
    ClassificationCorpus again;
    try {
        again = attnlab::readClassificationTsv(path);
    } catch (const attnlab::InputError& e) {
        std::fprintf(stderr, "round trip: %s\n", e.what());
        attnlab::fuzz::invariantFailed("a corpus written by writeClassificationTsv reads back", __FILE__, __LINE__);
    }
    FUZZ_CHECK(again.examples.size() == corpus.examples.size());
    for (std::size_t i = 0; i < corpus.examples.size(); ++i) {
        FUZZ_CHECK(again.examples[i].text == corpus.examples[i].text);
        FUZZ_CHECK(again.examples[i].label == corpus.examples[i].label);
        FUZZ_CHECK(again.examples[i].line == static_cast<long>(i) + 1);
    }
    FUZZ_CHECK(again.labels == corpus.labels);
    FUZZ_CHECK(again.skippedLines == 0);
    FUZZ_CHECK(again.warnings.empty());
    return 0;
}
