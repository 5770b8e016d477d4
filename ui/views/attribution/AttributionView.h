#pragma once
// The translation task's attribution view: is the cross-attention an explanation of a translation?
// For a sentence and one output token of its greedy translation, the token's cross-attention row over
// the source beside the attribution methods of the explanation lab (gradient, gradient x input,
// integrated gradients, leave-one-out; engine/TranslationExplanation.h), as rows of source words on
// one colour scale, with Kendall's tau and Spearman's rho against the attention. Asks the
// TranslationSession (explainToken), like CompareView, so it works while a model trains.
#include "views/View.h"
#include "engine/translation/TranslationExplanation.h"
#include <QWidget>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace attnlab {

class TranslationSession;
class WordStrip;

class AttributionView : public QWidget, public View {
    Q_OBJECT
public:
    explicit AttributionView(TranslationSession* controller, QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;
    void modelAvailable(bool available) override;
    bool exportsFigure() const override { return result_.has_value(); }
    bool exportView(const QString& path, double scale, QString* error) const override;

    void setSentence(const QString& sentence);
    QString sentence() const;
    // Explains output token `index` (0 = the first) of the sentence's translation.
    void explain(int index = 0);
    const OutputTokenExplanation* result() const { return result_ ? &*result_ : nullptr; }
    WordStrip* strip() const { return strip_; }
    QComboBox* tokenChooser() const { return token_; }
    QTableWidget* agreement() const { return agreement_; }
    QString message() const;

private:
    void show(const OutputTokenExplanation& result);

    TranslationSession* controller_;
    QLineEdit* input_;
    QComboBox* token_;
    QPushButton* button_;
    QLabel* status_;
    QLabel* header_;
    WordStrip* strip_;
    QTableWidget* agreement_;
    QLabel* completeness_;
    quint64 request_ = 0;
    QString explainedSentence_;
    std::optional<OutputTokenExplanation> result_;
};

}  // namespace attnlab
