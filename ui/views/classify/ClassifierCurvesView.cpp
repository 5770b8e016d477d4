#include "views/classify/ClassifierCurvesView.h"

#include "render/FigureWriter.h"
#include "widgets/ChartStyle.h"
#include "widgets/WidgetStyle.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
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

const QColor kRationaleColor(0x8c, 0x56, 0x4b);

QByteArray csvNumber(double v) { return std::isfinite(v) ? QByteArray::number(v, 'g', 9) : QByteArray(); }

}  // namespace

ClassifierCurvesView::ClassifierCurvesView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(8);

    summary_ = new QLabel;
    scaleFont(summary_, 1.15);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
    placeholder_ = makePlaceholderLabel();
    placeholder_->setText(tr("Train a classifier: its loss, accuracy and F1 appear here after every epoch."));
    layout->addWidget(placeholder_, 1);

    lossChart_ = makeChart(tr("Loss"));
    trainLoss_ = addLine(lossChart_, tr("Training loss"), QColor(0x1f, 0x77, 0xb4), false);
    validationLoss_ = addLine(lossChart_, tr("Validation loss"), QColor(0xff, 0x7f, 0x0e), false);
    lossAxisX_ = new QValueAxis;
    lossAxisY_ = new QValueAxis;
    styleAxis(lossAxisY_, tr("cross-entropy per text"));

    scoreChart_ = makeChart(tr("Validation scores"));
    accuracy_ = addLine(scoreChart_, tr("Validation accuracy"), QColor(0x2c, 0xa0, 0x2c), false);
    macroF1_ = addLine(scoreChart_, tr("Macro F1"), QColor(0x94, 0x67, 0xbd), false);
    rationaleMass_ = addLine(scoreChart_, tr("Rationale mass (attention on the gold words)"), kRationaleColor, false);
    uniformRationaleMass_ = addLine(scoreChart_, tr("Rationale mass of uniform attention"), kRationaleColor, true);
    scoreAxisX_ = new QValueAxis;
    scoreAxisY_ = new QValueAxis;
    scoreAxisY_->setRange(0.0, 1.0);
    scoreAxisY_->setTickCount(6);
    scoreAxisY_->setLabelFormat(QStringLiteral("%.1f"));
    styleAxis(scoreAxisY_, tr("share (0 to 1)"));

    for (QValueAxis* x : {lossAxisX_, scoreAxisX_}) {
        x->setLabelFormat(QStringLiteral("%d"));
        x->setTickType(QValueAxis::TicksDynamic);  // a tick every tickInterval() epochs from 0
        x->setTickAnchor(0.0);
        styleAxis(x, tr("epoch"));
    }
    for (QChart* chart : {lossChart_, scoreChart_}) {
        QValueAxis* x = chart == lossChart_ ? lossAxisX_ : scoreAxisX_;
        QValueAxis* y = chart == lossChart_ ? lossAxisY_ : scoreAxisY_;
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        for (QAbstractSeries* s : chart->series()) {
            s->attachAxis(x);
            s->attachAxis(y);
        }
    }

    lossView_ = makeChartView(lossChart_);
    scoreView_ = makeChartView(scoreChart_);
    charts_ = new QSplitter(Qt::Vertical);
    charts_->addWidget(lossView_);
    charts_->addWidget(scoreView_);
    charts_->setChildrenCollapsible(false);
    charts_->setStretchFactor(0, 1);
    charts_->setStretchFactor(1, 1);
    lossView_->setMinimumHeight(260);
    scoreView_->setMinimumHeight(260);
    layout->addWidget(charts_, 1);
    clear();
}

QLineSeries* ClassifierCurvesView::addLine(QChart* chart, const QString& name, const QColor& color, bool dashed) {
    return addDottedLine(chart, name, color, dashed, dashed ? 7.0 : 10.0, true, &markers_);
}

void ClassifierCurvesView::append(QLineSeries* line, double x, double y) { appendDotted(markers_, line, x, y); }

void ClassifierCurvesView::setRationaleShown(bool shown) {
    for (QLineSeries* line : {rationaleMass_, uniformRationaleMass_}) {
        QScatterSeries* dots = markers_.value(line);
        line->setVisible(shown);
        dots->setVisible(shown);
        // A series' visibility shows its legend entry again: the line's follows it, the dots' stays hidden.
        for (QLegendMarker* marker : scoreChart_->legend()->markers(line)) marker->setVisible(shown);
        for (QLegendMarker* marker : scoreChart_->legend()->markers(dots)) marker->setVisible(false);
    }
}

void ClassifierCurvesView::clear() {
    metrics_.clear();
    for (QChart* chart : {lossChart_, scoreChart_})
        for (QAbstractSeries* s : chart->series()) static_cast<QXYSeries*>(s)->clear();
    setRationaleShown(false);
    summary_->clear();
    summary_->hide();
    placeholder_->show();
    charts_->hide();
    updateRanges();
}

