#include "Vocabulary.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace attnlab {

Vocabulary::Vocabulary() {
    for (const char* special : kSpecialTokens) {
        index_.emplace(special, static_cast<std::int64_t>(tokens_.size()));
        tokens_.emplace_back(special);
    }
}

Vocabulary Vocabulary::build(const std::vector<std::vector<std::string>>& sentences, int minFrequency,
                             std::size_t maxSize) {
    struct Count {
        std::size_t count = 0;
        std::size_t firstSeen = 0;
    };
    Vocabulary vocab;
    std::unordered_map<std::string, Count> counts;
    std::vector<std::string> order;  // distinct tokens in order of first appearance
    for (const auto& sentence : sentences) {
        for (const auto& token : sentence) {
            // A literal "<unk>" in the text must not become a second entry with that spelling.
            if (token.empty() || (token[0] == '<' && vocab.contains(token))) continue;
            auto [it, inserted] = counts.try_emplace(token, Count{0, order.size()});
            if (inserted) order.push_back(token);
            ++it->second.count;
        }
    }
    const std::size_t minCount = static_cast<std::size_t>(std::max(minFrequency, 1));
    std::vector<const std::string*> kept;
    for (const auto& token : order)
        if (counts[token].count >= minCount) kept.push_back(&token);
    std::stable_sort(kept.begin(), kept.end(), [&](const std::string* a, const std::string* b) {
        return counts[*a].count > counts[*b].count;  // stable: ties keep first-appearance order
    });
    const std::size_t specials = vocab.size();
    if (maxSize > 0) kept.resize(std::min(kept.size(), maxSize > specials ? maxSize - specials : 0));
    for (const std::string* token : kept) {
        vocab.index_.emplace(*token, static_cast<std::int64_t>(vocab.tokens_.size()));
        vocab.tokens_.push_back(*token);
    }
    return vocab;
}

Vocabulary Vocabulary::fromTokens(const std::vector<std::string>& tokens) {
    constexpr std::size_t kSpecials = std::size(kSpecialTokens);
    if (tokens.size() < kSpecials)
        throw std::invalid_argument("vocabulary has " + std::to_string(tokens.size()) +
                                    " entries; it needs at least the 4 special tokens");
    for (std::size_t i = 0; i < kSpecials; ++i) {
        if (tokens[i] != kSpecialTokens[i])
            throw std::invalid_argument("vocabulary entry " + std::to_string(i) + " is '" + tokens[i] +
                                        "', expected '" + kSpecialTokens[i] + "'");
    }
    Vocabulary vocab;
    for (std::size_t i = kSpecials; i < tokens.size(); ++i) {
        const std::string& token = tokens[i];
        if (token.empty()) throw std::invalid_argument("vocabulary entry " + std::to_string(i) + " is empty");
        if (!vocab.index_.emplace(token, static_cast<std::int64_t>(i)).second)
            throw std::invalid_argument("vocabulary entry " + std::to_string(i) + " '" + token +
                                        "' duplicates entry " + std::to_string(vocab.index_.at(token)));
        vocab.tokens_.push_back(token);
    }
    return vocab;
}

std::int64_t Vocabulary::id(const std::string& token) const {
    auto it = index_.find(token);
    return it == index_.end() ? kUnk : it->second;
}

const std::string& Vocabulary::token(std::int64_t id) const {
    if (id < 0 || static_cast<std::size_t>(id) >= tokens_.size()) return tokens_[kUnk];
    return tokens_[static_cast<std::size_t>(id)];
}

std::vector<std::int64_t> Vocabulary::encode(const std::vector<std::string>& tokens) const {
    std::vector<std::int64_t> ids;
    ids.reserve(tokens.size());
    for (const auto& t : tokens) ids.push_back(id(t));
    return ids;
}

std::vector<std::string> Vocabulary::decode(const std::vector<std::int64_t>& ids) const {
    std::vector<std::string> out;
    out.reserve(ids.size());
    for (std::int64_t i : ids) out.push_back(token(i));
    return out;
}

}  // namespace attnlab
