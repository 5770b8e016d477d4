#include "render/HeatmapRenderer.h"

#include "render/RenderSupport.h"

#include <QFontMetricsF>
#include <QPaintEngine>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace attnlab {

using namespace render_detail;


HeatmapRenderer::HeatmapRenderer() : HeatmapRenderer(HeatmapOptions{}) {}

HeatmapRenderer::HeatmapRenderer(const HeatmapOptions& options) : options_(options) {
    options_.font = normalizedFont(options.font);
}

QFont HeatmapRenderer::defaultFont() {
    QFont font;
    font.setFamilies(fallbackFamilies());
    font.setStyleHint(QFont::SansSerif);
    font.setPixelSize(13);
    return font;
}

QFont HeatmapRenderer::normalizedFont(const QFont& font) {
    if (font == QFont()) {
        return defaultFont();
    }
    QFont out = font;
    if (out.pixelSize() <= 0) {
        const double points = out.pointSizeF() > 0 ? out.pointSizeF() : 10.0;
        // Pixel sizes keep the layout identical on screens, images, SVG and PDF.
        out.setPixelSize(std::max(1, static_cast<int>(std::lround(points * 96.0 / 72.0))));
    }
    QStringList families = out.families();
    if (families.isEmpty()) {
        families << out.family();
    }
    for (const QString& family : fallbackFamilies()) {
        if (!families.contains(family, Qt::CaseInsensitive)) {
            families << family;
        }
    }
    out.setFamilies(families);
    return out;
}

QColor HeatmapRenderer::contrastingTextColor(QRgb background) {
    const double luminance = 0.2126 * srgbToLinear(qRed(background)) + 0.7152 * srgbToLinear(qGreen(background)) +
                             0.0722 * srgbToLinear(qBlue(background));
    // 0.179 is where black and white text have equal contrast (WCAG).
    return luminance < 0.179 ? QColor(Qt::white) : QColor(0x1a, 0x1a, 0x1a);
}

bool HeatmapRenderer::isValidMap(const AttentionMap& map) { return FigureWriter::isValidMap(map); }

QStringList HeatmapRenderer::toStringList(const std::vector<std::string>& items) {
    QStringList list;
    list.reserve(static_cast<int>(items.size()));
    for (const std::string& item : items) {
        list << QString::fromStdString(item);
    }
    return list;
}

// ---- data ----------------------------------------------------------------------------------------

void HeatmapRenderer::setMap(const AttentionMap& map, const QStringList& rowLabels, const QStringList& columnLabels) {
    invalidReason_.clear();
    if (isValidMap(map)) {
        map_ = map;
    } else {
        invalidReason_ = tr("Invalid attention map: %1 × %2 with %3 weights")
                             .arg(map.rows)
                             .arg(map.cols)
                             .arg(static_cast<qulonglong>(map.weights.size()));
        map_ = AttentionMap{};
    }
    rowLabels_ = rowLabels.mid(0, std::max(0, map_.rows));
    columnLabels_ = columnLabels.mid(0, std::max(0, map_.cols));
    dataLow_ = 0.0;
    dataHigh_ = -std::numeric_limits<double>::infinity();
    for (float w : map_.weights) {
        if (std::isfinite(w)) {
            dataLow_ = std::min(dataLow_, static_cast<double>(w));
            dataHigh_ = std::max(dataHigh_, static_cast<double>(w));
        }
    }
    if (!(dataHigh_ > dataLow_)) {
        dataHigh_ = dataLow_ + 1.0;
    }
    if (options_.highlightRow >= map_.rows || options_.highlightColumn >= map_.cols) {
        options_.highlightRow = -1;
        options_.highlightColumn = -1;
    }
    setSelection(options_.selectedRows, options_.selectedColumns);
    measureLabels();
    invalidateImage();
}

void HeatmapRenderer::setMap(const AttentionMap& map, const std::vector<std::string>& rowLabels,
                             const std::vector<std::string>& columnLabels) {
    setMap(map, toStringList(rowLabels), toStringList(columnLabels));
}

void HeatmapRenderer::clear() { setMap(AttentionMap{}, QStringList(), QStringList()); }

QString HeatmapRenderer::rowLabel(int row) const {
    return row >= 0 && row < rowLabels_.size() ? rowLabels_.at(row) : QString::number(row);
}

