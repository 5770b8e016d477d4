#include "render/HeadGridRenderer.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace attnlab {

namespace {

QFont boldScaled(const QFont& font, double factor) {
    QFont out = font;
    out.setPixelSize(std::max(1, static_cast<int>(std::lround(font.pixelSize() * factor))));
    out.setBold(true);
    return out;
}

}  // namespace

HeadGridRenderer::HeadGridRenderer() {
    font_ = HeatmapRenderer::defaultFont();
    font_.setPixelSize(12);
}

void HeadGridRenderer::setHeads(const std::vector<AttentionMap>& heads, const QStringList& rowLabels,
                              const QStringList& columnLabels) {
    setMaps({heads}, rowLabels, columnLabels, false);
}

void HeadGridRenderer::setLayers(const std::vector<std::vector<AttentionMap>>& layers, const QStringList& rowLabels,
                               const QStringList& columnLabels) {
    setMaps(layers, rowLabels, columnLabels, true);
}

void HeadGridRenderer::clear() { setMaps({}, QStringList(), QStringList(), false); }

void HeadGridRenderer::setMaps(const std::vector<std::vector<AttentionMap>>& layers, const QStringList& rowLabels,
                             const QStringList& columnLabels, bool layerMode) {
    HeatmapOptions options;
    options.colormap = colormap_;
    options.showLabels = false;
    options.showColorBar = false;
    options.backgroundColor = Qt::transparent;
    options.massShare = massShare_;
    thumbnails_.clear();
    thumbnails_.reserve(layers.size());
    for (const std::vector<AttentionMap>& heads : layers) {
        std::vector<HeatmapRenderer> row;
        row.reserve(heads.size());
        for (const AttentionMap& map : heads) {
            row.emplace_back(options);
            row.back().setMap(map, rowLabels, columnLabels);
        }
        thumbnails_.push_back(std::move(row));
    }
    if (headCount() == 0) {
        thumbnails_.clear();
    }
    layerMode_ = layerMode;
    applyScale();
    setHighlight(highlightRow_, highlightColumn_);
}

int HeadGridRenderer::headCount() const {
    std::size_t most = 0;
    for (const auto& heads : thumbnails_) {
        most = std::max(most, heads.size());
    }
    return static_cast<int>(most);
}

const HeatmapRenderer* HeadGridRenderer::thumbnail(int layer, int head) const {
    if (layer < 0 || layer >= layerCount() || head < 0 || head >= static_cast<int>(thumbnails_[layer].size())) {
        return nullptr;
    }
    return &thumbnails_[layer][head];
}

void HeadGridRenderer::setColormap(ColormapId id) {
    colormap_ = id;
    for (auto& heads : thumbnails_) {
        for (HeatmapRenderer& renderer : heads) {
            renderer.setColormap(id);
        }
    }
}

void HeadGridRenderer::setScale(GridScale scale) {
    scale_ = scale;
    applyScale();
}

void HeadGridRenderer::setTitle(const QString& title) {
    title_ = title;
}

std::pair<double, double> HeadGridRenderer::sharedRange() const {
    if (scale_ != GridScale::Shared) {
        return {0.0, 1.0};
    }
    double low = 0.0;
    double high = -std::numeric_limits<double>::infinity();
    for (const auto& heads : thumbnails_) {
        for (const HeatmapRenderer& renderer : heads) {
            if (!renderer.isEmpty()) {
                low = std::min(low, renderer.dataRange().first);
                high = std::max(high, renderer.dataRange().second);
            }
        }
    }
    return high > low ? std::make_pair(low, high) : std::make_pair(0.0, 1.0);
}

void HeadGridRenderer::applyScale() {
    std::pair<double, double> range{0.0, 1.0};
    if (scale_ == GridScale::Shared) {
        range = sharedRange();
    }
    for (auto& heads : thumbnails_) {
        for (HeatmapRenderer& renderer : heads) {
            switch (scale_) {
            case GridScale::PerHead:
                renderer.setScale(ScaleMode::DataMax);
                break;
            case GridScale::Unit:
                renderer.setScale(ScaleMode::Unit);
                break;
            case GridScale::Shared:
                renderer.setScale(ScaleMode::Fixed, range.first, range.second);
                break;
            }
        }
    }
}

void HeadGridRenderer::setMassShare(double share) {
    massShare_ = std::isfinite(share) ? std::clamp(share, 0.01, 1.0) : 1.0;
    for (auto& heads : thumbnails_)
        for (HeatmapRenderer& r : heads) r.setMassShare(massShare_);
}

