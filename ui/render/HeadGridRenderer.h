#pragma once
// Many attention maps painted at once: the heads of one layer (each titled "Head N", wrapped into the
// columns that give the biggest thumbnails), or the whole model as a layers x heads grid, with one
// colour bar when the maps share a scale. Paints onto any QPainter; the head grid widget adds the
// mouse, the CLI and the figure exports use it alone.
#include "render/FigureWriter.h"
#include "render/HeatmapRenderer.h"

#include <QColor>
#include <QFont>
#include <QRectF>
#include <QStringList>

#include <optional>
#include <utility>
#include <vector>

namespace attnlab {

enum class GridScale {
    PerHead,  // each thumbnail spans [0, its largest weight]
    Shared,   // one scale up to the largest weight of all maps, with a colour bar
    Unit,     // [0, 1] for every map, with a colour bar
};

class HeadGridRenderer {
    Q_DECLARE_TR_FUNCTIONS(attnlab::HeadGridRenderer)

public:
    // What an interactive view marks while the pointer is over a head; exports paint none.
    struct Hover {
        bool interactive = false;  // paint the cell highlight and these marks
        int layer = -1;
        int head = -1;
        QColor color;  // the hovered thumbnail's frame
    };

    HeadGridRenderer();

    void setHeads(const std::vector<AttentionMap>& heads, const QStringList& rowLabels,
                  const QStringList& columnLabels);
    void setLayers(const std::vector<std::vector<AttentionMap>>& layers, const QStringList& rowLabels,
                   const QStringList& columnLabels);
    void clear();

    void setColormap(ColormapId id);
    void setScale(GridScale scale);
    GridScale scale() const { return scale_; }
    void setTitle(const QString& title);
    const QString& title() const { return title_; }
    void setHighlight(int row, int column);  // one row and column marked in every thumbnail; -1 for none
    // Heads switched off (head ablation), as (layer, head) of this grid (layer 0 in one-layer mode):
    // their thumbnails are washed out, crossed and captioned "off", on screen and in exports.
    void setSwitchedOff(const std::vector<std::pair<int, int>>& heads) { switchedOff_ = heads; }
    bool isSwitchedOff(int layer, int head) const;
    // Every thumbnail's threshold (HeatmapOptions::massShare).
    void setMassShare(double share);
    double massShare() const { return massShare_; }

    int layerCount() const { return static_cast<int>(thumbnails_.size()); }
    int headCount() const;  // most heads in any layer
    bool showsLayers() const { return layerMode_; }
    bool isEmpty() const { return thumbnails_.empty(); }
    const HeatmapRenderer* thumbnail(int layer, int head) const;

    QRectF thumbnailRect(const QRectF& target, int layer, int head) const;  // its matrix area in target
    std::optional<std::pair<int, int>> thumbnailAt(const QRectF& target, const QPointF& pos) const;  // (layer, head)

    void paint(QPainter& painter, const QRectF& target, const QColor& textColor, const QColor& background,
               const Hover& hover) const;
    void paint(QPainter& painter, const QRectF& target, const QColor& textColor, const QColor& background) const {
        paint(painter, target, textColor, background, Hover());
    }
    QSize preferredSize() const;
    // Dark on white, without hover marks; size 0 means preferredSize().
    Figure figure(QSize size = {}) const;
    // PNG, SVG or PDF by extension; false with a one-line message naming the file.
    bool exportImage(const QString& path, QString* error = nullptr, double scale = 1.0, QSize size = {}) const;

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
    std::pair<double, double> sharedRange() const;
    QFont captionFont() const;

    std::vector<std::vector<HeatmapRenderer>> thumbnails_;
    bool layerMode_ = false;
    ColormapId colormap_ = ColormapId::Viridis;
    GridScale scale_ = GridScale::Unit;
    QString title_;
    QFont font_;
    int highlightRow_ = -1;
    int highlightColumn_ = -1;
    std::vector<std::pair<int, int>> switchedOff_;
    double massShare_ = 1.0;

    friend class HeadGridWidget;  // hit-tests its thumbnails against the geometry it painted
};

}  // namespace attnlab