void ClassifierCurvesView::addEpoch(const ClassifierEpochMetrics& m) {
    metrics_.push_back(m);
    const double x = m.epoch;
    append(trainLoss_, x, m.trainLoss);
    append(validationLoss_, x, m.validationLoss);
    append(accuracy_, x, m.accuracy);
    append(macroF1_, x, m.macroF1);
    // The uniform mass is drawn only beside a measured one: without attention it compares nothing.
    const bool rationale = std::isfinite(m.rationaleMass);
    if (rationale) {
        append(rationaleMass_, x, m.rationaleMass);
        append(uniformRationaleMass_, x, m.uniformRationaleMass);
        setRationaleShown(true);
    }

    QString summary = tr("Epoch %1:  validation loss %2 · accuracy %3% · macro F1 %4")
                          .arg(m.epoch)
                          .arg(m.validationLoss, 0, 'f', 3)
                          .arg(100.0 * m.accuracy, 0, 'f', 1)
                          .arg(m.macroF1, 0, 'f', 3);
    if (rationale)
        summary += QStringLiteral(" · ") + tr("rationale mass %1 (uniform %2)")
                                              .arg(m.rationaleMass, 0, 'f', 2)
                                              .arg(m.uniformRationaleMass, 0, 'f', 2);
    if (std::isfinite(m.attentionEntropy))
        summary += QStringLiteral(" · ") + tr("attention entropy %1 nats (uniform %2)")
                                              .arg(m.attentionEntropy, 0, 'f', 2)
                                              .arg(m.uniformEntropy, 0, 'f', 2);
    if (std::isfinite(m.pairsPerSecond) && m.pairsPerSecond > 0)
        summary += QStringLiteral(" · ") + tr("%1 texts/s").arg(m.pairsPerSecond, 0, 'f', 0);
    summary_->setText(summary);
    summary_->show();
    placeholder_->hide();
    charts_->show();
    updateRanges();
}

void ClassifierCurvesView::updateRanges() {
    // Epochs from 1 to the latest (at least 2), ticks every 1, 2, 5, 10, 20 ... epochs, at most 10.
    int last = 2;
    for (const ClassifierEpochMetrics& m : metrics_) last = std::max(last, m.epoch);
    double step = 1.0;
    for (double base = 1.0; (last - 1) / step > 10.0; base *= 10.0)
        for (double f : {1.0, 2.0, 5.0}) {
            step = base * f;
            if ((last - 1) / step <= 10.0) break;
        }
    for (QValueAxis* axis : {lossAxisX_, scoreAxisX_}) {
        if (axis->tickInterval() != step) axis->setTickInterval(step);
        if (axis->min() != 1.0 || axis->max() != last) axis->setRange(1.0, last);
    }
    // Loss from 0 to a round top with 3 to 6 intervals: 0-1.5 for a loss of 1.38, not Qt's 0-2.
    double high = 0.0;
    for (QLineSeries* s : {trainLoss_, validationLoss_})
        for (const QPointF& p : s->points()) high = std::max(high, p.y());
    setRoundRange(lossAxisY_, high);
}

QByteArray ClassifierCurvesView::csv() const {
    QByteArray out("epoch,train_loss,val_loss,val_accuracy,val_macro_f1,rationale_mass,attention_entropy\n");
    for (const ClassifierEpochMetrics& m : metrics_) {
        out += QByteArray::number(m.epoch);
        for (double v : {m.trainLoss, m.validationLoss, m.accuracy, m.macroF1, m.rationaleMass, m.attentionEntropy}) {
            out += ',';
            out += csvNumber(v);
        }
        out += '\n';
    }
    return out;
}

// ---- View ----------------------------------------------------------------------------------------

QString ClassifierCurvesView::viewTitle() const { return tr("Curves"); }

QString ClassifierCurvesView::viewToolTip() const {
    return tr("The classifier's loss, accuracy, macro F1 and attention on the gold words after every epoch.");
}

void ClassifierCurvesView::clearView() { clear(); }

void ClassifierCurvesView::runStarted() { clear(); }

bool ClassifierCurvesView::exportView(const QString& path, double scale, QString* error) const {
    const std::optional<ExportFormat> format = FigureWriter::formatForPath(path);
    if (format == ExportFormat::Npy)
        return fail(error, tr("the curves are exported as CSV, not NPY: save the file with the .csv extension"));
    if (format && metrics_.empty())
        return fail(error, tr("there are no curves to export yet: train a classifier first"));
    if (format == ExportFormat::Csv) return FigureWriter::report(FigureWriter::writeBytes(path, csv()), error);
    // Images; an unknown extension is refused by the writer with its usual message.
    return exportCharts({lossChart_, scoreChart_}, {1.0, 1.0}, QSize(900, 880), tr("Classifier training curves"),
                        path, scale, error);
}

}  // namespace attnlab
