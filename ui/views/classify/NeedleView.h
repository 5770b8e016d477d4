#pragma once
// The needle experiment of the classification task: texts of growing length in which one keyword,
// anywhere among noise words, decides the class. One GRU classifier per (length, pooling) is trained
// from scratch and its validation accuracy is charted against the text length, one line per pooling:
// the last state (no attention) must carry the keyword to the end of the text, attention pooling can
// read it where it is. The data come from runNeedleExperiment (engine/ClassifierExperiments.h), run on
// the view's own ExperimentRunner thread; the chart fills in when the run ends or is stopped. The
// experiment does not use the task's model, so Reset and a new training keep its result.
#include "views/View.h"
#include "engine/text/ClassifierExperiments.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMap>
#include <QString>
#include <QWidget>

class QChart;
class QChartView;
class QLabel;
class QLineEdit;
class QLineSeries;
class QProgressBar;
class QPushButton;
class QScatterSeries;
class QSpinBox;
class QValueAxis;

namespace attnlab {

class ExperimentRunner;

class NeedleView : public QWidget, public View {
    Q_OBJECT

public:
    explicit NeedleView(QWidget* parent = nullptr);
    ~NeedleView() override;  // stops and joins the experiment thread

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    bool exportsFigure() const override;  // once the chart has points
    bool exportView(const QString& path, double scale, QString* error) const override;

    // Reads the form; a lengths field that does not parse gives a red message naming it and no run.
    void run();
    void stop();  // asks the running experiment to stop; the result so far is charted
    // From run() until the run's end (or failure) has reached the view, with its result charted.
    bool isRunning() const { return running_; }

    // The form's options (lengths empty when the field does not parse); poolings, hidden size and
    // direction are those last set with setOptions (the engine's defaults at first).
    NeedleOptions options() const;
    void setOptions(const NeedleOptions& options);

    const NeedleResult& result() const { return result_; }  // of the latest run (empty before any)
    QChart* chart() const { return chart_; }
    // The line of a pooling ("none", "additive", ...) of the latest run's options; nullptr for another.
    QLineSeries* series(const QString& pooling) const { return series_.value(pooling); }
    QString message() const;  // the status line

    // The legend name of a pooling: "Last state (no attention)", "Additive attention", else the name.
    static QString poolingTitle(const QString& pooling);

Q_SIGNALS:
    void needleFinished(bool stopped);
    void needleFailed(const QString& message);

private:
    void onProgress(quint64 run, double fraction, const QString& message);
    void onResult(quint64 run, const NeedleResult& result);
    void onFinished(quint64 run, bool stopped);
    void onFailed(quint64 run, const QString& message);
    void resetChart(const NeedleOptions& options);
    void fillChart();
    void setMessage(const QString& text, bool error);
    void updateButtons();
    QString etaText(double fraction) const;
    QString summary() const;

    ExperimentRunner* runner_;
    quint64 run_ = 0;
    bool running_ = false;
    NeedleOptions base_;  // what the form does not show
    NeedleResult result_;
    QElapsedTimer clock_;

    QLineEdit* lengths_;
    QSpinBox* texts_;
    QSpinBox* epochs_;
    QSpinBox* seed_;
    QPushButton* runButton_;
    QPushButton* stopButton_;
    QProgressBar* progress_;
    QLabel* message_;
    QChart* chart_;
    QChartView* chartView_;
    QValueAxis* lengthAxis_;
    QValueAxis* accuracyAxis_;
    QMap<QString, QLineSeries*> series_;
    QHash<QLineSeries*, QScatterSeries*> dots_;  // the markers of each line
};

}  // namespace attnlab