QString HeatmapRenderer::columnLabel(int column) const {
    return column >= 0 && column < columnLabels_.size() ? columnLabels_.at(column) : QString::number(column);
}

QStringList HeatmapRenderer::rowLabels() const {
    QStringList labels;
    for (int r = 0; r < map_.rows; ++r) {
        labels << rowLabel(r);
    }
    return labels;
}

QStringList HeatmapRenderer::columnLabels() const {
    QStringList labels;
    for (int c = 0; c < map_.cols; ++c) {
        labels << columnLabel(c);
    }
    return labels;
}

double HeatmapRenderer::weight(int row, int column) const {
    if (row < 0 || column < 0 || row >= map_.rows || column >= map_.cols) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return map_.at(row, column);
}

QString HeatmapRenderer::emptyText() const {
    return invalidReason_.isEmpty() ? tr("No attention to show yet") : invalidReason_;
}

void HeatmapRenderer::measureLabels() {
    // Bold is the widest variant a label is drawn in (highlighted).
    const QFontMetricsF metrics(scaledFont(options_.font, 1.0, true));
    maxRowLabelWidth_ = 0.0;
    maxColumnLabelWidth_ = 0.0;
    if (!options_.showLabels) {
        return;
    }
    for (int r = 0; r < map_.rows; ++r) {
        maxRowLabelWidth_ = std::max(maxRowLabelWidth_, metrics.horizontalAdvance(rowLabel(r)));
    }
    for (int c = 0; c < map_.cols; ++c) {
        maxColumnLabelWidth_ = std::max(maxColumnLabelWidth_, metrics.horizontalAdvance(columnLabel(c)));
    }
    maxRowLabelWidth_ = std::ceil(maxRowLabelWidth_);
    maxColumnLabelWidth_ = std::ceil(maxColumnLabelWidth_);
}

// ---- options -------------------------------------------------------------------------------------

void HeatmapRenderer::setOptions(const HeatmapOptions& options) {
    const bool recolor = options.colormap != options_.colormap || options.scale != options_.scale ||
                         options.valueMin != options_.valueMin || options.valueMax != options_.valueMax;
    const bool remeasure = options.font != options_.font || options.showLabels != options_.showLabels;
    options_ = options;
    options_.font = normalizedFont(options.font);
    if (remeasure) {
        measureLabels();
    }
    if (recolor) {
        invalidateImage();
    }
}

void HeatmapRenderer::setColormap(ColormapId id) {
    if (id != options_.colormap) {
        options_.colormap = id;
        invalidateImage();
    }
}

void HeatmapRenderer::setScale(ScaleMode mode, double valueMin, double valueMax) {
    options_.scale = mode;
    options_.valueMin = valueMin;
    options_.valueMax = valueMax;
    invalidateImage();
}

void HeatmapRenderer::setTitle(const QString& title) { options_.title = title; }

void HeatmapRenderer::setAxisTitles(const QString& rowAxis, const QString& columnAxis) {
    options_.rowAxisTitle = rowAxis;
    options_.columnAxisTitle = columnAxis;
}

void HeatmapRenderer::setShowNumbers(bool on) { options_.showNumbers = on; }

void HeatmapRenderer::setMassShare(double share) {
    const double s = std::isfinite(share) ? std::clamp(share, 0.01, 1.0) : 1.0;
    if (s != options_.massShare) {
        options_.massShare = s;
        invalidateImage();
    }
}

namespace {

// The columns a threshold keeps in one row: the largest weights, in order, until they reach
// `share` of the row's positive mass (ties by column). Every column when share is 1.
std::vector<bool> keptColumns(const float* row, int cols, double share) {
    std::vector<bool> kept(static_cast<std::size_t>(cols), share >= 1.0);
    if (share >= 1.0) return kept;
    double total = 0.0;
    for (int c = 0; c < cols; ++c) total += std::max(0.0f, row[c]);
    std::vector<int> order(static_cast<std::size_t>(cols));
    for (int c = 0; c < cols; ++c) order[static_cast<std::size_t>(c)] = c;
    std::sort(order.begin(), order.end(), [row](int a, int b) { return row[a] > row[b] || (row[a] == row[b] && a < b); });
    double sum = 0.0;
    for (int c : order) {
        if (row[c] <= 0.0f || sum >= share * total - 1e-9) break;
        kept[static_cast<std::size_t>(c)] = true;
        sum += row[c];
    }
    return kept;
}

}  // namespace

