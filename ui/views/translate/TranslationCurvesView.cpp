#include "views/translate/TranslationCurvesView.h"

#include "widgets/ChartStyle.h"
#include "render/HeatmapRenderer.h"
#include "widgets/WidgetStyle.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QCoreApplication>
#include <QCursor>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QPen>
#include <QSplitter>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

constexpr int kMaxBatchPoints = 3000;  // the batch line is averaged down to about this many points
// Each epoch line keeps at most this many points, evenly spaced (see append()).
constexpr int kMaxEpochPoints = 500;
// Each epoch marker is a graphics item of its own (~1 KB); a long run keeps at most this many per
// line, evenly spaced.
constexpr int kMaxMarkers = 120;

QLineSeries* makeSeries(const QString& name, const QColor& color, qreal width, bool points) {
    auto* series = new QLineSeries;
    series->setName(name);
    QPen pen(color);
    pen.setWidthF(width);
    pen.setCapStyle(Qt::RoundCap);
    pen.setJoinStyle(Qt::RoundJoin);
    series->setPen(pen);
    series->setPointsVisible(false);
    Q_UNUSED(points);
    return series;
}

}  // namespace

TranslationCurvesView::TranslationCurvesView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(8);

    auto* bar = new QHBoxLayout;
    summary_ = new QLabel;
    scaleFont(summary_, 1.15);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    logToggle_ = new QCheckBox(tr("Logarithmic loss axis"));
    logToggle_->setToolTip(tr("A log scale shows the late, small improvements of the loss."));
    batchToggle_ = new QCheckBox(tr("Loss of every batch"));
    batchToggle_->setChecked(true);
    batchToggle_->setToolTip(tr("Show the noisy loss of each batch as a faint line behind the epoch averages."));
    bar->addWidget(summary_, 1);
    bar->addWidget(batchToggle_);
    bar->addWidget(logToggle_);
    layout->addLayout(bar);

    lossChart_ = makeChart(tr("Loss"));
    // The batch line is the training loss's blue at 27% over white, but opaque and 1 px wide: a
    // translucent or wider pen sends its thousands of points through the general path stroker, and
    // repainting it cost ~25 ms per 1,000 points; a 1 px opaque line is drawn by the fast stroker.
    batchLoss_ = makeSeries(tr("Batch loss"), QColor(193, 222, 246), 1.0, false);
    trainLoss_ = makeSeries(tr("Training loss"), QColor(0x1f, 0x77, 0xb4), 2.8, true);
    validationLoss_ = makeSeries(tr("Validation loss"), QColor(0xff, 0x7f, 0x0e), 2.8, true);
    lossChart_->addSeries(batchLoss_);
    lossChart_->addSeries(trainLoss_);
    lossChart_->addSeries(validationLoss_);
    addMarkers(lossChart_, trainLoss_);
    addMarkers(lossChart_, validationLoss_);
    lossAxisX_ = new QValueAxis;
    lossAxisX_->setLabelFormat(QStringLiteral("%d"));
    lossAxisX_->setTickType(QValueAxis::TicksDynamic);  // a tick every tickInterval() epochs from 0
    lossAxisX_->setTickAnchor(0.0);
    styleAxis(lossAxisX_, tr("epoch"));
    lossChart_->addAxis(lossAxisX_, Qt::AlignBottom);
    for (auto* s : lossChart_->series()) s->attachAxis(lossAxisX_);

    qualityChart_ = makeChart(tr("Validation quality"));
    tokenAccuracy_ = makeSeries(tr("Token accuracy (%)"), QColor(0x2c, 0xa0, 0x2c), 2.8, true);
    exactMatch_ = makeSeries(tr("Exact match (%)"), QColor(0xd6, 0x27, 0x28), 2.8, true);
    bleu_ = makeSeries(tr("BLEU"), QColor(0x94, 0x67, 0xbd), 2.8, true);
    // Shown only for a corpus with gold word links (a built-in grammar, or an alignment file).
    alignmentError_ = makeSeries(tr("Alignment error (AER, %)"), QColor(0x8c, 0x56, 0x4b), 2.8, true);
    alignmentError_->setPen(QPen(QColor(0x8c, 0x56, 0x4b), 2.8, Qt::DashLine));
    for (auto* s : {tokenAccuracy_, exactMatch_, bleu_, alignmentError_}) qualityChart_->addSeries(s);
    for (auto* s : {tokenAccuracy_, exactMatch_, bleu_, alignmentError_}) addMarkers(qualityChart_, s);
    qualityAxisX_ = new QValueAxis;
    qualityAxisX_->setLabelFormat(QStringLiteral("%d"));
    qualityAxisX_->setTickType(QValueAxis::TicksDynamic);  // a tick every tickInterval() epochs from 0
    qualityAxisX_->setTickAnchor(0.0);
    styleAxis(qualityAxisX_, tr("epoch"));
    qualityAxisY_ = new QValueAxis;
    qualityAxisY_->setRange(0, 100);
    qualityAxisY_->setTickCount(6);
    qualityAxisY_->setLabelFormat(QStringLiteral("%d"));
    styleAxis(qualityAxisY_, tr("percent / BLEU"));
    qualityChart_->addAxis(qualityAxisX_, Qt::AlignBottom);
    qualityChart_->addAxis(qualityAxisY_, Qt::AlignLeft);
    for (auto* s : qualityChart_->series()) {
        s->attachAxis(qualityAxisX_);
        s->attachAxis(qualityAxisY_);
    }

    lossView_ = makeChartView(lossChart_);
    qualityView_ = makeChartView(qualityChart_);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(lossView_);
    split->addWidget(qualityView_);
    layout->addWidget(split, 1);

    attachHover(trainLoss_, QString(), 4);
    attachHover(validationLoss_, QString(), 4);
    attachHover(batchLoss_, QString(), 4);
    attachHover(tokenAccuracy_, QStringLiteral("%"), 1);
    attachHover(exactMatch_, QStringLiteral("%"), 1);
    attachHover(bleu_, QString(), 2);
    attachHover(markersOf(trainLoss_), QString(), 4);
    attachHover(markersOf(validationLoss_), QString(), 4);
    attachHover(markersOf(tokenAccuracy_), QStringLiteral("%"), 1);
    attachHover(markersOf(exactMatch_), QStringLiteral("%"), 1);
    attachHover(markersOf(bleu_), QString(), 2);
    attachHover(alignmentError_, QStringLiteral("%"), 1);
    attachHover(markersOf(alignmentError_), QStringLiteral("%"), 1);

    flushTimer_.setInterval(200);  // a few redraws per second, however fast the batches come
    connect(&flushTimer_, &QTimer::timeout, this, &TranslationCurvesView::flushBatches);
    connect(logToggle_, &QCheckBox::toggled, this, &TranslationCurvesView::setLogScale);
    connect(batchToggle_, &QCheckBox::toggled, this, &TranslationCurvesView::setShowBatchLoss);
    setLogScale(false);
    clear();
}

