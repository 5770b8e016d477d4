#include "ParallelCorpus.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "base/io/FileUtil.h"
#include "base/InputError.h"
#include "base/io/TextLines.h"
#include "base/Tokenizer.h"

namespace attnlab {

namespace {

// Adds the pair, or records why it is skipped.
void addPair(ParallelCorpus& corpus, const std::string& rawSource, const std::string& rawTarget, long line) {
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

void requireUsablePair(const ParallelCorpus& corpus, long lines, const std::string& name) {
    if (!corpus.pairs.empty()) return;
    throw InputError(name, 0,
                     lines == 0 ? std::string("no usable sentence pair (no text)")
                                : "no usable sentence pair (all " + std::to_string(lines) +
                                      " lines are blank or have an empty side)");
}

}  // namespace

ParallelCorpus parseTsvCorpus(const std::string& text, const std::string& name) {
    ParallelCorpus corpus;
    corpus.name = name;
    const long lines = readTwoColumns(
        text, name, "no tab between source and target",
        [&](long number) { corpus.skipped.push_back({number, "blank line"}); },
        [&](long number, const std::string& source, const std::string& target) { addPair(corpus, source, target, number); },
        corpus.warnings);
    requireUsablePair(corpus, lines, name);
    return corpus;
}

ParallelCorpus readTsvCorpus(const std::string& path) {
    return parseTsvCorpus(readFileLimited(path, kMaxCorpusFileBytes), path);
}

ParallelCorpus readParallelCorpus(const std::string& sourcePath, const std::string& targetPath) {
    const std::string sourceText = readFileLimited(sourcePath, kMaxCorpusFileBytes);
    const std::string targetText = readFileLimited(targetPath, kMaxCorpusFileBytes);
    LineCursor source(sourceText, sourcePath), target(targetText, targetPath);
    const long sourceLines = source.countLines(), targetLines = target.countLines();

    ParallelCorpus corpus;
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

void writeTsvCorpus(const ParallelCorpus& corpus, const std::string& path, const std::string& alignmentPath) {
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