bool HeatmapRenderer::keepsCell(int row, int column) const {
    if (options_.massShare >= 1.0 || row < 0 || row >= map_.rows || column < 0 || column >= map_.cols) return true;
    return keptColumns(map_.weights.data() + static_cast<std::size_t>(row) * map_.cols, map_.cols,
                       options_.massShare)[static_cast<std::size_t>(column)];
}

void HeatmapRenderer::setShowColorBar(bool on) { options_.showColorBar = on; }

void HeatmapRenderer::setShowLabels(bool on) {
    if (on != options_.showLabels) {
        options_.showLabels = on;
        measureLabels();
    }
}

void HeatmapRenderer::setFont(const QFont& font) {
    options_.font = normalizedFont(font);
    measureLabels();
}

void HeatmapRenderer::setColors(const QColor& text, const QColor& background) {
    options_.textColor = text;
    options_.backgroundColor = background;
}

void HeatmapRenderer::setHighlight(int row, int column) {
    options_.highlightRow = row >= 0 && row < map_.rows ? row : -1;
    options_.highlightColumn = column >= 0 && column < map_.cols ? column : -1;
}

void HeatmapRenderer::setSelection(const std::vector<int>& rows, const std::vector<int>& columns) {
    auto clean = [](std::vector<int> indices, int limit) {
        indices.erase(std::remove_if(indices.begin(), indices.end(), [limit](int i) { return i < 0 || i >= limit; }),
                      indices.end());
        std::sort(indices.begin(), indices.end());
        indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
        return indices;
    };
    options_.selectedRows = clean(rows, map_.rows);
    options_.selectedColumns = options_.selectedRows.empty() ? clean(columns, map_.cols) : std::vector<int>{};
}

std::vector<double> HeatmapRenderer::selectionSums() const {
    std::vector<double> sums;
    auto add = [](double& sum, float w) {
        if (std::isfinite(w)) sum += w;
    };
    if (!options_.selectedRows.empty()) {
        sums.assign(static_cast<std::size_t>(map_.cols), 0.0);
        for (int r : options_.selectedRows) {
            for (int c = 0; c < map_.cols; ++c) add(sums[static_cast<std::size_t>(c)], map_.at(r, c));
        }
    } else if (!options_.selectedColumns.empty()) {
        sums.assign(static_cast<std::size_t>(map_.rows), 0.0);
        for (int r = 0; r < map_.rows; ++r) {
            for (int c : options_.selectedColumns) add(sums[static_cast<std::size_t>(r)], map_.at(r, c));
        }
    }
    return sums;
}

std::pair<double, double> HeatmapRenderer::valueRange() const {
    switch (options_.scale) {
    case ScaleMode::Unit:
        return {0.0, 1.0};
    case ScaleMode::Fixed: {
        double low = options_.valueMin;
        double high = options_.valueMax;
        if (!std::isfinite(low) || !std::isfinite(high)) {
            return {0.0, 1.0};
        }
        if (high < low) {
            std::swap(low, high);
        }
        if (!(high > low)) {
            high = low + 1.0;
        }
        return {low, high};
    }
    case ScaleMode::DataMax:
        break;
    }
    return {dataLow_, dataHigh_};
}

QRgb HeatmapRenderer::colorFor(double weight) const {
    const auto [low, high] = valueRange();
    return colormap().color((weight - low) / (high - low));
}

