#include "render/LineViewRenderer.h"

#include "render/HeatmapRenderer.h"

#include <QFontMetricsF>
#include <QGuiApplication>
#include <QLineF>
#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <numeric>

namespace attnlab {

namespace {

constexpr qreal kPad = 8.0;
constexpr qreal kChip = 14.0;
constexpr qreal kChipGap = 6.0;
constexpr qreal kRowHeight = 18.0;     // preferred
constexpr qreal kMinRowHeight = 4.0;   // squeezed (labels are then left out)
constexpr qreal kLabelRowHeight = 11.0;  // below this no labels are written
constexpr qreal kMaxLineLabelWidth = 170.0;
constexpr int kAlphaSteps = 16;        // lines are batched by head and opacity step

QFont applicationFont() {
    return qobject_cast<QGuiApplication*>(QCoreApplication::instance()) ? QGuiApplication::font() : QFont();
}

}  // namespace

LineViewRenderer::LineViewRenderer() : font_(applicationFont()) {}

void LineViewRenderer::setMaps(const std::vector<AttentionMap>& heads, const QStringList& leftLabels,
                               const QStringList& rightLabels) {
    heads_.clear();
    for (const AttentionMap& m : heads) {
        // Only maps that fit the labels (a malformed one is left out rather than read past).
        if (FigureWriter::isValidMap(m) && m.rows == leftLabels.size() && m.cols == rightLabels.size()) heads_.push_back(m);
    }
    if (heads_.empty()) {
        left_.clear();
        right_.clear();
    } else {
        left_ = leftLabels;
        right_ = rightLabels;
    }
    if (visible_.size() != heads_.size()) visible_.assign(heads_.size(), true);
    focusSide_ = Side::None;
    focusToken_ = -1;
    rebuild();
}

void LineViewRenderer::clear() { setMaps({}, {}, {}); }

void LineViewRenderer::setHeadVisible(int head, bool visible) {
    if (head >= 0 && head < static_cast<int>(visible_.size())) visible_[static_cast<std::size_t>(head)] = visible;
}

bool LineViewRenderer::isHeadVisible(int head) const {
    return head >= 0 && head < static_cast<int>(visible_.size()) && visible_[static_cast<std::size_t>(head)];
}

void LineViewRenderer::setThreshold(double massShare) {
    const double share = std::isfinite(massShare) ? std::clamp(massShare, 0.01, 1.0) : 1.0;
    if (share == threshold_) return;
    threshold_ = share;
    rebuild();
}

void LineViewRenderer::setFocus(Side side, int token) {
    const int count = side == Side::Left ? leftCount() : side == Side::Right ? rightCount() : 0;
    if (side == Side::None || token < 0 || token >= count) {
        focusSide_ = Side::None;
        focusToken_ = -1;
    } else {
        focusSide_ = side;
        focusToken_ = token;
    }
}

QColor LineViewRenderer::headColor(int head) {
    // Tableau 10: distinct hues that stay apart on white and on dark backgrounds.
    static const std::array<QColor, 10> colors{QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                                               QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                               QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22),
                                               QColor(0x17, 0xbe, 0xcf)};
    return colors[static_cast<std::size_t>(std::max(0, head)) % colors.size()];
}

void LineViewRenderer::rebuild() {
    sorted_.clear();
    light_.clear();
    std::vector<int> order;
    const auto add = [this](const Line& l) { (l.weight >= kMinimumWeight ? sorted_ : light_).push_back(l); };
    for (int h = 0; h < static_cast<int>(heads_.size()); ++h) {
        const AttentionMap& m = heads_[static_cast<std::size_t>(h)];
        order.resize(static_cast<std::size_t>(m.cols));
        for (int r = 0; r < m.rows; ++r) {
            const float* row = m.weights.data() + static_cast<std::size_t>(r) * m.cols;
            double total = 0.0;
            for (int c = 0; c < m.cols; ++c) total += std::max(0.0f, row[c]);
            if (total <= 0.0) continue;
            if (threshold_ >= 1.0) {  // every positive weight: no need to rank the row
                for (int c = 0; c < m.cols; ++c)
                    if (row[c] > 0.0f) add(Line{row[c], h, r, c});
                continue;
            }
            std::iota(order.begin(), order.end(), 0);
            std::sort(order.begin(), order.end(), [row](int a, int b) { return row[a] > row[b] || (row[a] == row[b] && a < b); });
            // The smallest set of the largest weights that reaches the share of the row's mass.
            double kept = 0.0;
            for (int c : order) {
                const float w = row[c];
                if (w <= 0.0f) break;
                add(Line{w, h, r, c});
                kept += w;
                if (kept >= threshold_ * total - 1e-9) break;
            }
        }
    }
    std::sort(sorted_.begin(), sorted_.end(), heavierFirst);
}

