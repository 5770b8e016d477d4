#include "widgets/ChartStyle.h"

#include "render/FigureWriter.h"

#include <QAbstractAxis>
#include <QCoreApplication>
#include <QGraphicsLayout>
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

bool exportCharts(const QList<QChart*>& charts, const QList<double>& shares, QSize size, const QString& title,
                  const QString& path, double scale, QString* error) {
    const std::optional<ExportFormat> format = FigureWriter::formatForPath(path);
    if (!format || !FigureWriter::isImage(*format))  // refused before the charts are laid out for it
        return FigureWriter::report(FigureWriter::write(path, Figure{}, scale), error);
    double total = 0.0;
    for (double share : shares) total += share;
    QList<QRectF> boxes;  // in a unit-less target of the export size
    double top = 0.0;
    QList<QRectF> old;
    for (int i = 0; i < charts.size(); ++i) {
        const double height = size.height() * shares.value(i, 1.0) / (total > 0.0 ? total : charts.size());
        boxes << QRectF(0, top, size.width(), height);
        top += height;
        old << charts[i]->geometry();
        charts[i]->setGeometry(QRectF(0, 0, size.width(), height));
    }
    // Charts lay out lazily (on posted events) and drop a replaced axis's items with deleteLater; a
    // just-swapped axis must be in place, and the old one gone, before painting.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    for (QChart* chart : charts)
        if (chart->layout()) chart->layout()->activate();
    Figure figure;
    figure.size = size;
    figure.title = title;
    figure.paint = [&](QPainter& painter, const QRectF& target) {
        const double sx = target.width() / size.width();
        const double sy = target.height() / size.height();
        for (int i = 0; i < charts.size(); ++i) {
            const QRectF& b = boxes[i];
            const QRectF box(target.left() + b.left() * sx, target.top() + b.top() * sy, b.width() * sx, b.height() * sy);
            // Render the chart's scene, not its view: no scroll bars, no hover marks, and any size.
            charts[i]->scene()->render(&painter, box, charts[i]->sceneBoundingRect(), Qt::IgnoreAspectRatio);
        }
    };
    const bool ok = FigureWriter::report(FigureWriter::write(path, figure, scale), error);
    for (int i = 0; i < charts.size(); ++i) charts[i]->setGeometry(old[i]);
    return ok;
}

}  // namespace attnlab
