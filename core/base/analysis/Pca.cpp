#include "Pca.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace attnlab {

Projection2D projectPca2(const std::vector<std::vector<float>>& rows) {
    Projection2D out;
    const std::size_t n = rows.size();
    out.points.assign(n, {0.0, 0.0});
    if (n == 0) return out;
    const std::size_t d = rows.front().size();
    for (const auto& r : rows)
        if (r.size() != d)
            throw std::invalid_argument("projectPca2: rows of sizes " + std::to_string(d) + " and " +
                                        std::to_string(r.size()));
    out.axes.assign(d, {0.0, 0.0});
    if (n < 2 || d == 0) return out;
    std::vector<double> mean(d, 0.0);
    for (const auto& r : rows)
        for (std::size_t j = 0; j < d; ++j) mean[j] += r[j];
    for (double& m : mean) m /= static_cast<double>(n);
    std::vector<double> x(n * d);  // centred
    double total = 0.0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < d; ++j) {
            const double v = rows[i][j] - mean[j];
            x[i * d + j] = v;
            total += v * v;
        }
    if (total <= 0.0) return out;
    // v <- X^T X v, normalised; after the first component, its projection is taken out of X.
    std::vector<double> projections(n);
    for (int component = 0; component < 2; ++component) {
        std::vector<double> v(d);
        for (std::size_t j = 0; j < d; ++j) v[j] = 1.0 + 0.01 * static_cast<double>((j * 7919) % 101);  // any start not orthogonal
        double eigen = 0.0;
        for (int iteration = 0; iteration < 500; ++iteration) {
            for (std::size_t i = 0; i < n; ++i) {
                double s = 0.0;
                for (std::size_t j = 0; j < d; ++j) s += x[i * d + j] * v[j];
                projections[i] = s;
            }
            std::vector<double> next(d, 0.0);
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j < d; ++j) next[j] += x[i * d + j] * projections[i];
            double norm = 0.0;
            for (double c : next) norm += c * c;
            norm = std::sqrt(norm);
            if (norm <= 0.0) break;
            double change = 0.0;
            for (std::size_t j = 0; j < d; ++j) {
                next[j] /= norm;
                change = std::max(change, std::abs(next[j] - v[j]));
            }
            v = std::move(next);
            eigen = norm;
            if (change < 1e-12) break;
        }
        // The sign: the largest coordinate positive.
        std::size_t largest = 0;
        for (std::size_t j = 1; j < d; ++j)
            if (std::abs(v[j]) > std::abs(v[largest])) largest = j;
        if (v[largest] < 0)
            for (double& c : v) c = -c;
        double variance = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            double s = 0.0;
            for (std::size_t j = 0; j < d; ++j) s += x[i * d + j] * v[j];
            out.points[i][static_cast<std::size_t>(component)] = s;
            variance += s * s;
            for (std::size_t j = 0; j < d; ++j) x[i * d + j] -= s * v[j];  // deflate
        }
        (void)eigen;
        out.explained[static_cast<std::size_t>(component)] = variance / total;
        for (std::size_t j = 0; j < d; ++j) out.axes[j][static_cast<std::size_t>(component)] = v[j];
    }
    return out;
}

}  // namespace attnlab
