#pragma once
// The text-classification task's dataset browser: every text of the corpus with its label and, for
// the built-in datasets, its gold rationale (the words that decide the label). Select a text to see
// the rationale against the model's attention on it, word by word (the model is asked through the
// window: attentionRequested -> ClassifierSession::classify -> setAttention); the buttons send the
// text to the Classify or the Explain view.
#include "views/View.h"
#include "base/text/ClassifyCorpus.h"
#include "engine/text/TextClassifier.h"
#include <QWidget>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace attnlab {

class ClassifyCorpusModel;
class WordStrip;

class TextsView : public QWidget, public View {
    Q_OBJECT
public:
    explicit TextsView(QWidget* parent = nullptr);
    ~TextsView() override;

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;  // forgets the attention shown (the corpus stays)
    void modelAvailable(bool available) override;
    bool exportsFigure() const override;
    bool exportView(const QString& path, double scale, QString* error) const override;

    void setCorpus(std::shared_ptr<const ClassificationCorpus> corpus);
    const ClassificationCorpus* corpus() const { return corpus_.get(); }
    // Selects the corpus' example at index (-1: none).
    void selectExample(int index);
    int selectedExample() const { return selected_; }
    // The model's classification of the selected text.
    void setAttention(const Classification& result);
    QTableView* table() const { return table_; }
    WordStrip* strip() const { return strip_; }
    QString summary() const;

Q_SIGNALS:
    void attentionRequested(const QString& text);
    void classifyRequested(const QString& text);
    void explainRequested(const QString& text);

private:
    void showSelected();

    std::shared_ptr<const ClassificationCorpus> corpus_;
    ClassifyCorpusModel* model_;
    QSortFilterProxyModel* filter_;
    QComboBox* labelFilter_;
    QLabel* summary_;
    QTableView* table_;
    QLabel* detail_;
    WordStrip* strip_;
    QPushButton* toClassify_;
    QPushButton* toExplain_;
    int selected_ = -1;
    bool modelAvailable_ = false;
    std::optional<Classification> attention_;
};

}  // namespace attnlab
