#pragma once
// One translation's cross-attention as a heatmap (output tokens on rows, source tokens on columns),
// with a layer and head choice for a Transformer (the mean of the heads by default) and zoom
// buttons. Shows a sentence of explanation instead of an empty plot when there is nothing to draw.
// Under the map, a line sums the attention of the tokens selected in it (see HeatmapWidget).
#include "widgets/HeatmapWidget.h"

#include "base/AttentionMap.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QStackedWidget;

namespace attnlab {

class AttentionPanel : public QWidget {
    Q_OBJECT

public:
    explicit AttentionPanel(QWidget* parent = nullptr);

    // Keeps the chosen layer and head when the new translation has them (live updates).
    void setTranslation(const Translation& translation);
    void showMessage(const QString& message);  // instead of a heatmap
    const Translation& translation() const { return translation_; }
    bool hasMap() const;

    HeatmapWidget* heatmap() const { return heatmap_; }
    QLabel* selectionInfo() const { return selectionInfo_; }
    int layer() const;  // selected layer, -1 for the last
    int head() const;   // selected head, -1 for the mean of all heads
    void setSelection(int layer, int head);

    static AttentionMap meanOfHeads(const std::vector<AttentionMap>& heads);

Q_SIGNALS:
    // The map on screen changed (new translation, layer or head), or a message replaced it.
    void mapChanged();

private:
    void refresh();
    void updateSelectionInfo();
    void updateSelectors(int layers, int heads);

    Translation translation_;
    QWidget* selectors_;
    QComboBox* layer_;
    QComboBox* head_;
    QStackedWidget* stack_;
    QLabel* message_;
    HeatmapWidget* heatmap_;
    QLabel* selectionInfo_;
};

}  // namespace attnlab
