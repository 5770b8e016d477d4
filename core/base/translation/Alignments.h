#pragma once
// Word alignments in the Pharaoh format that fast_align and GIZA++ (and most gold sets) use,
// and their quality against gold with sure and possible links (Och & Ney 2003).
//
// The format: one line per sentence pair of the corpus, in the corpus's order. On each line,
// links separated by spaces or tabs: "i-j" is a sure link, "i?j" a possible one, where i is the
// 0-based index of a source word and j of a target word (words = the white-space-separated
// words of the sentence, as aligners see them). An empty (or blank) line is a pair without links.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "ParallelCorpus.h"  // AlignmentLink {source, target}
#include "base/Tokenizer.h"

namespace attnlab {

// The links of one sentence pair, split by kind. Both lists are sorted by (source, target) and
// hold each link once; a link given both as sure and as possible is sure only, so `possible`
// holds the links that are possible but not sure. Och & Ney's P (which includes S) is
// sure + possible; see allLinks().
struct SentenceAlignment {
    std::vector<AlignmentLink> sure;
    std::vector<AlignmentLink> possible;
    bool operator==(const SentenceAlignment& o) const { return sure == o.sure && possible == o.possible; }
};

// sure + possible, sorted by (source, target): P for gold, and the links A of a prediction
// read from a file (an aligner's "i-j" and "i?j" links alike count as predicted).
std::vector<AlignmentLink> allLinks(const SentenceAlignment& alignment);

// Parses one line (without its line end) of pair lineNumber (1-based). `name` is the file name
// used in errors. Throws InputError(name, lineNumber, reason) for a token that is not N-N or N?N
// (N = decimal digits only, no sign, fitting an int; no trailing characters), for a carriage
// return inside the line, and for a source index >= sourceWords or a target index >= targetWords.
// Duplicate links are merged as described above.
SentenceAlignment parsePharaohLine(const std::string& line, const std::string& name, long lineNumber,
                                   int sourceWords, int targetWords);

// Parses a whole file's text already in memory (see readPharaoh); `name` is used in errors.
// sentenceLengths[k] = (source word count, target word count) of pair k of the corpus.
std::vector<SentenceAlignment> parsePharaoh(const std::string& text, const std::string& name,
                                            const std::vector<std::pair<int, int>>& sentenceLengths);

// Reads a Pharaoh file with one line per pair of the corpus whose word counts are
// sentenceLengths (see parsePharaoh). LF or CRLF line ends and a leading UTF-8 BOM are
// accepted; a final newline ends the last line and does not add an empty one (so "\n" is one
// pair without links and an empty file is zero pairs). Every error is an InputError naming the
// file and the 1-based line (CLI exit 3): besides those of parsePharaohLine, a file that cannot
// be read or is too large (line 0, from readFileLimited; limit kMaxCorpusFileBytes) and a
// number of lines that differs from the number of pairs (reported at the first extra line, or
// at the line after the last one when lines are missing).
std::vector<SentenceAlignment> readPharaoh(const std::string& path,
                                           const std::vector<std::pair<int, int>>& sentenceLengths);

// Alignment quality over a corpus (Och & Ney 2003, "A Systematic Comparison of Various
// Statistical Alignment Models", section 5). With A the predicted links, S the sure gold links
// and P the possible gold links (P includes S), each counted over the whole corpus (the counts
// of all sentences added up, not per-sentence scores averaged):
//   precision = |A∩P| / |A|,   recall = |A∩S| / |S|,   AER = 1 - (|A∩S| + |A∩P|) / (|A| + |S|).
// Empty cases, by convention and without dividing by zero:
//   |A| = 0 (nothing predicted):  precision = 1 (no predicted link is wrong);
//   |S| = 0 (no sure gold link):  recall = 1 (no sure link is missed);
//   |A| + |S| = 0:                AER = 0. (alignmentErrorRate in Metrics.h returns NaN in this
//                                 case; whenever |A| + |S| > 0 and there are no possible-only
//                                 links, the two agree: AER = 1 - 2|A∩S| / (|A| + |S|).)
// AER is always in [0, 1].
struct AlignmentScore {
    double precision = 1.0;
    double recall = 1.0;
    double aer = 0.0;
    std::size_t predicted = 0;     // |A|, each distinct link of a sentence once
    std::size_t sure = 0;          // |S|
    std::size_t possible = 0;      // |P|, sure links included
    std::size_t sureHits = 0;      // |A∩S|
    std::size_t possibleHits = 0;  // |A∩P|
};

// predicted[k] = the links A of pair k (any order; duplicates count once), gold[k] = its gold.
// Predicted links outside the sentence simply match nothing. Throws std::invalid_argument if the
// two lists differ in size.
AlignmentScore scoreAlignments(const std::vector<std::vector<AlignmentLink>>& predicted,
                               const std::vector<SentenceAlignment>& gold);

// Reads the Pharaoh file at path for a corpus read from a file (one line per line of the corpus
// file, SentencePair::line; the links of a line the reader skipped are checked but not placed) and
// puts each line's sure and possible links into its pair. Throws InputError naming the file and
// line, as readPharaoh.
void attachAlignments(ParallelCorpus& corpus, const std::string& path);

// A pair's gold links (sure and possible, over its words) mapped onto the tokens the model sees
// (alignmentOverTokens, ParallelCorpus.h); a link that becomes sure and possible is sure only.
SentenceAlignment goldOverTokens(const SentencePair& pair, const Tokenizer& tokenizer);

}  // namespace attnlab
