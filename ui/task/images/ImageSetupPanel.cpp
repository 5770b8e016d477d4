#include "task/images/ImageSetupPanel.h"
#include "setup/LessonControls.h"
#include "base/vision/Captions.h"
#include "base/vision/ImageDatasets.h"

#include <cmath>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QSpinBox>

namespace attnlab {

QString ImageDataChoice::describe() const {
    if (needsPath()) return QFileInfo(path).fileName();
    if (dataset == QLatin1String("scenes") && noise > 0) return QStringLiteral("scenes, noise %1").arg(noise);
    return dataset;
}

ImageSetupPanel::ImageSetupPanel(QWidget* parent) : TaskSetupPanel(parent) {
    const VisionTrainingOptions training;

    noise_ = new QDoubleSpinBox;
    noise_->setObjectName(QStringLiteral("sceneNoise"));
    noise_->setRange(0.0, 0.5);
    noise_->setSingleStep(0.02);
    noise_->setDecimals(2);
    noise_->setToolTip(tr("Scenes: 0 draws them on black in flat colours; above 0, on a dark grey background with "
                          "this much random noise on every pixel (the objects and captions stay the same)."));
    connect(noise_, &QDoubleSpinBox::editingFinished, this, &ImageSetupPanel::dataChanged);
    addDataGroup(QStringLiteral("imageDataset"),
                 {tr("Data"), tr("Dataset:"), tr("Images:"),
                  spin(8, 100000, static_cast<int>(kDefaultGlyphCount), tr("Images to generate, or to read at most.")),
                  {{tr("Noise:"), noise_}}, tr("Data seed:"),
                  spin(0, 1000000, 1, tr("The same seed gives the same images on every computer."))});
    dataset_->addItem(tr("glyphs: a mark among dashes, its box known"), QStringLiteral("glyphs"));
    dataset_->addItem(tr("Fashion-MNIST (Debian's dataset-fashion-mnist)"), QStringLiteral("fashion-mnist"));
    dataset_->addItem(tr("Image folder (DIR/CLASS/*.png)…"), QStringLiteral("folder"));
    dataset_->addItem(tr("scenes: coloured shapes with captions"), QStringLiteral("scenes"));
    dataset_->addItem(tr("Caption list (image, tab, caption)…"), QStringLiteral("captions"));
    dataset_->setToolTip(tr("Classes train a vision Transformer (ViT); captions train a captioner that attends "
                            "over the image as it writes."));

    vitBox_ = new QGroupBox(tr("Vision Transformer"));
    QFormLayout* vitForm = addGroup(vitBox_);
    patch_ = spin(1, 32, vit_.patch, tr("Patch side in pixels; it must divide the image side."));
    hidden_ = spin(8, 512, vit_.hidden, tr("The Transformer's width."));
    heads_ = spin(1, 16, vit_.heads, tr("Heads; they must divide the width."));
    layers_ = spin(1, 12, vit_.layers, tr("Encoder layers."));
    vitForm->addRow(tr("Patch size:"), patch_);
    vitForm->addRow(tr("Hidden size:"), hidden_);
    vitForm->addRow(tr("Heads:"), heads_);
    vitForm->addRow(tr("Layers:"), layers_);

    captionerBox_ = new QGroupBox(tr("Captioner"));
    QFormLayout* capForm = addGroup(captionerBox_);
    attention_ = new QComboBox;
    attention_->addItem(tr("additive (Bahdanau; Xu et al.)"), static_cast<int>(CaptionAttention::Additive));
    attention_->addItem(tr("dot (scaled)"), static_cast<int>(CaptionAttention::Dot));
    lambda_ = new QDoubleSpinBox;
    lambda_->setRange(0.0, 10.0);
    lambda_->setSingleStep(0.5);
    lambda_->setDecimals(2);
    lambda_->setValue(captioner_.doublyStochastic);
    lambda_->setToolTip(tr("Doubly stochastic attention: pushes every cell to be looked at about once over the "
                           "caption (0 = off)."));
    captionHidden_ = spin(16, 512, captioner_.hidden, tr("The GRU decoder's state size."));
    capForm->addRow(tr("Attention:"), attention_);
    capForm->addRow(tr("Coverage λ:"), lambda_);
    capForm->addRow(tr("Hidden size:"), captionHidden_);
    markLessonControls({{noise_, "noise"}, {patch_, "patch"}, {hidden_, "hidden"}, {heads_, "heads"}, {layers_, "layers"},
                        {attention_, "attention"}, {lambda_, "lambda"}, {captionHidden_, "caption_hidden"}});

    trainingBox_ = TrainingBox::add(layout_, training, tr("Passes over the training images."), tr("Images per update."),
                                   TrainingBox::Order::BatchThenRate);
    finish(QStringLiteral("image"), {attention_});
}

bool ImageSetupPanel::readsFile() const { return data().needsPath(); }

bool ImageSetupPanel::datasetChosen() {
    followModelDefaults();
    return readsFile();
}

ImageDataChoice ImageSetupPanel::data() const {
    ImageDataChoice c;
    c.dataset = datasetName();
    c.path = path_;
    c.size = size_->value();
    c.seed = static_cast<std::uint64_t>(dataSeed_->value());
    c.noise = c.dataset == QLatin1String("scenes") ? noise_->value() : 0.0;
    return c;
}

void ImageSetupPanel::setData(const ImageDataChoice& choice) {
    showData(choice.dataset, choice.path, choice.size, choice.seed, tr("File: %1"));
    noise_->setValue(choice.noise);
    captionsShown_ = data().isCaptions();  // a caller that sets the data sets the options too
    updateEnabled();
    Q_EMIT dataChanged();
}

VitConfig ImageSetupPanel::vitConfig() const {
    VitConfig c = vit_;
    c.patch = patch_->value();
    c.hidden = hidden_->value();
    c.heads = heads_->value();
    c.layers = layers_->value();
    return c;
}

void ImageSetupPanel::setVitConfig(const VitConfig& c) {
    vit_ = c;
    patch_->setValue(c.patch);
    hidden_->setValue(c.hidden);
    heads_->setValue(c.heads);
    layers_->setValue(c.layers);
}

CaptionerConfig ImageSetupPanel::captionerConfig() const {
    CaptionerConfig c = captioner_;
    c.attention = static_cast<CaptionAttention>(attention_->currentData().toInt());
    c.doublyStochastic = static_cast<float>(lambda_->value());
    c.hidden = captionHidden_->value();
    return c;
}

void ImageSetupPanel::setCaptionerConfig(const CaptionerConfig& c) {
    captioner_ = c;
    attention_->setCurrentIndex(attention_->findData(static_cast<int>(c.attention)));
    lambda_->setValue(c.doublyStochastic);
    captionHidden_->setValue(c.hidden);
}

VisionTrainingOptions ImageSetupPanel::options() const {
    return trainingBox_.read(options_);  // the fields the panel does not show (threads, ...) come along
}

void ImageSetupPanel::setOptions(const VisionTrainingOptions& o) {
    options_ = o;
    trainingBox_.write(o);
}

void ImageSetupPanel::followModelDefaults() {
    // Switching between classes (a ViT) and captions (a captioner) switches the training defaults
    // too, unless the learner has changed them: each model has its own (VisionTrainer.h).
    const bool captions = data().isCaptions();
    if (captions == captionsShown_) return;
    captionsShown_ = captions;
    const VisionTrainingOptions from = captions ? defaultVitTraining() : defaultCaptionerTraining();
    const VisionTrainingOptions to = captions ? defaultCaptionerTraining() : defaultVitTraining();
    if (std::abs(trainingBox_.learningRate->value() - from.learningRate) < 1e-9) trainingBox_.learningRate->setValue(to.learningRate);
    if (trainingBox_.epochs->value() == from.epochs) trainingBox_.epochs->setValue(to.epochs);
    if (trainingBox_.batch->value() == from.batchSize) trainingBox_.batch->setValue(to.batchSize);
    const int fromSize = static_cast<int>(captions ? kDefaultGlyphCount : kDefaultSceneCount);
    if (size_->value() == fromSize) size_->setValue(static_cast<int>(captions ? kDefaultSceneCount : kDefaultGlyphCount));
}

void ImageSetupPanel::enableRows() {
    const ImageDataChoice c = data();
    const bool generated = c.dataset == QLatin1String("glyphs") || c.dataset == QLatin1String("scenes");
    dataSeed_->setEnabled(generated);
    noise_->setEnabled(c.dataset == QLatin1String("scenes"));
    vitBox_->setVisible(!c.isCaptions());
    captionerBox_->setVisible(c.isCaptions());
    vitBox_->setEnabled(!busy_);
    captionerBox_->setEnabled(!busy_);
}

}  // namespace attnlab
