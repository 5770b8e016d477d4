#pragma once
// The Images task's training curves and its attention over training. Two charts: training and
// validation loss per epoch; and per epoch on 0..1, for a ViT the validation accuracy, the rollout's
// mass on the glyph's box beside a dashed line for the box's share of the image (what uniform
// attention puts there), for a captioner BLEU, the share of images whose caption names every object
// and the share of shape words whose attention peaks inside their object. Below, one small overlay of
// the probe image per epoch (the ViT's rollout, or a captioner's attention summed over its words),
// so the learner sees where the model looked as it learned. Fed by ImageSession's epoch signals.
#include "views/View.h"
#include "render/ImageOverlay.h"
#include "engine/VisionTrainer.h"

#include <QHash>
#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace attnlab {

class FigureCanvas;

class ImageCurvesView : public QWidget, public View {
    Q_OBJECT
public:
    explicit ImageCurvesView(QWidget* parent = nullptr);

    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override { clear(); }
    void runStarted() override { clear(); }
    void applyColormap(ColormapId id) override;
    bool exportsFigure() const override { return epochs() > 0; }
    bool exportView(const QString& path, double scale, QString* error) const override;

    void clear();
    void addEpoch(const ImageEpochMetrics& m);
    void addEpoch(const CaptionEpochMetrics& m);
    // The probe's attention at the end of an epoch: one overlay of the row.
    void addSnapshot(int epoch, const Image& image, const std::vector<float>& weights, int rows, int cols);
    int epochs() const { return epochs_; }
    int snapshots() const { return static_cast<int>(snapshotWeights_.size()); }

    QLineSeries* trainLossSeries() const { return trainLoss_; }
    QLineSeries* validationLossSeries() const { return validationLoss_; }
    QLineSeries* accuracySeries() const { return accuracy_; }
    QLineSeries* rolloutOnBoxSeries() const { return rolloutOnBox_; }
    QLineSeries* bleuSeries() const { return bleu_; }
    QLineSeries* objectsNamedSeries() const { return objectsNamed_; }
    FigureCanvas* history() const { return history_; }

private:
    QLineSeries* addLine(QChart* chart, const QString& name, const QColor& color, bool dashed);
    void append(QLineSeries* line, double x, double y);
    void showLines(bool captioner);
    void finishEpoch(int epoch, const QString& summary);
    void updateHistory();

    int epochs_ = 0;
    int lastEpoch_ = 0;
    QLabel* summary_;
    QLabel* placeholder_;
    QWidget* charts_;
    QChart* lossChart_;
    QChart* scoreChart_;
    QChartView* lossView_;
    QChartView* scoreView_;
    QValueAxis* lossX_;
    QValueAxis* lossY_;
    QValueAxis* scoreX_;
    QValueAxis* scoreY_;
    QLineSeries* trainLoss_;
    QLineSeries* validationLoss_;
    QLineSeries* accuracy_;
    QLineSeries* rolloutOnBox_;
    QLineSeries* boxShare_;
    QLineSeries* bleu_;
    QLineSeries* objectsNamed_;
    QLineSeries* peakInBox_;
    QHash<QLineSeries*, QScatterSeries*> markers_;
    QLabel* historyTitle_;
    FigureCanvas* history_;
    Image snapshotImage_;
    std::vector<std::vector<float>> snapshotWeights_;
    QStringList snapshotLabels_;
    int snapshotRows_ = 0, snapshotCols_ = 0;
    OverlayStyle style_;
};

}  // namespace attnlab
