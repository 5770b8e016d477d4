#pragma once
// Shows one attention heatmap: hover highlights the row and column under the pointer and shows the
// exact weight; Ctrl+wheel or +/- zoom (0 or a double-click resets), dragging pans a zoomed view.
// Several output tokens (rows) or source tokens (columns) can be selected together, and their
// summed attention is drawn as a strip beside the map: clicking a row or column label selects it
// (Ctrl+click adds or removes it); Ctrl+click on a cell adds or removes its row, or its column when
// columns are being selected or Shift is held too. A plain click on a cell, or Escape, clears.
#include "render/HeatmapRenderer.h"

#include <QWidget>

#include <string>
#include <vector>

namespace attnlab {

class HeatmapWidget : public QWidget {
    Q_OBJECT

public:
    explicit HeatmapWidget(QWidget* parent = nullptr);

    void setAttention(const AttentionMap& map, const QStringList& rowLabels, const QStringList& columnLabels);
    void setAttention(const AttentionMap& map, const std::vector<std::string>& rowLabels,
                      const std::vector<std::string>& columnLabels);
    void clear();

    void setColormap(ColormapId id);
    ColormapId colormap() const { return renderer_.options().colormap; }
    void setShowNumbers(bool on);
    bool showNumbers() const { return renderer_.options().showNumbers; }
    // The threshold (HeatmapOptions::massShare): each row's largest weights up to this share of its
    // mass keep their colour. New widgets start at defaultMassShare(), which the window's Keep
    // slider sets (MainWindow::setMassShare) together with every widget's own.
    void setMassShare(double share);
    double massShare() const { return renderer_.options().massShare; }
    static void setDefaultMassShare(double share);
    static double defaultMassShare();
    void setShowColorBar(bool on);
    // true: the colour map spans [0, 1]; false: [0, largest weight].
    void setFixedScale(bool on);
    // One scale shared with other maps being compared; setFixedScale() leaves it.
    void setValueRange(double low, double high);
    void setTitle(const QString& title);
    void setAxisTitles(const QString& rowAxis, const QString& columnAxis);
    // false: cells stretch to fill the widget (e.g. a table far wider than tall); true by default.
    void setKeepAspect(bool on);

    // Cross-view highlighting (e.g. the token hovered in the head grid); -1 for none.
    void highlightToken(int row, int column);

    // The selection (see above). Setting rows clears the columns and the other way round; indices
    // outside the map are dropped. It survives a live update of the same shape, not a new shape.
    const std::vector<int>& selectedRows() const { return renderer_.selectedRows(); }
    const std::vector<int>& selectedColumns() const { return renderer_.selectedColumns(); }
    bool hasSelection() const { return renderer_.hasSelection(); }
    void setSelectedRows(const std::vector<int>& rows);
    void setSelectedColumns(const std::vector<int>& columns);
    void clearSelection();
    std::vector<double> selectionSums() const { return renderer_.selectionSums(); }  // see HeatmapRenderer
    // One line for a status or info label: "Σ 2 outputs (汤, 姆) → tom 1.62 · chases 0.21 · …", empty
    // without a selection. maxItems caps the listed sums (largest first).
    QString selectionSummary(int maxItems = 8) const;

    const HeatmapRenderer& renderer() const { return renderer_; }
    double zoom() const { return zoom_; }
    QRectF contentRect() const;                     // where the whole figure is laid out, in widget coordinates
    QRectF cellRect(int row, int column) const;     // in widget coordinates, for the current zoom and pan
    QString toolTipFor(int row, int column) const;  // "target → source: 0.8312"
    QString toolTipForSum(int index) const;         // "Σ 汤, 姆 → tom: 1.6230"
    // Exports what is shown, dark-on-white and without hover marks (see HeatmapRenderer::exportFile).
    bool exportTo(const QString& path, QString* error = nullptr, double scale = 1.0) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public Q_SLOTS:
    void zoomIn();
    void zoomOut();
    void resetZoom();

Q_SIGNALS:
    void cellHovered(int row, int column, double weight);
    void hoverLeft();
    void cellClicked(int row, int column);
    // A column's label double-clicked (a double-click anywhere else fits the map).
    void columnLabelDoubleClicked(int column);
    void zoomChanged(double zoom);
    void selectionChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void zoomAt(double factor, const QPointF& anchor);
    void clampPan();
    void updateHover(const QPointF& pos, const QPoint& globalPos);
    void clearHover();
    void applyHighlight();
    void applyPalette();
    void updateCursor();
    void setSelection(const std::vector<int>& rows, const std::vector<int>& columns);
    void clickAt(const QPointF& pos, Qt::KeyboardModifiers modifiers);
    static std::vector<int> toggled(std::vector<int> indices, int index);

    HeatmapRenderer renderer_;
    double zoom_ = 1.0;
    QPointF pan_;  // top-left of contentRect(), <= 0 when zoomed
    bool dragging_ = false;
    bool dragMoved_ = false;
    QPointF dragStart_;
    QPointF panAtDragStart_;
    int hoverRow_ = -1;
    int hoverColumn_ = -1;
    int externalRow_ = -1;
    int externalColumn_ = -1;
};

}  // namespace attnlab
