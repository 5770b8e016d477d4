#include "views/image/ImageCanvas.h"

#include <QFontMetrics>
#include <QMouseEvent>
#include <QPainter>
#include <QPaintEvent>

#include <algorithm>

namespace attnlab {

ImageCanvas::ImageCanvas(int preferredSide, QWidget* parent) : QWidget(parent), side_(preferredSide) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ImageCanvas::setPicture(const QImage& picture, int rows, int cols) {
    picture_ = picture;
    rows_ = std::max(0, rows);
    cols_ = std::max(0, cols);
    if (marked_ >= rows_ * cols_) marked_ = -1;
    update();
}

void ImageCanvas::clear() {
    picture_ = QImage();
    rows_ = cols_ = 0;
    marked_ = hovered_ = -1;
    update();
}

void ImageCanvas::setMarked(int cell) {
    if (cell == marked_) return;
    marked_ = cell;
    update();
}

QRectF ImageCanvas::pictureRect() const {
    const qreal side = std::max(1, std::min(width(), height()) - 4);
    return QRectF((width() - side) / 2.0, (height() - side) / 2.0, side, side);
}

int ImageCanvas::cellAt(const QPointF& point) const {
    if (picture_.isNull() || rows_ <= 0 || cols_ <= 0) return -1;
    const QRectF r = pictureRect();
    if (!r.contains(point)) return -1;
    const int row = std::clamp(static_cast<int>((point.y() - r.top()) / r.height() * rows_), 0, rows_ - 1);
    const int col = std::clamp(static_cast<int>((point.x() - r.left()) / r.width() * cols_), 0, cols_ - 1);
    return row * cols_ + col;
}

void ImageCanvas::setOutlines(std::vector<Outline> outlines, int highlighted) {
    outlines_ = std::move(outlines);
    highlighted_ = highlighted;
    update();
}

void ImageCanvas::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QRectF r = pictureRect();
    if (picture_.isNull()) {
        painter.fillRect(r, palette().alternateBase());
        painter.setPen(palette().color(QPalette::Mid));
        painter.drawRect(r);
        return;
    }
    painter.drawImage(r, picture_);  // no smoothing: the pixels and the cells stay crisp
    for (std::size_t i = 0; i < outlines_.size(); ++i) {
        const QRectF& f = outlines_[i].box;
        const QRectF box(r.left() + f.left() * r.width(), r.top() + f.top() * r.height(), f.width() * r.width(),
                         f.height() * r.height());
        const bool bold = static_cast<int>(i) == highlighted_;
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(Qt::black, bold ? 4 : 3, Qt::SolidLine));
        painter.drawRect(box);
        painter.setPen(QPen(QColor(0x7c, 0xff, 0x6b), bold ? 2.5 : 1.2, bold ? Qt::SolidLine : Qt::DashLine));
        painter.drawRect(box);
        if (!outlines_[i].label.isEmpty()) {
            const QFontMetrics metrics(font());
            const QRectF tag(box.left(), std::max(r.top(), box.top() - metrics.height() - 2),
                             metrics.horizontalAdvance(outlines_[i].label) + 6, metrics.height() + 2);
            painter.fillRect(tag, QColor(0, 0, 0, 170));
            painter.setPen(Qt::white);
            painter.drawText(tag, Qt::AlignCenter, outlines_[i].label);
        }
    }
    if (marked_ >= 0 && rows_ > 0 && cols_ > 0) {
        const qreal cw = r.width() / cols_, ch = r.height() / rows_;
        const QRectF cell(r.left() + (marked_ % cols_) * cw, r.top() + (marked_ / cols_) * ch, cw, ch);
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(Qt::black, 3));
        painter.drawRect(cell);
        painter.setPen(QPen(QColor(0x00, 0xe5, 0xff), 1.5));
        painter.drawRect(cell);
    }
}

void ImageCanvas::mouseMoveEvent(QMouseEvent* event) {
    const int cell = cellAt(event->position());
    if (cell != hovered_) {
        hovered_ = cell;
        Q_EMIT hovered(cell);
    }
    QWidget::mouseMoveEvent(event);
}

void ImageCanvas::mousePressEvent(QMouseEvent* event) {
    const int cell = cellAt(event->position());
    if (cell >= 0) Q_EMIT clicked(cell);
    QWidget::mousePressEvent(event);
}

void ImageCanvas::leaveEvent(QEvent* event) {
    if (hovered_ != -1) {
        hovered_ = -1;
        Q_EMIT hovered(-1);
    }
    QWidget::leaveEvent(event);
}

FigureCanvas::FigureCanvas(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

void FigureCanvas::setFigure(const Figure& figure) {
    figure_ = figure;
    updateGeometry();
    setFixedSize(sizeHint());
    update();
}

void FigureCanvas::clear() { setFigure(Figure()); }

QSize FigureCanvas::sizeHint() const { return figure_.paint ? figure_.size : QSize(0, 0); }

void FigureCanvas::paintEvent(QPaintEvent*) {
    if (!figure_.paint) return;
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    figure_.paint(painter, QRectF(QPointF(0, 0), QSizeF(figure_.size)));
}

}  // namespace attnlab
