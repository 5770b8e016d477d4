#pragma once
// The Heads view of the forecasting task: for the forecast shown in the Forecast view, the encoder's
// self-attention over the history (C x C) of every layer (rows) and head (columns), and the
// cross-attention of every forecast step over the history (H x C) of every decoder layer and head,
// the encoder's heads each on its own colour scale, the cross-attention's on one. Fed with the
// Forecasts the task receives (Forecast::encoder, ::cross).
#include "engine/forecast/Forecaster.h"
#include "views/View.h"
#include "base/translation/HeadAblation.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;

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

    // The forecast shown, made with the heads `off` switched off (empty: the full model); an answer
    // for other heads than the ones now switched off is dropped.
    void setForecast(const Forecast& forecast, const std::vector<HeadId>& off = {});

    // Live head ablation: Switch Heads Off, then a click on a head of either grid switches it off
    // (or on again); ablationChanged asks the task for the forecast again with switchedOff().
    void setAblationMode(bool on);
    bool ablationMode() const;
    const std::vector<HeadId>& switchedOff() const { return off_; }
    void setSwitchedOff(std::vector<HeadId> heads);
    QPushButton* ablationButton() const { return ablate_; }
    QString ablationSummary() const;  // empty with every head on
    HeadGridWidget* encoderGrid() const { return encoder_; }
    HeadGridWidget* crossGrid() const { return cross_; }

Q_SIGNALS:
    void ablationChanged();

private:
    void toggle(MapKind kind, int layer, int head);
    void showSwitchedOff();

    QPushButton* ablate_;
    QPushButton* allOn_;
    QLabel* ablation_;
    std::vector<HeadId> off_;
    std::optional<Forecast> full_;  // the last forecast with every head on
    QLabel* placeholder_;
    QLabel* encoderTitle_;
    HeadGridWidget* encoder_;
    QLabel* crossTitle_;
    HeadGridWidget* cross_;
    std::optional<Forecast> forecast_;
};

}  // namespace attnlab
