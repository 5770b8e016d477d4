#pragma once
// The Generate view of the language model: type a prompt, and the model continues it, greedily or
// sampled with the decoding lab's temperature, top-k, top-p and seed. The continuation's tokens can
// be clicked: for the chosen one, the attention of the query that predicted it over what it read
// (every head of every layer, and each layer's mean, as rows of words) and the most probable next
// tokens at that step. Works while the model trains: each report continues the prompt again. A
// prompt longer than the context is cut to its most recent tokens, and the view says how many were
// left out.
#include "engine/lm/LmModel.h"
#include "views/View.h"
#include <QWidget>
#include <memory>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTextBrowser;

namespace attnlab {

class WordStrip;

class LmGenerateView : public QWidget, public View {
    Q_OBJECT
public:
    explicit LmGenerateView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;
    void modelAvailable(bool available) override;
    bool exportsFigure() const override { return answer_ != nullptr; }
    // PNG, SVG or PDF: the chosen token's attention rows.
    bool exportView(const QString& path, double scale, QString* error) const override;

    QString prompt() const;
    void setPrompt(const QString& prompt);
    LmGenerateOptions options() const;
    // Generate's answer; the last generated token is chosen.
    void setGenerated(const LmGenerated& answer);
    void setFailed(const QString& message);
    // The generated token (0-based step) whose attention and distribution are shown.
    void chooseStep(int step);
    int chosenStep() const { return step_; }
    bool hasAnswer() const { return answer_ != nullptr; }
    QString continuation() const;
    QPushButton* generateButton() const { return generate_; }
    WordStrip* attentionStrip() const { return strip_; }
    QTableWidget* nextTable() const { return next_; }
    QLabel* note() const { return note_; }

Q_SIGNALS:
    void generateRequested();

private:
    void showTokens();
    void showStep();

    QPlainTextEdit* prompt_;
    QSpinBox* maxNew_;
    QCheckBox* sample_;
    QDoubleSpinBox* temperature_;
    QSpinBox* topK_;
    QDoubleSpinBox* topP_;
    QSpinBox* seed_;
    QPushButton* generate_;
    QLabel* note_;
    QTextBrowser* tokens_;
    QLabel* stepTitle_;
    WordStrip* strip_;
    QTableWidget* next_;
    std::shared_ptr<const LmGenerated> answer_;
    int step_ = -1;
    bool available_ = false;
};

}  // namespace attnlab