void TranslationCurvesView::addMarkers(QChart* chart, QLineSeries* line) {
    auto* dots = new QScatterSeries;
    dots->setName(line->name());
    dots->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    dots->setMarkerSize(10.0);
    dots->setColor(line->pen().color());
    dots->setBorderColor(Qt::white);
    chart->addSeries(dots);
    for (QLegendMarker* marker : chart->legend()->markers(dots)) marker->setVisible(false);
    lines_[line].markers = dots;
}

namespace {

// Every other point from the first. Lines and markers are thinned when one point past their
// (even) limit arrives, so the newest point has an even index and stays.
QList<QPointF> everyOther(const QList<QPointF>& points) {
    QList<QPointF> kept;
    kept.reserve(points.size() / 2 + 1);
    for (qsizetype i = 0; i < points.size(); i += 2) kept.append(points[i]);
    return kept;
}
static_assert(kMaxEpochPoints % 2 == 0 && kMaxMarkers % 2 == 0, "thinning must keep the newest point");

}  // namespace

void TranslationCurvesView::append(QLineSeries* line, double x, double y) {
    EpochLine& state = lines_[line];
    // The line keeps every stride-th value from the first, plus the newest one (the tail) when it
    // falls between them; past kMaxEpochPoints every other point goes and the stride doubles. A
    // chart has fewer pixels across than that, and every change of a line re-strokes all its points,
    // so an unbounded line made each epoch slower than the last (see the README's Reliability).
    const qint64 index = state.values++;
    const bool onStride = index % state.stride == 0;
    if (state.tail)
        line->replace(line->count() - 1, QPointF(x, y));
    else
        line->append(x, y);
    state.tail = !onStride;
    if (onStride && line->count() > kMaxEpochPoints) {
        line->replace(everyOther(line->points()));
        state.stride *= 2;
    }
    // Markers on every markerStride-th value, thinned the same way (a multiple of the line's
    // stride, so every marker sits on a point of the line).
    if (!state.markers || index % state.markerStride != 0) return;
    state.markers->append(x, y);
    if (state.markers->count() <= kMaxMarkers) return;
    state.markers->replace(everyOther(state.markers->points()));
    state.markerStride *= 2;
}