const QImage& HeatmapRenderer::matrixImage() const {
    if (!imageDirty_) {
        return image_;
    }
    imageDirty_ = false;
    if (isEmpty() || map_.rows > FigureWriter::kMaxImageSide * 4 || map_.cols > FigureWriter::kMaxImageSide * 4) {
        image_ = QImage();
        return image_;
    }
    if (image_.size() != QSize(map_.cols, map_.rows) || image_.format() != QImage::Format_RGB32) {
        image_ = QImage(map_.cols, map_.rows, QImage::Format_RGB32);
        if (image_.isNull()) {
            return image_;  // could not allocate
        }
    }
    const Colormap::Table& lut = colormap().table();
    const auto [low, high] = valueRange();
    const double span = high - low;
    const float* weights = map_.weights.data();
    // Cells the threshold leaves out: 85% of the way to the background (white when it is clear).
    const QColor fadeTo = options_.backgroundColor.alpha() > 0 ? options_.backgroundColor : QColor(Qt::white);
    const auto fade = [&fadeTo](QRgb c) {
        return qRgb((qRed(c) * 15 + fadeTo.red() * 85) / 100, (qGreen(c) * 15 + fadeTo.green() * 85) / 100,
                    (qBlue(c) * 15 + fadeTo.blue() * 85) / 100);
    };
    for (int r = 0; r < map_.rows; ++r) {
        auto* line = reinterpret_cast<QRgb*>(image_.scanLine(r));
        const float* source = weights + static_cast<std::size_t>(r) * map_.cols;
        if (options_.massShare < 1.0) {
            const std::vector<bool> kept = keptColumns(source, map_.cols, options_.massShare);
            for (int c = 0; c < map_.cols; ++c) {
                const QRgb color = lut[Colormap::indexFor((source[c] - low) / span)];
                line[c] = kept[static_cast<std::size_t>(c)] ? color : fade(color);
            }
            continue;
        }
        for (int c = 0; c < map_.cols; ++c) {
            line[c] = lut[Colormap::indexFor((source[c] - low) / span)];
        }
    }
    return image_;
}

// ---- layout --------------------------------------------------------------------------------------

QSize HeatmapRenderer::preferredSize(double cellSize) const {
    if (isEmpty()) {
        return QSize(360, 240);
    }
    const QFontMetricsF metrics(options_.font);
    const qreal line = metrics.height();
    const qreal cell =
        cellSize > 0 ? cellSize : std::clamp(std::floor(640.0 / std::max(map_.rows, map_.cols)), 1.0, 40.0);
    const bool decorated = options_.showLabels || options_.showColorBar || !options_.title.isEmpty();
    const qreal pad = decorated ? std::round(line * 0.6) : 0.0;
    qreal rowLabels = 0.0;
    qreal columnLabels = 0.0;
    if (options_.showLabels) {
        rowLabels = std::min(maxRowLabelWidth_, kMaxLabelWidth) + kTickLength + kLabelGap;
        const bool rotate = maxColumnLabelWidth_ + 4 > cell;
        columnLabels = (rotate ? std::min(maxColumnLabelWidth_, kMaxLabelWidth) : line) + kTickLength + kLabelGap;
    }
    qreal colorBar = 0.0;
    if (options_.showColorBar) {
        const auto [low, high] = valueRange();
        colorBar = pad + std::max(10.0, std::round(line * 0.9)) + kTickLength + kLabelGap +
                   colorBarLabelWidth(low, high, options_.font);
    }
    const qreal titleHeight =
        options_.title.isEmpty() ? 0.0 : QFontMetricsF(titleFontFor(options_.font)).height() + pad / 2;
    const qreal rowAxis = options_.rowAxisTitle.isEmpty() ? 0.0 : line + 2;
    const qreal columnAxis = options_.columnAxisTitle.isEmpty() ? 0.0 : line + 2;
    const qreal stripGap = std::round(line * 0.4);
    const qreal bottomStrip = options_.selectedRows.empty() ? 0.0 : stripGap + sumStripExtent();
    const qreal rightStrip = options_.selectedColumns.empty() ? 0.0 : stripGap + sumStripExtent();
    qreal width = 2 * pad + rowAxis + rowLabels + cell * map_.cols + rightStrip + colorBar;
    // The colour bar's lowest tick label hangs half a line below the matrix.
    const qreal overhang = options_.showColorBar ? std::ceil(line / 2) : 0.0;
    qreal height = 2 * pad + titleHeight + columnAxis + columnLabels + cell * map_.rows + bottomStrip + overhang;
    // layout() lets labels take at most kLabelShare of the size: make room so that none is elided.
    width = std::max(width, (rowLabels - kTickLength - kLabelGap) / kLabelShare);
    height = std::max(height, (columnLabels - kTickLength - kLabelGap) / kLabelShare);
    if (!options_.title.isEmpty()) {
        width = std::max(width, QFontMetricsF(titleFontFor(options_.font)).horizontalAdvance(options_.title) + 2 * pad);
    }
    return QSize(static_cast<int>(std::ceil(width)), static_cast<int>(std::ceil(height)));
}

