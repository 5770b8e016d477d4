#pragma once
// Every attention head of a Transformer: the heads of one layer as thumbnails, the whole model as a
// layers x heads overview, and the head clicked last enlarged beside them. Hovering a token
// highlights its row and column in every map. A GRU has one attention map; the view says so and
// shows it.
//
// Show: Lines draws the layer's heads as BertViz's head view does (LineViewWidget), with a threshold:
// each row's largest weights up to a share of its mass.
//
// Head ablation (Michel et al. 2019): with "Switch heads off" pressed, clicking a head switches it
// off or on again; "Layer off" and "Kind off" switch off every head of the shown layer or kind,
// "All on" ends it. While heads are off the maps are the ablated model's (the heads that are off
// crossed out), and a line gives its output beside the full model's and the probability the
// ablated model still gives the full model's output.
#include "views/View.h"
#include "widgets/HeadGridWidget.h"
#include "widgets/HeatmapWidget.h"
#include "widgets/LineViewWidget.h"

#include "base/AttentionMap.h"
#include "base/translation/HeadAblation.h"
#include "base/translation/ModelConfig.h"
#include "engine/translation/HeadImportance.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QToolButton;

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
    // The line view (Show: Lines): the layer's heads as lines between two columns of tokens.
    bool showsLines() const;
    // Layer "rollout" (encoder self-attention only): the attention rollout through every layer.
    bool showsRollout() const;
    void setShowRollout(bool on);
    void setShowLines(bool on);
    LineViewWidget* lineView() const { return lines_; }
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

    // Head ablation. The heads switched off, sorted; empty = every head on.
    const std::vector<HeadId>& switchedOff() const { return off_; }
    // Replaces the set (sorted, each head once) and asks for the sentence again: ablationRequested
    // while heads are off, translateRequested when the set becomes empty.
    void setSwitchedOff(std::vector<HeadId> heads);
    void toggleHead(const HeadId& head);
    bool ablationMode() const;
    void setAblationMode(bool on);  // clicks switch heads off and on instead of enlarging them
    // The answer to ablationRequested: the maps become the ablated model's.
    void setAblatedTranslation(const AblatedTranslation& result);
    void setAblationFailed(const QString& message);
    bool showsAblation() const { return showsAblation_; }
    QString ablationSummary() const;  // the line under the controls ("" while every head is on)
    QToolButton* ablationButton() const { return ablate_; }
    const Translation& shownTranslation() const { return translation_; }  // whose maps are on screen
    const Translation& fullTranslation() const { return original_; }      // every head on

Q_SIGNALS:
    void translateRequested(const QString& sentence, int beam);
    // The shown sentence is wanted with switchedOff() switched off (answer: setAblatedTranslation).
    void ablationRequested(const QString& sentence);

private:
    void refresh();
    void showHead(int layer, int head);
    void updateLayers(int count);
    const LayeredAttention* currentLayers() const;
    QString kindTitle() const;
    void requestAgain();
    void updateAblationControls();
    void updateSwitchedOffMarks();
    void refreshLinesNote();

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
    // Ablation.
    QWidget* ablationControls_;
    QToolButton* ablate_;
    QToolButton* layerOff_;
    QToolButton* kindOff_;
    QToolButton* allOn_;
    QLabel* ablationLabel_;
    // The line view.
    QComboBox* show_;
    QWidget* linesPage_;
    LineViewWidget* lines_;
    QLabel* linesNote_;
    std::vector<HeadId> off_;
    bool showsAblation_ = false;  // translation_ is the ablated model's
    Translation original_;        // the full model's translation of the sentence
    double originalLogProbability_ = 0.0;  // of original_'s output, every head on
    double ablatedLogProbability_ = 0.0;   // the same output with off_ switched off
    ColormapId colormap_ = ColormapId::Viridis;
};

}  // namespace attnlab