void TranslationCurvesView::attachHover(QXYSeries* series, const QString& unit, int decimals) {
    connect(series, &QXYSeries::hovered, this, [this, series, unit, decimals](const QPointF& point, bool state) {
        if (!state) {
            QToolTip::hideText();
            return;
        }
        const QList<QPointF> points = series->points();
        if (points.isEmpty()) return;
        // The hovered point lies anywhere on the line; report the nearest measured value.
        const auto nearest = std::min_element(points.begin(), points.end(), [&](const QPointF& a, const QPointF& b) {
            return std::abs(a.x() - point.x()) < std::abs(b.x() - point.x());
        });
        const bool batch = series == batchLoss_;
        const QString where = batch ? tr("epoch %1").arg(nearest->x(), 0, 'f', 2)
                                    : tr("epoch %1").arg(std::lround(nearest->x()));
        QToolTip::showText(QCursor::pos(), QStringLiteral("<b>%1</b><br>%2: %3%4")
                                               .arg(series->name().toHtmlEscaped(), where)
                                               .arg(nearest->y(), 0, 'f', decimals)
                                               .arg(unit),
                           this);
    });
}

void TranslationCurvesView::clear() {
    flushTimer_.stop();
    pendingBatches_.clear();
    for (QChart* chart : {lossChart_, qualityChart_})
        for (QAbstractSeries* s : chart->series()) static_cast<QXYSeries*>(s)->clear();
    batchStride_ = 0;
    for (EpochLine& line : lines_) line = EpochLine{line.markers};
    strideSum_ = 0.0;
    strideCount_ = 0;
    haveLoss_ = false;
    lossMin_ = lossMax_ = 0.0;
    lastX_ = 0.0;
    summary_->setText(tr("Curves appear here as the model trains."));
    setAlignmentShown(false);
    updateRanges();
}

void TranslationCurvesView::setAlignmentShown(bool shown) {
    alignmentError_->setVisible(shown);
    markersOf(alignmentError_)->setVisible(shown);
    for (QLegendMarker* marker : qualityChart_->legend()->markers(alignmentError_)) marker->setVisible(shown);
    // Showing a series shows its legend entry again: the dots' entry stays hidden (one entry per line).
    for (QLegendMarker* marker : qualityChart_->legend()->markers(markersOf(alignmentError_))) marker->setVisible(false);
}

void TranslationCurvesView::setPlannedEpochs(int epochs) {
    plannedEpochs_ = std::max(1, epochs);
    updateRanges();
}

void TranslationCurvesView::setShowBatchLoss(bool on) {
    batchLoss_->setVisible(on);
    if (batchToggle_->isChecked() != on) batchToggle_->setChecked(on);
    updateRanges();
}

