#pragma once
// The look every QtCharts chart of the application shares (training curves, experiments): bold
// title, legend below, tight margins, no animation, readable axis fonts and light grid lines.
#include <QHash>
#include <QList>
#include <QSize>
#include <QString>

class QAbstractAxis;
class QChart;
class QChartView;
class QColor;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace attnlab {

QChart* makeChart(const QString& title);
void styleAxis(QAbstractAxis* axis, const QString& title);
// A view for the chart: antialiased, at least 220 px high, and its scene without an item
// index. The default BSP-tree index kept growing while the curves were redrawn (the soak test
// measured ~6 MB per hour from it); a chart has a few hundred items, which need no index.
QChartView* makeChartView(QChart* chart);
// Charts stacked top to bottom (heights in proportion to shares) written through FigureWriter at
// size: each chart is laid out at the export size first, so axis labels are placed for the picture,
// not the window, and put back afterwards. False with a one-line message in *error.
// A loss axis from 0 to a round top above `high` (5% headroom, at least 0.05) with at most 6 intervals
// of 1, 2, 2.5 or 5 times a power of ten (0-1.5 for a loss of 1.38, not Qt's 0-2), labelled with as
// few decimals as show every tick exactly.
void setRoundRange(QValueAxis* axis, double high);
// A line of `color` (2.8 px, or 2 px dashed; round caps and joins if roundPen) with a dot at each
// point: a scatter series of markerSize beside it (white with a coloured border when dashed), whose
// legend entry stays hidden. Both are added to chart; the dots are recorded in *markers.
QLineSeries* addDottedLine(QChart* chart, const QString& name, const QColor& color, bool dashed, double markerSize,
                           bool roundPen, QHash<QLineSeries*, QScatterSeries*>* markers);
// Adds (x, y) to the line and its dots; a y that is not finite (NaN: nothing to show) is left out.
void appendDotted(const QHash<QLineSeries*, QScatterSeries*>& markers, QLineSeries* line, double x, double y);
bool exportCharts(const QList<QChart*>& charts, const QList<double>& shares, QSize size, const QString& title,
                  const QString& path, double scale, QString* error);

}  // namespace attnlab
