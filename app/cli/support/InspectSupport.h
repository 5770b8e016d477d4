#pragma once
// What the inspect commands of several tasks print alike about tokenized texts.
#include <algorithm>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace attnlab::cli {

constexpr std::size_t kBucketWidth = 5;

// {"1-5": n, "6-10": n, ...}: every bucket up to the longest sentence, empty ones too,
// so the result plots directly; "0" only when some side has no tokens at all.
inline nlohmann::ordered_json histogram(const std::vector<std::vector<std::string>>& sentences) {
    std::size_t zero = 0;
    std::vector<std::size_t> buckets;
    for (const auto& s : sentences) {
        if (s.empty()) {
            ++zero;
            continue;
        }
        const std::size_t b = (s.size() - 1) / kBucketWidth;
        if (b >= buckets.size()) buckets.resize(b + 1, 0);
        ++buckets[b];
    }
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    if (zero > 0) out["0"] = zero;
    for (std::size_t b = 0; b < buckets.size(); ++b)
        out[std::to_string(b * kBucketWidth + 1) + "-" + std::to_string((b + 1) * kBucketWidth)] = buckets[b];
    return out;
}

inline std::size_t totalTokens(const std::vector<std::vector<std::string>>& sentences) {
    std::size_t n = 0;
    for (const auto& s : sentences) n += s.size();
    return n;
}

inline std::size_t longest(const std::vector<std::vector<std::string>>& sentences) {
    std::size_t n = 0;
    for (const auto& s : sentences) n = std::max(n, s.size());
    return n;
}

}  // namespace attnlab::cli
