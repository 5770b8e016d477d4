#pragma once
// The look every QtCharts chart of the application shares (training curves, experiments): bold
// title, legend below, tight margins, no animation, readable axis fonts and light grid lines.
#include <QList>
#include <QSize>
#include <QString>

class QAbstractAxis;
class QChart;
class QChartView;

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
bool exportCharts(const QList<QChart*>& charts, const QList<double>& shares, QSize size, const QString& title,
                  const QString& path, double scale, QString* error);

}  // namespace attnlab
