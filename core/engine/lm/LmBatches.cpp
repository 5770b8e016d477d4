#include "engine/lm/LmBatches.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "base/lm/LmTokens.h"

namespace attnlab {

// A batch's inputs and targets [B, T]: causal, <bos> + the document's first T - 1 tokens predicting
// its first T (padding: <pad>, not predicted); masked, <bos> + the document with 15% of its tokens
// (at least one) replaced by <mask>, the hidden ones the targets (elsewhere <pad>).
std::pair<torch::Tensor, torch::Tensor> lmBatch(const std::vector<const std::vector<int>*>& docs, int context,
                                                bool masked, std::mt19937_64& rng, const LmSpecialIds& specials) {
    std::size_t longest = 0;
    for (const auto* d : docs) longest = std::max(longest, std::min(d->size(), static_cast<std::size_t>(context - (masked ? 1 : 0))));
    const auto B = static_cast<int64_t>(docs.size());
    const auto T = static_cast<int64_t>(longest) + (masked ? 1 : 0);
    torch::Tensor inputs = torch::full({B, T}, specials.pad, torch::kLong), targets = torch::full({B, T}, specials.pad, torch::kLong);
    auto in = inputs.accessor<int64_t, 2>();
    auto out = targets.accessor<int64_t, 2>();
    for (int64_t b = 0; b < B; ++b) {
        const std::vector<int>& d = *docs[static_cast<std::size_t>(b)];
        const auto n = static_cast<int64_t>(std::min(d.size(), static_cast<std::size_t>(masked ? T - 1 : T)));
        in[b][0] = specials.bos;
        if (!masked) {
            for (int64_t i = 0; i < n; ++i) {
                if (i + 1 < T) in[b][i + 1] = d[static_cast<std::size_t>(i)];
                out[b][i] = d[static_cast<std::size_t>(i)];
            }
            continue;
        }
        for (int64_t i = 0; i < n; ++i) in[b][i + 1] = d[static_cast<std::size_t>(i)];
        const int64_t hidden = std::max<int64_t>(1, static_cast<int64_t>(std::lround(0.15 * static_cast<double>(n))));
        std::vector<int64_t> positions(static_cast<std::size_t>(n));
        std::iota(positions.begin(), positions.end(), 1);
        for (int64_t k = 0; k < hidden && k < n; ++k) {  // a partial Fisher-Yates: `hidden` distinct positions
            const auto j = k + static_cast<int64_t>(rng() % static_cast<std::uint64_t>(n - k));
            std::swap(positions[static_cast<std::size_t>(k)], positions[static_cast<std::size_t>(j)]);
            const int64_t p = positions[static_cast<std::size_t>(k)];
            out[b][p] = in[b][p];
            in[b][p] = specials.mask;
        }
    }
    return {inputs, targets};
}

}  // namespace attnlab