bool LineViewRenderer::heavierFirst(const Line& a, const Line& b) {
    // Ties in the maps' order (head, row, column), so that the order is the same on every run.
    if (a.weight != b.weight) return a.weight > b.weight;
    if (a.head != b.head) return a.head < b.head;
    if (a.row != b.row) return a.row < b.row;
    return a.column < b.column;
}

bool LineViewRenderer::keeps(const Line& line) const {
    if (!isHeadVisible(line.head)) return false;
    if (focusSide_ == Side::Left) return line.row == focusToken_;
    if (focusSide_ == Side::Right) return line.column == focusToken_;
    return true;
}

std::vector<LineViewRenderer::Line> LineViewRenderer::keptLines() const {
    std::vector<Line> out;
    for (const Line& l : sorted_)
        if (keeps(l)) out.push_back(l);
    const std::size_t heavy = out.size();
    for (const Line& l : light_)
        if (keeps(l)) out.push_back(l);
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(heavy), out.end(), heavierFirst);
    return out;
}

std::pair<std::size_t, std::size_t> LineViewRenderer::keptCounts() const {
    std::size_t heavy = 0, light = 0;
    for (const Line& l : sorted_) heavy += keeps(l) ? 1 : 0;
    for (const Line& l : light_) light += keeps(l) ? 1 : 0;
    return {heavy + light, heavy};
}

QSize LineViewRenderer::preferredSize() const {
    const QFontMetricsF fm(font_);
    qreal leftWidth = 0, rightWidth = 0;
    for (const QString& s : left_) leftWidth = std::max(leftWidth, fm.horizontalAdvance(s));
    for (const QString& s : right_) rightWidth = std::max(rightWidth, fm.horizontalAdvance(s));
    leftWidth = std::min(leftWidth, kMaxLineLabelWidth);
    rightWidth = std::min(rightWidth, kMaxLineLabelWidth);
    const int tokens = std::max(leftCount(), rightCount());
    const qreal header = fm.height() * 1.6 + kChip + kChipGap * 2;
    const qreal width = kPad * 2 + leftWidth + rightWidth + 12 + 260;
    const qreal height = kPad * 2 + header + std::max(1, tokens) * kRowHeight;
    return QSize(static_cast<int>(std::ceil(std::max<qreal>(width, 360))), static_cast<int>(std::ceil(height)));
}

LineViewRenderer::Geometry LineViewRenderer::geometry(const QRectF& target) const {
    Geometry g;
    const QFontMetricsF fm(font_);
    const QRectF area = target.adjusted(kPad, kPad, -kPad, -kPad);
    g.title = QRectF(area.left(), area.top(), area.width(), title_.isEmpty() ? 0.0 : fm.height() * 1.4);
    const qreal chipTop = g.title.bottom() + (title_.isEmpty() ? 0.0 : 2.0);
    const qreal chipWidth = kChip + fm.horizontalAdvance(QStringLiteral("88")) + 4;
    for (int h = 0; h < headCount(); ++h)
        g.chips.emplace_back(area.left() + h * (chipWidth + kChipGap), chipTop, chipWidth, kChip);
    const qreal top = chipTop + kChip + kChipGap * 2;
    const int tokens = std::max(leftCount(), rightCount());
    if (tokens == 0) return g;
    const qreal rowHeight = std::clamp((area.bottom() - top) / tokens, kMinRowHeight, kRowHeight);
    qreal leftWidth = 0, rightWidth = 0;
    for (const QString& s : left_) leftWidth = std::max(leftWidth, fm.horizontalAdvance(s));
    for (const QString& s : right_) rightWidth = std::max(rightWidth, fm.horizontalAdvance(s));
    leftWidth = std::min(leftWidth, kMaxLineLabelWidth);
    rightWidth = std::min(rightWidth, kMaxLineLabelWidth);
    // The two columns close enough together to read across, at most 2.5 label widths apart.
    const qreal gap = std::clamp(area.width() - leftWidth - rightWidth - 12, 120.0, 520.0);
    const qreal total = leftWidth + rightWidth + 12 + gap;
    const qreal left = area.left() + std::max<qreal>(0.0, (area.width() - total) / 2);
    g.leftAnchor = left + leftWidth + 6;
    g.rightAnchor = g.leftAnchor + gap;
    for (int i = 0; i < leftCount(); ++i) g.left.emplace_back(left, top + i * rowHeight, leftWidth, rowHeight);
    for (int j = 0; j < rightCount(); ++j)
        g.right.emplace_back(g.rightAnchor + 6, top + j * rowHeight, rightWidth, rowHeight);
    return g;
}

