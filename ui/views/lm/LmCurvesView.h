#pragma once
// The language model's training curves against the step: the training loss (the mean since the
// previous report) and the held-out loss per predicted token, and the copy accuracy on repeated
// random sequences (the share of the second copy's tokens predicted). The summary line gives the
// latest report and the training speed in tokens per second. CSV export: one line per report.
#include "engine/lm/LmTrainer.h"
#include "views/EpochCurvesView.h"
#include <vector>

namespace attnlab {

class LmCurvesView : public EpochCurvesView {
    Q_OBJECT
public:
    explicit LmCurvesView(QWidget* parent = nullptr);
    QString viewTitle() const override;
    QString viewToolTip() const override;
    bool exportsMatrix() const override { return epochs() > 0; }
    // PNG, SVG or PDF of both charts; .csv: step,train_loss,held_out_loss,copy_accuracy,icl,tokens_per_second.
    bool exportView(const QString& path, double scale, QString* error) const override;
    void addReport(const LmStepMetrics& m);
    QLineSeries* copySeries() const { return copy_; }

private:
    void clearMore() override { reports_.clear(); }
    std::vector<LmStepMetrics> reports_;
    QLineSeries* copy_;
};

}  // namespace attnlab
