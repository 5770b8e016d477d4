#pragma once
// Thumbnails of many attention maps at once: the heads of one layer (each titled "Head N"), or the
// whole model as a layers x heads grid. Clicking a thumbnail activates its head; hovering a cell
// highlights that row and column in every thumbnail, so one token can be followed across heads.
#include "HeatmapRenderer.h"

#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

namespace attnlab {

enum class GridScale {
    PerHead,  // each thumbnail spans [0, its largest weight]
    Shared,   // one scale up to the largest weight of all maps, with a colour bar
    Unit,     // [0, 1] for every map, with a colour bar
};

class HeadGridWidget : public QWidget {
    Q_OBJECT

public:
    explicit HeadGridWidget(QWidget* parent = nullptr);

    // One layer: thumbnails wrap into as many columns as suit the widget's shape.
    void setHeads(const std::vector<AttentionMap>& heads, const QStringList& rowLabels,
                  const QStringList& columnLabels);
    // The whole model: one row per layer, one column per head.
    void setLayers(const std::vector<std::vector<AttentionMap>>& layers, const QStringList& rowLabels,
                   const QStringList& columnLabels);
    void clear();

    void setColormap(ColormapId id);
    void setScale(GridScale scale);
    GridScale scale() const { return scale_; }
    void setTitle(const QString& title);
    void highlightToken(int row, int column);  // -1 for none

    int layerCount() const { return static_cast<int>(thumbnails_.size()); }
    int headCount() const;  // most heads in any layer
    bool showsLayers() const { return layerMode_; }
    const HeatmapRenderer* thumbnail(int layer, int head) const;

    // Where a head's thumbnail matrix area lies in the widget.
    QRectF thumbnailRect(int layer, int head) const;
    std::optional<std::pair<int, int>> thumbnailAt(const QPointF& pos) const;  // (layer, head)

    // The grid painted into any target: the widget, an image, SVG or PDF.
    // showHover draws the hover marks (the widget does, exports do not).
    void paintGrid(QPainter& painter, const QRectF& target, const QColor& textColor, const QColor& background,
                   bool showHover = false) const;
    QSize preferredSize() const;
    // PNG, SVG or PDF by extension, dark-on-white; size 0 means preferredSize().
    bool exportImage(const QString& path, QString* error = nullptr, double scale = 1.0, QSize size = {}) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void headActivated(int head);
    void layerHeadActivated(int layer, int head);
    void tokenHovered(int row, int column);  // -1, -1 when the pointer leaves the maps

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Geometry {
        QRectF title;
        QRectF colorBar;
        std::vector<std::vector<QRectF>> thumbnails;  // [layer][head]
        std::vector<std::vector<QRectF>> captions;    // "Head N" above each thumbnail (one-layer mode)
        std::vector<QRectF> columnHeaders;            // "Head N" (layer mode)
        std::vector<QRectF> rowHeaders;               // "Layer N" (layer mode)
    };

    Geometry geometry(const QRectF& target) const;
    void setMaps(const std::vector<std::vector<AttentionMap>>& layers, const QStringList& rowLabels,
                 const QStringList& columnLabels, bool layerMode);
    void applyScale();
    void applyHighlight();
    void setHover(int layer, int head, int row, int column);
    std::pair<double, double> sharedRange() const;
    QFont captionFont() const;

    std::vector<std::vector<HeatmapRenderer>> thumbnails_;
    bool layerMode_ = false;
    ColormapId colormap_ = ColormapId::Viridis;
    GridScale scale_ = GridScale::Unit;
    QString title_;
    QFont font_;
    int hoverLayer_ = -1;
    int hoverHead_ = -1;
    int hoverRow_ = -1;
    int hoverColumn_ = -1;
    int externalRow_ = -1;
    int externalColumn_ = -1;
    int pressedLayer_ = -1;
    int pressedHead_ = -1;
};

}  // namespace attnlab
