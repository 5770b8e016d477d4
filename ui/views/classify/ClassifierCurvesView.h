#pragma once
// The classification task's training curves, two charts stacked: training and validation loss per
// epoch, and per epoch on 0..1 the validation accuracy, the macro F1 and, for a corpus with gold
// rationales and a model that attends, the rationale mass (the attention on the gold words) beside a
// dashed line for what uniform attention would put there. The data are the ClassifierEpochMetrics the
// ClassifierTrainer reports after every epoch (engine/ClassifierTrainer.h), fed through addEpoch();
// a new run or a discarded model clears the curves.
#include "views/View.h"
#include "engine/ClassifierTrainer.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QSplitter;
class QValueAxis;

namespace attnlab {

class ClassifierCurvesView : public QWidget, public View {
    Q_OBJECT

public:
    explicit ClassifierCurvesView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;
    void runStarted() override;
    bool exportsFigure() const override { return epochs() > 0; }
    bool exportsMatrix() const override { return epochs() > 0; }
    // PNG, SVG or PDF of both charts; .csv the numbers of every epoch (see csv()); .npy is refused.
    bool exportView(const QString& path, double scale, QString* error) const override;

    void clear();
    void addEpoch(const ClassifierEpochMetrics& m);
    int epochs() const { return static_cast<int>(metrics_.size()); }

    QChart* lossChart() const { return lossChart_; }
    QChart* scoreChart() const { return scoreChart_; }
    QLineSeries* trainLossSeries() const { return trainLoss_; }
    QLineSeries* validationLossSeries() const { return validationLoss_; }
    QLineSeries* accuracySeries() const { return accuracy_; }
    QLineSeries* macroF1Series() const { return macroF1_; }
    QLineSeries* rationaleMassSeries() const { return rationaleMass_; }
    QLineSeries* uniformRationaleMassSeries() const { return uniformRationaleMass_; }
    QValueAxis* epochAxis() const { return lossAxisX_; }  // the score chart's follows it
    QValueAxis* lossAxis() const { return lossAxisY_; }

    // epoch,train_loss,val_loss,val_accuracy,val_macro_f1,rationale_mass,attention_entropy: one line per
    // epoch, LF line ends, NaN (no attention, no rationales) as an empty field.
    QByteArray csv() const;

private:
    QLineSeries* addLine(QChart* chart, const QString& name, const QColor& color, bool dashed);
    void append(QLineSeries* line, double x, double y);
    void setRationaleShown(bool shown);
    void updateRanges();

    std::vector<ClassifierEpochMetrics> metrics_;
    QLabel* summary_;
    QLabel* placeholder_;
    QSplitter* charts_;
    QChart* lossChart_;
    QChart* scoreChart_;
    QChartView* lossView_;
    QChartView* scoreView_;
    QValueAxis* lossAxisX_;
    QValueAxis* lossAxisY_;
    QValueAxis* scoreAxisX_;
    QValueAxis* scoreAxisY_;
    QLineSeries* trainLoss_;
    QLineSeries* validationLoss_;
    QLineSeries* accuracy_;
    QLineSeries* macroF1_;
    QLineSeries* rationaleMass_;
    QLineSeries* uniformRationaleMass_;
    QHash<QLineSeries*, QScatterSeries*> markers_;  // the dots of each line
};

}  // namespace attnlab