void HeatmapRenderer::layout(const QRectF& target) const {
    Layout l;
    l.target = target;
    if (isEmpty() || target.isEmpty()) {
        layout_ = l;
        return;
    }
    const QFontMetricsF metrics(options_.font);
    const qreal line = metrics.height();
    const bool decorated = options_.showLabels || options_.showColorBar || !options_.title.isEmpty() ||
                           !options_.rowAxisTitle.isEmpty() || !options_.columnAxisTitle.isEmpty();
    const qreal pad = decorated ? std::round(line * 0.6) : 0.0;
    const qreal width = target.width();
    const qreal height = target.height();

    const qreal titleHeight =
        options_.title.isEmpty() ? 0.0 : QFontMetricsF(titleFontFor(options_.font)).height() + pad / 2;
    const qreal columnAxis = options_.columnAxisTitle.isEmpty() ? 0.0 : line + 2;
    const qreal rowAxis = options_.rowAxisTitle.isEmpty() ? 0.0 : line + 2;
    qreal rowLabels = 0.0;
    if (options_.showLabels) {
        l.rowLabelWidth = std::min({maxRowLabelWidth_, kMaxLabelWidth, std::max(kMinLabelCap, width * kLabelShare)});
        rowLabels = l.rowLabelWidth + kTickLength + kLabelGap;
    }
    qreal barWidth = 0.0;
    qreal colorBar = 0.0;
    if (options_.showColorBar) {
        const auto [low, high] = valueRange();
        barWidth = std::max(10.0, std::round(line * 0.9));
        colorBar = pad + barWidth + kTickLength + kLabelGap + colorBarLabelWidth(low, high, options_.font);
    }
    // The colour bar's lowest tick label hangs half a line below the matrix.
    const qreal overhang = options_.showColorBar ? std::ceil(line / 2) : 0.0;
    // The selection's sums: a strip under the matrix (rows) or right of it (columns).
    const qreal stripGap = std::round(line * 0.4);
    const qreal bottomStrip = options_.selectedRows.empty() ? 0.0 : stripGap + sumStripExtent();
    const qreal rightStrip = options_.selectedColumns.empty() ? 0.0 : stripGap + sumStripExtent();
    const qreal availableWidth = width - 2 * pad - rowAxis - rowLabels - rightStrip - colorBar;
    auto cellsFor = [&](qreal columnLabels) {
        const qreal availableHeight =
            height - 2 * pad - titleHeight - columnAxis - columnLabels - bottomStrip - overhang;
        qreal cw = std::max(0.0, availableWidth / map_.cols);
        qreal ch = std::max(0.0, availableHeight / map_.rows);
        if (options_.keepAspect) {
            cw = ch = std::min(cw, ch);
        }
        return std::make_pair(cw, ch);
    };
    qreal columnLabels = options_.showLabels ? line + kTickLength + kLabelGap : 0.0;
    auto [cw, ch] = cellsFor(columnLabels);
    l.columnLabelExtent = cw;
    if (options_.showLabels && maxColumnLabelWidth_ + 4 > cw) {
        l.rotateColumnLabels = true;
        l.columnLabelExtent =
            std::min({maxColumnLabelWidth_, kMaxLabelWidth, std::max(kMinLabelCap, height * kLabelShare)});
        columnLabels = l.columnLabelExtent + kTickLength + kLabelGap;
        std::tie(cw, ch) = cellsFor(columnLabels);
    }
    // Whole-pixel cells keep cell edges crisp once cells are a few pixels wide.
    if (cw >= 4) {
        cw = std::floor(cw);
    }
    if (ch >= 4) {
        ch = std::floor(ch);
    }
    l.cellWidth = cw;
    l.cellHeight = ch;
    if (!l.rotateColumnLabels) {
        l.columnLabelExtent = cw;
    }
    l.rowStride = ch > 0 ? std::max(1, static_cast<int>(std::ceil(line * 1.05 / ch))) : map_.rows + 1;
    l.columnStride = !l.rotateColumnLabels ? 1
                     : cw > 0              ? std::max(1, static_cast<int>(std::ceil(line * 1.05 / cw)))
                                           : map_.cols + 1;

    const qreal matrixWidth = cw * map_.cols;
    const qreal matrixHeight = ch * map_.rows;
    const qreal contentWidth = rowAxis + rowLabels + matrixWidth + rightStrip + colorBar;
    const qreal contentHeight = titleHeight + columnAxis + columnLabels + matrixHeight + bottomStrip + overhang;
    const qreal x0 = std::round(target.left() + std::max(pad, (width - contentWidth) / 2));
    const qreal y0 = std::round(target.top() + std::max(pad, (height - contentHeight) / 2));
    l.matrix =
        QRectF(x0 + rowAxis + rowLabels, y0 + titleHeight + columnAxis + columnLabels, matrixWidth, matrixHeight);
    if (options_.showColorBar) {
        l.colorBar = QRectF(l.matrix.right() + rightStrip + pad, l.matrix.top(), barWidth, matrixHeight);
    }
    if (bottomStrip > 0) {
        l.sumStrip = QRectF(l.matrix.left(), l.matrix.bottom() + stripGap, matrixWidth, bottomStrip - stripGap);
    } else if (rightStrip > 0) {
        l.sumStrip = QRectF(l.matrix.right() + stripGap, l.matrix.top(), rightStrip - stripGap, matrixHeight);
    }
    if (!options_.title.isEmpty()) {
        const qreal titleWidth =
            std::min(QFontMetricsF(titleFontFor(options_.font)).horizontalAdvance(options_.title), width - 2 * pad);
        const qreal left = std::clamp(l.matrix.center().x() - titleWidth / 2, target.left() + pad,
                                      std::max(target.left() + pad, target.right() - pad - titleWidth));
        l.title = QRectF(left, y0, titleWidth, titleHeight - pad / 2);
    }
    if (rowAxis > 0) {
        l.rowAxisTitle = QRectF(x0, l.matrix.top(), rowAxis, matrixHeight);
    }
    if (columnAxis > 0) {
        l.columnAxisTitle = QRectF(l.matrix.left(), y0 + titleHeight, matrixWidth, columnAxis);
    }
    layout_ = l;
}

