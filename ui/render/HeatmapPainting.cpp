// HeatmapRenderer's drawing: the matrix, numbers, highlight, selection, labels and colour bar.
// Data, layout and hit-testing are in HeatmapRenderer.cpp.
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

// ---- painting ------------------------------------------------------------------------------------

void HeatmapRenderer::paint(QPainter& painter, const QRectF& target, const QRectF& exposed) const {
    painter.save();
    if (options_.backgroundColor.alpha() > 0) {
        painter.fillRect(exposed.isNull() ? target : exposed.intersected(target), options_.backgroundColor);
    }
    layout(target);
    const QRectF visible = exposed.isNull() ? target : exposed.intersected(target);
    if (isEmpty() || matrixImage().isNull()) {
        paintEmpty(
            painter, target,
            isEmpty() ? emptyText()
                      : tr("Attention map too large to draw (%1 × %2)").arg(map_.rows).arg(map_.cols));
        painter.restore();
        return;
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    paintMatrix(painter, visible);
    paintNumbers(painter, visible);
    paintHighlight(painter);
    paintSelection(painter);
    paintLabels(painter, visible);

    painter.setPen(options_.textColor);
    if (!layout_.title.isEmpty()) {
        const QFont font = titleFontFor(options_.font);
        painter.setFont(font);
        const QString text = QFontMetricsF(font).elidedText(options_.title, Qt::ElideRight, layout_.title.width() + 1);
        painter.drawText(layout_.title, Qt::AlignHCenter | Qt::AlignVCenter, text);
    }
    painter.setFont(options_.font);
    if (!layout_.columnAxisTitle.isEmpty()) {
        painter.drawText(layout_.columnAxisTitle, Qt::AlignHCenter | Qt::AlignTop, options_.columnAxisTitle);
    }
    if (!layout_.rowAxisTitle.isEmpty()) {
        const QRectF r = layout_.rowAxisTitle;
        // Chinese reads best upright, one character under the other; other scripts are turned.
        const QString& title = options_.rowAxisTitle;
        const bool han = std::all_of(title.begin(), title.end(),
                                     [](QChar c) { return c.script() == QChar::Script_Han; });
        const qreal step = QFontMetricsF(options_.font).height();
        if (han && !title.isEmpty() && step * title.size() <= r.height()) {
            qreal y = r.center().y() - step * title.size() / 2;
            for (QChar c : title) {
                painter.drawText(QRectF(r.left(), y, r.width(), step), Qt::AlignCenter, QString(c));
                y += step;
            }
        } else {
            painter.save();
            painter.translate(r.left(), r.bottom());
            painter.rotate(-90);
            painter.drawText(QRectF(0, 0, r.height(), r.width()), Qt::AlignHCenter | Qt::AlignTop, title);
            painter.restore();
        }
    }
    if (options_.showColorBar && !layout_.colorBar.isEmpty()) {
        const auto [low, high] = valueRange();
        paintColorBar(painter, layout_.colorBar, colormap(), low, high, options_.font, options_.textColor);
    }
    painter.restore();
}

void HeatmapRenderer::paintEmpty(QPainter& painter, const QRectF& target, const QString& text) const {
    QColor color = options_.textColor;
    color.setAlphaF(0.6f);
    painter.setPen(color);
    painter.setFont(scaledFont(options_.font, 1.1, false));
    painter.drawText(target, Qt::AlignCenter | Qt::TextWordWrap, text);
}

void HeatmapRenderer::paintMatrix(QPainter& painter, const QRectF& visible) const {
    const QRectF& m = layout_.matrix;
    const QRectF shown = m.intersected(visible);
    if (shown.isEmpty() || layout_.cellWidth <= 0 || layout_.cellHeight <= 0) {
        return;
    }
    // Only the visible cells: a zoomed-in view of a large map stays as cheap as the full view.
    const int c0 =
        std::clamp(static_cast<int>(std::floor((shown.left() - m.left()) / layout_.cellWidth)), 0, map_.cols - 1);
    const int c1 =
        std::clamp(static_cast<int>(std::ceil((shown.right() - m.left()) / layout_.cellWidth)), c0 + 1, map_.cols);
    const int r0 =
        std::clamp(static_cast<int>(std::floor((shown.top() - m.top()) / layout_.cellHeight)), 0, map_.rows - 1);
    const int r1 =
        std::clamp(static_cast<int>(std::ceil((shown.bottom() - m.top()) / layout_.cellHeight)), r0 + 1, map_.rows);
    const QRect source(c0, r0, c1 - c0, r1 - r0);
    const QRectF destination(m.left() + c0 * layout_.cellWidth, m.top() + r0 * layout_.cellHeight,
                             source.width() * layout_.cellWidth, source.height() * layout_.cellHeight);
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.setRenderHint(QPainter::Antialiasing, false);
    if (isVectorDevice(painter)) {
        // SVG and PDF viewers smooth embedded images; whole blocks of pixels per cell keep edges sharp.
        const int longest = std::max(source.width(), source.height());
        const int factor = std::clamp(2048 / longest, 1, 32);
        const QImage cells = matrixImage().copy(source);
        painter.drawImage(
            destination,
            factor == 1 ? cells : cells.scaled(cells.size() * factor, Qt::IgnoreAspectRatio, Qt::FastTransformation));
    } else {
        painter.drawImage(destination, matrixImage(), source);
    }
    painter.restore();
}

void HeatmapRenderer::paintNumbers(QPainter& painter, const QRectF& visible) const {
    if (!numbersVisible()) {
        return;
    }
    const QRectF& m = layout_.matrix;
    const QRectF shown = m.intersected(visible);
    if (shown.isEmpty()) {
        return;
    }
    const qreal cw = layout_.cellWidth;
    const qreal ch = layout_.cellHeight;
    const int c0 = std::clamp(static_cast<int>((shown.left() - m.left()) / cw), 0, map_.cols - 1);
    const int c1 = std::clamp(static_cast<int>(std::ceil((shown.right() - m.left()) / cw)), c0, map_.cols);
    const int r0 = std::clamp(static_cast<int>((shown.top() - m.top()) / ch), 0, map_.rows - 1);
    const int r1 = std::clamp(static_cast<int>(std::ceil((shown.bottom() - m.top()) / ch)), r0, map_.rows);
    QFont font = options_.font;
    const int pixels =
        static_cast<int>(std::min<qreal>({static_cast<qreal>(options_.font.pixelSize()), cw * 0.3, ch * 0.45}));
    font.setPixelSize(std::max(6, pixels));
    painter.save();
    painter.setFont(font);
    const QColor light(Qt::white);
    QColor current;
    for (int r = r0; r < r1; ++r) {
        for (int c = c0; c < c1; ++c) {
            const double w = map_.at(r, c);
            const QColor color = contrastingTextColor(colorFor(w));
            if (color != current) {
                painter.setPen(color);
                current = color;
            }
            painter.drawText(cellRect(r, c), Qt::AlignCenter, QString::number(w, 'f', 2));
        }
    }
    painter.restore();
}

void HeatmapRenderer::paintHighlight(QPainter& painter) const {
    const int row = options_.highlightRow;
    const int column = options_.highlightColumn;
    if (row < 0 && column < 0) {
        return;
    }
    const QRectF& m = layout_.matrix;
    auto outline = [&painter](const QRectF& rect) {
        // A white line on a dark halo stays visible on every colour map.
        painter.setPen(QPen(QColor(0, 0, 0, 150), 3.0));
        painter.drawRect(rect);
        painter.setPen(QPen(QColor(255, 255, 255), 1.4));
        painter.drawRect(rect);
    };
    painter.save();
    painter.setBrush(Qt::NoBrush);
    if (row >= 0) {
        outline(QRectF(m.left(), m.top() + row * layout_.cellHeight, m.width(), layout_.cellHeight));
    }
    if (column >= 0) {
        outline(QRectF(m.left() + column * layout_.cellWidth, m.top(), layout_.cellWidth, m.height()));
    }
    painter.restore();
}

void HeatmapRenderer::paintSelection(QPainter& painter) const {
    if (!hasSelection() || layout_.matrix.isEmpty()) {
        return;
    }
    const QRectF& m = layout_.matrix;
    const bool rows = !options_.selectedRows.empty();
    const std::vector<int>& selected = rows ? options_.selectedRows : options_.selectedColumns;
    const QColor accent = selectionColor();
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setBrush(Qt::NoBrush);
    // One outline per run of adjacent indices.
    for (std::size_t i = 0; i < selected.size();) {
        std::size_t j = i;
        while (j + 1 < selected.size() && selected[j + 1] == selected[j] + 1) ++j;
        const QRectF band = rows ? QRectF(m.left(), m.top() + selected[i] * layout_.cellHeight, m.width(),
                                          (selected[j] - selected[i] + 1) * layout_.cellHeight)
                                 : QRectF(m.left() + selected[i] * layout_.cellWidth, m.top(),
                                          (selected[j] - selected[i] + 1) * layout_.cellWidth, m.height());
        painter.setPen(QPen(QColor(0, 0, 0, 150), 4.0));
        painter.drawRect(band);
        painter.setPen(QPen(accent, 2.0));
        painter.drawRect(band);
        i = j + 1;
    }

    const QRectF strip = layout_.sumStrip;
    if (!strip.isEmpty()) {
        const std::vector<double> sums = selectionSums();
        const double count = static_cast<double>(selected.size());
        QFont font = options_.font;
        const QFontMetricsF metrics(font);
        for (std::size_t i = 0; i < sums.size(); ++i) {
            const QRectF cell = sumStripCellRect(static_cast<int>(i));
            const QRgb color = colorFor(sums[i] / count);
            painter.fillRect(cell, QColor(color));
            const QString text = QString::number(sums[i], 'f', 2);
            if (metrics.horizontalAdvance(text) + 4 <= cell.width() && metrics.height() <= cell.height() + 2) {
                painter.setPen(contrastingTextColor(color));
                painter.setFont(font);
                painter.drawText(cell, Qt::AlignCenter, text);
            }
        }
        painter.setPen(QPen(accent, 2.0));
        painter.drawRect(strip);
        // "Σ" where the other labels are: left of a row strip, above a column strip.
        painter.setPen(accent);
        painter.setFont(scaledFont(options_.font, 1.1, true));
        const qreal line = metrics.height();
        const QString sigma = QStringLiteral("\u03a3");
        if (rows) {
            painter.drawText(QRectF(strip.left() - kTickLength - kLabelGap - 3 * line, strip.top(), 3 * line,
                                    strip.height()),
                             Qt::AlignRight | Qt::AlignVCenter, sigma);
        } else {
            painter.drawText(QRectF(strip.left(), strip.top() - kTickLength - line, strip.width(), line),
                             Qt::AlignHCenter | Qt::AlignBottom, sigma);
        }
    }
    painter.restore();
}

void HeatmapRenderer::paintLabels(QPainter& painter, const QRectF& visible) const {
    if (!options_.showLabels || layout_.matrix.isEmpty()) {
        return;
    }
    const QRectF& m = layout_.matrix;
    const QFont normal = options_.font;
    const QFont bold = scaledFont(options_.font, 1.0, true);
    const QFontMetricsF normalMetrics(normal);
    const QFontMetricsF boldMetrics(bold);
    const qreal line = normalMetrics.height();
    const qreal cw = layout_.cellWidth;
    const qreal ch = layout_.cellHeight;
    painter.save();
    painter.setPen(QPen(options_.textColor, 1.0));

    // Row labels, right-aligned left of the matrix.
    const qreal rowRight = m.left() - kTickLength - kLabelGap;
    const QColor accent = selectionColor();
    auto isSelected = [](const std::vector<int>& selected, int i) {
        return std::binary_search(selected.begin(), selected.end(), i);
    };
    auto drawRow = [&](int r, bool highlighted) {
        const bool selected = isSelected(options_.selectedRows, r);
        highlighted = highlighted || selected;
        painter.setPen(QPen(selected ? accent : options_.textColor, 1.0));
        const qreal cy = m.top() + (r + 0.5) * ch;
        const QFontMetricsF& metrics = highlighted ? boldMetrics : normalMetrics;
        const QString text = metrics.elidedText(rowLabel(r), Qt::ElideRight, layout_.rowLabelWidth + 1);
        const QRectF box(rowRight - layout_.rowLabelWidth, cy - line / 2, layout_.rowLabelWidth, line);
        if (highlighted && layout_.rowStride > 1) {
            painter.fillRect(box.adjusted(box.width() - metrics.horizontalAdvance(text) - 2, 0, 0, 0),
                             options_.backgroundColor);
        }
        painter.setFont(highlighted ? bold : normal);
        painter.drawText(box, Qt::AlignRight | Qt::AlignVCenter, text);
        painter.drawLine(QPointF(m.left() - kTickLength, cy), QPointF(m.left(), cy));
    };
    const int rowFirst = std::max(0, static_cast<int>((visible.top() - m.top() - line) / std::max(ch, 1e-9)));
    const int rowLast =
        std::min(map_.rows - 1, static_cast<int>((visible.bottom() - m.top() + line) / std::max(ch, 1e-9)));
    const int rowStride = layout_.rowStride;
    for (int r = (rowFirst + rowStride - 1) / rowStride * rowStride; r <= rowLast; r += rowStride) {
        if (r != options_.highlightRow && !isSelected(options_.selectedRows, r)) {
            drawRow(r, false);
        }
    }
    // Selected and highlighted labels are drawn even between the strided ones, over them.
    for (int r : options_.selectedRows) {
        if (r != options_.highlightRow && r >= rowFirst && r <= rowLast) {
            drawRow(r, true);
        }
    }
    if (options_.highlightRow >= 0) {
        drawRow(options_.highlightRow, true);
    }

    // Column labels above the matrix: horizontal when they fit the cell, else reading upwards.
    const qreal columnBottom = m.top() - kTickLength - kLabelGap;
    auto drawColumn = [&](int c, bool highlighted) {
        const bool selected = isSelected(options_.selectedColumns, c);
        highlighted = highlighted || selected;
        painter.setPen(QPen(selected ? accent : options_.textColor, 1.0));
        const qreal cx = m.left() + (c + 0.5) * cw;
        const QFontMetricsF& metrics = highlighted ? boldMetrics : normalMetrics;
        const qreal extent = layout_.columnLabelExtent;
        const QString text = metrics.elidedText(columnLabel(c), Qt::ElideRight,
                                                layout_.rotateColumnLabels ? extent + 1 : std::max(extent, 1.0) + 4);
        painter.setFont(highlighted ? bold : normal);
        if (layout_.rotateColumnLabels) {
            painter.save();
            painter.translate(cx, columnBottom);
            painter.rotate(-90);
            const QRectF box(0, -line / 2, extent, line);
            if (highlighted && layout_.columnStride > 1) {
                painter.fillRect(QRectF(0, -line / 2, metrics.horizontalAdvance(text) + 2, line),
                                 options_.backgroundColor);
            }
            painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, text);
            painter.restore();
        } else {
            const qreal w = std::max(cw, metrics.horizontalAdvance(text)) + 2;
            painter.drawText(QRectF(cx - w / 2, columnBottom - line, w, line), Qt::AlignHCenter | Qt::AlignBottom,
                             text);
        }
        painter.drawLine(QPointF(cx, m.top() - kTickLength), QPointF(cx, m.top()));
    };
    const int columnFirst = std::max(0, static_cast<int>((visible.left() - m.left() - line) / std::max(cw, 1e-9)));
    const int columnLast =
        std::min(map_.cols - 1, static_cast<int>((visible.right() - m.left() + line) / std::max(cw, 1e-9)));
    const int columnStride = layout_.columnStride;
    for (int c = (columnFirst + columnStride - 1) / columnStride * columnStride; c <= columnLast; c += columnStride) {
        if (c != options_.highlightColumn && !isSelected(options_.selectedColumns, c)) {
            drawColumn(c, false);
        }
    }
    for (int c : options_.selectedColumns) {
        if (c != options_.highlightColumn && c >= columnFirst && c <= columnLast) {
            drawColumn(c, true);
        }
    }
    if (options_.highlightColumn >= 0) {
        drawColumn(options_.highlightColumn, true);
    }
    painter.restore();
}

