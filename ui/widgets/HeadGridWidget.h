#pragma once
// The head grid on screen (render/HeadGridRenderer.h paints it): clicking a thumbnail activates its
// head; hovering a cell highlights that row and column in every thumbnail, so one token can be
// followed across heads.
#include "render/HeadGridRenderer.h"

#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

namespace attnlab {

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
    GridScale scale() const { return grid_.scale(); }
    void setTitle(const QString& title);
    void highlightToken(int row, int column);  // -1 for none
    // Heads switched off, as (layer, head) of this grid (HeadGridRenderer::setSwitchedOff).
    void setSwitchedOff(const std::vector<std::pair<int, int>>& heads);
    // Every thumbnail's threshold; starts at HeatmapWidget::defaultMassShare().
    void setMassShare(double share);

    int layerCount() const { return grid_.layerCount(); }
    int headCount() const { return grid_.headCount(); }
    bool showsLayers() const { return grid_.showsLayers(); }
    const HeatmapRenderer* thumbnail(int layer, int head) const { return grid_.thumbnail(layer, head); }
    const HeadGridRenderer& renderer() const { return grid_; }

    // Where a head's thumbnail matrix area lies in the widget.
    QRectF thumbnailRect(int layer, int head) const { return grid_.thumbnailRect(QRectF(rect()), layer, head); }
    std::optional<std::pair<int, int>> thumbnailAt(const QPointF& pos) const {
        return grid_.thumbnailAt(QRectF(rect()), pos);
    }

    QSize preferredSize() const { return grid_.preferredSize(); }
    // PNG, SVG or PDF by extension, dark-on-white; size 0 means preferredSize().
    bool exportImage(const QString& path, QString* error = nullptr, double scale = 1.0, QSize size = {}) const {
        return grid_.exportImage(path, error, scale, size);
    }

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
    void mapsChanged();
    void applyHighlight();
    void setHover(int layer, int head, int row, int column);

    HeadGridRenderer grid_;
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