void TranslationCurvesView::setLogScale(bool on) {
    if (lossAxisY_ && on == logScale_) return;
    logScale_ = on;
    if (logToggle_->isChecked() != on) logToggle_->setChecked(on);
    QAbstractAxis* old = lossAxisY_;
    if (old) {
        for (auto* s : lossChart_->series()) s->detachAxis(old);
        lossChart_->removeAxis(old);
        delete old;  // removeAxis hands ownership back
    }
    if (on) {
        auto* axis = new QLogValueAxis;
        axis->setBase(10.0);
        axis->setLabelFormat(QStringLiteral("%.3g"));
        axis->setMinorTickCount(8);
        lossAxisY_ = axis;
    } else {
        auto* axis = new QValueAxis;
        axis->setLabelFormat(QStringLiteral("%.2f"));
        axis->setTickCount(6);
        lossAxisY_ = axis;
    }
    styleAxis(lossAxisY_, tr("cross-entropy per token"));
    lossChart_->addAxis(lossAxisY_, Qt::AlignLeft);
    for (auto* s : lossChart_->series()) s->attachAxis(lossAxisY_);
    updateRanges();
}

void TranslationCurvesView::addBatch(const BatchReport& report) {
    if (report.batchesPerEpoch <= 0 || !std::isfinite(report.loss)) return;
    if (batchStride_ == 0) {
        const long long total = static_cast<long long>(plannedEpochs_) * report.batchesPerEpoch;
        batchStride_ = static_cast<int>(std::max<long long>(1, (total + kMaxBatchPoints - 1) / kMaxBatchPoints));
    }
    strideSum_ += report.loss;
    ++strideCount_;
    if (strideCount_ < batchStride_ && report.batch < report.batchesPerEpoch) return;
    const double x = (report.epoch - 1) + static_cast<double>(report.batch) / report.batchesPerEpoch;
    const double y = strideSum_ / strideCount_;
    strideSum_ = 0.0;
    strideCount_ = 0;
    pendingBatches_.append(QPointF(x, y));
    if (!flushTimer_.isActive()) flushTimer_.start();
}

void TranslationCurvesView::flushBatches() {
    if (pendingBatches_.isEmpty()) {
        flushTimer_.stop();
        return;
    }
    for (const QPointF& p : pendingBatches_) {
        lossMin_ = haveLoss_ ? std::min(lossMin_, p.y()) : p.y();
        lossMax_ = haveLoss_ ? std::max(lossMax_, p.y()) : p.y();
        haveLoss_ = true;
        lastX_ = std::max(lastX_, p.x());
    }
    batchLoss_->append(pendingBatches_);
    pendingBatches_.clear();
    updateRanges();
}

void TranslationCurvesView::addEpoch(const TranslationEpochMetrics& m) {
    flushBatches();
    const double x = m.epoch;
    auto addLoss = [&](QLineSeries* series, double value) {
        if (!std::isfinite(value) || value <= 0.0) return;
        append(series, x, value);
        lossMin_ = haveLoss_ ? std::min(lossMin_, value) : value;
        lossMax_ = haveLoss_ ? std::max(lossMax_, value) : value;
        haveLoss_ = true;
    };
    addLoss(trainLoss_, m.trainLoss);
    addLoss(validationLoss_, m.validationLoss);
    append(tokenAccuracy_, x, 100.0 * m.tokenAccuracy);
    append(exactMatch_, x, 100.0 * m.exactMatch);
    append(bleu_, x, m.bleu);
    const bool aligned = std::isfinite(m.alignmentErrorRate);
    if (aligned) {
        append(alignmentError_, x, 100.0 * m.alignmentErrorRate);
        setAlignmentShown(true);
    }
    lastX_ = std::max(lastX_, x);
    QString summary = tr("Epoch %1:  validation loss %2 · token accuracy %3% · exact match %4% · BLEU %5 · "
                         "%6 pairs/s")
                          .arg(m.epoch)
                          .arg(m.validationLoss, 0, 'f', 3)
                          .arg(100.0 * m.tokenAccuracy, 0, 'f', 1)
                          .arg(100.0 * m.exactMatch, 0, 'f', 1)
                          .arg(m.bleu, 0, 'f', 1)
                          .arg(m.pairsPerSecond, 0, 'f', 0);
    if (aligned) summary += QStringLiteral(" · ") + tr("AER %1%").arg(100.0 * m.alignmentErrorRate, 0, 'f', 1);
    summary_->setText(summary);
    updateRanges();
}

