#pragma once
// The Heads view of the forecasting task: for the forecast shown in the Forecast view, the encoder's
// self-attention over the history (C x C) of every layer (rows) and head (columns), and the
// cross-attention of every forecast step over the history (H x C) of every decoder layer and head,
// the encoder's heads each on its own colour scale, the cross-attention's on one. Fed with the
// Forecasts the task receives (Forecast::encoder, ::cross).
#include "engine/forecast/Forecaster.h"
#include "views/View.h"

#include <QWidget>

#include <optional>

class QLabel;

namespace attnlab {

class HeadGridWidget;

class ForecastHeadsView : public QWidget, public View {
    Q_OBJECT
public:
    explicit ForecastHeadsView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;
    void modelAvailable(bool available) override;
    void applyColormap(ColormapId id) override;
    bool exportsFigure() const override { return forecast_.has_value(); }
    // PNG, SVG or PDF: both grids, the encoder's above the cross-attention's.
    bool exportView(const QString& path, double scale, QString* error) const override;

    void setForecast(const Forecast& forecast);
    HeadGridWidget* encoderGrid() const { return encoder_; }
    HeadGridWidget* crossGrid() const { return cross_; }

private:
    QLabel* placeholder_;
    QLabel* encoderTitle_;
    HeadGridWidget* encoder_;
    QLabel* crossTitle_;
    HeadGridWidget* cross_;
    std::optional<Forecast> forecast_;
};

}  // namespace attnlab
