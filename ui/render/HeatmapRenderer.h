#pragma once
// Paints one attention matrix (cells, token labels, colour bar, title) onto any QPainter, so the GUI
// widget, the CLI's offscreen export and the head grid thumbnails produce the same picture. The
// matrix is a QImage with one pixel per cell drawn scaled without smoothing: painting cost does not
// grow with the number of cells. Also writes the matrix as PNG, SVG, PDF, CSV or NumPy .npy.
#include "render/Colormap.h"
#include "render/FigureWriter.h"
#include "base/AttentionMap.h"

#include <QByteArray>
#include <QColor>
#include <QCoreApplication>
#include <QFont>
#include <QImage>
#include <QPoint>
#include <QPointF>
#include <QRectF>
#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

class QPainter;

namespace attnlab {

// Which weights the two ends of the colour map stand for.
enum class ScaleMode {
    DataMax,  // [min(0, smallest weight), largest weight]
    Unit,     // [0, 1]: attention probabilities on an absolute scale
    Fixed,    // [valueMin, valueMax] chosen by the caller, e.g. one scale shared by maps being compared
};

struct HeatmapOptions {
    ColormapId colormap = ColormapId::Viridis;
    ScaleMode scale = ScaleMode::DataMax;
    double valueMin = 0.0;  // ScaleMode::Fixed only
    double valueMax = 1.0;
    QString title;
    QString rowAxisTitle;             // e.g. "target", drawn rotated left of the row labels when not empty
    QString columnAxisTitle;          // e.g. "source", drawn above the column labels when not empty
    bool showNumbers = false;         // cell values with 2 decimals, only in cells this big or bigger:
    double minCellForNumbers = 28.0;  // logical pixels
    bool showColorBar = true;
    bool showLabels = true;  // token labels on both axes; thumbnails turn them off
    bool keepAspect = true;  // square cells
    QFont font;              // pixel-sized after normalisation; CJK fallbacks are appended
    QColor textColor = QColor(0x1a, 0x1a, 0x1a);
    QColor backgroundColor = Qt::white;
    // The threshold (exBERT): in each row only the largest weights that together reach this share
    // of the row's mass keep their colour; the others are faded toward the background. 1: off.
    double massShare = 1.0;
    int highlightRow = -1;  // -1: none
    int highlightColumn = -1;
    // Several rows (output tokens) or several columns (source tokens) chosen together: outlined,
    // their labels marked, and their summed weights drawn as a strip of cells, under the matrix for
    // rows (one cell per column) or right of it for columns (one cell per row). At most one of the two
    // is non-empty; see HeatmapRenderer::setSelection().
    std::vector<int> selectedRows;
    std::vector<int> selectedColumns;
};

class HeatmapRenderer {
    // Its messages are shown by the GUI in the interface language (the CLI installs no translation).
    Q_DECLARE_TR_FUNCTIONS(attnlab::HeatmapRenderer)

public:
    using PaintFunction = std::function<void(QPainter&, const QRectF&)>;

    HeatmapRenderer();
    explicit HeatmapRenderer(const HeatmapOptions& options);

    // Missing labels are shown as their index, extra ones are ignored. A map whose weights do not
    // match rows * cols is not drawn: the renderer shows why instead.
    void setMap(const AttentionMap& map, const QStringList& rowLabels, const QStringList& columnLabels);
    void setMap(const AttentionMap& map, const std::vector<std::string>& rowLabels,
                const std::vector<std::string>& columnLabels);
    void clear();

    const AttentionMap& map() const { return map_; }
    bool isEmpty() const { return map_.rows == 0 || map_.cols == 0; }
    int rows() const { return map_.rows; }
    int columns() const { return map_.cols; }
    QString rowLabel(int row) const;
    QString columnLabel(int column) const;
    QStringList rowLabels() const;             // one per row, indices filled in
    QStringList columnLabels() const;          // one per column
    double weight(int row, int column) const;  // NaN outside the map
    QString emptyText() const;                 // what an empty renderer paints

    const HeatmapOptions& options() const { return options_; }
    void setOptions(const HeatmapOptions& options);
    void setColormap(ColormapId id);
    void setScale(ScaleMode mode, double valueMin = 0.0, double valueMax = 1.0);
    void setTitle(const QString& title);
    void setAxisTitles(const QString& rowAxis, const QString& columnAxis);
    void setShowNumbers(bool on);
    void setMassShare(double share);  // HeatmapOptions::massShare, clamped to [0.01, 1]
    // Whether the threshold keeps the cell (always true at a share of 1).
    bool keepsCell(int row, int column) const;
    void setShowColorBar(bool on);
    void setShowLabels(bool on);
    void setFont(const QFont& font);
    void setColors(const QColor& text, const QColor& background);
    void setHighlight(int row, int column);
    // Indices are sorted, duplicates and those outside the map dropped; rows win if both are given.
    void setSelection(const std::vector<int>& rows, const std::vector<int>& columns);
    const std::vector<int>& selectedRows() const { return options_.selectedRows; }
    const std::vector<int>& selectedColumns() const { return options_.selectedColumns; }
    bool hasSelection() const { return !options_.selectedRows.empty() || !options_.selectedColumns.empty(); }
    // Selected rows: per column, the sum of their weights; selected columns: per row. NaN weights
    // count as 0. Empty without a selection. The strip colours sum / count on the map's scale (the
    // mean of the selected weights); its cells show the sums.
    std::vector<double> selectionSums() const;

