#pragma once
// The Images task's training curves and its attention over training. Two charts: training and
// validation loss per epoch; and per epoch on 0..1, for a ViT the validation accuracy, the rollout's
// mass on the glyph's box beside a dashed line for the box's share of the image (what uniform
// attention puts there), for a captioner BLEU, the share of images whose caption names every object
// and the share of shape words whose attention peaks inside their object. Below, one small overlay of
// the probe image per epoch (the ViT's rollout, or a captioner's attention summed over its words),
// so the learner sees where the model looked as it learned. Fed by ImageSession's epoch signals.
#include "views/EpochCurvesView.h"
#include "render/ImageOverlay.h"
#include "engine/vision/VisionTrainer.h"

#include <QStringList>

#include <vector>

class QLabel;
class QLineSeries;

namespace attnlab {

class FigureCanvas;

// The charts, the loss lines, clear() and epochs() are EpochCurvesView's.
class ImageCurvesView : public EpochCurvesView {
    Q_OBJECT
public:
    explicit ImageCurvesView(QWidget* parent = nullptr);

    QString viewTitle() const override;
    QString viewToolTip() const override;
    void applyColormap(ColormapId id) override;
    bool exportView(const QString& path, double scale, QString* error) const override;

    void addEpoch(const ImageEpochMetrics& m);
    void addEpoch(const CaptionEpochMetrics& m);
    // The probe's attention at the end of an epoch: one overlay of the row.
    void addSnapshot(int epoch, const Image& image, const std::vector<float>& weights, int rows, int cols);
    int snapshots() const { return static_cast<int>(snapshotWeights_.size()); }

    QLineSeries* accuracySeries() const { return accuracy_; }
    QLineSeries* rolloutOnBoxSeries() const { return rolloutOnBox_; }
    QLineSeries* boxShareSeries() const { return boxShare_; }
    QLineSeries* peakInBoxSeries() const { return peakInBox_; }
    QLineSeries* bleuSeries() const { return bleu_; }
    QLineSeries* objectsNamedSeries() const { return objectsNamed_; }
    FigureCanvas* history() const { return history_; }

private:
    void clearMore() override;
    void showLines(bool captioner);
    void updateHistory();

    QLineSeries* accuracy_;
    QLineSeries* rolloutOnBox_;
    QLineSeries* boxShare_;
    QLineSeries* bleu_;
    QLineSeries* objectsNamed_;
    QLineSeries* peakInBox_;
    QLabel* historyTitle_;
    FigureCanvas* history_;
    Image snapshotImage_;
    std::vector<std::vector<float>> snapshotWeights_;
    QStringList snapshotLabels_;
    int snapshotRows_ = 0, snapshotCols_ = 0;
    OverlayStyle style_;
};

}  // namespace attnlab
