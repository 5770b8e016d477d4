#pragma once
// The Images task's heads view: a ViT's every head at once, as the Heads view does for text. A
// layers x heads grid of small overlays of the image, each one head's [CLS] row over the patches
// (renormalised over the patches: where that head reads the image for the class token); a click
// enlarges a head beside the grid. Fed with the Image view's classification (the image shown).
#include "views/View.h"

#include "engine/vision/ImageModels.h"
#include "render/ImageOverlay.h"

#include <QWidget>

#include <optional>
#include <vector>

class QGridLayout;
class QLabel;

namespace attnlab {

class ImageCanvas;

class ImageHeadsView : public QWidget, public View {
    Q_OBJECT
public:
    explicit ImageHeadsView(QWidget* parent = nullptr);

    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;
    void modelAvailable(bool available) override;
    void applyColormap(ColormapId id) override;
    bool exportsFigure() const override { return result_.has_value(); }
    // .png / .svg / .pdf: every head's overlay, labelled "layer L, head H".
    bool exportView(const QString& path, double scale, QString* error) const override;

    // A ViT's answer for an image (a captioner has no heads: setNoHeads).
    void setClassification(const Image& image, const ImageClassification& c);
    void setNoHeads(const QString& why);
    // [CLS]'s row of one head over the patches, renormalised to sum to 1.
    static std::vector<float> clsRow(const AttentionMap& head);

    int layers() const;
    int headsPerLayer() const;
    const std::vector<ImageCanvas*>& cells() const { return cells_; }
    ImageCanvas* enlarged() const { return large_; }
    void enlarge(int layer, int head);
    int enlargedLayer() const { return layer_; }
    int enlargedHead() const { return head_; }
    QString messageText() const;

private:
    void rebuild();
    void redrawLarge();

    std::optional<ImageClassification> result_;
    Image image_;
    OverlayStyle style_;
    int layer_ = 0, head_ = 0;
    QLabel* message_;
    QWidget* gridHost_;
    QGridLayout* grid_;
    std::vector<ImageCanvas*> cells_;
    std::vector<QLabel*> labels_;
    QLabel* largeTitle_;
    ImageCanvas* large_;
};

}  // namespace attnlab
