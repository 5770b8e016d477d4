#pragma once
// Principal component analysis to two dimensions, for the embedding projector: the rows (one vector
// each, all of one size) centred, and their coordinates on the two directions of largest variance
// (the top eigenvectors of the covariance, found by power iteration with deflation, in double).
// Plain C++: no LibTorch, no Qt.
#include <array>
#include <vector>

namespace attnlab {

struct Projection2D {
    std::vector<std::array<double, 2>> points;  // one per row: its coordinates on the two components
    std::array<double, 2> explained{};          // each component's share of the total variance, 0..1
    std::vector<std::array<double, 2>> axes;    // the two unit directions, [dimension][component]
};

// Throws std::invalid_argument for rows of different sizes. Fewer than two rows, or rows with no
// variance, give points at 0 and explained 0. A component's sign is fixed so that its largest
// coordinate (in absolute value) along the axis is positive, so the picture does not flip.
Projection2D projectPca2(const std::vector<std::vector<float>>& rows);

}  // namespace attnlab
