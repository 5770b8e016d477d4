#include "widgets/HeadGridWidget.h"

#include "widgets/HeatmapWidget.h"

#include <QEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>

namespace attnlab {

HeadGridWidget::HeadGridWidget(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    grid_.setMassShare(HeatmapWidget::defaultMassShare());
}

void HeadGridWidget::setHeads(const std::vector<AttentionMap>& heads, const QStringList& rowLabels,
                              const QStringList& columnLabels) {
    grid_.setHeads(heads, rowLabels, columnLabels);
    mapsChanged();
}

void HeadGridWidget::setLayers(const std::vector<std::vector<AttentionMap>>& layers, const QStringList& rowLabels,
                               const QStringList& columnLabels) {
    grid_.setLayers(layers, rowLabels, columnLabels);
    mapsChanged();
}

void HeadGridWidget::clear() {
    grid_.clear();
    mapsChanged();
}

void HeadGridWidget::mapsChanged() {
    hoverLayer_ = hoverHead_ = hoverRow_ = hoverColumn_ = -1;
    pressedLayer_ = pressedHead_ = -1;
    applyHighlight();
    updateGeometry();
}

void HeadGridWidget::setColormap(ColormapId id) {
    grid_.setColormap(id);
    update();
}

void HeadGridWidget::setScale(GridScale scale) {
    grid_.setScale(scale);
    update();
}

void HeadGridWidget::setTitle(const QString& title) {
    grid_.setTitle(title);
    update();
}

void HeadGridWidget::setMassShare(double share) {
    grid_.setMassShare(share);
    update();
}

void HeadGridWidget::setSwitchedOff(const std::vector<std::pair<int, int>>& heads) {
    grid_.setSwitchedOff(heads);
    update();
}

void HeadGridWidget::highlightToken(int row, int column) {
    externalRow_ = row;
    externalColumn_ = column;
    applyHighlight();
}

void HeadGridWidget::applyHighlight() {
    const bool hovering = hoverRow_ >= 0 || hoverColumn_ >= 0;
    grid_.setHighlight(hovering ? hoverRow_ : externalRow_, hovering ? hoverColumn_ : externalColumn_);
    update();
}

QSize HeadGridWidget::sizeHint() const {
    return preferredSize().boundedTo(QSize(1200, 900)).expandedTo(QSize(320, 240));
}

QSize HeadGridWidget::minimumSizeHint() const { return QSize(160, 120); }

void HeadGridWidget::setHover(int layer, int head, int row, int column) {
    const bool cellChanged = row != hoverRow_ || column != hoverColumn_;
    const bool headChanged = layer != hoverLayer_ || head != hoverHead_;
    if (!cellChanged && !headChanged) {
        return;
    }
    hoverLayer_ = layer;
    hoverHead_ = head;
    hoverRow_ = row;
    hoverColumn_ = column;
    if (cellChanged) {
        applyHighlight();
        Q_EMIT tokenHovered(row, column);
    } else {
        update();
    }
}

void HeadGridWidget::paintEvent(QPaintEvent* event) {
    QPainter painter(this);
    painter.setClipRect(event->rect());
    HeadGridRenderer::Hover hover;
    hover.interactive = true;
    hover.layer = hoverLayer_;
    hover.head = hoverHead_;
    hover.color = palette().color(QPalette::Highlight);
    grid_.paint(painter, QRectF(rect()), palette().color(QPalette::WindowText), palette().color(QPalette::Window),
                hover);
}

void HeadGridWidget::mouseMoveEvent(QMouseEvent* event) {
    const QPointF pos = event->position();
    const HeadGridRenderer::Geometry g = grid_.geometry(QRectF(rect()));
    for (int l = 0; l < static_cast<int>(g.thumbnails.size()); ++l) {
        for (int h = 0; h < static_cast<int>(g.thumbnails[l].size()); ++h) {
            if (!g.thumbnails[l][h].contains(pos)) {
                continue;
            }
            const HeatmapRenderer& renderer = grid_.thumbnails_[l][h];
            renderer.layout(g.thumbnails[l][h]);
            if (const std::optional<QPoint> cell = renderer.cellAt(pos)) {
                const int row = cell->y();
                const int column = cell->x();
                setHover(l, h, row, column);
                const QString where =
                    grid_.showsLayers() ? tr("Layer %1, head %2").arg(l + 1).arg(h + 1) : tr("Head %1").arg(h + 1);
                QToolTip::showText(event->globalPosition().toPoint(),
                                   QStringLiteral("%1\n%2 \u2192 %3: %4")
                                       .arg(where, renderer.rowLabel(row), renderer.columnLabel(column),
                                            QString::number(renderer.weight(row, column), 'f', 4)),
                                   this, renderer.cellRect(row, column).toAlignedRect());
            } else {
                setHover(l, h, -1, -1);
            }
            return;
        }
    }
    if (hoverLayer_ >= 0) {
        QToolTip::hideText();
    }
    setHover(-1, -1, -1, -1);
}

void HeadGridWidget::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    const auto hit = thumbnailAt(event->position());
    pressedLayer_ = hit ? hit->first : -1;
    pressedHead_ = hit ? hit->second : -1;
}

void HeadGridWidget::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    const auto hit = thumbnailAt(event->position());
    if (hit && hit->first == pressedLayer_ && hit->second == pressedHead_) {
        Q_EMIT headActivated(hit->second);
        Q_EMIT layerHeadActivated(hit->first, hit->second);
    }
    pressedLayer_ = pressedHead_ = -1;
}

void HeadGridWidget::leaveEvent(QEvent* event) {
    setHover(-1, -1, -1, -1);
    QWidget::leaveEvent(event);
}

void HeadGridWidget::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        update();
    }
    QWidget::changeEvent(event);
}

}  // namespace attnlab
