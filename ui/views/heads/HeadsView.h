#pragma once
// Every attention head of a Transformer: the heads of one layer as thumbnails, the whole model as a
// layers x heads overview, and the head clicked last enlarged beside them. Hovering a token
// highlights its row and column in every map. A GRU has one attention map; the view says so and
// shows it.
#include "views/View.h"
#include "widgets/HeadGridWidget.h"
#include "widgets/HeatmapWidget.h"

#include "base/AttentionMap.h"
#include "base/translation/ModelConfig.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;

namespace attnlab {

class HeadsView : public QWidget, public View {
    Q_OBJECT

public:
    explicit HeadsView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    HeatmapWidget* zoomableHeatmap() const override { return currentHeatmap(); }
    void clearView() override;
    void modelChanged(const ModelInfo* model) override;
    void modelAvailable(bool available) override;
    void applyColormap(ColormapId id) override;
    void applyShowNumbers(bool on) override;
    bool exportsFigure() const override;
    bool exportsMatrix() const override;
    bool exportView(const QString& path, double scale, QString* error) const override;

    QString sentence() const;
    void setSentence(const QString& sentence);
    void setTranslation(const Translation& translation);
    // Of the model that translates (an empty output carries no attention to tell it by).
    void setArchitecture(Architecture architecture);
    void setModelAvailable(bool available);
    void clear();

    void setColormap(ColormapId id);
    void setShowNumbers(bool on);

    MapKind kind() const;
    void setKind(MapKind kind);
    int layer() const;
    int selectedHead() const { return selectedHead_; }
    bool showsTransformer() const;
    bool showsGru() const;

    HeadGridWidget* layerGrid() const { return layerGrid_; }
    HeadGridWidget* overview() const { return overview_; }
    HeatmapWidget* enlarged() const { return enlarged_; }
    HeatmapWidget* gruHeatmap() const { return gruMap_; }
    // The figure an export of this view writes: the layer grid (Transformer) or the one map (GRU).
    bool exportFigure(const QString& path, QString* error, double scale) const;
    // The matrix an export writes (the enlarged head, or the GRU map); nullptr if none.
    HeatmapWidget* currentHeatmap() const;
    // One file per head of every layer of the selected kind, named kind-layerL-headH.ext.
    bool exportAllHeads(const QString& directory, const QString& extension, double scale, QStringList* written,
                        QString* error) const;

    // Row and column labels of a kind of attention (e.g. decoder self-attention columns are "<s>"
    // followed by the output but its last token).
    static void labelsFor(const Translation& t, MapKind kind, QStringList* rows, QStringList* columns);

Q_SIGNALS:
    void translateRequested(const QString& sentence, int beam);

private:
    void refresh();
    void showHead(int layer, int head);
    void updateLayers(int count);
    const LayeredAttention* currentLayers() const;
    QString kindTitle() const;

    Translation translation_;
    QLineEdit* input_;
    QComboBox* kind_;
    QComboBox* layer_;
    QComboBox* scale_;
    QWidget* transformerControls_;
    QStackedWidget* stack_;
    QLabel* message_;
    QWidget* transformerPage_;
    QWidget* gruPage_;
    QLabel* gruExplanation_;
    HeadGridWidget* layerGrid_;
    HeadGridWidget* overview_;
    QLabel* enlargedCaption_;
    HeatmapWidget* enlarged_;
    HeatmapWidget* gruMap_;
    Architecture architecture_ = Architecture::Gru;
    int selectedHead_ = 0;
    ColormapId colormap_ = ColormapId::Viridis;
};

}  // namespace attnlab
