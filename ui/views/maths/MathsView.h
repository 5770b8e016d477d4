#pragma once
// Step by step: how the attention of one output token came about, with the model's own numbers.
// For a chosen row of a translation's attention map it shows the formula and, per source token, the
// raw score, the scaled score, the mask and the softmax weight, then the context vector as the
// weighted sum of the encoder states; every stage has a sentence that says what it does. A
// Transformer adds kind, layer and head selectors. The numbers come from the worker
// (TranslationSession::trace); this view only lays them out.
#include "views/View.h"
#include "engine/translation/AttentionTrace.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QTableWidget;

namespace attnlab {

class MathsView : public QWidget, public View {
    Q_OBJECT

public:
    // Columns of the stage table, one per step of the computation.
    enum Column { TokenColumn, ScoreColumn, ScaledColumn, MaskColumn, SoftmaxInputColumn, WeightColumn, ColumnCount };
    // Dimensions of the vectors shown (the first ones; the model's may be far longer).
    static constexpr int kShownDimensions = 8;
    // Cells of the tables keep the exact number under this role (the text is rounded to 4 decimals).
    static constexpr int kValueRole = Qt::UserRole + 1;

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;
    void modelAvailable(bool available) override;

    explicit MathsView(QWidget* parent = nullptr);

    QString sentence() const;  // the text in the box
    void setSentence(const QString& sentence);
    // The row, kind, layer and head the selectors show, for the sentence last submitted.
    TraceRequest request() const;
    void setTrace(const AttentionTrace& trace);
    void setError(const QString& message);
    void setModelAvailable(bool available);
    void clear();
    bool hasTrace() const { return hasTrace_; }
    const AttentionTrace& trace() const { return trace_; }
    QString submittedSentence() const { return submitted_; }

    QLineEdit* input() const { return input_; }
    QComboBox* tokenChooser() const { return token_; }
    QComboBox* kindChooser() const { return kind_; }
    QComboBox* layerChooser() const { return layer_; }
    QComboBox* headChooser() const { return head_; }
    QWidget* transformerControls() const { return transformerControls_; }
    QTableWidget* table() const { return table_; }
    QTableWidget* contextTable() const { return context_; }
    QLabel* formula() const { return formula_; }
    QString caption(int stage) const;  // stages 1 to 5

    // How the view writes a number: 4 decimals, a true minus sign, "−∞" for minus infinity.
    static QString formatNumber(double value);

public Q_SLOTS:
    void requestTrace();  // the sentence in the box, from its first output token
    void refresh();       // the submitted sentence and selected row again (e.g. after training)

Q_SIGNALS:
    void traceRequested(const QString& sentence, const attnlab::TraceRequest& request);

private:
    void requestSelected();
    void showTrace();
    void updateSelectors();
    void fillStageTable();
    void fillContextTable();
    QString tokenLine() const;
    QString scoreSymbol() const;
    QString stageCaption(int stage) const;

    AttentionTrace trace_;
    bool hasTrace_ = false;
    QString submitted_;

    QLineEdit* input_;
    QPushButton* show_;
    QLabel* status_;
    QStackedWidget* stack_;
    QLabel* message_;
    QComboBox* token_;
    QLabel* tokenLabel_;
    QWidget* transformerControls_;
    QComboBox* kind_;
    QComboBox* layer_;
    QComboBox* head_;
    QLabel* sentenceLine_;
    QLabel* formula_;
    QLabel* query_;
    QLabel* stages_[5];
    QTableWidget* table_;
    QTableWidget* context_;
};

}  // namespace attnlab