QRectF HeatmapRenderer::matrixRect() const { return layout_.matrix; }

QRectF HeatmapRenderer::colorBarRect() const { return layout_.colorBar; }

QRectF HeatmapRenderer::cellRect(int row, int column) const {
    if (row < 0 || column < 0 || row >= map_.rows || column >= map_.cols || layout_.matrix.isEmpty()) {
        return QRectF();
    }
    return QRectF(layout_.matrix.left() + column * layout_.cellWidth, layout_.matrix.top() + row * layout_.cellHeight,
                  layout_.cellWidth, layout_.cellHeight);
}

std::optional<QPoint> HeatmapRenderer::cellAt(const QPointF& pos) const {
    const QRectF& m = layout_.matrix;
    if (isEmpty() || m.isEmpty() || pos.x() < m.left() || pos.y() < m.top() || pos.x() >= m.right() ||
        pos.y() >= m.bottom()) {
        return std::nullopt;
    }
    const int column = std::clamp(static_cast<int>((pos.x() - m.left()) / layout_.cellWidth), 0, map_.cols - 1);
    const int row = std::clamp(static_cast<int>((pos.y() - m.top()) / layout_.cellHeight), 0, map_.rows - 1);
    return QPoint(column, row);
}

std::optional<int> HeatmapRenderer::rowLabelAt(const QPointF& pos) const {
    const QRectF& m = layout_.matrix;
    if (isEmpty() || m.isEmpty() || !options_.showLabels || layout_.cellHeight <= 0) {
        return std::nullopt;
    }
    // Anywhere left of the matrix within its height: short labels are easy to hit.
    if (pos.x() < layout_.target.left() || pos.x() >= m.left() || pos.y() < m.top() || pos.y() >= m.bottom()) {
        return std::nullopt;
    }
    return std::clamp(static_cast<int>((pos.y() - m.top()) / layout_.cellHeight), 0, map_.rows - 1);
}

std::optional<int> HeatmapRenderer::columnLabelAt(const QPointF& pos) const {
    const QRectF& m = layout_.matrix;
    if (isEmpty() || m.isEmpty() || !options_.showLabels || layout_.cellWidth <= 0) {
        return std::nullopt;
    }
    const qreal top = layout_.title.isEmpty() ? layout_.target.top() : layout_.title.bottom();
    if (pos.y() < top || pos.y() >= m.top() || pos.x() < m.left() || pos.x() >= m.right()) {
        return std::nullopt;
    }
    return std::clamp(static_cast<int>((pos.x() - m.left()) / layout_.cellWidth), 0, map_.cols - 1);
}

