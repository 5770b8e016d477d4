#include "widgets/LineViewWidget.h"

#include "widgets/HeatmapWidget.h"

#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>

namespace attnlab {

LineViewWidget::LineViewWidget(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    lines_.setThreshold(HeatmapWidget::defaultMassShare());
}

void LineViewWidget::setMaps(const std::vector<AttentionMap>& heads, const QStringList& leftLabels,
                             const QStringList& rightLabels) {
    lines_.setMaps(heads, leftLabels, rightLabels);
    updateGeometry();
    update();
}

void LineViewWidget::clear() {
    lines_.clear();
    updateGeometry();
    update();
}

void LineViewWidget::setTitle(const QString& title) {
    lines_.setTitle(title);
    update();
}

void LineViewWidget::setThreshold(double massShare) {
    const double before = lines_.threshold();
    lines_.setThreshold(massShare);
    update();
    if (lines_.threshold() != before) Q_EMIT thresholdChanged(lines_.threshold());
}

void LineViewWidget::setHeadVisible(int head, bool visible) {
    if (lines_.isHeadVisible(head) == visible) return;
    lines_.setHeadVisible(head, visible);
    update();
    Q_EMIT headToggled(head, visible);
}

void LineViewWidget::focusToken(LineViewRenderer::Side side, int token) {
    if (side == lines_.focusSide() && (side == LineViewRenderer::Side::None || token == lines_.focusToken())) return;
    lines_.setFocus(side, token);
    update();
}

QPointF LineViewWidget::chipCenter(int head) const {
    // Scan the chip row for the head: the renderer's geometry is private, its hit test is not.
    const QRectF target(rect());
    for (int y = 0; y < std::min(height(), 120); ++y)
        for (int x = 0; x < width(); x += 2) {
            const auto hit = lines_.hitTest(target, QPointF(x, y));
            if (hit.kind == LineViewRenderer::Hit::Kind::Chip && hit.index == head) return QPointF(x + 4, y + 4);
        }
    return QPointF(-1, -1);
}

QPointF LineViewWidget::tokenCenter(LineViewRenderer::Side side, int token) const {
    const QRectF target(rect());
    const auto wanted = side == LineViewRenderer::Side::Left ? LineViewRenderer::Hit::Kind::Left : LineViewRenderer::Hit::Kind::Right;
    const int x = side == LineViewRenderer::Side::Left ? 12 : width() - 12;
    for (int y = 0; y < height(); ++y) {
        const auto hit = lines_.hitTest(target, QPointF(x, y));
        if (hit.kind == wanted && hit.index == token) return QPointF(x, y + 2);
    }
    return QPointF(-1, -1);
}

QSize LineViewWidget::sizeHint() const { return lines_.preferredSize(); }

QSize LineViewWidget::minimumSizeHint() const {
    // As tall as the tokens need (the scroll area scrolls), as narrow as 320.
    return QSize(320, std::min(lines_.preferredSize().height(), 20000));
}

void LineViewWidget::paintEvent(QPaintEvent* event) {
    QPainter painter(this);
    painter.setClipRect(event->rect());
    lines_.paint(painter, QRectF(rect()), palette().color(QPalette::WindowText), palette().color(QPalette::Window),
                 QRectF(event->rect()));
}

void LineViewWidget::mouseMoveEvent(QMouseEvent* event) {
    const auto hit = lines_.hitTest(QRectF(rect()), event->position());
    if (hit.kind == LineViewRenderer::Hit::Kind::Left) {
        focusToken(LineViewRenderer::Side::Left, hit.index);
    } else if (hit.kind == LineViewRenderer::Hit::Kind::Right) {
        focusToken(LineViewRenderer::Side::Right, hit.index);
    } else {
        focusToken(LineViewRenderer::Side::None, -1);
    }
}

void LineViewWidget::mousePressEvent(QMouseEvent* event) {
    const auto hit = lines_.hitTest(QRectF(rect()), event->position());
    if (event->button() == Qt::LeftButton && hit.kind == LineViewRenderer::Hit::Kind::Chip) {
        setHeadVisible(hit.index, !lines_.isHeadVisible(hit.index));
        event->accept();
        return;
    }
    QWidget::mousePressEvent(event);
}

void LineViewWidget::leaveEvent(QEvent* event) {
    focusToken(LineViewRenderer::Side::None, -1);
    QWidget::leaveEvent(event);
}

}  // namespace attnlab
