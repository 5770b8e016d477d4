#include "ChartStyle.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QLegend>

namespace attnlab {

QChart* makeChart(const QString& title) {
    auto* chart = new QChart;
    chart->setTitle(title);
    QFont titleFont = chart->titleFont();
    titleFont.setPointSizeF(13.0);
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->legend()->setAlignment(Qt::AlignBottom);
    QFont legendFont = chart->legend()->font();
    legendFont.setPointSizeF(11.0);
    chart->legend()->setFont(legendFont);
    chart->setMargins(QMargins(8, 4, 8, 4));
    chart->setBackgroundRoundness(0);
    chart->setAnimationOptions(QChart::NoAnimation);  // live data: animations lag behind
    return chart;
}

void styleAxis(QAbstractAxis* axis, const QString& title) {
    axis->setTitleText(title);
    QFont font = axis->labelsFont();
    font.setPointSizeF(10.5);
    axis->setLabelsFont(font);
    QFont titleFont = axis->titleFont();
    titleFont.setPointSizeF(11.0);
    titleFont.setBold(false);
    axis->setTitleFont(titleFont);
    axis->setGridLineColor(QColor(0xe3, 0xe3, 0xe3));
}

QChartView* makeChartView(QChart* chart) {
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(220);
    view->scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
    return view;
}

}  // namespace attnlab
