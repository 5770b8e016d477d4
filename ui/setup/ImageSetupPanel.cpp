#include "setup/ImageSetupPanel.h"
#include "setup/TrainingBox.h"
#include "base/Captions.h"
#include "base/ImageDatasets.h"

#include <cmath>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

namespace attnlab {

QString ImageDataChoice::describe() const {
    if (needsPath()) return QFileInfo(path).fileName();
    return dataset;
}

namespace {

constexpr auto spin = &makeSpinBox;  // setup/TrainingBox.h

}  // namespace

ImageSetupPanel::ImageSetupPanel(QWidget* parent) : QWidget(parent) {
    const VisionTrainingOptions training;
    auto* layout = new QVBoxLayout(this);

    auto* dataBox = new QGroupBox(tr("Data"));
    auto* dataForm = new QFormLayout(dataBox);
    dataForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    dataset_ = new QComboBox;
    dataset_->setObjectName(QStringLiteral("imageDataset"));
    dataset_->addItem(tr("glyphs: a mark among dashes, its box known"), QStringLiteral("glyphs"));
    dataset_->addItem(tr("Fashion-MNIST (Debian's dataset-fashion-mnist)"), QStringLiteral("fashion-mnist"));
    dataset_->addItem(tr("Image folder (DIR/CLASS/*.png)…"), QStringLiteral("folder"));
    dataset_->addItem(tr("scenes: coloured shapes with captions"), QStringLiteral("scenes"));
    dataset_->addItem(tr("Caption list (image, tab, caption)…"), QStringLiteral("captions"));
    dataset_->setToolTip(tr("Classes train a vision Transformer (ViT); captions train a captioner that attends "
                            "over the image as it writes."));
    file_ = new QLabel;
    file_->setWordWrap(true);
    file_->hide();
    size_ = spin(8, 100000, static_cast<int>(kDefaultGlyphCount), tr("Images to generate, or to read at most."));
    dataSeed_ = spin(0, 1000000, 1, tr("The same seed gives the same images on every computer."));
    dataForm->addRow(tr("Dataset:"), dataset_);
    dataForm->addRow(file_);
    dataForm->addRow(tr("Images:"), size_);
    dataForm->addRow(tr("Data seed:"), dataSeed_);
    layout->addWidget(dataBox);

    vitBox_ = new QGroupBox(tr("Vision Transformer"));
    auto* vitForm = new QFormLayout(vitBox_);
    vitForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    patch_ = spin(1, 32, vit_.patch, tr("Patch side in pixels; it must divide the image side."));
    hidden_ = spin(8, 512, vit_.hidden, tr("The Transformer's width."));
    heads_ = spin(1, 16, vit_.heads, tr("Heads; they must divide the width."));
    layers_ = spin(1, 12, vit_.layers, tr("Encoder layers."));
    vitForm->addRow(tr("Patch size:"), patch_);
    vitForm->addRow(tr("Hidden size:"), hidden_);
    vitForm->addRow(tr("Heads:"), heads_);
    vitForm->addRow(tr("Layers:"), layers_);
    layout->addWidget(vitBox_);

    captionerBox_ = new QGroupBox(tr("Captioner"));
    auto* capForm = new QFormLayout(captionerBox_);
    capForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
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
    layout->addWidget(captionerBox_);

    trainingBox_ = TrainingBox::add(layout, training, tr("Passes over the training images."), tr("Images per update."),
                                   TrainingBox::Order::BatchThenRate);

    buttons_ = ModelButtons::add(this, layout, QStringLiteral("image"));
    layout->addStretch(1);

    for (QComboBox* box : {dataset_, attention_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(12);
    }
    connect(dataset_, &QComboBox::currentIndexChanged, this, [this] {
        followModelDefaults();
        if (data().needsPath()) {
            Q_EMIT chooseFileRequested();
            return;
        }
        updateEnabled();
        Q_EMIT dataChanged();
    });
    for (QSpinBox* box : {size_, dataSeed_})
        connect(box, &QSpinBox::editingFinished, this, &ImageSetupPanel::dataChanged);
    updateEnabled();
}

ImageDataChoice ImageSetupPanel::data() const {
    ImageDataChoice c;
    c.dataset = dataset_->currentData().toString();
    c.path = path_;
    c.size = size_->value();
    c.seed = static_cast<std::uint64_t>(dataSeed_->value());
    return c;
}

void ImageSetupPanel::setData(const ImageDataChoice& choice) {
    {
        const QSignalBlocker block(dataset_);
        path_ = choice.path;
        const int index = dataset_->findData(choice.dataset);
        if (index >= 0) dataset_->setCurrentIndex(index);
        size_->setValue(choice.size);
        dataSeed_->setValue(static_cast<int>(choice.seed));
    }
    file_->setText(path_.isEmpty() ? QString() : tr("File: %1").arg(QFileInfo(path_).fileName()));
    file_->setToolTip(path_);
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
    return trainingBox_.read<VisionTrainingOptions>();
}

void ImageSetupPanel::setOptions(const VisionTrainingOptions& o) {
    trainingBox_.write(o);
}

void ImageSetupPanel::setState(bool busy, bool training, bool hasModel) {
    busy_ = busy;
    training_ = training;
    hasModel_ = hasModel;
    updateEnabled();
}

void ImageSetupPanel::setStatus(const QString& text) { buttons_.status->setText(text); }

QString ImageSetupPanel::status() const { return buttons_.status->text(); }

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
    const int fromSize = static_cast<int>(captions ? kDefaultGlyphCount : kDefaultSceneCount);
    if (size_->value() == fromSize) size_->setValue(static_cast<int>(captions ? kDefaultSceneCount : kDefaultGlyphCount));
}

void ImageSetupPanel::updateEnabled() {
    const ImageDataChoice c = data();
    const bool generated = c.dataset == QLatin1String("glyphs") || c.dataset == QLatin1String("scenes");
    dataSeed_->setEnabled(generated);
    file_->setVisible(c.needsPath() && !path_.isEmpty());
    vitBox_->setVisible(!c.isCaptions());
    captionerBox_->setVisible(c.isCaptions());
    vitBox_->setEnabled(!busy_);
    captionerBox_->setEnabled(!busy_);
    buttons_.setState(busy_, training_, hasModel_);
}

}  // namespace attnlab
