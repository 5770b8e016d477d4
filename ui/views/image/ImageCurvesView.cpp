#include "views/image/ImageCurvesView.h"
#include "views/image/ImageCanvas.h"
#include "widgets/ChartStyle.h"
#include "widgets/WidgetStyle.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

constexpr int kHistorySide = 96;
const QColor kBoxColor(0x8c, 0x56, 0x4b);

}  // namespace

ImageCurvesView::ImageCurvesView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    summary_ = new QLabel;
    summary_->setWordWrap(true);
    scaleFont(summary_, 1.1);
    layout->addWidget(summary_);
    placeholder_ = makePlaceholderLabel();
    placeholder_->setText(tr("Train an image model: its loss, scores and where it looks appear here after every "
                             "epoch."));
    layout->addWidget(placeholder_, 1);

    lossChart_ = makeChart(tr("Loss"));
    trainLoss_ = addLine(lossChart_, tr("Training loss"), QColor(0x1f, 0x77, 0xb4), false);
    validationLoss_ = addLine(lossChart_, tr("Validation loss"), QColor(0xff, 0x7f, 0x0e), false);
    scoreChart_ = makeChart(tr("Validation scores"));
    accuracy_ = addLine(scoreChart_, tr("Validation accuracy"), QColor(0x2c, 0xa0, 0x2c), false);
    rolloutOnBox_ = addLine(scoreChart_, tr("Rollout on the box"), kBoxColor, false);
    boxShare_ = addLine(scoreChart_, tr("Box share of the image (uniform attention)"), kBoxColor, true);
    bleu_ = addLine(scoreChart_, tr("BLEU / 100"), QColor(0x2c, 0xa0, 0x2c), false);
    objectsNamed_ = addLine(scoreChart_, tr("Every object named"), QColor(0x94, 0x67, 0xbd), false);
    peakInBox_ = addLine(scoreChart_, tr("Attention peak in the object"), kBoxColor, false);
    lossX_ = new QValueAxis;
    lossY_ = new QValueAxis;
    scoreX_ = new QValueAxis;
    scoreY_ = new QValueAxis;
    styleAxis(lossY_, tr("cross-entropy"));
    scoreY_->setRange(0.0, 1.0);
    scoreY_->setTickCount(6);
    scoreY_->setLabelFormat(QStringLiteral("%.1f"));
    styleAxis(scoreY_, tr("share (0 to 1)"));
    for (QValueAxis* x : {lossX_, scoreX_}) {
        x->setLabelFormat(QStringLiteral("%d"));
        styleAxis(x, tr("epoch"));
    }
    for (QChart* chart : {lossChart_, scoreChart_}) {
        QValueAxis* x = chart == lossChart_ ? lossX_ : scoreX_;
        QValueAxis* y = chart == lossChart_ ? lossY_ : scoreY_;
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        for (QAbstractSeries* s : chart->series()) {
            s->attachAxis(x);
            s->attachAxis(y);
        }
    }
    charts_ = new QWidget;
    auto* chartsLayout = new QVBoxLayout(charts_);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    lossView_ = makeChartView(lossChart_);
    scoreView_ = makeChartView(scoreChart_);
    lossView_->setMinimumHeight(250);
    scoreView_->setMinimumHeight(250);
    chartsLayout->addWidget(lossView_, 1);
    chartsLayout->addWidget(scoreView_, 1);
    layout->addWidget(charts_, 1);
    historyTitle_ = new QLabel(tr("<b>Attention over training</b>: the probe image at the end of every epoch"));
    layout->addWidget(historyTitle_);
    history_ = new FigureCanvas;
    history_->setObjectName(QStringLiteral("imageHistory"));
    layout->addWidget(history_);
    clear();
}

QString ImageCurvesView::viewTitle() const { return tr("Curves"); }

QString ImageCurvesView::viewToolTip() const {
    return tr("The image model's loss and scores after every epoch, and where it looked at the probe image.");
}

QLineSeries* ImageCurvesView::addLine(QChart* chart, const QString& name, const QColor& color, bool dashed) {
    return addDottedLine(chart, name, color, dashed, dashed ? 7.0 : 9.0, false, &markers_);
}

void ImageCurvesView::append(QLineSeries* line, double x, double y) { appendDotted(markers_, line, x, y); }

void ImageCurvesView::showLines(bool captioner) {
    const auto show = [this](QLineSeries* line, bool shown) {
        QScatterSeries* dots = markers_.value(line);
        line->setVisible(shown);
        dots->setVisible(shown);
        for (QLegendMarker* m : scoreChart_->legend()->markers(line)) m->setVisible(shown);
        for (QLegendMarker* m : scoreChart_->legend()->markers(dots)) m->setVisible(false);
    };
    show(accuracy_, !captioner);
    show(rolloutOnBox_, !captioner && rolloutOnBox_->count() > 0);
    show(boxShare_, !captioner && boxShare_->count() > 0);
    show(bleu_, captioner);
    show(objectsNamed_, captioner && objectsNamed_->count() > 0);
    show(peakInBox_, captioner && peakInBox_->count() > 0);
}

