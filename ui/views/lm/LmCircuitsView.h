#pragma once
// The Circuits view of the language model: how the induction circuit forms while the model trains.
//   Left, two charts over the training steps: the loss (training and held-out) with Olsson et al.'s
// in-context-learning score, and the heads' scores (the best head's previous-token, duplicate-token
// and induction score, and the copy accuracy on the second copy of a repeated sequence). The step
// at which the best induction score first reaches kInductionRise is marked on both charts by a
// vertical line: the bump in the loss comes with it.
//   Right, the table of every head's three scores (TransformerLens's head detector, "mul",
// base/lm/LmCircuits.h) at the latest report, each cell shaded by its score; clicking a head shows
// its attention on a repeated random sequence of the model's own vocabulary below (until one is
// clicked, the head with the best induction score), with the
// diagonals an induction head (the token after the earlier copy) and a previous-token head follow.
// Export: the charts (PNG, SVG, PDF), or the table as CSV.
#include "engine/lm/LmTrainer.h"
#include "views/View.h"
#include <QHash>
#include <QWidget>
#include <optional>
#include <vector>

class QChart;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QTableWidget;
class QValueAxis;

namespace attnlab {

class HeatmapWidget;

class LmCircuitsView : public QWidget, public View {
    Q_OBJECT
public:
    // The best induction score at which the view says the induction head has formed.
    static constexpr double kInductionRise = 0.3;

    explicit LmCircuitsView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override { clear(); }
    void runStarted() override { clear(); }
    void applyColormap(ColormapId id) override;
    HeatmapWidget* zoomableHeatmap() const override { return map_; }
    bool exportsFigure() const override { return !reports_.empty() || scores_.has_value(); }
    bool exportsMatrix() const override { return scores_.has_value(); }
    // PNG, SVG or PDF: the two charts; CSV: the table (layer, head from 1, the three scores).
    bool exportView(const QString& path, double scale, QString* error) const override;

    void clear();
    // A report of the run: a point on every line, and the table.
    void addReport(const LmStepMetrics& m);
    // The scores of a model not being trained (opened from a file): the table only.
    void setScores(const LmCircuitScores& scores);
    // The chosen head's attention on a repeated sequence (LmSession::readRepeat's answer).
    void setRepeat(const LmReading& reading);
    void setRepeatFailed(const QString& message);
    // The head whose map is shown (0-based), or nullopt.
    std::optional<std::pair<int, int>> selectedHead() const { return selected_; }
    void selectHead(int layer, int head);  // emits headSelected

    // The step at which the best induction score first reached kInductionRise; 0 if not yet.
    int inductionRiseStep() const { return riseStep_; }
    // The step between two reports with the largest fall of the held-out loss (its later report); 0 if none.
    int lossBumpStep() const;
    const std::vector<LmStepMetrics>& reports() const { return reports_; }
    QTableWidget* table() const { return table_; }
    HeatmapWidget* repeatMap() const { return map_; }
    QChart* lossChart() const { return lossChart_; }
    QChart* scoreChart() const { return scoreChart_; }
    QString summary() const;

Q_SIGNALS:
    void headSelected(int layer, int head);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void showTable(const LmCircuitScores& scores);
    void showMap();
    void updateRanges();
    void markRise();
    void paintDiagonals();

    QLabel* summary_;
    QLabel* placeholder_;
    QChart* lossChart_;
    QChart* scoreChart_;
    QValueAxis* lossX_;
    QValueAxis* lossY_;
    QValueAxis* scoreX_;
    QValueAxis* scoreY_;
    QLineSeries* trainLoss_;
    QLineSeries* heldLoss_;
    QLineSeries* icl_;
    QLineSeries* previous_;
    QLineSeries* duplicate_;
    QLineSeries* induction_;
    QLineSeries* copy_;
    QLineSeries* lossRise_;   // the vertical line at the induction rise, on each chart
    QLineSeries* scoreRise_;
    QHash<QLineSeries*, QScatterSeries*> markers_;
    QTableWidget* table_;
    QLabel* mapTitle_;
    HeatmapWidget* map_;
    QWidget* overlay_;
    std::vector<LmStepMetrics> reports_;
    std::optional<LmCircuitScores> scores_;
    std::optional<LmReading> repeat_;
    std::optional<std::pair<int, int>> selected_;
    bool chosen_ = false;  // the learner clicked a head
    int riseStep_ = 0;
    double lossLow_ = 0, lossHigh_ = 1;
};

}  // namespace attnlab
