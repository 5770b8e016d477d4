#pragma once
// The Heads view of the language model: every layer's and head's attention over a text (rows: the
// layers, columns: the heads), the head clicked last enlarged beside them, and the line view of one
// layer (BertViz's head view). Hovering a token in a thumbnail highlights its row and column in every
// map and in the enlarged one. The text is the task's probe: while the model trains the maps are
// read again every few batches, so the learner watches the heads form. A causal model's rows put no
// weight right of the diagonal; a masked model's attend both ways.
#include "engine/lm/LmModel.h"
#include "views/View.h"
#include <QWidget>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;

namespace attnlab {

class HeadGridWidget;
class LineViewWidget;

class LmHeadsView : public QWidget, public View {
    Q_OBJECT
public:
    explicit LmHeadsView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;
    void modelAvailable(bool available) override;
    void applyColormap(ColormapId id) override;
    void applyShowNumbers(bool on) override;
    HeatmapWidget* zoomableHeatmap() const override { return enlarged_; }
    bool exportsFigure() const override { return reading_.has_value(); }
    bool exportsMatrix() const override { return reading_.has_value(); }
    // PNG, SVG or PDF: the grid (or the line view when shown); CSV or NPY: the enlarged head.
    bool exportView(const QString& path, double scale, QString* error) const override;

    QString text() const;
    void setText(const QString& text);
    void setReading(const LmReading& reading);
    void setFailed(const QString& message);
    void selectHead(int layer, int head);
    std::pair<int, int> selectedHead() const { return {layer_, head_}; }
    bool showsLines() const;
    void setShowLines(bool on);
    HeadGridWidget* grid() const { return grid_; }
    HeatmapWidget* enlarged() const { return enlarged_; }
    LineViewWidget* lines() const { return lines_; }
    QLabel* note() const { return note_; }

Q_SIGNALS:
    // The learner asked for another text (Enter in the text field, or Show).
    void textChanged(const QString& text);

private:
    void showReading();

    QLineEdit* text_;
    QPushButton* show_;
    QComboBox* mode_;
    QComboBox* layerBox_;
    QLabel* note_;
    QStackedWidget* stack_;
    HeadGridWidget* grid_;
    HeatmapWidget* enlarged_;
    QLabel* enlargedTitle_;
    LineViewWidget* lines_;
    std::optional<LmReading> reading_;
    int layer_ = 0, head_ = 0;
};

}  // namespace attnlab
