#pragma once
// The Image view of the Images task: an image with the model's attention over it. For a ViT, the
// predicted label and the most probable classes, and a choice of what is drawn: the attention
// rollout, one layer's [CLS] row with the heads averaged, or one layer's and head's [CLS] row;
// hovering a patch draws what that patch attends to (its row of the chosen layer and head) on the
// image and what attends to it (its column) beside, with a status line. For a captioner, the caption
// as clickable words, the chosen word's attention over the image and a strip of every word's.
// Controls: opacity, nearest or smoothed upsampling, colour map. The image comes from Open Image…,
// a dropped file or the dataset browser below (the current dataset's first images); it is also the
// session's probe, looked at every few batches while a model trains (ImageSession).
#include "views/View.h"
#include "render/ImageOverlay.h"
#include "base/vision/Captions.h"
#include "engine/vision/ImageModels.h"
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QScrollArea;
class QSlider;
class QTableWidget;

namespace attnlab {

class FigureCanvas;
class ImageCanvas;

class ImageView : public QWidget, public View {
    Q_OBJECT
public:
    explicit ImageView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;  // the model's answers go; the image stays
    void modelAvailable(bool available) override;
    void applyColormap(ColormapId id) override;
    bool exportsFigure() const override { return classification_.has_value() || captioning_.has_value(); }
    bool exportView(const QString& path, double scale, QString* error) const override;

    // The image shown (and looked at: imageChosen), with the objects whose boxes are known (a
    // generated scene's; none for a file): a captioner's words are then scored against each box.
    void setImage(const Image& image, const QString& name, std::vector<SceneObject> objects = {},
                  std::optional<Box> box = std::nullopt);
    const std::vector<SceneObject>& objects() const { return objects_; }
    // Where the class is decided in the image shown (a glyph's mark, in its pixels), if known.
    const std::optional<Box>& box() const { return box_; }
    const Image& image() const { return image_; }
    QString imageName() const { return imageName_; }
    // Decodes a PNG or JPEG file and shows it; false with a one-line message naming the file.
    bool openImageFile(const QString& path);
    // The dataset browser's images (the first kBrowserImages); either kind, or none.
    void setDataset(std::shared_ptr<const ImageDataset> images);
    void setDataset(std::shared_ptr<const CaptionDataset> captions);
    void selectDatasetImage(int index);

    void setClasses(const QStringList& classes) { classes_ = classes; }  // a ViT's, in probability order
    void setClassification(const ImageClassification& result);
    void setCaptioning(const Captioning& result);
    void setFailed(const QString& message);  // one line under the buttons
    QString errorText() const;

    // What the picture shows: 0 = rollout, then per layer "heads averaged", then per layer and head.
    int selectionCount() const;
    void setSelection(int index);
    // A patch (ViT) or cell (captioner) hovered, -1 for none: the row and column drawn, the status line.
    void hoverCell(int cell);
    const std::vector<float>& hoverRow() const { return hoverRow_; }
    const std::vector<float>& hoverColumn() const { return hoverColumn_; }
    QString hoverStatus() const;
    // A caption's word, chosen by clicking it.
    void selectWord(int index);
    int selectedWord() const { return word_; }
    int wordCount() const;
    // The weights drawn now over the picture (rows * cols), empty if none.
    const std::vector<float>& shownWeights() const { return shown_; }
    // A captioner on an image with objects: one row per word with its class (article, colour, shape,
    // relation: CaptionGrounding.h) and whether its peak is on the object it belongs to, then one
    // column per object, each cell the share of the word's attention inside the object's box, marked
    // where the word's peak lies (in the box or within half a cell of it); under it, per word class
    // and noun phrase, how many words' peaks are on their own object.
    QTableWidget* inBoxTable() const { return inBox_; }
    QString inBoxSummary() const;
    const CaptionGrounding* grounding() const { return grounding_ ? &*grounding_ : nullptr; }
    // Above a captioner's map: the step it belongs to ("While writing “box” ..."); empty otherwise.
    QString mapLabel() const;
    OverlayStyle style() const;

    const ImageClassification* classification() const { return classification_ ? &*classification_ : nullptr; }
    const Captioning* captioning() const { return captioning_ ? &*captioning_ : nullptr; }
    ImageCanvas* canvas() const { return canvas_; }
    FigureCanvas* strip() const { return strip_; }
    QListWidget* browser() const { return browser_; }
    QComboBox* selector() const { return selector_; }
    QSlider* opacitySlider() const { return opacity_; }
    QCheckBox* smoothBox() const { return smooth_; }
    QComboBox* colormapBox() const { return colormap_; }
    QPushButton* openButton() const { return open_; }

    static constexpr int kBrowserImages = 120;

Q_SIGNALS:
    void imageChosen(const attnlab::Image& image);  // look at it; it becomes the probe

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void chooseFile();
    void fillBrowser();
    void rebuildSelector();
    void rebuildWords();
    void rebuildInBox();
    void redraw();  // the picture, the hover panel, the strip
    void updateHoverStatus();
    std::vector<float> selectedMap(int* size) const;  // (1+N)^2 of the chosen layer (heads averaged or one)

    QPushButton* open_;
    QLabel* name_;
    QLabel* error_;
    QLabel* placeholder_;
    QWidget* wordsRow_;
    QLabel* mapLabel_;
    ImageCanvas* canvas_;
    QLabel* label_;
    QTableWidget* probabilities_;
    QLabel* inBoxTitle_;
    QTableWidget* inBox_;
    QLabel* inBoxSummary_;
    QLabel* showLabel_;
    QComboBox* selector_;
    QSlider* opacity_;
    QCheckBox* smooth_;
    QComboBox* colormap_;
    QLabel* hoverTitle_;
    ImageCanvas* attendedBy_;
    QLabel* hoverStatus_;
    QLabel* stripTitle_;
    FigureCanvas* strip_;
    QScrollArea* stripArea_;  // the strip's row, scrolling sideways
    QListWidget* browser_;

    Image image_;
    QString imageName_;
    QStringList classes_;
    std::shared_ptr<const ImageDataset> images_;
    std::shared_ptr<const CaptionDataset> captions_;
    std::optional<ImageClassification> classification_;
    std::optional<Captioning> captioning_;
    std::vector<SceneObject> objects_;
    CaptionWords words_;  // the dataset's colour and shape words (the image's own are added)
    std::optional<CaptionGrounding> grounding_;
    std::optional<Box> box_;
    std::vector<float> shown_;
    std::vector<float> hoverRow_, hoverColumn_;
    int hovered_ = -1;
    int word_ = 0;
    QString lastDirectory_;
};

}  // namespace attnlab
