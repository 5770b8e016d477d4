#include "ImageAttention.h"

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

double overlap(double a0, double a1, double b0, double b1) { return std::max(0.0, std::min(a1, b1) - std::max(a0, b0)); }

}  // namespace

double massOnBox(const std::vector<float>& weights, int rows, int cols, int height, int width, const Box& box) {
    if (rows <= 0 || cols <= 0 || weights.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols))
        return 0;
    const double ch = static_cast<double>(height) / rows, cw = static_cast<double>(width) / cols;
    double mass = 0;
    for (int r = 0; r < rows; ++r) {
        const double dy = overlap(r * ch, (r + 1) * ch, box.top, box.top + box.height);
        if (dy <= 0) continue;
        for (int c = 0; c < cols; ++c) {
            const double dx = overlap(c * cw, (c + 1) * cw, box.left, box.left + box.width);
            mass += weights[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c)] *
                    (dy * dx) / (ch * cw);
        }
    }
    return mass;
}

double boxShare(const Box& box, int height, int width) {
    if (height <= 0 || width <= 0) return 0;
    const double dy = overlap(0, height, box.top, box.top + box.height);
    const double dx = overlap(0, width, box.left, box.left + box.width);
    return dy * dx / (static_cast<double>(height) * width);
}

bool peakInBox(const std::vector<float>& weights, int rows, int cols, int height, int width, const Box& box,
               double marginCells) {
    if (rows <= 0 || cols <= 0 || weights.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols))
        return false;
    const auto peak = static_cast<int>(std::max_element(weights.begin(), weights.end()) - weights.begin());
    const double ch = static_cast<double>(height) / rows, cw = static_cast<double>(width) / cols;
    const double y = (peak / cols + 0.5) * ch, x = (peak % cols + 0.5) * cw;
    const double my = marginCells * ch, mx = marginCells * cw;
    if (marginCells <= 0) return y >= box.top && y < box.top + box.height && x >= box.left && x < box.left + box.width;
    return y >= box.top - my && y <= box.top + box.height + my && x >= box.left - mx && x <= box.left + box.width + mx;
}

std::vector<BoxAttention> attentionOnBoxes(const std::vector<float>& weights, int rows, int cols, int height, int width,
                                           const std::vector<Box>& boxes) {
    std::vector<BoxAttention> out;
    for (const Box& b : boxes) {
        BoxAttention a;
        a.mass = massOnBox(weights, rows, cols, height, width, b);
        a.share = boxShare(b, height, width);
        a.peakInside = peakInBox(weights, rows, cols, height, width, b);
        a.peakNear = peakInBox(weights, rows, cols, height, width, b, kPeakMarginCells);
        out.push_back(a);
    }
    return out;
}

Box scaleBox(const Box& box, int fromHeight, int fromWidth, int toHeight, int toWidth) {
    if (fromHeight <= 0 || fromWidth <= 0) return box;
    const double sy = static_cast<double>(toHeight) / fromHeight, sx = static_cast<double>(toWidth) / fromWidth;
    Box b;
    b.top = static_cast<int>(std::lround(box.top * sy));
    b.left = static_cast<int>(std::lround(box.left * sx));
    b.height = std::max(1, static_cast<int>(std::lround(box.height * sy)));
    b.width = std::max(1, static_cast<int>(std::lround(box.width * sx)));
    return b;
}

}  // namespace attnlab
