#pragma once
// The Forecast view of the forecasting task: one forecast at a position of the held-out tail (the
// slider and the spin box choose it), drawn over the history it read, against the truth and the
// seasonal naive forecast, with its error band (the validation RMSE of each step). Click a forecast
// step (or pick it in the Step box): its cross-attention over the history is drawn as bars under the
// series, with the points a whole number of periods back marked, and the H x C cross-attention map
// below (the last layer's heads averaged) selects that step's row. The data: Forecasts the
// ForecastSession answers for the position (ForecastSession::forecastAt), or its probe while training.
#include "engine/forecast/Forecaster.h"
#include "views/View.h"
#include "views/forecast/ForecastPlot.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QSlider;
class QSpinBox;

namespace attnlab {

class HeatmapWidget;

class ForecastView : public QWidget, public View {
    Q_OBJECT
public:
    explicit ForecastView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;
    void modelAvailable(bool available) override;
    void applyColormap(ColormapId id) override;
    void applyShowNumbers(bool on) override;
    HeatmapWidget* zoomableHeatmap() const override { return heatmap_; }
    bool exportsFigure() const override { return forecast_.has_value(); }
    bool exportsMatrix() const override { return forecast_.has_value(); }
    // PNG, SVG, PDF: the series with the forecast and the attention bars; CSV, NPY: the H x C map.
    bool exportView(const QString& path, double scale, QString* error) const override;

    // The series the forecasts are made on and the positions the slider offers (first .. last, the
    // held-out tail's forecast origins); `period` is marked (0: none). Keeps the position if it fits.
    void setSeries(std::shared_ptr<const Series> series, long first, long last, int period);
    long position() const;
    void setPosition(long at);  // emits positionChanged when it changes
    int step() const { return step_; }
    void setStep(int step);     // 0-based
    // A forecast of positions at .. at+H-1 (a request's answer or the probe's).
    void setForecast(const Forecast& forecast, long at);
    void setFailed(const QString& message);
    const Forecast* forecast() const { return forecast_ ? &*forecast_ : nullptr; }
    long forecastPosition() const { return forecastAt_; }
    // The model's and seasonal naive's mean absolute error over the forecast shown (NaN without truth).
    double modelError() const { return modelMae_; }
    double naiveError() const { return naiveMae_; }

    ForecastCanvas* canvas() const { return canvas_; }
    HeatmapWidget* heatmap() const { return heatmap_; }
    QSlider* slider() const { return slider_; }
    QSpinBox* positionBox() const { return position_; }
    QSpinBox* stepBox() const { return stepBox_; }

Q_SIGNALS:
    void positionChanged(long at);

private:
    void showForecast();
    ForecastPicture picture() const;

    QSlider* slider_;
    QSpinBox* position_;
    QSpinBox* stepBox_;
    QLabel* summary_;
    QLabel* placeholder_;
    QLabel* status_;
    ForecastCanvas* canvas_;
    QLabel* mapTitle_;
    HeatmapWidget* heatmap_;
    std::shared_ptr<const Series> series_;
    int period_ = 0;
    std::optional<Forecast> forecast_;
    long forecastAt_ = -1;
    int step_ = 0;
    double modelMae_ = 0, naiveMae_ = 0;
};

}  // namespace attnlab
