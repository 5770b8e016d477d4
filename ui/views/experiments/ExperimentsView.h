#pragma once
// The teaching lab's measured experiments, each on a page with its options, Run/Stop, a progress bar
// and a chart that fills in as points are measured:
//  - Bottleneck: held-out token accuracy against sentence length for a GRU without attention (one
//    fixed context vector) and with attention, one line per attention.
//  - Complexity: time and memory of one attention layer against sequence length on log-log axes for
//    full, local and linear attention, with the fitted slopes in the legends.
//  - Long range (LongRangePage): each attention pattern trained on texts whose answer lies far away,
//    N doubling until the memory budget; accuracy and peak memory against N, the articles' table.
//  - Positions (PositionalPage): a Transformer with sinusoidal, learned or no positions and a GRU
//    on an order-sensitive task; accuracy against length.
// The work runs on an ExperimentRunner thread; one experiment runs at a time, so starting one stops
// the other. Closing the view stops and joins the thread.
#include "views/View.h"
#include "engine/translation/Experiments.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMap>
#include <QStringList>
#include <QWidget>

class QAbstractAxis;
class QCheckBox;
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QLineSeries;
class QLogValueAxis;
class QProgressBar;
class QPushButton;
class QScatterSeries;
class QSpinBox;
class QTabWidget;
class QTableWidget;
class QValueAxis;

namespace attnlab {

class ExperimentRunner;
class LongRangePage;
class PositionalPage;

class ExperimentsView : public QWidget, public View {
    Q_OBJECT

public:
    enum class BottleneckPreset { Classroom, Full };

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    bool exportsFigure() const override;
    bool exportView(const QString& path, double scale, QString* error) const override;

    explicit ExperimentsView(QWidget* parent = nullptr);
    ~ExperimentsView() override;

    // "bottleneck", "complexity", "long-range" or "positional"; false for an unknown name.
    bool showPage(const QString& name);
    QString currentPage() const;
    bool isRunning() const;
    void stop();  // asks the running experiment to stop; its page reports it

    // ---- bottleneck
    static BottleneckOptions presetOptions(BottleneckPreset preset);
    void applyPreset(BottleneckPreset preset);
    BottleneckOptions bottleneckOptions() const;  // from the form; throws nothing, validation is the run's
    void setBottleneckOptions(const BottleneckOptions& options);
    void runBottleneck();
    bool bottleneckRunning() const;
    const BottleneckResult& bottleneckResult() const { return bottleneck_; }  // the measured points so far
    QChart* bottleneckChart() const { return bottleneckChart_; }
    QLineSeries* bottleneckSeries(const QString& attention) const { return bottleneckSeries_.value(attention); }
    QTableWidget* bottleneckTable() const { return table_; }
    QString bottleneckMessage() const;
    // A rough CPU time for the options, scaled from runs measured on the 2-core development machine:
    // training cost grows with the sum of lengths x pairs x epochs x trainings x hidden^1.5.
    static double estimatedSeconds(const BottleneckOptions& options);

    // ---- complexity
    ComplexityOptions complexityOptions() const;
    void setComplexityOptions(const ComplexityOptions& options);  // lengths: powers of two from .front() to .back()
    void runComplexity();
    bool complexityRunning() const;
    // The measured points so far, slopes fitted on the lengths >= effectiveFitFrom(): the chosen start,
    // or the second longest length when fewer than two lengths reach it.
    const ComplexityResult& complexityResult() const { return complexity_; }
    int effectiveFitFrom() const;
    QChart* complexityTimeChart() const { return timeChart_; }
    QChart* complexityMemoryChart() const { return memoryChart_; }
    QLineSeries* complexitySeries(const QString& method, bool memory) const;
    QString complexityMessage() const;

    LongRangePage* longRangePage() const { return longRange_; }
    PositionalPage* positionalPage() const { return positional_; }

    // The chart(s) of the current page as PNG (at scale), SVG or PDF by extension.
    bool exportImage(const QString& path, QString* error = nullptr, double scale = 1.0) const;

Q_SIGNALS:
    void bottleneckFinished(bool stopped);
    void complexityFinished(bool stopped);
    void experimentFailed(const QString& message);

private:
    QWidget* createBottleneckPage();
    QWidget* createComplexityPage();
    void onProgress(quint64 run, double fraction, const QString& message);
    void onBottleneckPoint(quint64 run, const QString& attention, int length, double accuracy);
    void onComplexityPoint(quint64 run, const QString& method, int length, double seconds, double bytes);
    void onFinished(quint64 run, bool stopped);
    void onFailed(quint64 run, const QString& message);
    void addSeries(QChart* chart, QLineSeries* line, QAbstractAxis* x, QAbstractAxis* y);
    void removeSeries(QChart* chart, QLineSeries* line);
    void appendPoint(QLineSeries* line, double x, double y);
    void resetBottleneckChart(const BottleneckOptions& options);
    void resetComplexityCharts(const ComplexityOptions& options);
    void updateComplexityAxes();
    void updateSlopes();
    void updateButtons();
    void updateEstimate();
    void markCustom();
    QString etaText(double fraction) const;

    ExperimentRunner* runner_;
    quint64 bottleneckRun_ = 0;
    quint64 complexityRun_ = 0;
    QElapsedTimer clock_;
    QTabWidget* pages_;
    LongRangePage* longRange_;
    PositionalPage* positional_;
    QHash<QLineSeries*, QScatterSeries*> markers_;  // the dots of each line

    // Bottleneck page.
    BottleneckResult bottleneck_;
    QComboBox* preset_;
    QComboBox* dataset_;
    QLineEdit* lengths_;
    QMap<QString, QCheckBox*> attentionBoxes_;
    QSpinBox* epochs_;
    QSpinBox* hidden_;
    QSpinBox* pairs_;
    QSpinBox* seed_;
    QLabel* estimate_;
    QPushButton* bottleneckRunButton_;
    QPushButton* bottleneckStop_;
    QProgressBar* bottleneckProgress_;
    QLabel* bottleneckMessage_;
    QChart* bottleneckChart_;
    QChartView* bottleneckView_;
    QValueAxis* lengthAxis_;
    QValueAxis* accuracyAxis_;
    QMap<QString, QLineSeries*> bottleneckSeries_;
    QTableWidget* table_;

    // Complexity page.
    ComplexityResult complexity_;
    ComplexityOptions complexityPlan_;  // of the latest run (or the form's, before any)
    QComboBox* fromLength_;
    QComboBox* toLength_;
    QSpinBox* dim_;
    QSpinBox* window_;
    QSpinBox* repeats_;
    QComboBox* fitFromBox_;
    QPushButton* complexityRunButton_;
    QPushButton* complexityStop_;
    QProgressBar* complexityProgress_;
    QLabel* complexityMessage_;
    QChart* timeChart_;
    QChart* memoryChart_;
    QChartView* timeView_;
    QChartView* memoryView_;
    QLogValueAxis* timeAxisX_;
    QLogValueAxis* timeAxisY_;
    QLogValueAxis* memoryAxisX_;
    QLogValueAxis* memoryAxisY_;
    QMap<QString, QLineSeries*> timeSeries_;
    QMap<QString, QLineSeries*> memorySeries_;
};

}  // namespace attnlab