bool HeadGridRenderer::isSwitchedOff(int layer, int head) const {
    return std::find(switchedOff_.begin(), switchedOff_.end(), std::make_pair(layer, head)) != switchedOff_.end();
}

void HeadGridRenderer::setHighlight(int row, int column) {
    highlightRow_ = row;
    highlightColumn_ = column;
    for (auto& heads : thumbnails_) {
        for (HeatmapRenderer& renderer : heads) {
            renderer.setHighlight(row, column);
        }
    }
}

QFont HeadGridRenderer::captionFont() const { return font_; }

HeadGridRenderer::Geometry HeadGridRenderer::geometry(const QRectF& target) const {
    Geometry g;
    const int layers = layerCount();
    const int heads = headCount();
    if (layers == 0 || heads == 0 || target.isEmpty()) {
        return g;
    }
    const QFont font = captionFont();
    const QFontMetricsF metrics(font);
    const qreal line = metrics.height();
    const qreal pad = std::round(line * 0.6);
    const qreal gap = std::max(6.0, std::round(line * 0.6));
    const qreal captionHeight = line + 3;
    QRectF area = target.adjusted(pad, pad, -pad, -pad);
    if (!title_.isEmpty()) {
        const qreal height = QFontMetricsF(boldScaled(font, 1.25)).height();
        g.title = QRectF(area.left(), area.top(), area.width(), height);
        area.setTop(area.top() + height + pad / 2);
    }
    qreal barWidth = 0.0;
    if (scale_ != GridScale::PerHead) {
        const auto [low, high] = sharedRange();
        barWidth = std::max(10.0, std::round(line * 0.9));
        area.setRight(area.right() - (pad + barWidth + 6 + HeatmapRenderer::colorBarLabelWidth(low, high, font)));
    }
    g.thumbnails.assign(layers, {});
    qreal gridLeft = 0.0;
    qreal gridTop = 0.0;
    qreal gridRight = 0.0;
    qreal gridBottom = 0.0;
    if (layerMode_) {
        const qreal headerWidth = metrics.horizontalAdvance(tr("Layer %1").arg(layers)) + gap;
        const QRectF grid = area.adjusted(headerWidth, captionHeight, 0, 0);
        qreal side =
            std::min((grid.width() - (heads - 1) * gap) / heads, (grid.height() - (layers - 1) * gap) / layers);
        side = std::max(1.0, side >= 4 ? std::floor(side) : side);
        const qreal width = heads * side + (heads - 1) * gap;
        const qreal height = layers * side + (layers - 1) * gap;
        gridLeft = std::round(grid.left() + std::max(0.0, (grid.width() - width) / 2));
        gridTop = std::round(grid.top() + std::max(0.0, (grid.height() - height) / 2));
        gridRight = gridLeft + width;
        gridBottom = gridTop + height;
        for (int h = 0; h < heads; ++h) {
            g.columnHeaders.emplace_back(gridLeft + h * (side + gap), gridTop - captionHeight, side, captionHeight);
        }
        for (int l = 0; l < layers; ++l) {
            const qreal top = gridTop + l * (side + gap);
            g.rowHeaders.emplace_back(gridLeft - headerWidth, top, headerWidth - gap / 2, side);
            for (std::size_t h = 0; h < thumbnails_[l].size(); ++h) {
                g.thumbnails[l].emplace_back(gridLeft + h * (side + gap), top, side, side);
            }
        }
    } else {
        // Wrap the heads into the number of columns that gives the biggest thumbnails.
        const int count = heads;
        qreal bestSide = -1.0;
        int bestColumns = 1;
        for (int columns = 1; columns <= count; ++columns) {
            const int rows = (count + columns - 1) / columns;
            const qreal side = std::min((area.width() - (columns - 1) * gap) / columns,
                                        (area.height() - (rows - 1) * gap) / rows - captionHeight);
            if (side > bestSide + 0.5) {
                bestSide = side;
                bestColumns = columns;
            }
        }
        const int columns = bestColumns;
        const int rows = (count + columns - 1) / columns;
        qreal side = std::max(1.0, bestSide >= 4 ? std::floor(bestSide) : bestSide);
        const qreal width = columns * side + (columns - 1) * gap;
        const qreal height = rows * (side + captionHeight) + (rows - 1) * gap;
        gridLeft = std::round(area.left() + std::max(0.0, (area.width() - width) / 2));
        gridTop = std::round(area.top() + std::max(0.0, (area.height() - height) / 2));
        gridRight = gridLeft + width;
        gridBottom = gridTop + height;
        g.captions.assign(1, {});
        for (int i = 0; i < static_cast<int>(thumbnails_[0].size()); ++i) {
            const qreal left = gridLeft + (i % columns) * (side + gap);
            const qreal top = gridTop + (i / columns) * (side + captionHeight + gap);
            g.captions[0].emplace_back(left, top, side, captionHeight);
            g.thumbnails[0].emplace_back(left, top + captionHeight, side, side);
        }
    }
    if (scale_ != GridScale::PerHead) {
        g.colorBar = QRectF(gridRight + pad, gridTop, barWidth, gridBottom - gridTop);
    }
    return g;
}

