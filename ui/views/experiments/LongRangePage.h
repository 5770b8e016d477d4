#pragma once
// The Experiments view's "Long range" page: each self-attention pattern trains the classifier
// Transformer on `needle` texts of N words (the answer up to N positions from [CLS]) at growing N,
// until its training step no longer fits the memory budget (runLongRangeExperiment,
// engine/LongRangeExperiment.h, on the view's ExperimentRunner thread). Two charts fill in row by
// row: validation accuracy against N and each step's peak memory against N with the budget drawn
// across; a table in the layout of the articles' (pattern, complexity, their longest N) gives the
// longest N reached here with its accuracy, time per step and memory.
#include "engine/LongRangeExperiment.h"

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
class QLogValueAxis;
class QProgressBar;
class QPushButton;
class QScatterSeries;
class QSpinBox;
class QTableWidget;
class QValueAxis;

namespace attnlab {

class ExperimentRunner;

class LongRangePage : public QWidget {
    Q_OBJECT

public:
    LongRangePage(ExperimentRunner* runner, QWidget* parent = nullptr);

    // The form's options; lengths empty when the field does not parse.
    LongRangeOptions options() const;
    void setOptions(const LongRangeOptions& options);
    void run();              // a lengths field that does not parse gives a red message and no run
    bool isRunning() const;  // this page's run is the runner's running one
    quint64 runId() const { return run_; }
    void markStopping();     // the view asked the runner to stop this page's run

    const std::vector<LongRangeRow>& rows() const { return rows_; }  // of the latest run
    QChart* accuracyChart() const { return accuracyChart_; }
    QChart* memoryChart() const { return memoryChart_; }
    QLineSeries* accuracySeries(const QString& pattern) const { return accuracy_.value(pattern); }
    QTableWidget* table() const { return table_; }
    QString message() const;
    bool exportImage(const QString& path, QString* error, double scale) const;

Q_SIGNALS:
    void finished(bool stopped);
    void failed(const QString& message);

private:
    void onProgress(quint64 run, double fraction, const QString& message);
    void onRow(quint64 run, const LongRangeRow& row);
    void onFinished(quint64 run, bool stopped);
    void onFailed(quint64 run, const QString& message);
    void resetCharts(const LongRangeOptions& options);
    void updateTable();
    void updateButtons();
    void setMessage(const QString& text, bool error);

    ExperimentRunner* runner_;
    quint64 run_ = 0;
    QElapsedTimer clock_;
    LongRangeOptions plan_;
    std::vector<LongRangeRow> rows_;

    QLineEdit* lengths_;
    QMap<QString, QCheckBox*> patternBoxes_;
    QSpinBox* steps_;
    QSpinBox* extendSteps_;
    QCheckBox* extend_;
    QComboBox* maxLength_;
    QSpinBox* budget_;  // MB
    QSpinBox* texts_;
    QSpinBox* seed_;
    QPushButton* runButton_;
    QPushButton* stopButton_;
    QProgressBar* progress_;
    QLabel* message_;
    QChart* accuracyChart_;
    QChart* memoryChart_;
    QLogValueAxis* accuracyX_;
    QValueAxis* accuracyY_;
    QLogValueAxis* memoryX_;
    QLogValueAxis* memoryY_;
    QLineSeries* budgetLine_ = nullptr;
    QHash<QLineSeries*, QScatterSeries*> markers_;
    QMap<QString, QLineSeries*> accuracy_;
    QMap<QString, QLineSeries*> memory_;
    QTableWidget* table_;
};

}  // namespace attnlab
