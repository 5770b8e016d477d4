#pragma once
// The Classify view of the text-classification task: type a text, see the label the model gives it,
// every class's probability, and the words highlighted by the attention the decision was pooled with
// (one row per hop for a GRU; the [CLS] rollout for a Transformer, with every layer's and head's
// self-attention in a grid below). Hover a word for its weight. The text is also the session's probe:
// while a model trains, it is classified every few batches (ClassifierSession::probed), so the
// attention forms in front of the learner. Switch Heads Off makes a click on a head of the grid
// switch it off (or on again): the text is classified again with those heads off
// (engine/HeadStudy.h classifyAblated), the heads crossed out, and a line gives the full model's
// label beside the ablated one and the probability the ablated model keeps for the full model's label.
#include "views/View.h"
#include "base/translation/HeadAblation.h"
#include "engine/text/TextClassifier.h"
#include <QWidget>
#include <optional>
#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace attnlab {

class HeadGridWidget;
class WordStrip;
struct WordRow;

class ClassifyView : public QWidget, public View {
    Q_OBJECT
public:
    explicit ClassifyView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;
    void modelAvailable(bool available) override;
    void applyColormap(ColormapId id) override;
    bool exportsFigure() const override { return result_.has_value(); }
    bool exportView(const QString& path, double scale, QString* error) const override;

    QString text() const;
    void setText(const QString& text);  // does not classify
    // The model's labels, in its order (the order of Classification::probabilities).
    void setLabels(const QStringList& labels) { labels_ = labels; }
    // A classification of the text shown (from a request or the probe), made with the heads `off`
    // switched off (empty: the full model).
    void setClassification(const Classification& result, const std::vector<HeadId>& off = {});
    void setFailed(const QString& message);
    // The probe's classification at the end of an epoch: one row of the "attention over training"
    // strip (cleared when a run starts or the text changes).
    void addEpochSnapshot(int epoch, const Classification& result);
    WordStrip* history() const { return history_; }
    void runStarted() override;
    const Classification* classification() const { return result_ ? &*result_ : nullptr; }
    int classificationCount() const { return classifications_; }  // setClassification calls so far
    WordStrip* strip() const { return strip_; }
    QTableWidget* probabilities() const { return probabilities_; }
    HeadGridWidget* heads() const { return heads_; }
    QPushButton* classifyButton() const { return classify_; }

    // Live head ablation (a Transformer's heads): the heads switched off for the next requests.
    void setAblationMode(bool on);
    bool ablationMode() const;
    const std::vector<HeadId>& switchedOff() const { return off_; }
    void setSwitchedOff(std::vector<HeadId> heads);  // asks for the text again
    QPushButton* ablationButton() const { return ablate_; }
    QString ablationSummary() const;  // the line under the label; empty with every head on

Q_SIGNALS:
    // The user asked for this text (Return or the button); it becomes the probe too.
    void classifyRequested(const QString& text);

private:
    void request();
    void showSwitchedOff();

    QLineEdit* input_;
    QPushButton* classify_;
    QLabel* placeholder_;
    QLabel* label_;
    QLabel* status_;
    QTableWidget* probabilities_;
    WordStrip* strip_;
    QLabel* historyTitle_;
    WordStrip* history_;
    std::vector<WordRow> historyRows_;
    std::vector<std::string> historyTokens_;
    QLabel* headsTitle_;
    QPushButton* ablate_;
    QPushButton* allOn_;
    QLabel* ablation_;
    HeadGridWidget* heads_;
    std::vector<HeadId> off_;
    std::optional<Classification> full_;  // the last classification with every head on
    std::optional<Classification> result_;
    int classifications_ = 0;
    QStringList labels_;
};

}  // namespace attnlab
