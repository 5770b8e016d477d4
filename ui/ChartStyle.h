#pragma once
// The look every QtCharts chart of the application shares (training curves, experiments): bold
// title, legend below, tight margins, no animation, readable axis fonts and light grid lines.
#include <QString>

class QAbstractAxis;
class QChart;

namespace attnlab {

QChart* makeChart(const QString& title);
void styleAxis(QAbstractAxis* axis, const QString& title);

}  // namespace attnlab