QRectF HeadGridRenderer::thumbnailRect(const QRectF& target, int layer, int head) const {
    const Geometry g = geometry(target);
    if (layer < 0 || layer >= static_cast<int>(g.thumbnails.size()) || head < 0 ||
        head >= static_cast<int>(g.thumbnails[layer].size())) {
        return QRectF();
    }
    return g.thumbnails[layer][head];
}

std::optional<std::pair<int, int>> HeadGridRenderer::thumbnailAt(const QRectF& target, const QPointF& pos) const {
    const Geometry g = geometry(target);
    for (int l = 0; l < static_cast<int>(g.thumbnails.size()); ++l) {
        for (int h = 0; h < static_cast<int>(g.thumbnails[l].size()); ++h) {
            if (g.thumbnails[l][h].contains(pos)) {
                return std::make_pair(l, h);
            }
        }
    }
    return std::nullopt;
}

void HeadGridRenderer::paint(QPainter& painter, const QRectF& target, const QColor& textColor,
                             const QColor& background, const Hover& hover) const {
    const bool showHover = hover.interactive;
    const int hoverLayer = hover.layer;
    const int hoverHead = hover.head;
    painter.save();
    if (background.alpha() > 0) {
        painter.fillRect(target, background);
    }
    const Geometry g = geometry(target);
    const QFont font = captionFont();
    if (g.thumbnails.empty()) {
        QColor color = textColor;
        color.setAlphaF(0.6f);
        painter.setPen(color);
        painter.setFont(boldScaled(font, 1.1));
        painter.drawText(target, Qt::AlignCenter, tr("No attention to show yet"));
        painter.restore();
        return;
    }
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    painter.setPen(textColor);
    if (!g.title.isEmpty()) {
        const QFont titleFont = boldScaled(font, 1.25);
        painter.setFont(titleFont);
        painter.drawText(g.title, Qt::AlignCenter,
                         QFontMetricsF(titleFont).elidedText(title_, Qt::ElideRight, g.title.width()));
    }
    const QFont bold = boldScaled(font, 1.0);
    for (std::size_t h = 0; h < g.columnHeaders.size(); ++h) {
        const bool hovered = showHover && static_cast<int>(h) == hoverHead;
        painter.setFont(hovered ? bold : font);
        painter.drawText(g.columnHeaders[h], Qt::AlignHCenter | Qt::AlignTop, tr("Head %1").arg(h + 1));
    }
    for (std::size_t l = 0; l < g.rowHeaders.size(); ++l) {
        const bool hovered = showHover && static_cast<int>(l) == hoverLayer;
        painter.setFont(hovered ? bold : font);
        painter.drawText(g.rowHeaders[l], Qt::AlignRight | Qt::AlignVCenter, tr("Layer %1").arg(l + 1));
    }
    for (std::size_t l = 0; l < g.captions.size(); ++l) {
        for (std::size_t h = 0; h < g.captions[l].size(); ++h) {
            const bool hovered = showHover && static_cast<int>(h) == hoverHead;
            painter.setFont(hovered ? bold : font);
            painter.drawText(g.captions[l][h], Qt::AlignHCenter | Qt::AlignTop,
                             isSwitchedOff(static_cast<int>(l), static_cast<int>(h))
                                 ? tr("Head %1 (off)").arg(h + 1)
                                 : tr("Head %1").arg(h + 1));
        }
    }
    const QRectF clip = painter.hasClipping() ? painter.clipBoundingRect() : QRectF();
    QColor frame = textColor;
    frame.setAlphaF(0.35f);
    for (std::size_t l = 0; l < g.thumbnails.size(); ++l) {
        for (std::size_t h = 0; h < g.thumbnails[l].size(); ++h) {
            const QRectF box = g.thumbnails[l][h];
            if (!clip.isNull() && !clip.intersects(box)) {
                continue;
            }
            const HeatmapRenderer& renderer = thumbnails_[l][h];
            if (showHover || (renderer.options().highlightRow < 0 && renderer.options().highlightColumn < 0)) {
                renderer.paint(painter, box);
            } else {
                HeatmapRenderer copy(renderer);
                copy.setHighlight(-1, -1);
                copy.paint(painter, box);
            }
            const bool hovered = showHover && static_cast<int>(l) == hoverLayer && static_cast<int>(h) == hoverHead;
            const QRectF matrix = renderer.isEmpty() ? box : renderer.matrixRect();
            painter.setBrush(Qt::NoBrush);
            painter.setPen(hovered ? QPen(hover.color, 2.0) : QPen(frame, 1.0));
            painter.drawRect(matrix.adjusted(-0.5, -0.5, 0.5, 0.5));
            if (isSwitchedOff(static_cast<int>(l), static_cast<int>(h))) {
                // Switched off: the map is still its softmax, but it no longer reaches the output.
                QColor wash = background.alpha() > 0 ? background : QColor(Qt::white);
                wash.setAlphaF(0.7f);
                painter.fillRect(matrix, wash);
                QColor cross = textColor;
                cross.setAlphaF(0.55f);
                painter.setPen(QPen(cross, std::max<qreal>(1.0, matrix.width() / 60.0)));
                painter.drawLine(matrix.topLeft(), matrix.bottomRight());
                painter.drawLine(matrix.topRight(), matrix.bottomLeft());
            }
        }
    }
    if (!g.colorBar.isEmpty()) {
        const auto [low, high] = sharedRange();
        HeatmapRenderer::paintColorBar(painter, g.colorBar, Colormap(colormap_), low, high, font, textColor);
    }
    painter.restore();
}

