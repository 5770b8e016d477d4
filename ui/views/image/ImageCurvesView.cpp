#include "views/image/ImageCurvesView.h"
#include "views/image/ImageCanvas.h"

#include <QColor>
#include <QLabel>
#include <QLineSeries>
#include <QVBoxLayout>

#include <cmath>

namespace attnlab {

namespace {

constexpr int kHistorySide = 96;
const QColor kBoxColor(0x8c, 0x56, 0x4b);

}  // namespace

ImageCurvesView::ImageCurvesView(QWidget* parent)
    : EpochCurvesView({tr("Train an image model: its loss, scores and where it looks appear here after every "
                          "epoch."),
                       tr("Loss"), tr("Training loss"), tr("Validation loss"), tr("cross-entropy"),
                       tr("Validation scores"), tr("epoch"), tr("share (0 to 1)")},
                      1.1, 250, parent) {
    accuracy_ = addScoreLine(tr("Validation accuracy"), QColor(0x2c, 0xa0, 0x2c), false);
    rolloutOnBox_ = addScoreLine(tr("Rollout on the box"), kBoxColor, false);
    boxShare_ = addScoreLine(tr("Box share of the image (uniform attention)"), kBoxColor, true);
    bleu_ = addScoreLine(tr("BLEU / 100"), QColor(0x2c, 0xa0, 0x2c), false);
    objectsNamed_ = addScoreLine(tr("Every object named"), QColor(0x94, 0x67, 0xbd), false);
    peakInBox_ = addScoreLine(tr("Attention peak in the object"), kBoxColor, false);
    historyTitle_ = new QLabel(tr("<b>Attention over training</b>: the probe image at the end of every epoch"));
    layout_->addWidget(historyTitle_);
    history_ = new FigureCanvas;
    history_->setObjectName(QStringLiteral("imageHistory"));
    layout_->addWidget(history_);
    clear();
}

QString ImageCurvesView::viewTitle() const { return tr("Curves"); }

QString ImageCurvesView::viewToolTip() const {
    return tr("The image model's loss and scores after every epoch, and where it looked at the probe image.");
}

void ImageCurvesView::showLines(bool captioner) {
    setLineShown(accuracy_, !captioner);
    setLineShown(rolloutOnBox_, !captioner && rolloutOnBox_->count() > 0);
    setLineShown(boxShare_, !captioner && boxShare_->count() > 0);
    setLineShown(bleu_, captioner);
    setLineShown(objectsNamed_, captioner && objectsNamed_->count() > 0);
    setLineShown(peakInBox_, captioner && peakInBox_->count() > 0);
}

void ImageCurvesView::clearMore() {
    showLines(false);
    snapshotWeights_.clear();
    snapshotLabels_.clear();
    snapshotImage_ = Image();
    history_->clear();
    historyTitle_->hide();
}

void ImageCurvesView::addEpoch(const ImageEpochMetrics& m) {
    const double x = m.epoch;
    appendLoss(m.epoch, m.trainLoss, m.validationLoss);
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
    showEpoch(m.epoch, text);
}

void ImageCurvesView::addEpoch(const CaptionEpochMetrics& m) {
    const double x = m.epoch;
    appendLoss(m.epoch, m.trainLoss, m.validationLoss);
    // BLEU on 0..100 (corpusBleu in base/analysis/Metrics.h, as the translation task shows it), drawn on 0..1.
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
    showEpoch(m.epoch, text);
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
    if (epochs() == 0) return fail(error, tr("there are no curves to export yet: train an image model first"));
    if (isMatrixPath(path)) return fail(error, tr("The curves are exported as PNG, SVG or PDF"));
    return exportCurves(tr("Image model training curves"), path, scale, error);
}

}  // namespace attnlab
