#pragma once
// The text classifier's explanation lab: is attention an explanation? For one typed text and one
// class (the predicted one by default) it shows the words coloured by the attention and by four
// attribution methods (gradient, gradient x input, integrated gradients, leave one out) in a
// WordStrip, one row each; a table of Kendall's tau and Spearman's rho between the attention and each
// method; integrated gradients' completeness (sum of attributions against the logit difference); and
// a scatter plot of the attention against a chosen method, one dot per word.
// "Over the validation set" repeats the comparison for the first validation texts (Jain & Wallace's
// tau histogram, the most attended word against the gold rationale, the permutation test, and
// optionally Wiegreffe & Pinter's uniform-attention baseline).
// Data: the view only asks. explainRequested / faithfulnessRequested go to the window, which runs
// TextClassifier::explain and runFaithfulnessExperiment (core/engine) where the model lives and
// hands the Explanation / FaithfulnessResult back through setExplanation / setFaithfulnessResult.
#include "views/View.h"

#include "engine/text/ClassifierExperiments.h"
#include "engine/text/TextClassifier.h"

#include <QStringList>
#include <QWidget>

#include <optional>
#include <vector>

class QBarCategoryAxis;
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QScatterSeries;
class QTableWidget;
class QValueAxis;

namespace attnlab {

class WordStrip;

class ExplainView : public QWidget, public View {
    Q_OBJECT

public:
    static constexpr int kTauBins = 10;  // the histogram's bins over [-1, 1]

    explicit ExplainView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;   // forgets the explanation and the validation results
    void runStarted() override;  // the same
    void modelAvailable(bool available) override;
    bool exportsFigure() const override { return explanation_.has_value(); }
    bool exportsMatrix() const override { return false; }
    // .png / .svg / .pdf: the WordStrip figure; refuses .csv / .npy and a view with no explanation.
    bool exportView(const QString& path, double scale, QString* error) const override;

    // The methods in row order ("attention", "gradient", "grad_x_input", "integrated_gradients",
    // "leave_one_out") and their translated names.
    static QStringList methodKeys();
    static QString methodTitle(const QString& key);
    // Counts of the finite taus in `bins` equal bins over [-1, 1] (1 goes in the last bin).
    static std::vector<int> tauHistogram(const std::vector<double>& taus, int bins = kTauBins);

    // ---- one text
    void setLabels(const QStringList& labels);  // keeps the chosen class by name when it still exists
    QStringList labels() const;
    void setText(const QString& text);
    QString text() const;
    int chosenClass() const;  // -1 = the predicted class
    void setExplanation(const Explanation& e);
    void setExplainFailed(const QString& message);  // in the status line, in red
    const Explanation* explanation() const { return explanation_ ? &*explanation_ : nullptr; }
    QString headerText() const;
    QString statusText() const;
    QString placeholderText() const;  // empty while an explanation is shown
    QString completenessText() const;
    WordStrip* strip() const { return strip_; }
    QTableWidget* agreementTable() const { return table_; }
    QComboBox* scatterMethodBox() const { return scatterMethod_; }
    QChart* scatterChart() const { return scatterChart_; }
    QScatterSeries* scatterSeries() const { return scatter_; }
    bool showsComparison() const;  // false without an explanation or without attention

    // ---- over the validation set
    void setFaithfulnessProgress(int done, int total, const QString& message);
    void setFaithfulnessResult(const FaithfulnessResult& r);  // ends the run
    void setFaithfulnessFailed(const QString& message);      // ends the run
    void setFaithfulnessRunning(bool running);
    bool faithfulnessRunning() const { return running_; }
    const FaithfulnessResult* faithfulnessResult() const { return faithfulness_ ? &*faithfulness_ : nullptr; }
    QChart* tauChart() const { return tauChart_; }
    QString faithfulnessSummary() const;
    QString faithfulnessMessage() const;

Q_SIGNALS:
    void explainRequested(const QString& text, int classIndex);  // classIndex -1 = the predicted class
    // false: the permutation test (with the tau distribution); true: also trains the uniform baseline.
    void faithfulnessRequested(bool uniformBaseline);
    void faithfulnessStopRequested();

private:
    QWidget* createExplanationArea();
    QWidget* createValidationGroup();
    void requestExplanation();
    void showStatus(const QString& text, bool error);
    void showFaithfulnessMessage(const QString& text, bool error);
    void updateButtons();
    void updatePlaceholder();
    void fillTable(const Explanation& e);
    void updateScatter();
    void showScatterWords(const QPointF& point, bool state);
    void clearExplanation();
    void clearFaithfulness();
    void rebuildTauChart(const FaithfulnessResult& r);

    bool modelAvailable_ = false;
    bool running_ = false;
    std::optional<Explanation> explanation_;
    std::optional<FaithfulnessResult> faithfulness_;

    // Input.
    QLineEdit* text_;
    QComboBox* class_;
    QPushButton* explain_;
    QLabel* status_;
    QLabel* placeholder_;

    // One explanation.
    QWidget* result_;
    QLabel* header_;
    WordStrip* strip_;
    QLabel* completeness_;
    QWidget* comparison_;
    QLabel* noAttention_;
    QTableWidget* table_;
    QComboBox* scatterMethod_;
    QChart* scatterChart_;
    QChartView* scatterView_;
    QScatterSeries* scatter_;
    QValueAxis* scatterX_;
    QValueAxis* scatterY_;
    std::vector<QString> scatterWords_;  // the word of each dot

    // Over the validation set.
    QPushButton* permutation_;
    QPushButton* baseline_;
    QPushButton* stop_;
    QProgressBar* progress_;
    QLabel* progressMessage_;
    QChart* tauChart_;
    QChartView* tauView_;
    QBarCategoryAxis* tauX_;
    QValueAxis* tauY_;
    QLabel* summary_;
};

}  // namespace attnlab
