#include "widgets/ChartStyle.h"

#include "render/FigureWriter.h"

#include <QAbstractAxis>
#include <QCoreApplication>
#include <QGraphicsLayout>
#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include <cmath>

namespace attnlab {

void setRoundRange(QValueAxis* axis, double high) {
    const double top = std::max(0.05, high * 1.05);
    double step = 0.01;
    for (double base = 0.01; base < 1e6; base *= 10) {
        for (double f : {1.0, 2.0, 2.5, 5.0}) {
            step = base * f;
            if (top / step <= 6.0) break;
        }
        if (top / step <= 6.0) break;
    }
    const int intervals = static_cast<int>(std::ceil(top / step - 1e-9));
    axis->setRange(0.0, intervals * step);
    axis->setTickCount(intervals + 1);
    int decimals = 0;  // as few as show every tick exactly
    while (decimals < 3 &&
           std::abs(step * std::pow(10.0, decimals) - std::round(step * std::pow(10.0, decimals))) > 1e-6)
        ++decimals;
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
}

QLineSeries* addDottedLine(QChart* chart, const QString& name, const QColor& color, bool dashed, double markerSize,
                           bool roundPen, QHash<QLineSeries*, QScatterSeries*>* markers) {
    auto* line = new QLineSeries;
    line->setName(name);
    QPen pen(color);
    pen.setWidthF(dashed ? 2.0 : 2.8);
    pen.setStyle(dashed ? Qt::DashLine : Qt::SolidLine);
    if (roundPen) {
        pen.setCapStyle(Qt::RoundCap);
        pen.setJoinStyle(Qt::RoundJoin);
    }
    line->setPen(pen);
    line->setPointsVisible(false);  // the dots are a scatter series: QLineSeries clips its end markers
    auto* dots = new QScatterSeries;
    dots->setName(name);
    dots->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    dots->setMarkerSize(markerSize);
    dots->setColor(dashed ? QColor(Qt::white) : color);
    dots->setBorderColor(dashed ? color : QColor(Qt::white));
    chart->addSeries(line);
    chart->addSeries(dots);
    for (QLegendMarker* marker : chart->legend()->markers(dots)) marker->setVisible(false);
    markers->insert(line, dots);
    return line;
}

void appendDotted(const QHash<QLineSeries*, QScatterSeries*>& markers, QLineSeries* line, double x, double y) {
    if (!std::isfinite(y)) return;
    line->append(x, y);
    if (QScatterSeries* dots = markers.value(line)) dots->append(x, y);
}

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
