#include "LmCircuits.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "base/InputError.h"
#include "base/SeededRandom.h"
#include "base/lm/LmTokens.h"  // kLmBos, kLmFirstToken, LmTokenizer

namespace attnlab {

namespace {

struct HeadScore {
    double previousToken = 0, duplicateToken = 0, induction = 0;
};

// The three scores in one pass over the pattern (LmCircuits.h says what each counts).
HeadScore scoreHead(const std::vector<int>& tokens, const std::vector<float>& attention, const LmDetectorOptions& o) {
    const std::size_t t = tokens.size();
    if (attention.size() != t * t)
        throw std::invalid_argument("attention pattern of " + std::to_string(attention.size()) + " values for " +
                                    std::to_string(t) + " tokens (expected " + std::to_string(t * t) + ")");
    // The attention after the exclusions.
    const auto at = [&](std::size_t query, std::size_t key) -> double {
        if ((o.excludeBos && key == 0) || (o.excludeCurrent && key == query)) return 0.0;
        return attention[query * t + key];
    };
    double total = 0, previous = 0, duplicate = 0, induction = 0;
    std::unordered_map<int, std::vector<std::size_t>> earlier;  // token -> its positions so far
    for (std::size_t i = 0; i < t; ++i) {
        for (std::size_t k = 0; k < t; ++k) total += at(i, k);
        if (i >= 1) previous += at(i, i - 1);
        std::vector<std::size_t>& same = earlier[tokens[i]];
        for (const std::size_t j : same) {  // j < i with tokens[j] == tokens[i]
            duplicate += at(i, j);
            induction += at(i, j + 1);  // j + 1 <= i
        }
        same.push_back(i);
    }
    if (total == 0) return {};
    return {previous / total, duplicate / total, induction / total};
}

}  // namespace

double previousTokenScore(const std::vector<int>& tokens, const std::vector<float>& attention,
                          const LmDetectorOptions& options) {
    return scoreHead(tokens, attention, options).previousToken;
}

double duplicateTokenScore(const std::vector<int>& tokens, const std::vector<float>& attention,
                           const LmDetectorOptions& options) {
    return scoreHead(tokens, attention, options).duplicateToken;
}

double inductionScore(const std::vector<int>& tokens, const std::vector<float>& attention,
                      const LmDetectorOptions& options) {
    return scoreHead(tokens, attention, options).induction;
}

LmHeadScores scoreHeads(const std::vector<int>& tokens, const std::vector<std::vector<std::vector<float>>>& attention,
                        const LmDetectorOptions& options) {
    LmHeadScores scores;
    for (const auto& layer : attention) {
        scores.previousToken.emplace_back();
        scores.duplicateToken.emplace_back();
        scores.induction.emplace_back();
        for (const auto& head : layer) {
            const HeadScore s = scoreHead(tokens, head, options);
            scores.previousToken.back().push_back(s.previousToken);
            scores.duplicateToken.back().push_back(s.duplicateToken);
            scores.induction.back().push_back(s.induction);
        }
    }
    return scores;
}

std::vector<int> lmRepeatedSequence(std::int64_t vocabulary, int length, std::uint64_t seed) {
    if (vocabulary <= kLmFirstToken)
        throw ConfigError("vocabulary size " + std::to_string(vocabulary) +
                          " has no ordinary token (it must be above " + std::to_string(kLmFirstToken) + ")");
    if (length < 1) throw ConfigError("repeated sequence length " + std::to_string(length) + " is below 1");
    SeededRandom random(seed);
    const auto ordinary = static_cast<std::uint64_t>(vocabulary - kLmFirstToken);
    std::vector<int> sequence;
    sequence.reserve(static_cast<std::size_t>(length));
    for (int k = 0; k < length; ++k) sequence.push_back(kLmFirstToken + static_cast<int>(random.below(ordinary)));
    std::vector<int> tokens{kLmBos};
    tokens.insert(tokens.end(), sequence.begin(), sequence.end());
    tokens.insert(tokens.end(), sequence.begin(), sequence.end());
    return tokens;
}

std::vector<int> lmRepeatedSequence(const LmTokenizer& tokenizer, int length, std::uint64_t seed) {
    if (tokenizer.kind() != LmTokenKind::Gpt2)  // the specials at 0-3: the same draws
        return lmRepeatedSequence(static_cast<std::int64_t>(tokenizer.size()), length, seed);
    if (tokenizer.ordinaryCount() == 0) throw ConfigError("the tokenizer has no ordinary token");
    if (length < 1) throw ConfigError("repeated sequence length " + std::to_string(length) + " is below 1");
    SeededRandom random(seed);
    std::vector<int> sequence;
    sequence.reserve(static_cast<std::size_t>(length));
    for (int k = 0; k < length; ++k)
        sequence.push_back(tokenizer.ordinaryToken(static_cast<std::size_t>(random.below(tokenizer.ordinaryCount()))));
    std::vector<int> tokens{tokenizer.specials().bos};
    tokens.insert(tokens.end(), sequence.begin(), sequence.end());
    tokens.insert(tokens.end(), sequence.begin(), sequence.end());
    return tokens;
}

double inContextLearningScore(const std::vector<double>& lossPerPosition) {
    const std::size_t n = lossPerPosition.size();
    if (n < 2) return std::numeric_limits<double>::quiet_NaN();
    const auto mean = [&](std::size_t begin, std::size_t end) {
        double sum = 0;
        for (std::size_t i = begin; i < end; ++i) sum += lossPerPosition[i];
        return sum / static_cast<double>(end - begin);
    };
    // Integer arithmetic, so the windows do not depend on rounding: n / 10 is floor(0.1 n).
    const std::size_t earlyBegin = n / 10, earlyEnd = std::max(n / 5, earlyBegin + 1), lateBegin = 4 * n / 5;
    return mean(lateBegin, n) - mean(earlyBegin, earlyEnd);
}

}  // namespace attnlab
