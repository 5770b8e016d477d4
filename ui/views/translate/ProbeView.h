#pragma once
// The live probe: one sentence the worker re-translates as the model trains (every N batches or
// every epoch), so attention can be watched forming.
#include "views/View.h"
#include "widgets/AttentionPanel.h"
#include "task/translate/TranslationTypes.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;

namespace attnlab {

class ProbeView : public QWidget, public View {
    Q_OBJECT

public:
    explicit ProbeView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    HeatmapWidget* zoomableHeatmap() const override;
    void clearView() override;
    void runStarted() override;
    void applyColormap(ColormapId id) override;
    void applyShowNumbers(bool on) override;
    bool exportsFigure() const override;
    bool exportsMatrix() const override;
    bool exportView(const QString& path, double scale, QString* error) const override;

    QString sentence() const;
    void setSentence(const QString& sentence);  // does not emit probeChanged
    int everyBatches() const;                   // 0: after every epoch
    void setEveryBatches(int batches);
    void setResult(const ProbeResult& result);
    void clear();
    int updates() const { return updates_; }  // results shown since the last clear()
    AttentionPanel* attention() const { return attention_; }

Q_SIGNALS:
    void probeChanged(const QString& sentence, int everyBatches);

private:
    void emitChanged();

    QLineEdit* input_;
    QComboBox* cadence_;
    QLabel* status_;
    QLabel* output_;
    AttentionPanel* attention_;
    int updates_ = 0;
};

}  // namespace attnlab
