#pragma once
// The Images task's setup panel: the data (generated glyphs, Debian's Fashion-MNIST, an image
// folder DIR/CLASS/*.png, generated scenes with captions, or a caption TSV), the model, which follows
// the data (a ViT for classes, a captioner for captions), the training settings and the buttons
// (Train, Stop, Reset, Open Model, Save Model). The window's Task box shows it for "Images".
#include "base/vision/ImageDatasets.h"
#include "engine/vision/VisionTrainer.h"
#include "setup/TaskSetupPanel.h"
#include <QString>

class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QSpinBox;

namespace attnlab {

struct ImageDataChoice {
    QString dataset = QStringLiteral("glyphs");  // "glyphs", "fashion-mnist", "folder", "scenes", "captions"
    QString path;      // the folder, or the caption TSV
    int size = static_cast<int>(kDefaultGlyphCount);  // images to generate or read at most
    std::uint64_t seed = 1;
    double noise = 0;  // scenes: the background's noise (SceneOptions::noise)
    bool isCaptions() const { return dataset == QLatin1String("scenes") || dataset == QLatin1String("captions"); }
    bool needsPath() const { return dataset == QLatin1String("folder") || dataset == QLatin1String("captions"); }
    QString describe() const;  // for messages and the window title
};

// The signals (dataChanged, chooseFileRequested: a folder or TSV, the task shows
// the dialog, then setData), setState, setStatus and status are TaskSetupPanel's.
class ImageSetupPanel : public TaskSetupPanel {
    Q_OBJECT
public:
    explicit ImageSetupPanel(QWidget* parent = nullptr);

    ImageDataChoice data() const;
    void setData(const ImageDataChoice& choice);  // emits dataChanged
    VitConfig vitConfig() const;
    void setVitConfig(const VitConfig& config);
    CaptionerConfig captionerConfig() const;
    void setCaptionerConfig(const CaptionerConfig& config);
    VisionTrainingOptions options() const;
    void setOptions(const VisionTrainingOptions& options);

private:
    VisionTrainingOptions options_;  // the last written: what the Training group does not show comes along
    bool readsFile() const override;
    bool datasetChosen() override;
    void enableRows() override;
    void followModelDefaults();
    bool captionsShown_ = false;

    QDoubleSpinBox* noise_;
    QGroupBox* vitBox_;
    QSpinBox* patch_;
    QSpinBox* hidden_;
    QSpinBox* heads_;
    QSpinBox* layers_;
    QGroupBox* captionerBox_;
    QComboBox* attention_;
    QDoubleSpinBox* lambda_;
    QSpinBox* captionHidden_;
    VitConfig vit_;
    CaptionerConfig captioner_;
};

}  // namespace attnlab