QRectF HeatmapRenderer::sumStripRect() const { return hasSelection() ? layout_.sumStrip : QRectF(); }

QRectF HeatmapRenderer::sumStripCellRect(int index) const {
    const QRectF& strip = layout_.sumStrip;
    if (strip.isEmpty() || !hasSelection()) {
        return QRectF();
    }
    if (!options_.selectedRows.empty()) {
        if (index < 0 || index >= map_.cols) return QRectF();
        return QRectF(strip.left() + index * layout_.cellWidth, strip.top(), layout_.cellWidth, strip.height());
    }
    if (index < 0 || index >= map_.rows) return QRectF();
    return QRectF(strip.left(), strip.top() + index * layout_.cellHeight, strip.width(), layout_.cellHeight);
}

std::optional<int> HeatmapRenderer::sumStripCellAt(const QPointF& pos) const {
    const QRectF strip = sumStripRect();
    if (strip.isEmpty() || !strip.contains(pos)) {
        return std::nullopt;
    }
    if (!options_.selectedRows.empty()) {
        return std::clamp(static_cast<int>((pos.x() - strip.left()) / layout_.cellWidth), 0, map_.cols - 1);
    }
    return std::clamp(static_cast<int>((pos.y() - strip.top()) / layout_.cellHeight), 0, map_.rows - 1);
}

qreal HeatmapRenderer::sumStripExtent() const {
    const QFontMetricsF metrics(options_.font);
    if (!options_.selectedRows.empty()) {
        return std::round(metrics.height() * 1.5);
    }
    // A column strip is as wide as its widest sum, so that its numbers fit.
    qreal widest = metrics.horizontalAdvance(QStringLiteral("0.00"));
    for (double sum : selectionSums()) {
        widest = std::max(widest, metrics.horizontalAdvance(QString::number(sum, 'f', 2)));
    }
    return std::ceil(std::max(widest + 8, metrics.height() * 1.5));
}

QColor HeatmapRenderer::selectionColor() const {
    // Orange is on none of the colour maps' paths through viridis, magma, cividis or grey; lighter on a
    // dark background.
    return contrastingTextColor(options_.backgroundColor.rgb()) == QColor(Qt::white) ? QColor(0xff, 0xa0, 0x40)
                                                                                      : QColor(0xd9, 0x5f, 0x02);
}

bool HeatmapRenderer::numbersVisible() const {
    return options_.showNumbers && !isEmpty() && layout_.cellWidth >= options_.minCellForNumbers &&
           layout_.cellHeight >= options_.minCellForNumbers * 0.6;
}

// ---- export --------------------------------------------------------------------------------------

Figure HeatmapRenderer::figure(QSize size) const {
    auto copy = std::make_shared<HeatmapRenderer>(*this);  // must not disturb the layout a widget hit-tests
    copy->setHighlight(-1, -1);
    Figure f;
    f.size = size.isEmpty() ? preferredSize() : size;
    f.title = options_.title;
    f.background = options_.backgroundColor;
    f.paint = [copy](QPainter& painter, const QRectF& target) { copy->paint(painter, target); };
    return f;
}

bool HeatmapRenderer::exportFile(const QString& path, QString* error, double scale, QSize size) const {
    const std::optional<ExportFormat> format = FigureWriter::formatForPath(path);
    if (!format) {
        return FigureWriter::report(FigureError{FigureError::Code::UnknownType, path, {}}, error);
    }
    return exportImage(path, *format, error, scale, size);
}

bool HeatmapRenderer::exportImage(const QString& path, ExportFormat format, QString* error, double scale,
                                  QSize size) const {
    if (isEmpty()) {
        return FigureWriter::report(FigureError{FigureError::Code::NothingToShow, path, emptyText().toLower()}, error);
    }
    if (!FigureWriter::isImage(format)) {
        return FigureWriter::report(FigureWriter::writeMatrix(path, map_, rowLabels_, columnLabels_), error);
    }
    return FigureWriter::report(FigureWriter::write(path, figure(size), scale), error);
}

bool HeatmapRenderer::exportCsv(const QString& path, QString* error) const {
    return exportImage(path, ExportFormat::Csv, error);
}

bool HeatmapRenderer::exportNpy(const QString& path, QString* error) const {
    return exportImage(path, ExportFormat::Npy, error);
}

}  // namespace attnlab
