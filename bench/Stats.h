#pragma once
// Order statistics the benchmark programs print.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace attnlab::bench {

// The value below which a share p of the samples lies (0 for no samples).
inline double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

}  // namespace attnlab::bench