QSize HeadGridRenderer::preferredSize() const {
    const int layers = layerCount();
    const int heads = headCount();
    if (layers == 0 || heads == 0) {
        return QSize(360, 240);
    }
    int tokens = 1;
    for (const auto& row : thumbnails_) {
        for (const HeatmapRenderer& renderer : row) {
            tokens = std::max({tokens, renderer.rows(), renderer.columns()});
        }
    }
    const QFontMetricsF metrics(captionFont());
    const qreal line = metrics.height();
    const qreal pad = std::round(line * 0.6);
    const qreal gap = std::max(6.0, std::round(line * 0.6));
    const qreal captionHeight = line + 3;
    const qreal side = std::clamp(tokens * 3.0, 96.0, 180.0);
    qreal width = 2 * pad;
    qreal height = 2 * pad;
    if (!title_.isEmpty()) {
        height += QFontMetricsF(boldScaled(captionFont(), 1.25)).height() + pad / 2;
    }
    if (scale_ != GridScale::PerHead) {
        const auto [low, high] = sharedRange();
        width += pad + std::max(10.0, std::round(line * 0.9)) + 6 +
                 HeatmapRenderer::colorBarLabelWidth(low, high, captionFont());
    }
    if (layerMode_) {
        width += metrics.horizontalAdvance(tr("Layer %1").arg(layers)) + gap;
        width += heads * side + (heads - 1) * gap;
        height += captionHeight + layers * side + (layers - 1) * gap;
    } else {
        const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(heads))));
        const int rows = (heads + columns - 1) / columns;
        width += columns * side + (columns - 1) * gap;
        height += rows * (side + captionHeight) + (rows - 1) * gap;
    }
    return QSize(static_cast<int>(std::ceil(width)), static_cast<int>(std::ceil(height)));
}

Figure HeadGridRenderer::figure(QSize size) const {
    auto copy = std::make_shared<HeadGridRenderer>(*this);
    copy->setHighlight(-1, -1);
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

bool HeadGridRenderer::exportImage(const QString& path, QString* error, double scale, QSize size) const {
    if (thumbnails_.empty()) {
        return FigureWriter::report(FigureError{FigureError::Code::NothingToShow, path, tr("no attention to show yet")},
                                    error);
    }
    return FigureWriter::report(FigureWriter::write(path, figure(size), scale), error);
}

}  // namespace attnlab
