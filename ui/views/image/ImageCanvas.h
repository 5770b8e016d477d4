#pragma once
// The pictures of the Images task's views. ImageCanvas: an image with its attention composited over
// it (render/ImageOverlay.h), drawn square and as large as fits, crisp; it reports which grid cell
// (a ViT's patch, a captioner's cell) the mouse is over and outlines a marked cell. FigureCanvas: a
// Figure (an overlay strip, a row of epochs) painted at its own size.
#include "render/FigureWriter.h"

#include <QImage>
#include <QRectF>
#include <QWidget>
#include <vector>

namespace attnlab {

class ImageCanvas : public QWidget {
    Q_OBJECT
public:
    explicit ImageCanvas(int preferredSide = 360, QWidget* parent = nullptr);

    // The picture (already composited) over a rows x cols grid; 0 x 0: no grid to hover.
    void setPicture(const QImage& picture, int rows, int cols);
    void clear();
    bool hasPicture() const { return !picture_.isNull(); }
    const QImage& picture() const { return picture_; }
    void setMarked(int cell);  // outlined; -1: none
    int marked() const { return marked_; }
    // Boxes outlined over the picture (a scene's objects), in fractions of the image (0..1), with a
    // short label each; the one at `highlighted` drawn bolder (-1: none).
    struct Outline {
        QRectF box;
        QString label;
    };
    void setOutlines(std::vector<Outline> outlines, int highlighted = -1);
    const std::vector<Outline>& outlines() const { return outlines_; }
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    // The cell under a point of the widget, or -1.
    int cellAt(const QPointF& point) const;
    QRectF pictureRect() const;

    QSize sizeHint() const override { return {side_, side_}; }
    QSize minimumSizeHint() const override { return {side_ * 2 / 3, side_ * 2 / 3}; }

Q_SIGNALS:
    void hovered(int cell);  // -1 when the mouse leaves the picture
    void clicked(int cell);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    int side_;
    QImage picture_;
    int rows_ = 0, cols_ = 0;
    int marked_ = -1;
    int hovered_ = -1;
    std::vector<Outline> outlines_;
    int highlighted_ = -1;
};

class FigureCanvas : public QWidget {
    Q_OBJECT
public:
    explicit FigureCanvas(QWidget* parent = nullptr);
    void setFigure(const Figure& figure);
    void clear();
    bool hasFigure() const { return static_cast<bool>(figure_.paint); }
    const Figure& figure() const { return figure_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    Figure figure_;
};

}  // namespace attnlab
