#pragma once
// Type a sentence, press Enter: the model's output tokens and the cross-attention that produced
// them. Works while training runs (the request is answered between batches).
#include "views/View.h"
#include "widgets/AttentionPanel.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

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
    QLineEdit* input() const { return input_; }

public Q_SLOTS:
    void requestTranslation();  // emits translateRequested for the sentence in the box

Q_SIGNALS:
    void translateRequested(const QString& sentence, int beam);

private:
    QLineEdit* input_;
    QSpinBox* beam_;
    QPushButton* translate_;
    QCheckBox* follow_;
    QLabel* output_;
    QLabel* details_;
    AttentionPanel* attention_;
    int editsSinceHistoryReset_ = 0;  // see requestTranslation()
};

}  // namespace attnlab