void ImageCurvesView::clear() {
    epochs_ = lastEpoch_ = 0;
    for (QChart* chart : {lossChart_, scoreChart_})
        for (QAbstractSeries* s : chart->series()) static_cast<QXYSeries*>(s)->clear();
    showLines(false);
    summary_->clear();
    summary_->hide();
    placeholder_->show();
    charts_->hide();
    snapshotWeights_.clear();
    snapshotLabels_.clear();
    snapshotImage_ = Image();
    history_->clear();
    historyTitle_->hide();
    lossX_->setRange(1, 2);
    scoreX_->setRange(1, 2);
}

void ImageCurvesView::finishEpoch(int epoch, const QString& summary) {
    ++epochs_;
    lastEpoch_ = std::max(lastEpoch_, epoch);
    summary_->setText(summary);
    summary_->show();
    placeholder_->hide();
    charts_->show();
    for (QValueAxis* x : {lossX_, scoreX_}) {
        x->setRange(1, std::max(2, lastEpoch_));
        x->setTickCount(std::min(std::max(2, lastEpoch_), 11));
    }
    double high = 0.0;
    for (QLineSeries* s : {trainLoss_, validationLoss_})
        for (const QPointF& p : s->points()) high = std::max(high, p.y());
    setRoundRange(lossY_, high);  // 0 to a round top
}

void ImageCurvesView::addEpoch(const ImageEpochMetrics& m) {
    const double x = m.epoch;
    append(trainLoss_, x, m.trainLoss);
    append(validationLoss_, x, m.validationLoss);
    append(accuracy_, x, m.accuracy);
    append(rolloutOnBox_, x, m.rolloutOnBox);
    if (std::isfinite(m.rolloutOnBox)) append(boxShare_, x, m.boxShare);
    showLines(false);
    QString text = tr("Epoch %1: validation loss %2 · accuracy %3%")
                       .arg(m.epoch)
                       .arg(m.validationLoss, 0, 'f', 3)
                       .arg(100.0 * m.accuracy, 0, 'f', 1);
    if (std::isfinite(m.rolloutOnBox))
        text += QStringLiteral(" · ") +
                tr("rollout on the box %1 (uniform %2)").arg(m.rolloutOnBox, 0, 'f', 2).arg(m.boxShare, 0, 'f', 2);
    if (m.imagesPerSecond > 0) text += QStringLiteral(" · ") + tr("%1 images/s").arg(m.imagesPerSecond, 0, 'f', 0);
    finishEpoch(m.epoch, text);
}

void ImageCurvesView::addEpoch(const CaptionEpochMetrics& m) {
    const double x = m.epoch;
    append(trainLoss_, x, m.trainLoss);
    append(validationLoss_, x, m.validationLoss);
    // BLEU on 0..100 (corpusBleu in base/Metrics.h, as the translation task shows it), drawn on 0..1.
    const double bleu = m.bleu;
    append(bleu_, x, bleu / 100.0);
    append(objectsNamed_, x, m.objectsNamed);
    append(peakInBox_, x, m.peakInBox);
    showLines(true);
    QString text = tr("Epoch %1: validation loss %2 · BLEU %3 · every object named %4")
                       .arg(m.epoch)
                       .arg(m.validationLoss, 0, 'f', 3)
                       .arg(bleu, 0, 'f', 1)
                       .arg(m.objectsNamed, 0, 'f', 2);
    if (std::isfinite(m.peakInBox))
        text += QStringLiteral(" · ") + tr("attention peak in the object %1").arg(m.peakInBox, 0, 'f', 2);
    if (m.imagesPerSecond > 0) text += QStringLiteral(" · ") + tr("%1 images/s").arg(m.imagesPerSecond, 0, 'f', 0);
    finishEpoch(m.epoch, text);
}

void ImageCurvesView::addSnapshot(int epoch, const Image& image, const std::vector<float>& weights, int rows,
                                  int cols) {
    if (weights.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols) || rows <= 0) return;
    if (image.pixels != snapshotImage_.pixels || rows != snapshotRows_ || cols != snapshotCols_) {
        snapshotWeights_.clear();  // another probe: start again
        snapshotLabels_.clear();
        snapshotImage_ = image;
        snapshotRows_ = rows;
        snapshotCols_ = cols;
    }
    snapshotWeights_.push_back(weights);
    snapshotLabels_ << tr("Epoch %1").arg(epoch);
    updateHistory();
}

void ImageCurvesView::applyColormap(ColormapId id) {
    style_.colormap = id;
    updateHistory();
}

void ImageCurvesView::updateHistory() {
    if (snapshotWeights_.empty()) return;
    history_->setFigure(imageAttentionStrip(snapshotImage_, snapshotWeights_, snapshotLabels_, snapshotRows_,
                                            snapshotCols_, style_, kHistorySide));
    historyTitle_->show();
}

bool ImageCurvesView::exportView(const QString& path, double scale, QString* error) const {
    if (epochs_ == 0) return fail(error, tr("there are no curves to export yet: train an image model first"));
    if (isMatrixPath(path)) return fail(error, tr("The curves are exported as PNG, SVG or PDF"));
    return exportCharts({lossChart_, scoreChart_}, {1.0, 1.0}, QSize(900, 880), tr("Image model training curves"),
                        path, scale, error);
}

}  // namespace attnlab
