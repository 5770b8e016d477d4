#include "PositionalEncoding.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnlab {

float sinusoidalFrequency(int i, int d) {
    // The same float operations as torch: arange(0, d, 2) * float(-ln(10000) / d), then exp.
    const float step = static_cast<float>(-std::log(10000.0) / d);
    return std::exp(static_cast<float>(2 * i) * step);
}

AttentionMap sinusoidalEncoding(int positions, int d) {
    if (positions < 0) throw std::invalid_argument("positional encoding: " + std::to_string(positions) + " positions");
    if (d < 1) throw std::invalid_argument("positional encoding: d_model " + std::to_string(d) + " is below 1");
    AttentionMap table{positions, d, std::vector<float>(static_cast<std::size_t>(positions) * d)};
    std::vector<float> omega(static_cast<std::size_t>((d + 1) / 2));
    for (int i = 0; i < static_cast<int>(omega.size()); ++i) omega[static_cast<std::size_t>(i)] = sinusoidalFrequency(i, d);
    for (int pos = 0; pos < positions; ++pos) {
        float* row = table.weights.data() + static_cast<std::size_t>(pos) * d;
        for (int j = 0; j < d; ++j) {
            const float angle = static_cast<float>(pos) * omega[static_cast<std::size_t>(j / 2)];
            row[j] = j % 2 == 0 ? std::sin(angle) : std::cos(angle);
        }
    }
    return table;
}

AttentionMap cosineSimilarity(const AttentionMap& m) {
    if (m.rows < 0 || m.cols < 0 ||
        m.weights.size() != static_cast<std::size_t>(m.rows) * static_cast<std::size_t>(m.cols))
        throw std::invalid_argument("cosine similarity: " + std::to_string(m.weights.size()) + " values for " +
                                    std::to_string(m.rows) + "x" + std::to_string(m.cols));
    std::vector<double> norms(static_cast<std::size_t>(m.rows), 0.0);
    for (int r = 0; r < m.rows; ++r) {
        double sum = 0.0;
        for (int c = 0; c < m.cols; ++c) sum += static_cast<double>(m.at(r, c)) * m.at(r, c);
        norms[static_cast<std::size_t>(r)] = std::sqrt(sum);
    }
    AttentionMap out{m.rows, m.rows, std::vector<float>(static_cast<std::size_t>(m.rows) * m.rows, 0.0f)};
    for (int p = 0; p < m.rows; ++p) {
        for (int q = p; q < m.rows; ++q) {
            const double denominator = norms[static_cast<std::size_t>(p)] * norms[static_cast<std::size_t>(q)];
            double dot = 0.0;
            for (int c = 0; c < m.cols; ++c) dot += static_cast<double>(m.at(p, c)) * m.at(q, c);
            const float s = denominator > 0.0 ? static_cast<float>(std::clamp(dot / denominator, -1.0, 1.0)) : 0.0f;
            out.weights[static_cast<std::size_t>(p) * m.rows + q] = s;
            out.weights[static_cast<std::size_t>(q) * m.rows + p] = s;
        }
    }
    return out;
}

}  // namespace attnlab
