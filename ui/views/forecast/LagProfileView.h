#pragma once
// The Lag profile view of the forecasting task: the cross-attention's mass against lag (how many
// steps before a forecast step the history point it reads lies), averaged over the forecast steps
// and the held-out windows, beside what uniform weights would give, with the period and its
// multiples marked and the period-mass ratio (the attention on points a whole number of periods
// back over their share of the points: 1 is uniform). It is recorded after every epoch
// (ForecastEpochMetrics::lagProfile): the epoch slider shows the profile of any epoch, and the strip
// below shows every epoch's profile as one row, so the peaks are seen forming over training. The
// forecast shown in the Forecast view is drawn over it as a line (for a model opened from a file it
// is the only profile there is).
#include "engine/forecast/ForecastTrainer.h"
#include "views/View.h"
#include "views/forecast/ForecastPlot.h"

#include <QStringList>
#include <QWidget>

#include <optional>
#include <vector>

class QLabel;
class QSlider;

namespace attnlab {

class HeatmapWidget;

class LagProfileView : public QWidget, public View {
    Q_OBJECT
public:
    explicit LagProfileView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;
    void runStarted() override;
    void applyColormap(ColormapId id) override;
    HeatmapWidget* zoomableHeatmap() const override { return timeline_; }
    bool exportsFigure() const override { return canvas_->hasPicture(); }
    bool exportsMatrix() const override { return canvas_->hasPicture(); }
    // PNG, SVG, PDF: the profile shown; CSV, NPY: every epoch's profile (rows) by lag (columns), or
    // the forecast's alone.
    bool exportView(const QString& path, double scale, QString* error) const override;

    void setShape(int context, int horizon, int period);  // the model's C, H and period
    void addEpoch(const ForecastEpochMetrics& m);
    // The forecast the Forecast view shows: its lag profile and period mass.
    void setForecast(const Forecast& forecast);
    void showEpoch(int index);  // 0-based into the epochs recorded

    int epochs() const { return static_cast<int>(profiles_.size()); }
    int shownEpoch() const { return shown_; }
    const std::vector<double>& profileOf(int index) const { return profiles_.at(static_cast<std::size_t>(index)); }
    double ratioOf(int index) const { return ratios_.at(static_cast<std::size_t>(index)); }
    double forecastRatio() const { return forecastRatio_; }
    ForecastCanvas* canvas() const { return canvas_; }
    HeatmapWidget* timeline() const { return timeline_; }
    QSlider* epochSlider() const { return slider_; }

private:
    void refresh();
    AttentionMap timelineMap() const;

    QLabel* summary_;
    QLabel* placeholder_;
    ForecastCanvas* canvas_;
    QLabel* sliderLabel_;
    QSlider* slider_;
    QLabel* timelineTitle_;
    HeatmapWidget* timeline_;
    int context_ = 0, horizon_ = 0, period_ = 0;
    std::vector<std::vector<double>> profiles_;  // per epoch, lagProfile's indexing
    std::vector<double> ratios_;
    std::vector<int> epochNumbers_;
    int shown_ = -1;
    std::optional<std::vector<double>> forecastProfile_;
    double forecastRatio_ = 0;
};

}  // namespace attnlab
