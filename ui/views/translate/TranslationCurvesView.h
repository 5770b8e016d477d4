#pragma once
// Live training curves: train and validation loss per epoch (with the loss of every batch as a faint
// line), and token accuracy, exact match and BLEU per epoch. Hover a line to read its values; the
// loss axis can be logarithmic.
#include "views/View.h"
#include "engine/translation/TranslationTrainer.h"

#include <QHash>
#include <QList>
#include <QPointF>
#include <QTimer>
#include <QWidget>

class QAbstractAxis;
class QChart;
class QChartView;
class QCheckBox;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QXYSeries;
class QPainter;
class QValueAxis;

namespace attnlab {

class TranslationCurvesView : public QWidget, public View {
    Q_OBJECT

public:
    explicit TranslationCurvesView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;
    void runStarted() override;
    bool exportsFigure() const override;
    bool exportView(const QString& path, double scale, QString* error) const override;

    void clear();
    void setPlannedEpochs(int epochs);
    void addBatch(const BatchReport& report);
    void addEpoch(const TranslationEpochMetrics& metrics);
    void setLogScale(bool on);
    bool logScale() const { return logScale_; }
    void setShowBatchLoss(bool on);

    int epochCount() const;        // epochs with a validation loss on the charts (the line is thinned)
    int batchPointCount() const;   // points of the batch-loss line, pending ones included
    QLineSeries* trainLossSeries() const { return trainLoss_; }
    QLineSeries* validationLossSeries() const { return validationLoss_; }
    QLineSeries* bleuSeries() const { return bleu_; }
    QLineSeries* alignmentErrorSeries() const { return alignmentError_; }
    QAbstractAxis* lossAxis() const { return lossAxisY_; }
    QValueAxis* epochAxis() const { return lossAxisX_; }  // the quality chart's follows it
    QScatterSeries* markersOf(QLineSeries* line) const { return lines_.value(line).markers; }

    // Both charts stacked, as PNG (at scale), SVG or PDF by extension.
    bool exportImage(const QString& path, QString* error = nullptr, double scale = 1.0) const;
    QSize exportSize() const;

private:
    void flushBatches();
    void updateRanges();
    void attachHover(QXYSeries* series, const QString& unit, int decimals);
    void addMarkers(QChart* chart, QLineSeries* line);
    void append(QLineSeries* line, double x, double y);
    void setAlignmentShown(bool shown);

    QChart* lossChart_;
    QChart* qualityChart_;
    QChartView* lossView_;
    QChartView* qualityView_;
    QLineSeries* trainLoss_;
    QLineSeries* validationLoss_;
    QLineSeries* batchLoss_;
    QLineSeries* tokenAccuracy_;
    QLineSeries* exactMatch_;
    QLineSeries* bleu_;
    QLineSeries* alignmentError_;  // AER in %, for a corpus with gold links
    QValueAxis* lossAxisX_;
    QAbstractAxis* lossAxisY_ = nullptr;
    QValueAxis* qualityAxisX_;
    QValueAxis* qualityAxisY_;
    QCheckBox* logToggle_;
    QCheckBox* batchToggle_;
    QLabel* summary_;
    // Epoch lines get their dots from a scatter series: QLineSeries clips the markers of its last point.
    struct EpochLine {
        QScatterSeries* markers = nullptr;
        qint64 values = 0;      // values appended since clear()
        int stride = 1;         // the line keeps every stride-th value ...
        bool tail = false;      // ... and the newest, as its last point, when that is off the stride
        int markerStride = 1;   // a marker on every markerStride-th value
    };
    QHash<QLineSeries*, EpochLine> lines_;  // the epoch lines (see append())
    QList<QPointF> pendingBatches_;
    QTimer flushTimer_;
    bool logScale_ = false;
    int plannedEpochs_ = 1;
    int batchStride_ = 0;         // batches averaged into one point of the batch line (0: not yet known)
    double strideSum_ = 0.0;
    int strideCount_ = 0;
    double lossMin_ = 0.0;
    double lossMax_ = 0.0;
    bool haveLoss_ = false;
    double lastX_ = 0.0;
};

}  // namespace attnlab
