#pragma once
// The forecasting task's training curves, three charts stacked: the training and validation loss
// per epoch (on the standardised values); the model's mean absolute error on the held-out tail
// beside seasonal naive's (dashed), in the series' units; and MASE (the model's MAE over seasonal
// naive's: below 1 it beats it) with the period-mass ratio (the attention on points a whole number of
// periods back over their share: above 1 it looks back by periods more than uniform weights), with a
// dotted line at 1 for both. Fed with the ForecastEpochMetrics the ForecastTrainer reports after
// every epoch; a new run or a discarded model clears them.
#include "engine/forecast/ForecastTrainer.h"
#include "views/EpochCurvesView.h"

#include <QByteArray>
#include <QHash>

#include <vector>

class QChart;
class QChartView;
class QLineSeries;
class QScatterSeries;
class QSplitter;
class QValueAxis;

namespace attnlab {

// The first two charts, the loss lines, the epoch axis, clear() and epochs() are EpochCurvesView's.
class ForecastCurvesView : public EpochCurvesView {
    Q_OBJECT
public:
    explicit ForecastCurvesView(QWidget* parent = nullptr);

    QString viewTitle() const override;
    QString viewToolTip() const override;
    bool exportsMatrix() const override { return epochs() > 0; }
    // PNG, SVG or PDF of the three charts; .csv the numbers of every epoch (see csv()); .npy is refused.
    bool exportView(const QString& path, double scale, QString* error) const override;

    void addEpoch(const ForecastEpochMetrics& m);

    QLineSeries* maeSeries() const { return mae_; }
    QLineSeries* naiveMaeSeries() const { return naiveMae_; }
    QLineSeries* maseSeries() const { return mase_; }
    QLineSeries* periodMassSeries() const { return ratio_; }
    QChart* ratioChart() const { return ratioChart_; }

    // epoch,train_loss,val_loss,val_mae,val_rmse,val_mase,seasonal_naive_mae,period_mass_ratio: one line
    // per epoch, LF line ends, NaN as an empty field.
    QByteArray csv() const;

private:
    void clearMore() override;

    std::vector<ForecastEpochMetrics> metrics_;
    QLineSeries* mae_;
    QLineSeries* naiveMae_;
    QChart* ratioChart_;
    QChartView* ratioView_;
    QSplitter* charts_ = nullptr;  // EpochCurvesView's, which the third chart joins
    QValueAxis* ratioX_;
    QValueAxis* ratioY_;
    QLineSeries* mase_;
    QLineSeries* ratio_;
    QLineSeries* one_;
    QHash<QLineSeries*, QScatterSeries*> ratioMarkers_;
};

}  // namespace attnlab
