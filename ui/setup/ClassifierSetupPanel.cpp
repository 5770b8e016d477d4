#include "setup/ClassifierSetupPanel.h"
#include "setup/TrainingBox.h"
#include "base/ClassifyDatasets.h"
#include <QCheckBox>
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

QString ClassifierDataChoice::describe() const {
    if (dataset == QLatin1String("file")) return QFileInfo(path).fileName();
    return dataset;
}

namespace {

constexpr auto spin = &makeSpinBox;  // setup/TrainingBox.h

void selectData(QComboBox* box, const QVariant& value) {
    const int index = box->findData(value);
    if (index >= 0) box->setCurrentIndex(index);
}

}  // namespace

ClassifierSetupPanel::ClassifierSetupPanel(QWidget* parent) : QWidget(parent) {
    const ClassifierConfig model;
    const ClassifierTrainingOptions training;
    auto* layout = new QVBoxLayout(this);

    // Data.
    auto* dataBox = new QGroupBox(tr("Data"));
    auto* dataForm = new QFormLayout(dataBox);
    dataForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    dataset_ = new QComboBox;
    dataset_->setObjectName(QStringLiteral("classifyDataset"));
    dataset_->addItem(tr("sentiment: reviews with negation and contrast"), QStringLiteral("sentiment"));
    dataset_->addItem(tr("topic: keywords among distractors"), QStringLiteral("topic"));
    dataset_->addItem(tr("needle: one keyword in a long text"), QStringLiteral("needle"));
    dataset_->addItem(tr("langid: this computer's translations, by language"), QStringLiteral("langid"));
    dataset_->addItem(tr("TSV file (text, tab, label)…"), QStringLiteral("file"));
    dataset_->setToolTip(tr("The built-in datasets are generated from the seed and know which words decide "
                            "each label (the gold rationale); langid reads the gettext catalogues under "
                            "/usr/share/locale."));
    file_ = new QLabel;
    file_->setWordWrap(true);
    file_->hide();
    size_ = spin(2, 1000000, 2000, tr("Texts to generate (langid: messages per language)."));
    length_ = spin(kMinNeedleLength, kMaxNeedleLength, kDefaultNeedleLength,
                   tr("Words per needle text: the longer, the harder for a GRU's last state."));
    dataSeed_ = spin(0, 1000000, 1, tr("The same seed gives the same texts on every computer."));
    dataForm->addRow(tr("Dataset:"), dataset_);
    dataForm->addRow(file_);
    dataForm->addRow(tr("Texts:"), size_);
    dataForm->addRow(tr("Needle length:"), length_);
    dataForm->addRow(tr("Data seed:"), dataSeed_);
    layout->addWidget(dataBox);

    // Model.
    auto* modelBox = new QGroupBox(tr("Model"));
    auto* modelForm = new QFormLayout(modelBox);
    modelForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    architecture_ = new QComboBox;
    architecture_->setObjectName(QStringLiteral("classifyArchitecture"));
    architecture_->addItem(tr("GRU with attention pooling"), static_cast<int>(ClassifierArchitecture::Gru));
    architecture_->addItem(tr("Transformer with [CLS]"), static_cast<int>(ClassifierArchitecture::Transformer));
    pooling_ = new QComboBox;
    pooling_->setObjectName(QStringLiteral("classifyPooling"));
    pooling_->addItem(tr("additive (Bahdanau, Lin et al.)"), static_cast<int>(Pooling::Additive));
    pooling_->addItem(tr("dot, against a learned query"), static_cast<int>(Pooling::Dot));
    pooling_->addItem(tr("scaled dot"), static_cast<int>(Pooling::ScaledDot));
    pooling_->addItem(tr("none: the last state"), static_cast<int>(Pooling::None));
    pooling_->addItem(tr("mean: uniform weights"), static_cast<int>(Pooling::Mean));
    pooling_->setToolTip(tr("How the GRU's states become one vector. 'none' and 'mean' are the baselines "
                            "without attention."));
    hops_ = spin(1, 8, model.hops, tr("Attention rows (hops), each its own weights over the words (Lin et al. 2017)."));
    hidden_ = spin(8, 512, model.hidden, tr("GRU size per direction, or the Transformer's width."));
    layers_ = spin(1, 6, model.layers, tr("Transformer encoder layers."));
    heads_ = spin(1, 16, model.heads, tr("Transformer heads; they must divide the width."));
    bidirectional_ = new QCheckBox(tr("Read both directions"));
    bidirectional_->setChecked(model.bidirectional);
    units_ = new QComboBox;
    units_->addItem(tr("words"), static_cast<int>(TextUnits::Words));
    units_->addItem(tr("characters"), static_cast<int>(TextUnits::Characters));
    units_->setToolTip(tr("Characters suit language identification; rationales are scored over words."));
    modelForm->addRow(tr("Architecture:"), architecture_);
    modelForm->addRow(tr("Pooling:"), pooling_);
    modelForm->addRow(tr("Hops:"), hops_);
    modelForm->addRow(tr("Hidden size:"), hidden_);
    modelForm->addRow(tr("Layers:"), layers_);
    modelForm->addRow(tr("Heads:"), heads_);
    modelForm->addRow(QString(), bidirectional_);
    modelForm->addRow(tr("Reads:"), units_);
    layout->addWidget(modelBox);

    trainingBox_ = TrainingBox::add(layout, training, tr("Passes over the training texts."), tr("Texts per update."),
                                   TrainingBox::Order::RateThenBatch);

    buttons_ = ModelButtons::add(this, layout, QStringLiteral("classify"));
    layout->addStretch(1);

    // Long entries must not widen the dock: the boxes show what fits and the list shows it all.
    for (QComboBox* box : {dataset_, architecture_, pooling_, units_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(12);
    }
    connect(dataset_, &QComboBox::currentIndexChanged, this, [this] {
        const QString name = dataset_->currentData().toString();
        // langid reads characters: a message's words are mostly unseen, its letters are not.
        units_->setCurrentIndex(units_->findData(static_cast<int>(name == QLatin1String("langid") ? TextUnits::Characters
                                                                                                  : TextUnits::Words)));
        if (name == QLatin1String("file") && path_.isEmpty()) {
            Q_EMIT chooseFileRequested();
            return;
        }
        updateEnabled();
        Q_EMIT dataChanged();
    });
    for (QSpinBox* box : {size_, length_, dataSeed_})
        connect(box, &QSpinBox::editingFinished, this, &ClassifierSetupPanel::dataChanged);
    connect(architecture_, &QComboBox::currentIndexChanged, this, &ClassifierSetupPanel::updateEnabled);
    connect(pooling_, &QComboBox::currentIndexChanged, this, &ClassifierSetupPanel::updateEnabled);
    updateEnabled();
}

ClassifierDataChoice ClassifierSetupPanel::data() const {
    ClassifierDataChoice c;
    c.dataset = dataset_->currentData().toString();
    c.path = path_;
    c.size = size_->value();
    c.length = c.dataset == QLatin1String("needle") ? length_->value() : 0;
    c.seed = static_cast<std::uint64_t>(dataSeed_->value());
    return c;
}

void ClassifierSetupPanel::setData(const ClassifierDataChoice& choice) {
    {
        const QSignalBlocker block(dataset_);
        path_ = choice.path;
        selectData(dataset_, choice.dataset);
        size_->setValue(choice.size);
        if (choice.length > 0) length_->setValue(choice.length);
        dataSeed_->setValue(static_cast<int>(choice.seed));
        units_->setCurrentIndex(units_->findData(static_cast<int>(
            choice.dataset == QLatin1String("langid") ? TextUnits::Characters : TextUnits::Words)));
    }
    file_->setText(path_.isEmpty() ? QString() : tr("File: %1").arg(QFileInfo(path_).fileName()));
    file_->setToolTip(path_);
    updateEnabled();
    Q_EMIT dataChanged();
}

ClassifierConfig ClassifierSetupPanel::config() const {
    ClassifierConfig c;
    c.architecture = static_cast<ClassifierArchitecture>(architecture_->currentData().toInt());
    c.pooling = static_cast<Pooling>(pooling_->currentData().toInt());
    c.hops = poolingAttends(c.pooling) ? hops_->value() : 1;
    c.hidden = hidden_->value();
    c.layers = layers_->value();
    c.heads = heads_->value();
    c.bidirectional = bidirectional_->isChecked();
    c.units = static_cast<TextUnits>(units_->currentData().toInt());
    return c;
}

void ClassifierSetupPanel::setConfig(const ClassifierConfig& c) {
    selectData(architecture_, static_cast<int>(c.architecture));
    selectData(pooling_, static_cast<int>(c.pooling));
    hops_->setValue(c.hops);
    hidden_->setValue(c.hidden);
    layers_->setValue(c.layers);
    heads_->setValue(c.heads);
    bidirectional_->setChecked(c.bidirectional);
    selectData(units_, static_cast<int>(c.units));
    updateEnabled();
}

ClassifierTrainingOptions ClassifierSetupPanel::options() const {
    return trainingBox_.read<ClassifierTrainingOptions>();
}

void ClassifierSetupPanel::setOptions(const ClassifierTrainingOptions& o) {
    trainingBox_.write(o);
}

void ClassifierSetupPanel::setState(bool busy, bool training, bool hasModel) {
    busy_ = busy;
    training_ = training;
    hasModel_ = hasModel;
    updateEnabled();
}

void ClassifierSetupPanel::setStatus(const QString& text) { buttons_.status->setText(text); }

void ClassifierSetupPanel::updateEnabled() {
    const bool gru = architecture_->currentData().toInt() == static_cast<int>(ClassifierArchitecture::Gru);
    const bool attends = poolingAttends(static_cast<Pooling>(pooling_->currentData().toInt()));
    const QString name = dataset_->currentData().toString();
    pooling_->setEnabled(gru);
    hops_->setEnabled(gru && attends);
    bidirectional_->setEnabled(gru);
    layers_->setEnabled(!gru);
    heads_->setEnabled(!gru);
    size_->setEnabled(name != QLatin1String("file"));
    length_->setEnabled(name == QLatin1String("needle"));
    dataSeed_->setEnabled(name != QLatin1String("file"));
    file_->setVisible(name == QLatin1String("file") && !path_.isEmpty());
    buttons_.setState(busy_, training_, hasModel_);
}

}  // namespace attnlab