qreal HeatmapRenderer::colorBarLabelWidth(double low, double high, const QFont& font) {
    int decimals = 0;
    const std::vector<double> ticks = niceTicks(low, high, 8, &decimals);
    const QFontMetricsF metrics(font);
    qreal width = 0.0;
    for (double v : ticks) {
        width = std::max(width, metrics.horizontalAdvance(QString::number(v, 'f', decimals)));
    }
    return std::ceil(width);
}

void HeatmapRenderer::paintColorBar(QPainter& painter, const QRectF& bar, const Colormap& colormap, double low,
                                    double high, const QFont& font, const QColor& textColor) {
    if (bar.isEmpty()) {
        return;
    }
    QImage gradient(1, Colormap::kSize, QImage::Format_RGB32);
    for (int i = 0; i < Colormap::kSize; ++i) {
        gradient.setPixel(0, Colormap::kSize - 1 - i, colormap.at(i));
    }
    const QFontMetricsF metrics(font);
    const qreal line = metrics.height();
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, true);
    painter.drawImage(bar, gradient);
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setPen(QPen(textColor, 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar);
    painter.setFont(font);
    const int maxTicks = std::clamp(static_cast<int>(bar.height() / (line * 1.6)) + 1, 2, 8);
    int decimals = 0;
    const std::vector<double> ticks = niceTicks(low, high, maxTicks, &decimals);
    const double span = high - low;
    for (double v : ticks) {
        const qreal y = span > 0 ? bar.bottom() - (v - low) / span * bar.height() : bar.bottom();
        painter.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + kTickLength, y));
        const QRectF box(bar.right() + kTickLength + kLabelGap, y - line / 2,
                         metrics.horizontalAdvance(QString::number(v, 'f', decimals)) + 2, line);
        painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, QString::number(v, 'f', decimals));
    }
    painter.restore();
}

}  // namespace attnlab
