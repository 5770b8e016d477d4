#pragma once
// Token <-> id mapping with the four specials at fixed ids.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace attnlab {

class Vocabulary {
public:
    static constexpr std::int64_t kPad = 0;
    static constexpr std::int64_t kBos = 1;  // "<s>"
    static constexpr std::int64_t kEos = 2;  // "</s>"
    static constexpr std::int64_t kUnk = 3;
    static constexpr const char* kSpecialTokens[4] = {"<pad>", "<s>", "</s>", "<unk>"};  // at ids 0..3

    Vocabulary();  // only the specials

    // Counts tokens; keeps those seen at least minFrequency times, most frequent
    // first (ties broken by first appearance, so the result is deterministic), at
    // most maxSize entries in all including specials (0 = unlimited).
    static Vocabulary build(const std::vector<std::vector<std::string>>& sentences,
                            int minFrequency = 1, std::size_t maxSize = 0);
    // From an ordered token list whose first four entries are the specials.
    // Throws std::invalid_argument if it is malformed (missing specials, duplicates).
    static Vocabulary fromTokens(const std::vector<std::string>& tokens);

    std::int64_t id(const std::string& token) const;  // kUnk if absent
    const std::string& token(std::int64_t id) const;  // "<unk>" if out of range
    std::vector<std::int64_t> encode(const std::vector<std::string>& tokens) const;
    std::vector<std::string> decode(const std::vector<std::int64_t>& ids) const;
    std::size_t size() const { return tokens_.size(); }
    const std::vector<std::string>& tokens() const { return tokens_; }
    bool contains(const std::string& token) const { return index_.count(token) != 0; }

private:
    std::vector<std::string> tokens_;
    std::unordered_map<std::string, std::int64_t> index_;
};

}  // namespace attnlab
