#include "task/classify/ClassifierSetupPanel.h"
#include "setup/LessonControls.h"
#include "base/text/ClassifyDatasets.h"
#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QSpinBox>

namespace attnlab {

QString ClassifierDataChoice::describe() const {
    if (dataset == QLatin1String("file")) return QFileInfo(path).fileName();
    return dataset;
}

ClassifierSetupPanel::ClassifierSetupPanel(QWidget* parent) : TaskSetupPanel(parent) {
    const ClassifierConfig model;
    const ClassifierTrainingOptions training;

    length_ = spin(kMinNeedleLength, kMaxNeedleLength, kDefaultNeedleLength,
                   tr("Words per needle text: the longer, the harder for a GRU's last state."));
    addDataGroup(QStringLiteral("classifyDataset"),
                 {tr("Data"), tr("Dataset:"), tr("Texts:"),
                  spin(2, 1000000, 2000, tr("Texts to generate (langid: messages per language).")),
                  {{tr("Needle length:"), length_}}, tr("Data seed:"),
                  spin(0, 1000000, 1, tr("The same seed gives the same texts on every computer."))});
    dataset_->addItem(tr("sentiment: reviews with negation and contrast"), QStringLiteral("sentiment"));
    dataset_->addItem(tr("topic: keywords among distractors"), QStringLiteral("topic"));
    dataset_->addItem(tr("needle: one keyword in a long text"), QStringLiteral("needle"));
    dataset_->addItem(tr("langid: this computer's translations, by language"), QStringLiteral("langid"));
    dataset_->addItem(tr("TSV file (text, tab, label)…"), QStringLiteral("file"));
    dataset_->setToolTip(tr("The built-in datasets are generated from the seed and know which words decide "
                            "each label (the gold rationale); langid reads the gettext catalogues under "
                            "/usr/share/locale."));

    // Model.
    QFormLayout* modelForm = addGroup(new QGroupBox(tr("Model")));
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
    pattern_ = new QComboBox;
    pattern_->setObjectName(QStringLiteral("classifyPattern"));
    pattern_->addItem(tr("full"), static_cast<int>(AttentionPattern::Full));
    pattern_->addItem(tr("local window"), static_cast<int>(AttentionPattern::Local));
    pattern_->addItem(tr("strided"), static_cast<int>(AttentionPattern::Strided));
    pattern_->addItem(tr("chunked"), static_cast<int>(AttentionPattern::Chunked));
    pattern_->addItem(tr("linear (kernelised)"), static_cast<int>(AttentionPattern::Linear));
    pattern_->setToolTip(tr("Which words the Transformer's self-attention looks at. Full: all of them, O(N²). "
                            "Local: those within W of the word. Strided: that band and every s-th word. Chunked: "
                            "its own chunk and one summary of every other chunk. Linear: all, through a kernel "
                            "instead of a softmax, O(N). [CLS] is the first position, so it sees what the pattern "
                            "lets the first position see."));
    window_ = spin(1, 4096, model.window, tr("W: how far local attention (and strided's band) reaches on each side."));
    window_->setObjectName(QStringLiteral("classifyWindow"));
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
    modelForm->addRow(tr("Attention pattern:"), pattern_);
    modelForm->addRow(tr("Window W:"), window_);
    modelForm->addRow(QString(), bidirectional_);
    modelForm->addRow(tr("Reads:"), units_);
    markLessonControls({{length_, "length"}, {architecture_, "architecture"}, {pooling_, "pooling"}, {hops_, "hops"},
                        {hidden_, "hidden"}, {layers_, "layers"}, {heads_, "heads"}, {pattern_, "pattern"}, {window_, "window"},
                        {bidirectional_, "bidirectional"},
                        {units_, "units"}});

    trainingBox_ = TrainingBox::add(layout_, training, tr("Passes over the training texts."), tr("Texts per update."),
                                   TrainingBox::Order::RateThenBatch);
    connect(architecture_, &QComboBox::currentIndexChanged, this, &ClassifierSetupPanel::updateEnabled);
    connect(pooling_, &QComboBox::currentIndexChanged, this, &ClassifierSetupPanel::updateEnabled);
    connect(pattern_, &QComboBox::currentIndexChanged, this, &ClassifierSetupPanel::updateEnabled);
    finish(QStringLiteral("classify"), {architecture_, pooling_, pattern_, units_});
}

bool ClassifierSetupPanel::readsFile() const { return datasetName() == QLatin1String("file"); }

bool ClassifierSetupPanel::datasetChosen() {
    followUnits(datasetName());
    return readsFile() && path_.isEmpty();
}

void ClassifierSetupPanel::followUnits(const QString& dataset) {
    // langid reads characters: a message's words are mostly unseen, its letters are not.
    selectData(units_, static_cast<int>(dataset == QLatin1String("langid") ? TextUnits::Characters : TextUnits::Words));
}

ClassifierDataChoice ClassifierSetupPanel::data() const {
    ClassifierDataChoice c;
    c.dataset = datasetName();
    c.path = path_;
    c.size = size_->value();
    c.length = c.dataset == QLatin1String("needle") ? length_->value() : 0;
    c.seed = static_cast<std::uint64_t>(dataSeed_->value());
    return c;
}

void ClassifierSetupPanel::setData(const ClassifierDataChoice& choice) {
    showData(choice.dataset, choice.path, choice.size, choice.seed, tr("File: %1"));
    if (choice.length > 0) length_->setValue(choice.length);
    followUnits(choice.dataset);
    updateEnabled();
    Q_EMIT dataChanged();
}

ClassifierConfig ClassifierSetupPanel::config() const {
    ClassifierConfig c = base_;
    c.architecture = static_cast<ClassifierArchitecture>(architecture_->currentData().toInt());
    c.pooling = static_cast<Pooling>(pooling_->currentData().toInt());
    c.hops = poolingAttends(c.pooling) ? hops_->value() : 1;
    c.hidden = hidden_->value();
    c.layers = layers_->value();
    c.heads = heads_->value();
    c.pattern = static_cast<AttentionPattern>(pattern_->currentData().toInt());
    c.window = window_->value();
    c.bidirectional = bidirectional_->isChecked();
    c.units = static_cast<TextUnits>(units_->currentData().toInt());
    // A needle text longer than the model reads would lose its keyword to the truncation: the model
    // reads every word the data has, up to the architecture's limit (a GRU 8,192 words, a Transformer
    // 4,096 and its [CLS]).
    if (datasetName() == QLatin1String("needle")) {
        const int cap = c.architecture == ClassifierArchitecture::Transformer ? 4096 : 8192;
        c.maxLength = std::max(c.maxLength, std::min(length_->value(), cap));
    }
    return c;
}

void ClassifierSetupPanel::setConfig(const ClassifierConfig& c) {
    base_ = c;
    selectData(architecture_, static_cast<int>(c.architecture));
    selectData(pooling_, static_cast<int>(c.pooling));
    hops_->setValue(c.hops);
    hidden_->setValue(c.hidden);
    layers_->setValue(c.layers);
    heads_->setValue(c.heads);
    selectData(pattern_, static_cast<int>(c.pattern));
    window_->setValue(c.window);
    bidirectional_->setChecked(c.bidirectional);
    selectData(units_, static_cast<int>(c.units));
    updateEnabled();
}

ClassifierTrainingOptions ClassifierSetupPanel::options() const {
    return trainingBox_.read(options_);  // the fields the panel does not show (threads, ...) come along
}

void ClassifierSetupPanel::setOptions(const ClassifierTrainingOptions& o) {
    options_ = o;
    trainingBox_.write(o);
}

void ClassifierSetupPanel::enableRows() {
    const bool gru = architecture_->currentData().toInt() == static_cast<int>(ClassifierArchitecture::Gru);
    const bool attends = poolingAttends(static_cast<Pooling>(pooling_->currentData().toInt()));
    const QString name = datasetName();
    pooling_->setEnabled(gru);
    hops_->setEnabled(gru && attends);
    bidirectional_->setEnabled(gru);
    layers_->setEnabled(!gru);
    heads_->setEnabled(!gru);
    pattern_->setEnabled(!gru);
    const auto pattern = static_cast<AttentionPattern>(pattern_->currentData().toInt());
    window_->setEnabled(!gru && (pattern == AttentionPattern::Local || pattern == AttentionPattern::Strided));
    size_->setEnabled(name != QLatin1String("file"));
    length_->setEnabled(name == QLatin1String("needle"));
    dataSeed_->setEnabled(name != QLatin1String("file"));
}

}  // namespace attnlab
