#pragma once
// The Transformer's sinusoidal positional encoding (core/base/PositionalEncoding.h), with its formula:
// a heatmap of the table (positions x dimensions, values in [-1, 1] on a diverging colour map) and
// one of the cosine similarity between positions, whose constant diagonals show that the encoding
// lets attention read relative position. Spin boxes choose the number of positions and d_model;
// d_model follows the current Transformer when one is loaded (else 128).
#include "views/View.h"
#include "widgets/HeatmapWidget.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QSpinBox;

namespace attnlab {

struct ModelConfig;

class PositionalEncodingView : public QWidget, public View {
    Q_OBJECT

public:
    static constexpr int kDefaultModelWidth = 128;
    static constexpr int kDefaultPositions = 50;

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void modelChanged(const ModelInfo* model) override;

    explicit PositionalEncodingView(QWidget* parent = nullptr);

    // The model whose table to show: a Transformer's d_model (and its maximum length caps the
    // positions); nullptr or a GRU goes back to the default width.
    void setModel(const ModelConfig* config);
    // The model's d_model and positions (0, 0: no Transformer; the explorer's own sizes).
    void setModelShape(int width, int maxPositions);
    int modelWidth() const;   // d_model shown
    int positions() const;
    void setModelWidth(int d);
    void setPositions(int positions);
    int transformerWidth() const { return transformerWidth_; }  // 0 without a Transformer

    HeatmapWidget* encodingHeatmap() const { return encoding_; }
    HeatmapWidget* similarityHeatmap() const { return similarity_; }
    QLabel* formula() const { return formula_; }

private:
    void refresh();
    void updateModelNote();

    int transformerWidth_ = 0;
    QSpinBox* positions_;
    QSpinBox* width_;
    QPushButton* useModel_;
    QLabel* modelNote_;
    QLabel* formula_;
    HeatmapWidget* encoding_;
    HeatmapWidget* similarity_;
};

}  // namespace attnlab
