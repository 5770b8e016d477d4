#pragma once
// Evaluation metrics on plain token lists and attention matrices.
#include <string>
#include <vector>

#include "base/AttentionMap.h"
#include "base/translation/ParallelCorpus.h"

namespace attnlab {

using Tokens = std::vector<std::string>;

// Corpus BLEU-4 in [0, 100], exactly as sacreBLEU's corpus_bleu with its defaults and
// tokenize='none' on the tokens joined by spaces: clipped n-gram matches (n = 1..4)
// summed over the corpus, geometric mean of the precisions, brevity penalty
// exp(1 - r/c) when the total hypothesis length c is below the reference length r.
// Default 'exp' smoothing: the k-th order with no match counts as 1 / (2^k * total_n).
// 0 for an empty corpus, when nothing matches, or when no hypothesis has 4 tokens (no
// 4-grams at all). One reference per hypothesis; throws std::invalid_argument if the
// list sizes differ.
double corpusBleu(const std::vector<Tokens>& hypotheses, const std::vector<Tokens>& references);

// Mean Shannon entropy (nats) of the rows of the map (0 ln 0 = 0); 0 for a map with no rows.
// The functions below throw std::invalid_argument if weights.size() != rows * cols.
double attentionEntropy(const AttentionMap& map);

// The argmax links of a map: for each of the first rowLimit rows (target tokens), the column
// (source token) with the most weight among the first colLimit, as {source, target}; a row whose
// weights are all NaN or -inf gives none.
std::vector<AlignmentLink> argmaxLinks(const AttentionMap& map, int rowLimit, int colLimit);

// Alignment error rate of argmax-attention links (for each target row, the column
// with most weight) against gold links (all treated as sure): 1 - 2|A∩S|/(|A|+|S|).
// Rows >= rowLimit or columns >= colLimit (e.g. </s>) are ignored: the argmax is taken
// over columns < colLimit, and gold links outside the limits (or the map) are dropped.
// NaN if both link sets are empty.
double alignmentErrorRate(const AttentionMap& map, const std::vector<AlignmentLink>& gold,
                          int rowLimit, int colLimit);

// Share of target rows whose argmax column equals a gold source for that row
// (rows with no gold link are skipped); NaN if no row has gold.
double alignmentAgreement(const AttentionMap& map, const std::vector<AlignmentLink>& gold,
                          int rowLimit, int colLimit);

}  // namespace attnlab