    Colormap colormap() const { return Colormap(options_.colormap); }
    std::pair<double, double> valueRange() const;  // the weights at the low and high end of the colour map
    std::pair<double, double> dataRange() const { return {dataLow_, dataHigh_}; }  // what ScaleMode::DataMax uses
    QRgb colorFor(double weight) const;
    const QImage& matrixImage() const;  // Format_RGB32, one pixel per cell

    // A size at which every label is readable; cellSize 0 picks one from the map size.
    QSize preferredSize(double cellSize = 0.0) const;

    // Geometry for drawing into target (logical coordinates); paint() lays out first. cellRect and
    // cellAt answer for the latest layout. cellAt returns QPoint(x = column, y = row).
    void layout(const QRectF& target) const;
    void paint(QPainter& painter, const QRectF& target, const QRectF& exposed = QRectF()) const;
    QRectF matrixRect() const;
    QRectF colorBarRect() const;
    QRectF cellRect(int row, int column) const;
    std::optional<QPoint> cellAt(const QPointF& pos) const;
    // The row (column) whose label is beside pos: anywhere left of the matrix within its height
    // (above it, below the title, within its width), in the latest layout. Needs showLabels.
    std::optional<int> rowLabelAt(const QPointF& pos) const;
    std::optional<int> columnLabelAt(const QPointF& pos) const;
    QRectF sumStripRect() const;  // empty without a selection
    QRectF sumStripCellRect(int index) const;
    std::optional<int> sumStripCellAt(const QPointF& pos) const;
    bool numbersVisible() const;  // showNumbers and the cells of the latest layout are big enough

    // The map as a figure for FigureWriter (without the hover highlight); size 0 means preferredSize().
    Figure figure(QSize size = {}) const;
    // Exports through FigureWriter. Each returns false with a one-line message naming the file instead
    // of throwing; a failed export leaves no partial file behind. PNG is written at size * scale pixels.
    bool exportFile(const QString& path, QString* error = nullptr, double scale = 1.0, QSize size = {}) const;
    bool exportImage(const QString& path, ExportFormat format, QString* error = nullptr, double scale = 1.0,
                     QSize size = {}) const;
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    bool exportNpy(const QString& path, QString* error = nullptr) const;

    // Shared with the head grid's common colour bar.
    static void paintColorBar(QPainter& painter, const QRectF& bar, const Colormap& colormap, double low, double high,
                              const QFont& font, const QColor& textColor);
    static qreal colorBarLabelWidth(double low, double high, const QFont& font);
    static QFont defaultFont();
    static QFont normalizedFont(const QFont& font);       // pixel-sized, with CJK fallback families
    static QColor contrastingTextColor(QRgb background);  // for numbers drawn on a cell
    static bool isValidMap(const AttentionMap& map);
    static QStringList toStringList(const std::vector<std::string>& items);  // UTF-8

private:
    struct Layout {
        QRectF target;
        QRectF matrix;
        QRectF colorBar;
        QRectF title;
        QRectF rowAxisTitle;
        QRectF columnAxisTitle;
        double cellWidth = 0.0;
        double cellHeight = 0.0;
        bool rotateColumnLabels = false;
        qreal rowLabelWidth = 0.0;      // available width for row labels (elided beyond)
        qreal columnLabelExtent = 0.0;  // available length for column labels
        int rowStride = 1;              // label every n-th row/column when cells are smaller than a line
        int columnStride = 1;
        QRectF sumStrip;                // the selection's sums; empty without a selection
    };

    void measureLabels();
    void invalidateImage() { imageDirty_ = true; }
    void paintEmpty(QPainter& painter, const QRectF& target, const QString& text) const;
    void paintMatrix(QPainter& painter, const QRectF& visible) const;
    void paintNumbers(QPainter& painter, const QRectF& visible) const;
    void paintLabels(QPainter& painter, const QRectF& visible) const;
    void paintHighlight(QPainter& painter) const;
    void paintSelection(QPainter& painter) const;
    QColor selectionColor() const;
    qreal sumStripExtent() const;  // height of the row strip, width of the column strip

    AttentionMap map_;
    QStringList rowLabels_;
    QStringList columnLabels_;
    QString invalidReason_;
    HeatmapOptions options_;
    qreal maxRowLabelWidth_ = 0.0;
    qreal maxColumnLabelWidth_ = 0.0;
    double dataLow_ = 0.0;   // min(0, smallest finite weight)
    double dataHigh_ = 1.0;  // largest finite weight
    mutable QImage image_;
    mutable bool imageDirty_ = true;
    mutable Layout layout_;
};

}  // namespace attnlab
