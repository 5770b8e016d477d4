#pragma once
// Finding the heads of an induction circuit in attention patterns: TransformerLens's head detector
// (transformer_lens/head_detector.py, its "mul" measure) and Olsson et al.'s in-context learning score
// ("In-context Learning and Induction Heads", 2022).
//   A head's score against a detection pattern D (a 0/1 T x T matrix, row = query, column = key):
// sum(A ⊙ D) / sum(A), where A is the head's attention with the BOS column (key 0) and the current
// token (the diagonal) zeroed first (detect_head's exclude_bos and exclude_current_token, both off
// there by default, both on here by default), both sums over the whole matrix. So it is the share of
// the attention left after the exclusions that lands where the pattern says; 1 = all of it.
//   The detection patterns, as head_detector.py builds them from the tokens t:
//     previous token   (i, i-1) for i >= 1
//     duplicate token  (i, j) for j < i with t[j] == t[i]
//     induction        (i, j+1) for j < i with t[j] == t[i]: the token after an earlier copy of the
//                      current one. j+1 may be i itself (t[i-1] == t[i]): that cell is in the pattern
//                      but the exclusion of the current token zeroes its attention.
//   One deviation: where nothing is left after the exclusions (sum(A) == 0, e.g. T <= 2) the score
//   is 0, not TransformerLens's 0/0 = NaN.
#include <cstdint>
#include <vector>

namespace attnlab {

class LmTokenizer;

struct LmDetectorOptions {
    bool excludeBos = true;      // zero the attention to key 0 (the <bos> the sequences begin with)
    bool excludeCurrent = true;  // zero the attention of each query to itself
};

// One head's attention on one sequence: T x T floats, row-major, row = query (each row a
// distribution over keys; causal rows are 0 right of the diagonal). Each function throws
// std::invalid_argument unless attention.size() == tokens.size()^2.
double previousTokenScore(const std::vector<int>& tokens, const std::vector<float>& attention,
                          const LmDetectorOptions& options = {});
double duplicateTokenScore(const std::vector<int>& tokens, const std::vector<float>& attention,
                           const LmDetectorOptions& options = {});
double inductionScore(const std::vector<int>& tokens, const std::vector<float>& attention,
                      const LmDetectorOptions& options = {});

// Every head's three scores, each [layer][head].
struct LmHeadScores {
    std::vector<std::vector<double>> previousToken;
    std::vector<std::vector<double>> duplicateToken;
    std::vector<std::vector<double>> induction;
};
// The scores of every head on one sequence; attention[layer][head] is that head's T x T pattern as
// above (layers may differ in their number of heads). Throws std::invalid_argument for a pattern of
// the wrong size. Over several sequences, TransformerLens takes the mean of the per-sequence scores.
LmHeadScores scoreHeads(const std::vector<int>& tokens, const std::vector<std::vector<std::vector<float>>>& attention,
                        const LmDetectorOptions& options = {});

// The probe TransformerLens uses for induction heads: <bos>, then a random sequence of `length`
// ordinary tokens (ids kLmFirstToken..vocabulary-1, uniform with replacement, from SeededRandom(seed)),
// then the same sequence again: 1 + 2 * length tokens. A model that has induction heads predicts the
// second copy well. Throws ConfigError for a vocabulary without an ordinary token or a length < 1.
std::vector<int> lmRepeatedSequence(std::int64_t vocabulary, int length, std::uint64_t seed);
// The same probe for a tokenizer's vocabulary: <bos> is specials().bos and the tokens are drawn from
// its ordinary ones (ordinaryToken). For Chars, Words and Bpe the same sequence as the call above
// with tokenizer.size(); for Gpt2, <|endoftext|> then ids other than its. Throws ConfigError as above.
std::vector<int> lmRepeatedSequence(const LmTokenizer& tokenizer, int length, std::uint64_t seed);

// Olsson et al.'s in-context learning score: the loss late in the context minus the loss early in it
// (negative when the model uses its context). The paper takes the 500th token minus the 50th with a
// context of 512; here the same idea is scaled to the context n = lossPerPosition.size() (the loss at
// each position, averaged over sequences) and averaged over a window to be less noisy: the mean over
// positions [floor(0.8 n), n) minus the mean over [floor(0.1 n), max(floor(0.2 n), floor(0.1 n) + 1)).
// NaN for fewer than 2 positions.
double inContextLearningScore(const std::vector<double>& lossPerPosition);

}  // namespace attnlab