void TranslationCurvesView::updateRanges() {
    // The epoch axis grows with the run so the curves fill the chart instead of hugging its left
    // edge, in round steps (ticks every 1, 2, 5, 10, 20 ... epochs, at most 10 of them), at least 5
    // epochs wide and no wider than the planned run. It changes only when the run crosses a step:
    // every change re-lays out every curve, so once an epoch would cost ~all the points on the charts.
    const double need = std::max({1.0, std::min<double>(plannedEpochs_, 5.0), std::ceil(lastX_ - 1e-9)});
    double step = 1.0;
    for (double base = 1.0; need / step > 10.0; base *= 10.0)
        for (double m : {1.0, 2.0, 5.0}) {
            step = base * m;
            if (need / step <= 10.0) break;
        }
    const double xMax = std::min(std::ceil(need / step) * step, std::max<double>(plannedEpochs_, need));
    for (QValueAxis* axis : {lossAxisX_, qualityAxisX_}) {
        if (axis->tickInterval() != step) axis->setTickInterval(step);
        if (axis->min() != 0.0 || axis->max() != xMax) axis->setRange(0.0, xMax);
    }
    double low = haveLoss_ ? lossMin_ : 0.1;
    double high = haveLoss_ ? lossMax_ : 1.0;
    if (!batchLoss_->isVisible() && haveLoss_) {
        // Without the noisy batch line, fit the epoch lines only.
        bool any = false;
        for (auto* s : {trainLoss_, validationLoss_}) {
            for (const QPointF& p : s->points()) {
                low = any ? std::min(low, p.y()) : p.y();
                high = any ? std::max(high, p.y()) : p.y();
                any = true;
            }
        }
    }
    if (auto* log = qobject_cast<QLogValueAxis*>(lossAxisY_)) {
        const double lo = std::pow(10.0, std::floor(std::log10(std::max(low, 1e-6))));
        const double hi = std::pow(10.0, std::ceil(std::log10(std::max(high, lo * 10.0))));
        log->setRange(lo, hi);
    } else if (auto* linear = qobject_cast<QValueAxis*>(lossAxisY_)) {
        setRoundRange(linear, high);  // 0-5 for a loss of 4.7, not Qt's 0-10
    }
}

int TranslationCurvesView::epochCount() const { return static_cast<int>(lines_.value(validationLoss_).values); }

int TranslationCurvesView::batchPointCount() const {
    return static_cast<int>(batchLoss_->count()) + static_cast<int>(pendingBatches_.size());
}

QSize TranslationCurvesView::exportSize() const {
    const int width = std::max(900, lossView_->width());
    const int height = std::max(340, lossView_->height()) + std::max(340, qualityView_->height());
    return QSize(width, height);
}

bool TranslationCurvesView::exportImage(const QString& path, QString* error, double scale) const {
    const QList<double> shares{static_cast<double>(std::max(340, lossView_->height())),
                               static_cast<double>(std::max(340, qualityView_->height()))};
    return exportCharts({lossChart_, qualityChart_}, shares, exportSize(), tr("Training curves"), path, scale, error);
}

// ---- View ----------------------------------------------------------------------------------------

QString TranslationCurvesView::viewTitle() const { return tr("Training Curves"); }

QString TranslationCurvesView::viewToolTip() const {
    return tr("Loss, accuracy and BLEU as training goes on.");
}

void TranslationCurvesView::clearView() {
    clear();
}

void TranslationCurvesView::runStarted() {
    clear();
}

bool TranslationCurvesView::exportsFigure() const {
    return true;
}

bool TranslationCurvesView::exportView(const QString& path, double scale, QString* error) const {
    return exportImage(path, error, scale);  // FigureWriter refuses .csv and .npy for a chart
}

}  // namespace attnlab
