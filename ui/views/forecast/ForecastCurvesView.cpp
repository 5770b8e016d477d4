#include "views/forecast/ForecastCurvesView.h"

#include "render/FigureWriter.h"
#include "views/forecast/ForecastPlot.h"
#include "widgets/ChartStyle.h"

#include <QChart>
#include <QChartView>
#include <QColor>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QSplitter>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

const QColor& kModel = forecast_colors::kForecast;

QByteArray csvNumber(double v) { return std::isfinite(v) ? QByteArray::number(v, 'g', 9) : QByteArray(); }

}  // namespace

ForecastCurvesView::ForecastCurvesView(QWidget* parent)
    : EpochCurvesView({tr("Train a forecaster: its loss, its error against seasonal naive and how much it looks "
                          "back by whole periods appear here after every epoch."),
                       tr("Loss"), tr("Training loss"), tr("Validation loss"), tr("loss"),
                       tr("Held-out mean absolute error"), tr("epoch"), tr("MAE")},
                      1.1, 180, parent) {
    mae_ = addScoreLine(tr("Forecaster MAE"), kModel, false);
    naiveMae_ = addScoreLine(tr("Seasonal naive MAE"), forecast_colors::kNaive, true);

    ratioChart_ = makeChart(tr("MASE and period-mass ratio"));
    ratioX_ = new QValueAxis;
    ratioY_ = new QValueAxis;
    ratioX_->setLabelFormat(QStringLiteral("%d"));
    ratioX_->setTickType(QValueAxis::TicksDynamic);
    ratioX_->setTickAnchor(0.0);
    styleAxis(ratioX_, tr("epoch"));
    styleAxis(ratioY_, tr("ratio"));
    ratioChart_->addAxis(ratioX_, Qt::AlignBottom);
    ratioChart_->addAxis(ratioY_, Qt::AlignLeft);
    auto line = [this](const QString& name, const QColor& color, bool dashed) {
        QLineSeries* l = addDottedLine(ratioChart_, name, color, dashed, dashed ? 7.0 : 10.0, true, &ratioMarkers_);
        for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(l), static_cast<QAbstractSeries*>(ratioMarkers_.value(l))}) {
            s->attachAxis(ratioX_);
            s->attachAxis(ratioY_);
        }
        return l;
    };
    mase_ = line(tr("MASE (below 1: better than seasonal naive)"), kModel, false);
    ratio_ = line(tr("Period-mass ratio (above 1: looks back by periods)"), forecast_colors::kPeriod, false);
    one_ = new QLineSeries;
    one_->setName(QStringLiteral("1"));  // its legend entry is hidden
    QPen pen(QColor(0x55, 0x55, 0x55), 1.2, Qt::DotLine);
    one_->setPen(pen);
    ratioChart_->addSeries(one_);
    one_->attachAxis(ratioX_);
    one_->attachAxis(ratioY_);
    for (QLegendMarker* m : ratioChart_->legend()->markers(one_)) m->setVisible(false);
    ratioView_ = makeChartView(ratioChart_);
    ratioView_->setMinimumHeight(180);
    // The third chart joins the other two in their splitter: the three share the height.
    if ((charts_ = findChild<QSplitter*>())) {
        charts_->addWidget(ratioView_);
        charts_->setStretchFactor(charts_->count() - 1, 1);
    } else {
        layout_->addWidget(ratioView_, 1);
    }
    clear();
}

QString ForecastCurvesView::viewTitle() const { return tr("Curves"); }

QString ForecastCurvesView::viewToolTip() const {
    return tr("The forecaster's loss, its held-out error against seasonal naive, MASE and the period-mass ratio after "
              "every epoch.");
}

void ForecastCurvesView::clearMore() {
    metrics_.clear();
    for (QLineSeries* l : {mase_, ratio_}) {
        l->clear();
        ratioMarkers_.value(l)->clear();
    }
    one_->clear();
    ratioView_->hide();
}

void ForecastCurvesView::addEpoch(const ForecastEpochMetrics& m) {
    metrics_.push_back(m);
    const double x = m.epoch;
    appendLoss(m.epoch, m.trainLoss, m.validationLoss);
    append(mae_, x, m.errors.mae);
    append(naiveMae_, x, m.seasonalNaiveMae);
    appendDotted(ratioMarkers_, mase_, x, m.errors.mase);
    appendDotted(ratioMarkers_, ratio_, x, m.periodMassRatio);

    QString summary = tr("Epoch %1:  validation loss %2 · MAE %3 (seasonal naive %4) · MASE %5")
                          .arg(m.epoch)
                          .arg(m.validationLoss, 0, 'f', 3)
                          .arg(m.errors.mae, 0, 'g', 3)
                          .arg(m.seasonalNaiveMae, 0, 'g', 3)
                          .arg(m.errors.mase, 0, 'f', 2);
    if (std::isfinite(m.periodMassRatio) && m.periodMassRatio > 0)
        summary += QStringLiteral(" · ") + tr("period-mass ratio %1").arg(m.periodMassRatio, 0, 'f', 2);
    if (m.windowsPerSecond > 0) summary += QStringLiteral(" · ") + tr("%1 windows/s").arg(m.windowsPerSecond, 0, 'f', 0);
    showEpoch(m.epoch, summary);

    // The MAE axis from 0 to a round top; the ratio chart follows the epoch axis.
    double high = 0;
    for (QLineSeries* s : {mae_, naiveMae_})
        for (const QPointF& p : s->points()) high = std::max(high, p.y());
    if (auto* y = qobject_cast<QValueAxis*>(scoreChart()->axes(Qt::Vertical).value(0))) setRoundRange(y, high);
    high = 1.0;
    for (QLineSeries* s : {mase_, ratio_})
        for (const QPointF& p : s->points()) high = std::max(high, p.y());
    setRoundRange(ratioY_, high);
    ratioX_->setTickInterval(epochAxis()->tickInterval());
    ratioX_->setRange(epochAxis()->min(), epochAxis()->max());
    one_->clear();
    one_->append(epochAxis()->min(), 1.0);
    one_->append(epochAxis()->max(), 1.0);
    ratioView_->show();
    if (charts_ && epochs() == 1) charts_->setSizes(QList<int>(charts_->count(), 1000));  // equal heights
}

QByteArray ForecastCurvesView::csv() const {
    QByteArray out("epoch,train_loss,val_loss,val_mae,val_rmse,val_mase,seasonal_naive_mae,period_mass_ratio\n");
    for (const ForecastEpochMetrics& m : metrics_) {
        out += QByteArray::number(m.epoch);
        for (double v : {m.trainLoss, m.validationLoss, m.errors.mae, m.errors.rmse, m.errors.mase, m.seasonalNaiveMae,
                         m.periodMassRatio}) {
            out += ',';
            out += csvNumber(v);
        }
        out += '\n';
    }
    return out;
}

bool ForecastCurvesView::exportView(const QString& path, double scale, QString* error) const {
    const std::optional<ExportFormat> format = FigureWriter::formatForPath(path);
    if (format == ExportFormat::Npy)
        return fail(error, tr("the curves are exported as CSV, not NPY: save the file with the .csv extension"));
    if (format && metrics_.empty()) return fail(error, tr("there are no curves to export yet: train a forecaster first"));
    if (format == ExportFormat::Csv) return FigureWriter::report(FigureWriter::writeBytes(path, csv()), error);
    return exportCharts({lossChart(), scoreChart(), ratioChart_}, {1.0, 1.0, 1.0}, QSize(900, 1100),
                        tr("Forecaster training curves"), path, scale, error);
}

}  // namespace attnlab
