#include "task/lm/LmSetupPanel.h"
#include "setup/LessonControls.h"
#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QSpinBox>

namespace attnlab {

QString LmDataChoice::describe() const {
    if (isFile()) return QFileInfo(path).fileName();
    return dataset;
}

LmSetupPanel::LmSetupPanel(QWidget* parent) : TaskSetupPanel(parent) {
    const LmDataChoice data;
    const LmTrainingOptions training;
    options_ = training;

    tokens_ = new QComboBox;
    tokens_->setObjectName(QStringLiteral("lmTokens"));
    tokens_->addItem(tr("characters"), QStringLiteral("chars"));
    tokens_->addItem(tr("words"), QStringLiteral("words"));
    tokens_->addItem(tr("byte-level BPE (learned from the text)"), QStringLiteral("bpe"));
    tokens_->setToolTip(tr("How a text file is cut into tokens. The induction set is always read as words."));
    addDataGroup(QStringLiteral("lmDataset"),
                 {tr("Data"), tr("Text:"), tr("Lines:"),
                  spin(2, 1000000, data.size, tr("Lines of the induction set to generate.")),
                  {{tr("Tokens:"), tokens_}},
                  tr("Data seed:"),
                  spin(0, 1000000, static_cast<int>(data.seed), tr("The same seed gives the same lines on every computer."))});
    dataset_->addItem(tr("repeats: random sequences repeated (the induction set)"), QStringLiteral("repeats"));
    dataset_->addItem(tr("gettext: the English messages of this computer's programs"), QStringLiteral("gettext"));
    dataset_->addItem(tr("fortunes: Debian's quotations, one document each"), QStringLiteral("fortunes"));
    dataset_->addItem(tr("Text file (UTF-8, one document per line)…"), QStringLiteral("file"));
    dataset_->setToolTip(tr("On the induction set a two-layer model learns to copy: the induction head forms "
                            "there. Real text shows what a small model attends to in language."));
    connect(tokens_, &QComboBox::activated, this, &LmSetupPanel::dataChanged);

    // Model.
    QFormLayout* modelForm = addGroup(new QGroupBox(tr("Model")));
    layers_ = spin(1, 24, config_.layers, tr("Blocks of self-attention; one layer cannot form an induction head."));
    layers_->setObjectName(QStringLiteral("lmLayers"));
    heads_ = spin(1, 64, config_.heads, tr("Heads per layer; they must divide the width."));
    width_ = spin(8, 2048, config_.dModel, tr("The Transformer's width (d_model), as Hidden size is every task's."));
    context_ = spin(kLmMinContext, kLmMaxContext, config_.context,
                    tr("The tokens the model reads at most (the induction set's lines are this long)."));
    context_->setObjectName(QStringLiteral("lmContext"));
    attentionOnly_ = new QCheckBox(tr("Attention only (no MLP)"));
    attentionOnly_->setChecked(config_.attentionOnly);
    attentionOnly_->setToolTip(tr("Blocks without the feed-forward MLP, as in the circuits papers."));
    norm_ = new QComboBox;
    norm_->addItem(tr("none"), static_cast<int>(LmNorm::None));
    norm_->addItem(tr("pre-LayerNorm (GPT-2)"), static_cast<int>(LmNorm::Pre));
    norm_->setToolTip(tr("Where the blocks normalise: nowhere, or before each sublayer and at the end as GPT-2."));
    tied_ = new QCheckBox(tr("Tied unembedding"));
    tied_->setChecked(config_.tied);
    tied_->setToolTip(tr("The output layer reuses the token embedding's matrix, as GPT-2."));
    positions_ = new QComboBox;
    positions_->addItem(tr("learned"), static_cast<int>(LmPositions::Learned));
    positions_->addItem(tr("sinusoidal"), static_cast<int>(LmPositions::Sinusoidal));
    objective_ = new QComboBox;
    objective_->addItem(tr("causal (GPT: the next token)"), static_cast<int>(LmObjective::Causal));
    objective_->addItem(tr("masked (BERT: 15% hidden)"), static_cast<int>(LmObjective::Masked));
    objective_->setToolTip(tr("Causal attention sees only earlier tokens; masked attention sees both ways."));
    modelForm->addRow(tr("Layers:"), layers_);
    modelForm->addRow(tr("Heads:"), heads_);
    modelForm->addRow(tr("Hidden size:"), width_);
    modelForm->addRow(tr("Context:"), context_);
    modelForm->addRow(attentionOnly_);
    modelForm->addRow(tr("LayerNorm:"), norm_);
    modelForm->addRow(tied_);
    modelForm->addRow(tr("Positions:"), positions_);
    modelForm->addRow(tr("Objective:"), objective_);

    trainingBox_ = TrainingBox::add(layout_, training, QString(), tr("Documents per update."),
                                    TrainingBox::Order::RateThenBatch);
    // The run is counted in steps: Steps and Warm-up stand where Epochs stands for the other tasks.
    steps_ = spin(1, 10000000, training.steps, tr("Updates in all; a report every %1 steps.").arg(training.evaluateEvery));
    steps_->setObjectName(QStringLiteral("lmSteps"));
    warmup_ = spin(0, 1000000, training.warmup, tr("Steps over which the learning rate rises from 0."));
    if (auto* form = qobject_cast<QFormLayout*>(trainingBox_.epochs->parentWidget()->layout())) {
        form->setRowVisible(trainingBox_.epochs, false);
        form->insertRow(0, tr("Steps:"), steps_);
        form->insertRow(1, tr("Warm-up:"), warmup_);
    }
    trainingBox_.write(training);
    connect(attentionOnly_, &QCheckBox::toggled, this, &LmSetupPanel::updateEnabled);
    finish(QStringLiteral("lm"), {tokens_, norm_, positions_, objective_});
    markLessonControls({{tokens_, "tokens"}, {layers_, "layers"}, {heads_, "heads"}, {width_, "hidden"},
                        {context_, "context"}, {attentionOnly_, "attention_only"}, {norm_, "norm"}, {tied_, "tied"},
                        {positions_, "positions"}, {objective_, "objective"}, {steps_, "steps"}, {warmup_, "warmup"}});
}

bool LmSetupPanel::readsFile() const { return datasetName() == QLatin1String("file"); }

bool LmSetupPanel::datasetChosen() { return readsFile() && path_.isEmpty(); }

LmDataChoice LmSetupPanel::data() const {
    LmDataChoice c;
    c.dataset = datasetName();
    c.path = path_;
    c.tokens = c.dataset == QLatin1String("repeats") ? QStringLiteral("words") : tokens_->currentData().toString();
    c.size = size_->value();
    c.seed = static_cast<std::uint64_t>(dataSeed_->value());
    return c;
}

void LmSetupPanel::setData(const LmDataChoice& choice) {
    showData(choice.dataset, choice.path, choice.size, choice.seed, tr("File: %1"));
    if (choice.dataset != QLatin1String("repeats")) {
        const QSignalBlocker quiet(tokens_);
        selectData(tokens_, choice.tokens);
    }
    updateEnabled();
    Q_EMIT dataChanged();
}

LmConfig LmSetupPanel::config() const {
    LmConfig c = config_;
    c.layers = layers_->value();
    c.heads = heads_->value();
    c.dModel = width_->value();
    c.context = context_->value();
    c.attentionOnly = attentionOnly_->isChecked();
    if (!c.attentionOnly && c.feedForward <= 0) c.feedForward = 4 * c.dModel;
    c.norm = static_cast<LmNorm>(norm_->currentData().toInt());
    c.tied = tied_->isChecked();
    c.positions = static_cast<LmPositions>(positions_->currentData().toInt());
    c.objective = static_cast<LmObjective>(objective_->currentData().toInt());
    c.vocabulary = 0;  // the text's
    return c;
}

void LmSetupPanel::setConfig(const LmConfig& c) {
    config_ = c;
    layers_->setValue(c.layers);
    heads_->setValue(c.heads);
    width_->setValue(c.dModel);
    context_->setValue(c.context);
    attentionOnly_->setChecked(c.attentionOnly);
    selectData(norm_, static_cast<int>(c.norm));
    tied_->setChecked(c.tied);
    selectData(positions_, static_cast<int>(c.positions));
    selectData(objective_, static_cast<int>(c.objective));
    updateEnabled();
}

LmTrainingOptions LmSetupPanel::options() const {
    LmTrainingOptions o = trainingBox_.read(options_);
    o.epochs = 0;  // the run is counted in steps
    o.steps = steps_->value();
    o.warmup = warmup_->value();
    return o;
}

void LmSetupPanel::setOptions(const LmTrainingOptions& o) {
    options_ = o;
    trainingBox_.write(o);
    steps_->setValue(o.steps);
    warmup_->setValue(o.warmup);
}

void LmSetupPanel::enableRows() {
    const QString name = datasetName();
    const bool repeats = name == QLatin1String("repeats");
    if (auto* form = qobject_cast<QFormLayout*>(size_->parentWidget()->layout())) {
        form->setRowVisible(size_, repeats);
        form->setRowVisible(dataSeed_, repeats);
        form->setRowVisible(tokens_, !repeats);
    }
    for (QWidget* w : {static_cast<QWidget*>(layers_), static_cast<QWidget*>(heads_), static_cast<QWidget*>(width_),
                       static_cast<QWidget*>(context_), static_cast<QWidget*>(attentionOnly_),
                       static_cast<QWidget*>(norm_), static_cast<QWidget*>(tied_), static_cast<QWidget*>(positions_),
                       static_cast<QWidget*>(objective_), static_cast<QWidget*>(steps_), static_cast<QWidget*>(warmup_)})
        w->setEnabled(!busy_);
    tokens_->setEnabled(!busy_ && !repeats);
}

}  // namespace attnlab
