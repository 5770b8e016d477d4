#include "views/EpochCurvesView.h"

#include "widgets/ChartStyle.h"
#include "widgets/WidgetStyle.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSplitter>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

EpochCurvesView::EpochCurvesView(const Texts& texts, double summaryScale, int chartHeight, QWidget* parent)
    : QWidget(parent), layout_(new QVBoxLayout(this)) {
    layout_->setContentsMargins(12, 12, 12, 12);
    layout_->setSpacing(8);

    summary_ = new QLabel;
    scaleFont(summary_, summaryScale);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout_->addWidget(summary_);
    placeholder_ = makePlaceholderLabel();
    placeholder_->setText(texts.placeholder);
    layout_->addWidget(placeholder_, 1);

    lossChart_ = makeChart(texts.lossTitle);
    scoreChart_ = makeChart(texts.scoreTitle);
    lossX_ = new QValueAxis;
    lossY_ = new QValueAxis;
    scoreX_ = new QValueAxis;
    scoreY_ = new QValueAxis;
    styleAxis(lossY_, texts.lossUnit);
    scoreY_->setRange(0.0, 1.0);
    scoreY_->setTickCount(6);
    scoreY_->setLabelFormat(QStringLiteral("%.1f"));
    styleAxis(scoreY_, texts.share);
    for (QValueAxis* x : {lossX_, scoreX_}) {
        x->setLabelFormat(QStringLiteral("%d"));
        x->setTickType(QValueAxis::TicksDynamic);  // a tick every tickInterval() epochs from 0
        x->setTickAnchor(0.0);
        styleAxis(x, texts.epoch);
    }
    lossChart_->addAxis(lossX_, Qt::AlignBottom);
    lossChart_->addAxis(lossY_, Qt::AlignLeft);
    scoreChart_->addAxis(scoreX_, Qt::AlignBottom);
    scoreChart_->addAxis(scoreY_, Qt::AlignLeft);
    trainLoss_ = addLine(lossChart_, texts.trainLoss, QColor(0x1f, 0x77, 0xb4), false);
    validationLoss_ = addLine(lossChart_, texts.validationLoss, QColor(0xff, 0x7f, 0x0e), false);

    charts_ = new QSplitter(Qt::Vertical);
    charts_->setChildrenCollapsible(false);
    for (QChart* chart : {lossChart_, scoreChart_}) {
        QChartView* view = makeChartView(chart);
        view->setMinimumHeight(chartHeight);
        charts_->addWidget(view);
        charts_->setStretchFactor(charts_->count() - 1, 1);
    }
    layout_->addWidget(charts_, 1);
}

QLineSeries* EpochCurvesView::addLine(QChart* chart, const QString& name, const QColor& color, bool dashed) {
    QLineSeries* line = addDottedLine(chart, name, color, dashed, dashed ? 7.0 : 10.0, true, &markers_);
    for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(line), static_cast<QAbstractSeries*>(markers_.value(line))})
        for (QAbstractAxis* axis : chart->axes()) s->attachAxis(axis);
    return line;
}

QLineSeries* EpochCurvesView::addScoreLine(const QString& name, const QColor& color, bool dashed) {
    return addLine(scoreChart_, name, color, dashed);
}

void EpochCurvesView::append(QLineSeries* line, double x, double y) { appendDotted(markers_, line, x, y); }

void EpochCurvesView::appendLoss(int epoch, double train, double validation) {
    append(trainLoss_, epoch, train);
    append(validationLoss_, epoch, validation);
}

void EpochCurvesView::setLineShown(QLineSeries* line, bool shown) {
    QScatterSeries* dots = markers_.value(line);
    line->setVisible(shown);
    dots->setVisible(shown);
    // A series' visibility shows its legend entry again: the line's follows it, the dots' stays hidden.
    QChart* chart = line->chart();
    for (QLegendMarker* marker : chart->legend()->markers(line)) marker->setVisible(shown);
    for (QLegendMarker* marker : chart->legend()->markers(dots)) marker->setVisible(false);
}

void EpochCurvesView::clear() {
    epochs_ = lastEpoch_ = 0;
    for (QChart* chart : {lossChart_, scoreChart_})
        for (QAbstractSeries* s : chart->series()) static_cast<QXYSeries*>(s)->clear();
    clearMore();
    summary_->clear();
    summary_->hide();
    placeholder_->show();
    charts_->hide();
    updateRanges();
}

void EpochCurvesView::showEpoch(int epoch, const QString& summary) {
    ++epochs_;
    lastEpoch_ = std::max(lastEpoch_, epoch);
    summary_->setText(summary);
    summary_->show();
    placeholder_->hide();
    charts_->show();
    updateRanges();
}

void EpochCurvesView::updateRanges() {
    // Epochs from 1 to the latest (at least 2), ticks every 1, 2, 5, 10, 20 ... epochs, at most 10.
    const int last = std::max(2, lastEpoch_);
    double step = 1.0;
    for (double base = 1.0; (last - 1) / step > 10.0; base *= 10.0)
        for (double f : {1.0, 2.0, 5.0}) {
            step = base * f;
            if ((last - 1) / step <= 10.0) break;
        }
    for (QValueAxis* axis : {lossX_, scoreX_}) {
        if (axis->tickInterval() != step) axis->setTickInterval(step);
        if (axis->min() != 1.0 || axis->max() != last) axis->setRange(1.0, last);
    }
    // Loss from 0 to a round top with 3 to 6 intervals: 0-1.5 for a loss of 1.38, not Qt's 0-2.
    double high = 0.0;
    for (QLineSeries* s : {trainLoss_, validationLoss_})
        for (const QPointF& p : s->points()) high = std::max(high, p.y());
    setRoundRange(lossY_, high);
}

bool EpochCurvesView::exportCurves(const QString& title, const QString& path, double scale, QString* error) const {
    return exportCharts({lossChart_, scoreChart_}, {1.0, 1.0}, QSize(900, 880), title, path, scale, error);
}

}  // namespace attnlab