LineViewRenderer::Hit LineViewRenderer::hitTest(const QRectF& target, const QPointF& pos) const {
    const Geometry g = geometry(target);
    for (int h = 0; h < static_cast<int>(g.chips.size()); ++h)
        if (g.chips[static_cast<std::size_t>(h)].adjusted(-2, -2, 2, 2).contains(pos)) return Hit{Hit::Kind::Chip, h};
    // A token's whole band on its side of the lines, so a short label is easy to hover.
    for (int i = 0; i < static_cast<int>(g.left.size()); ++i) {
        const QRectF r = g.left[static_cast<std::size_t>(i)];
        if (pos.y() >= r.top() && pos.y() < r.bottom() && pos.x() >= target.left() && pos.x() <= g.leftAnchor + 4)
            return Hit{Hit::Kind::Left, i};
    }
    for (int j = 0; j < static_cast<int>(g.right.size()); ++j) {
        const QRectF r = g.right[static_cast<std::size_t>(j)];
        if (pos.y() >= r.top() && pos.y() < r.bottom() && pos.x() >= g.rightAnchor - 4 && pos.x() <= target.right())
            return Hit{Hit::Kind::Right, j};
    }
    return Hit{};
}

void LineViewRenderer::paint(QPainter& painter, const QRectF& target, const QColor& textColor,
                             const QColor& background, const QRectF& exposed) const {
    painter.save();
    if (background.alpha() > 0) painter.fillRect(target, background);
    drawn_ = 0;
    leftOut_ = 0;
    if (heads_.empty()) {
        QColor color = textColor;
        color.setAlphaF(0.6f);
        painter.setPen(color);
        painter.drawText(target, Qt::AlignCenter, tr("No attention to show yet"));
        painter.restore();
        return;
    }
    const Geometry g = geometry(target);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    const QFontMetricsF fm(font_);
    if (!g.title.isEmpty()) {
        QFont bold = font_;
        bold.setBold(true);
        painter.setFont(bold);
        painter.setPen(textColor);
        painter.drawText(g.title, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(title_, Qt::ElideRight, g.title.width()));
    }
    // Chips: a filled square per visible head, an outline per hidden one, and its number.
    painter.setFont(font_);
    for (int h = 0; h < static_cast<int>(g.chips.size()); ++h) {
        const QRectF chip = g.chips[static_cast<std::size_t>(h)];
        const QRectF square(chip.left(), chip.top(), kChip, kChip);
        const QColor color = headColor(h);
        painter.setPen(QPen(color, 1.5));
        painter.setBrush(isHeadVisible(h) ? QBrush(color) : QBrush(Qt::NoBrush));
        painter.drawRect(square.adjusted(0.75, 0.75, -0.75, -0.75));
        painter.setPen(textColor);
        painter.drawText(QRectF(square.right() + 3, chip.top(), chip.width() - kChip - 3, chip.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, QString::number(h + 1));
    }
    if (g.left.empty() && g.right.empty()) {
        painter.restore();
        return;
    }
    const qreal rowHeight = !g.left.empty() ? g.left.front().height() : g.right.front().height();
    const auto yLeft = [&](int i) { return g.left[static_cast<std::size_t>(i)].center().y(); };
    const auto yRight = [&](int j) { return g.right[static_cast<std::size_t>(j)].center().y(); };

    // Lines, heaviest first up to the budget, batched by head and opacity step.
    std::vector<std::vector<QLineF>> batches(static_cast<std::size_t>(headCount() * kAlphaSteps));
    const bool clipped = !exposed.isEmpty();
    const qreal clipTop = exposed.top(), clipBottom = exposed.bottom();
    for (const Line& l : sorted_) {
        if (!keeps(l)) continue;
        if (clipped) {
            const qreal a = yLeft(l.row), b = yRight(l.column);
            if (std::max(a, b) < clipTop - 2 || std::min(a, b) > clipBottom + 2) continue;
        }
        if (drawn_ >= kLineBudget) {
            ++leftOut_;
            continue;
        }
        const int step = std::clamp(static_cast<int>(std::ceil(std::min(1.0f, l.weight) * kAlphaSteps)) - 1, 0, kAlphaSteps - 1);
        batches[static_cast<std::size_t>(l.head * kAlphaSteps + step)].emplace_back(
            QPointF(g.leftAnchor, yLeft(l.row)), QPointF(g.rightAnchor, yRight(l.column)));
        ++drawn_;
    }
    for (const Line& l : light_) {  // too light to show: counted as left out, as the budget's are
        if (!keeps(l)) continue;
        if (clipped) {
            const qreal a = yLeft(l.row), b = yRight(l.column);
            if (std::max(a, b) < clipTop - 2 || std::min(a, b) > clipBottom + 2) continue;
        }
        ++leftOut_;
    }
    // One-pixel cosmetic lines: the raster engine's fast antialiased path (wider pens are stroked as
    // polygons, about a hundred times slower for thousands of long lines).
    QPen pen;
    pen.setCosmetic(true);
    pen.setWidthF(1.0);
    for (int h = 0; h < headCount(); ++h) {
        for (int s = 0; s < kAlphaSteps; ++s) {
            const auto& lines = batches[static_cast<std::size_t>(h * kAlphaSteps + s)];
            if (lines.empty()) continue;
            QColor color = headColor(h);
            color.setAlphaF(static_cast<float>(s + 1) / kAlphaSteps);
            pen.setColor(color);
            painter.setPen(pen);
            painter.drawLines(lines.data(), static_cast<int>(lines.size()));
        }
    }

    // Token labels (left right-aligned, right left-aligned); the focused one bold.
    if (rowHeight >= kLabelRowHeight) {
        QFont bold = font_;
        bold.setBold(true);
        const auto drawLabels = [&](const std::vector<QRectF>& boxes, const QStringList& labels, Side side) {
            for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
                const bool focused = focusSide_ == side && focusToken_ == i;
                painter.setFont(focused ? bold : font_);
                QColor color = textColor;
                if (focusSide_ != Side::None && !focused) color.setAlphaF(0.75f);
                painter.setPen(color);
                const QRectF box = boxes[static_cast<std::size_t>(i)];
                const QString text = QFontMetricsF(painter.font()).elidedText(labels[i], Qt::ElideRight, box.width());
                painter.drawText(box, (side == Side::Left ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter, text);
            }
        };
        drawLabels(g.left, left_, Side::Left);
        drawLabels(g.right, right_, Side::Right);
    } else {
        // Too many tokens for their labels at this size: a tick per token instead.
        QColor tick = textColor;
        tick.setAlphaF(0.5f);
        painter.setPen(QPen(tick, 1.0));
        for (const QRectF& r : g.left) painter.drawLine(QPointF(g.leftAnchor - 5, r.center().y()), QPointF(g.leftAnchor, r.center().y()));
        for (const QRectF& r : g.right) painter.drawLine(QPointF(g.rightAnchor, r.center().y()), QPointF(g.rightAnchor + 5, r.center().y()));
    }
    painter.restore();
}

Figure LineViewRenderer::figure(QSize size) const {
    auto copy = std::make_shared<LineViewRenderer>(*this);
    copy->setFocus(Side::None, -1);
    const HeatmapOptions defaults;
    Figure f;
    f.size = size.isEmpty() ? preferredSize() : size;
    f.title = title_;
    f.background = defaults.backgroundColor;
    f.paint = [copy, defaults](QPainter& painter, const QRectF& target) {
        copy->paint(painter, target, defaults.textColor, defaults.backgroundColor);
    };
    return f;
}

bool LineViewRenderer::exportImage(const QString& path, QString* error, double scale, QSize size) const {
    if (heads_.empty())
        return FigureWriter::report(FigureError{FigureError::Code::NothingToShow, path, tr("no attention to show yet")}, error);
    return FigureWriter::report(FigureWriter::write(path, figure(size), scale), error);
}

}  // namespace attnlab
