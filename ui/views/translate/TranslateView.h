#pragma once
// Type a sentence, press Enter: the model's output tokens and the cross-attention that produced
// them. Works while training runs (the request is answered between batches).
//
// Token edits: double-click a source word's label to mask it (the model reads <unk> there) or
// drop it; the edited sentence is translated (editRequested, answered by setEditedTranslation) and
// shown beside what the sentence as typed gave, until Undo Edits or a new translation.
#include "views/View.h"
#include "widgets/AttentionPanel.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace attnlab {

class TranslateView : public QWidget, public View {
    Q_OBJECT

public:
    explicit TranslateView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    HeatmapWidget* zoomableHeatmap() const override;
    void clearView() override;
    void modelAvailable(bool available) override;
    void applyColormap(ColormapId id) override;
    void applyShowNumbers(bool on) override;
    bool exportsFigure() const override;
    bool exportsMatrix() const override;
    bool exportView(const QString& path, double scale, QString* error) const override;

    QString sentence() const;
    void setSentence(const QString& sentence);
    int beam() const;
    bool followsTraining() const;  // re-translate after every epoch
    void setTranslation(const Translation& translation);
    void setError(const QString& message);
    void setModelAvailable(bool available);
    void clear();
    AttentionPanel* attention() const { return attention_; }

    enum class TokenEdit { Mask, Drop };
    // Edits source word `column` (0-based, </s> excluded) of what is shown and asks for the
    // edited source; false when there is no such word (or dropping it would leave none).
    bool editToken(int column, TokenEdit edit);
    void setEditedTranslation(const Translation& translation);
    void undoEdits();
    bool showsEdit() const { return edited_; }
    QStringList editedWords() const { return editedWords_; }
    QString editSummary() const;  // the line under the output while an edit is shown
    QLineEdit* input() const { return input_; }

public Q_SLOTS:
    void requestTranslation();  // emits translateRequested for the sentence in the box

Q_SIGNALS:
    void translateRequested(const QString& sentence, int beam);
    // The source as these tokens (token edits), translated like the sentence.
    void editRequested(const QStringList& words, int beam);

private:
    QLineEdit* input_;
    QSpinBox* beam_;
    QPushButton* translate_;
    QCheckBox* follow_;
    QLabel* output_;
    QLabel* details_;
    AttentionPanel* attention_;
    int editsSinceHistoryReset_ = 0;  // see requestTranslation()
    // Token edits.
    void chooseTokenEdit(int column);
    QWidget* editRow_;
    QLabel* editNote_;
    QToolButton* undoEdits_;
    Translation original_;      // the sentence as typed
    QStringList editedWords_;   // the source sent for the shown edit
    QStringList editLog_;       // "masked «cat»", "dropped «the»"
    bool edited_ = false;       // the shown translation is of editedWords_
    bool editPending_ = false;
};

}  // namespace attnlab
