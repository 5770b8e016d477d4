#pragma once
// The Experiments view's "Positions" page: does an explicit positional encoding help on long
// sequences? A Transformer with sinusoidal, learned and no positional encoding and a GRU with
// additive attention train on an order-sensitive task (`reverse` by default) at growing lengths
// (runPositionalExperiment, engine/translation/PositionalExperiment.h, one (length, model)
// training per unit on the view's ExperimentRunner thread); the chart shows held-out exact match
// or token accuracy against length, one line per model, and a table the numbers.
#include "engine/translation/PositionalExperiment.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMap>
#include <QWidget>

class QCheckBox;
class QChart;
class QComboBox;
class QLabel;
class QLineEdit;
class QLineSeries;
class QProgressBar;
class QPushButton;
class QScatterSeries;
class QSpinBox;
class QTableWidget;
class QValueAxis;

namespace attnlab {

class ExperimentRunner;

class PositionalPage : public QWidget {
    Q_OBJECT

public:
    PositionalPage(ExperimentRunner* runner, QWidget* parent = nullptr);

    PositionalOptions options() const;  // lengths empty when the field does not parse
    void setOptions(const PositionalOptions& options);
    void run();
    bool isRunning() const;
    quint64 runId() const { return run_; }
    void markStopping();
    // "exact" (exact match, the default) or "tokens" (token accuracy): what the chart shows.
    void setMetric(const QString& metric);

    const PositionalResult& result() const { return result_; }  // the points measured so far
    QChart* chart() const { return chart_; }
    QLineSeries* series(const QString& model) const { return series_.value(model); }
    QTableWidget* table() const { return table_; }
    QString message() const;
    bool exportImage(const QString& path, QString* error, double scale) const;
    static QString modelTitle(const QString& model);

Q_SIGNALS:
    void finished(bool stopped);
    void failed(const QString& message);

private:
    void onProgress(quint64 run, double fraction, const QString& message);
    void onPoint(quint64 run, const QString& model, int length, double tokenAccuracy, double exactMatch);
    void onFinished(quint64 run, bool stopped);
    void onFailed(quint64 run, const QString& message);
    void redraw();
    void updateTable();
    void updateButtons();
    void setMessage(const QString& text, bool error);

    ExperimentRunner* runner_;
    quint64 run_ = 0;
    QElapsedTimer clock_;
    PositionalOptions plan_;
    PositionalResult result_;
    std::vector<std::pair<std::string, int>> order_;  // (model, length) as measured

    QComboBox* dataset_;
    QLineEdit* lengths_;
    QMap<QString, QCheckBox*> modelBoxes_;
    QSpinBox* epochs_;
    QSpinBox* hidden_;
    QSpinBox* pairs_;
    QSpinBox* seed_;
    QComboBox* metric_;
    QPushButton* runButton_;
    QPushButton* stopButton_;
    QProgressBar* progress_;
    QLabel* message_;
    QChart* chart_;
    QValueAxis* lengthAxis_;
    QValueAxis* accuracyAxis_;
    QHash<QLineSeries*, QScatterSeries*> markers_;
    QMap<QString, QLineSeries*> series_;
    QTableWidget* table_;
};

}  // namespace attnlab
