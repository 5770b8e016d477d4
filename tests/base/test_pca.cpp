// projectPca2 (base/analysis/Pca.h) against hand computation: points along a known direction, a 2-D cloud
// whose components are the axes, the shares of variance, the sign rule and the degenerate cases.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "base/analysis/Pca.h"

using namespace attnlab;
using Catch::Matchers::WithinAbs;

TEST_CASE("PCA of points on a line: one component, all the variance", "[pca]") {
    // t * (3, 4) / 5 + (1, 1) for t = -2..2: the first axis is (0.6, 0.8), the coordinates are t.
    std::vector<std::vector<float>> rows;
    for (int t = -2; t <= 2; ++t) rows.push_back({1.0f + 0.6f * t, 1.0f + 0.8f * t});
    const Projection2D p = projectPca2(rows);
    CHECK_THAT(p.explained[0], WithinAbs(1.0, 1e-9));
    CHECK_THAT(p.explained[1], WithinAbs(0.0, 1e-9));
    CHECK_THAT(p.axes[0][0], WithinAbs(0.6, 1e-6));
    CHECK_THAT(p.axes[1][0], WithinAbs(0.8, 1e-6));  // the largest coordinate positive
    for (int i = 0; i < 5; ++i) CHECK_THAT(p.points[static_cast<std::size_t>(i)][0], WithinAbs(i - 2.0, 1e-5));
}

TEST_CASE("PCA of a cloud stretched along z, then y: components and shares by hand", "[pca]") {
    // (0, ±1, 0) and (0, 0, ±3): variance 9 * 2 along z, 1 * 2 along y, total 20.
    const std::vector<std::vector<float>> rows{{0, 1, 0}, {0, -1, 0}, {0, 0, 3}, {0, 0, -3}};
    const Projection2D p = projectPca2(rows);
    CHECK_THAT(p.explained[0], WithinAbs(18.0 / 20.0, 1e-9));
    CHECK_THAT(p.explained[1], WithinAbs(2.0 / 20.0, 1e-9));
    CHECK_THAT(std::abs(p.axes[2][0]), WithinAbs(1.0, 1e-6));
    CHECK_THAT(std::abs(p.axes[1][1]), WithinAbs(1.0, 1e-6));
    CHECK_THAT(p.points[2][0], WithinAbs(3.0, 1e-6));
    CHECK_THAT(p.points[0][1], WithinAbs(1.0, 1e-6));
}

TEST_CASE("PCA: degenerate inputs and errors", "[pca]") {
    CHECK(projectPca2({}).points.empty());
    const Projection2D one = projectPca2({{1, 2, 3}});
    REQUIRE(one.points.size() == 1);
    CHECK(one.points[0][0] == 0.0);
    const Projection2D same = projectPca2({{1, 2}, {1, 2}, {1, 2}});
    CHECK(same.explained[0] == 0.0);
    CHECK_THROWS_AS(projectPca2({{1, 2}, {1}}), std::invalid_argument);
}
