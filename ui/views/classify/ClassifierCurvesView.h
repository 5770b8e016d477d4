#pragma once
// The classification task's training curves, two charts stacked: training and validation loss per
// epoch, and per epoch on 0..1 the validation accuracy, the macro F1 and, for a corpus with gold
// rationales and a model that attends, the rationale mass (the attention on the gold words) beside a
// dashed line for what uniform attention would put there. The data are the ClassifierEpochMetrics the
// ClassifierTrainer reports after every epoch (engine/ClassifierTrainer.h), fed through addEpoch();
// a new run or a discarded model clears the curves.
#include "views/EpochCurvesView.h"
#include "engine/text/ClassifierTrainer.h"

#include <QByteArray>
#include <QString>

#include <vector>

class QLineSeries;

namespace attnlab {

// The charts, the loss lines, the epoch axis, clear() and epochs() are EpochCurvesView's.
class ClassifierCurvesView : public EpochCurvesView {
    Q_OBJECT

public:
    explicit ClassifierCurvesView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    bool exportsMatrix() const override { return epochs() > 0; }
    // PNG, SVG or PDF of both charts; .csv the numbers of every epoch (see csv()); .npy is refused.
    bool exportView(const QString& path, double scale, QString* error) const override;

    void addEpoch(const ClassifierEpochMetrics& m);

    QLineSeries* accuracySeries() const { return accuracy_; }
    QLineSeries* macroF1Series() const { return macroF1_; }
    QLineSeries* rationaleMassSeries() const { return rationaleMass_; }
    QLineSeries* uniformRationaleMassSeries() const { return uniformRationaleMass_; }

    // epoch,train_loss,val_loss,val_accuracy,val_macro_f1,rationale_mass,attention_entropy: one line per
    // epoch, LF line ends, NaN (no attention, no rationales) as an empty field.
    QByteArray csv() const;

private:
    void clearMore() override;
    void setRationaleShown(bool shown);

    std::vector<ClassifierEpochMetrics> metrics_;
    QLineSeries* accuracy_;
    QLineSeries* macroF1_;
    QLineSeries* rationaleMass_;
    QLineSeries* uniformRationaleMass_;
};

}  // namespace attnlab
