#pragma once
// The forecasting task's setup panel: the data (a generated series, seasonal, echo or regime, with
// its period, lag, noise, length and seed; or a column of a CSV file, with an optional timestamp
// column), the model (context and horizon, width, heads, layers, loss, the encoder's attention
// pattern), the training settings and the buttons (Train, Stop, Reset, Open Model, Save Model). The
// window's Task box shows it for "Forecasting". Defaults are the CLI's (ForecastConfig,
// GeneratedSeriesOptions, ForecastTrainingOptions).
#include "base/forecast/ForecastConfig.h"
#include "base/forecast/Series.h"
#include "engine/forecast/ForecastTrainer.h"
#include "setup/TaskSetupPanel.h"
#include <QString>
#include <QStringList>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace attnlab {

struct ForecastDataChoice {
    QString dataset = QStringLiteral("seasonal");  // "seasonal", "echo", "regime", or "file"
    QString path;             // the CSV file for "file"
    QString column;           // the value column; empty: the first that reads as numbers
    QString timestampColumn;  // empty: none
    int length = 2000;
    int period = 17;
    int lag = 24;
    double noise = 0.2;
    std::uint64_t seed = 1;
    bool isFile() const { return dataset == QLatin1String("file"); }
    GeneratedSeriesOptions generated() const;  // a generated series' options
    QString describe() const;                  // for messages and the window title
};

// The signals (dataChanged, chooseFileRequested: "CSV file…", the task shows the
// file dialog, then setData), setState and setStatus are TaskSetupPanel's.
class ForecastSetupPanel : public TaskSetupPanel {
    Q_OBJECT
public:
    explicit ForecastSetupPanel(QWidget* parent = nullptr);

    ForecastDataChoice data() const;
    void setData(const ForecastDataChoice& choice);  // emits dataChanged
    // The CSV file's columns, as read (the chooser's entries), with `column` and `timestamp` chosen;
    // no signal.
    void setColumns(const QStringList& columns, const QString& column, const QString& timestamp);
    ForecastConfig config() const;
    void setConfig(const ForecastConfig& config);
    ForecastTrainingOptions options() const;
    void setOptions(const ForecastTrainingOptions& options);

    QComboBox* columnBox() const { return column_; }
    QComboBox* timestampBox() const { return timestamp_; }

private:
    bool readsFile() const override;
    bool datasetChosen() override;
    void enableRows() override;

    QSpinBox* period_;
    QSpinBox* lag_;
    QDoubleSpinBox* noise_;
    QComboBox* column_;
    QComboBox* timestamp_;
    QSpinBox* context_;
    QSpinBox* horizon_;
    QSpinBox* width_;
    QSpinBox* heads_;
    QSpinBox* encoderLayers_;
    QSpinBox* decoderLayers_;
    QComboBox* loss_;
    QComboBox* pattern_;
    QSpinBox* window_;
    QCheckBox* timeFeatures_;
    ForecastConfig config_;  // what the panel has no control for (feed-forward, dropout, chunk, period)
    ForecastTrainingOptions options_;
};

}  // namespace attnlab
