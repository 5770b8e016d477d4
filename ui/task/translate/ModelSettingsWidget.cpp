#include "task/translate/ModelSettingsWidget.h"
#include "setup/LessonControls.h"

#include "base/translation/ModelSize.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSpinBox>

namespace attnlab {

namespace {

constexpr int kMaxHeads = 16;

QString humanCount(std::int64_t n) {
    if (n >= 1000000) return QStringLiteral("%1 M").arg(static_cast<double>(n) / 1e6, 0, 'f', 2);
    if (n >= 1000) return QStringLiteral("%1 k").arg(static_cast<double>(n) / 1e3, 0, 'f', 1);
    return QString::number(n);
}

}  // namespace

QList<int> ModelSettingsWidget::headChoices(int hidden) {
    QList<int> choices;
    for (int h = 1; h <= kMaxHeads && h <= hidden; ++h)
        if (hidden % h == 0) choices << h;
    return choices;
}

ModelSettingsWidget::ModelSettingsWidget(QWidget* parent) : QWidget(parent) {
    // The CLI's defaults too (base/translation/ModelConfig.h); the GRU's measured in docs/defaults.md.
    const ModelConfig defaults = defaultModelConfig(Architecture::Gru);
    auto* form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    architecture_ = new QComboBox;
    architecture_->addItem(tr("GRU encoder–decoder"), static_cast<int>(Architecture::Gru));
    architecture_->addItem(tr("Transformer"), static_cast<int>(Architecture::Transformer));
    architecture_->setToolTip(tr("A recurrent model with one attention map, or a Transformer with many heads in "
                                 "every layer."));

    attention_ = new QComboBox;
    const std::pair<AttentionKind, QString> kinds[] = {
        {AttentionKind::None, tr("none (fixed context vector)")},
        {AttentionKind::Dot, tr("dot (Luong)")},
        {AttentionKind::General, tr("general (Luong)")},
        {AttentionKind::ScaledDot, tr("scaled dot")},
        {AttentionKind::Additive, tr("additive (Bahdanau)")},
        {AttentionKind::LocalM, tr("local-m (Luong, monotonic)")},
        {AttentionKind::LocalP, tr("local-p (Luong, predictive)")},
    };
    for (const auto& [kind, label] : kinds) attention_->addItem(label, static_cast<int>(kind));
    attention_->setCurrentIndex(attention_->findData(static_cast<int>(defaults.attention)));
    attention_->setToolTip(tr("How the GRU decoder scores source positions; 'none' squeezes the whole sentence "
                              "into one vector."));

    window_ = new QSpinBox;
    window_->setRange(1, 20);
    window_->setValue(defaults.localWindow);
    window_->setToolTip(tr("Half-width D of the window that local attention looks at around its position."));

    bidirectional_ = new QCheckBox(tr("Bidirectional encoder"));
    bidirectional_->setChecked(defaults.bidirectional);
    bidirectional_->setToolTip(tr("The GRU encoder reads the sentence in both directions, so every position "
                                  "knows its right context too. On by default: measured over five seeds, its "
                                  "attention points at the right words far more often."));

    query_ = new QComboBox;
    query_->addItem(tr("after reading the last word (Luong)"), static_cast<int>(QueryOrder::After));
    query_->addItem(tr("before reading the last word (Bahdanau)"), static_cast<int>(QueryOrder::Before));
    query_->setCurrentIndex(query_->findData(static_cast<int>(defaults.query)));
    query_->setToolTip(tr("Which decoder state asks where to look: the one that has already read the previous "
                          "output word (Luong) or the one before it (Bahdanau). 'After' is the default: over five "
                          "seeds its maps matched the gold word links best."));

    hidden_ = new QSpinBox;
    hidden_->setRange(8, 1024);
    hidden_->setSingleStep(16);
    hidden_->setValue(defaults.hidden);
    hidden_->setToolTip(tr("Width of the hidden states (d_model of a Transformer); larger learns more but "
                           "trains slower."));

    layers_ = new QSpinBox;
    layers_->setRange(1, 8);
    layers_->setValue(defaults.layers);
    layers_->setToolTip(tr("Stacked GRU layers, or Transformer layers in the encoder and in the decoder each."));

    heads_ = new QComboBox;
    heads_->setToolTip(tr("Attention heads per Transformer layer; only divisors of the hidden size are offered."));

    feedForward_ = new QSpinBox;
    feedForward_->setRange(8, 8192);
    feedForward_->setSingleStep(32);
    feedForward_->setValue(defaults.feedForward);
    feedForward_->setToolTip(tr("Width of the feed-forward block inside every Transformer layer."));

    pattern_ = new QComboBox;
    pattern_->addItem(tr("full"), static_cast<int>(AttentionPattern::Full));
    pattern_->addItem(tr("local window"), static_cast<int>(AttentionPattern::Local));
    pattern_->addItem(tr("strided"), static_cast<int>(AttentionPattern::Strided));
    pattern_->addItem(tr("chunked"), static_cast<int>(AttentionPattern::Chunked));
    pattern_->addItem(tr("linear (kernelised)"), static_cast<int>(AttentionPattern::Linear));
    pattern_->setCurrentIndex(pattern_->findData(static_cast<int>(defaults.pattern)));
    pattern_->setToolTip(tr("Which keys the Transformer's self-attention looks at. Full: all of them. Local: those "
                            "within D of the position (the decoder: the D before it). Strided: that band and every "
                            "s-th key. Chunked: its own chunk and one summary of every other chunk. Linear: all, "
                            "through a kernel instead of a softmax, in time linear in the length. Cross-attention "
                            "stays full."));

    chunk_ = new QSpinBox;
    chunk_->setRange(0, 8192);
    chunk_->setValue(defaults.chunk);
    chunk_->setSpecialValueText(tr("automatic (square root of the max length)"));
    chunk_->setToolTip(tr("The chunk size of the chunked pattern, or the stride s of the strided one."));

    dropout_ = new QDoubleSpinBox;
    dropout_->setRange(0.0, 0.9);
    dropout_->setSingleStep(0.05);
    dropout_->setDecimals(2);
    dropout_->setValue(static_cast<double>(defaults.dropout));
    dropout_->setToolTip(tr("Share of activations randomly zeroed while training, against overfitting."));

    dropoutOn_ = new QComboBox;
    dropoutOn_->addItem(tr("embeddings and attention weights"), static_cast<int>(DropoutPlacement::Both));
    dropoutOn_->addItem(tr("embeddings only"), static_cast<int>(DropoutPlacement::Embeddings));
    dropoutOn_->addItem(tr("attention weights only"), static_cast<int>(DropoutPlacement::Attention));
    dropoutOn_->setCurrentIndex(dropoutOn_->findData(static_cast<int>(defaults.dropoutOn)));
    dropoutOn_->setToolTip(tr("Where the GRU model's dropout applies. Embeddings only is the default: over five "
                              "seeds, dropping attention weights too blurred the maps without gaining accuracy."));

    maxLength_ = new QSpinBox;
    maxLength_->setRange(4, 1000);
    maxLength_->setValue(defaults.maxLength - 1);  // the config counts </s>
    maxLength_->setSuffix(tr(" tokens"));
    maxLength_->setToolTip(tr("Pairs longer than this are skipped; it also sizes the Transformer's positional "
                              "table."));

    estimate_ = new QLabel;
    estimate_->setWordWrap(true);
    estimate_->setForegroundRole(QPalette::PlaceholderText);

    form->addRow(tr("Architecture:"), architecture_);
    form->addRow(tr("Attention:"), attention_);
    form->addRow(tr("Window D:"), window_);
    form->addRow(QString(), bidirectional_);
    form->addRow(tr("Query:"), query_);
    form->addRow(tr("Hidden size:"), hidden_);
    form->addRow(tr("Layers:"), layers_);
    form->addRow(tr("Heads:"), heads_);
    form->addRow(tr("Feed-forward:"), feedForward_);
    form->addRow(tr("Attention pattern:"), pattern_);
    form->addRow(tr("Chunk:"), chunk_);
    form->addRow(tr("Dropout:"), dropout_);
    form->addRow(tr("Dropout on:"), dropoutOn_);
    form->addRow(tr("Max length:"), maxLength_);
    markLessonControls({{architecture_, "architecture"}, {attention_, "attention"}, {window_, "window"},
                        {bidirectional_, "bidirectional"}, {query_, "query"}, {hidden_, "hidden"},
                        {layers_, "layers"}, {heads_, "heads"}, {pattern_, "pattern"}, {chunk_, "chunk"},
                        {feedForward_, "feed_forward"}, {dropout_, "dropout"}, {dropoutOn_, "dropout_on"},
                        {maxLength_, "model_max_length"}});
    form->addRow(estimate_);

    updateHeads();
    heads_->setCurrentIndex(heads_->findData(defaults.heads));
    updateEnabled();
    updateEstimate();

    auto notify = [this] {
        updateEnabled();
        updateEstimate();
        Q_EMIT changed();
    };
    connect(architecture_, &QComboBox::currentIndexChanged, this, [this, notify] {
        followArchitectureDefaults();
        notify();
    });
    connect(attention_, &QComboBox::currentIndexChanged, this, notify);
    connect(window_, &QSpinBox::valueChanged, this, notify);
    connect(bidirectional_, &QCheckBox::toggled, this, notify);
    connect(query_, &QComboBox::currentIndexChanged, this, notify);
    connect(dropoutOn_, &QComboBox::currentIndexChanged, this, notify);
    connect(hidden_, &QSpinBox::valueChanged, this, [this, notify] {
        updateHeads();
        notify();
    });
    connect(layers_, &QSpinBox::valueChanged, this, notify);
    connect(heads_, &QComboBox::currentIndexChanged, this, notify);
    connect(feedForward_, &QSpinBox::valueChanged, this, notify);
    connect(pattern_, &QComboBox::currentIndexChanged, this, notify);
    connect(chunk_, &QSpinBox::valueChanged, this, notify);
    connect(dropout_, &QDoubleSpinBox::valueChanged, this, notify);
    connect(maxLength_, &QSpinBox::valueChanged, this, notify);
}

void ModelSettingsWidget::updateHeads() {
    const int previous = heads_->currentData().isValid() ? heads_->currentData().toInt() : ModelConfig().heads;
    const QSignalBlocker blocker(heads_);
    heads_->clear();
    int best = 0;
    for (int h : headChoices(hidden_->value())) {
        heads_->addItem(QString::number(h), h);
        if (h <= previous) best = heads_->count() - 1;  // keep the old count, or the nearest below it
    }
    heads_->setCurrentIndex(best);
}

void ModelSettingsWidget::followArchitectureDefaults() {
    const auto now = static_cast<Architecture>(architecture_->currentData().toInt());
    if (layers_->value() == defaultModelConfig(shownArchitecture_).layers) {
        const QSignalBlocker blocker(layers_);
        layers_->setValue(defaultModelConfig(now).layers);
    }
    shownArchitecture_ = now;
}

void ModelSettingsWidget::updateEnabled() {
    const bool transformer = architecture_->currentData().toInt() == static_cast<int>(Architecture::Transformer);
    const auto kind = static_cast<AttentionKind>(attention_->currentData().toInt());
    attention_->setEnabled(!transformer);
    const auto pattern = static_cast<AttentionPattern>(pattern_->currentData().toInt());
    window_->setEnabled(transformer ? pattern == AttentionPattern::Local || pattern == AttentionPattern::Strided
                                    : kind == AttentionKind::LocalM || kind == AttentionKind::LocalP);
    pattern_->setEnabled(transformer);
    chunk_->setEnabled(transformer && (pattern == AttentionPattern::Strided || pattern == AttentionPattern::Chunked));
    bidirectional_->setEnabled(!transformer);
    query_->setEnabled(!transformer);
    dropoutOn_->setEnabled(!transformer);
    heads_->setEnabled(transformer);
    feedForward_->setEnabled(transformer);
}

void ModelSettingsWidget::updateEstimate() {
    if (sourceVocabulary_ == 0 || targetVocabulary_ == 0) {
        estimate_->setText(tr("Load a corpus to see the model's size."));
        return;
    }
    ModelConfig c = config();
    c.sourceVocab = static_cast<std::int64_t>(sourceVocabulary_) + 4;
    c.targetVocab = static_cast<std::int64_t>(targetVocabulary_) + 4;
    if (!validate(c).empty()) {
        estimate_->clear();
        return;
    }
    estimate_->setText(tr("About %1 parameters with this corpus.").arg(humanCount(parameterCount(c))));
}

ModelConfig ModelSettingsWidget::config() const {
    ModelConfig c;
    c.architecture = static_cast<Architecture>(architecture_->currentData().toInt());
    c.attention = static_cast<AttentionKind>(attention_->currentData().toInt());
    c.localWindow = window_->value();
    c.bidirectional = bidirectional_->isChecked();
    c.query = static_cast<QueryOrder>(query_->currentData().toInt());
    c.dropoutOn = static_cast<DropoutPlacement>(dropoutOn_->currentData().toInt());
    c.hidden = hidden_->value();
    c.layers = layers_->value();
    c.heads = heads_->currentData().isValid() ? heads_->currentData().toInt() : 1;
    c.feedForward = feedForward_->value();
    c.pattern = static_cast<AttentionPattern>(pattern_->currentData().toInt());
    c.chunk = chunk_->value();
    c.dropout = static_cast<float>(dropout_->value());
    c.maxLength = maxLength_->value() + 1;  // room for </s>
    return c;
}

void ModelSettingsWidget::setConfig(const ModelConfig& c) {
    architecture_->setCurrentIndex(std::max(0, architecture_->findData(static_cast<int>(c.architecture))));
    attention_->setCurrentIndex(std::max(0, attention_->findData(static_cast<int>(c.attention))));
    window_->setValue(c.localWindow);
    bidirectional_->setChecked(c.bidirectional);
    query_->setCurrentIndex(std::max(0, query_->findData(static_cast<int>(c.query))));
    dropoutOn_->setCurrentIndex(std::max(0, dropoutOn_->findData(static_cast<int>(c.dropoutOn))));
    hidden_->setValue(c.hidden);
    updateHeads();
    const int heads = heads_->findData(c.heads);
    if (heads >= 0) heads_->setCurrentIndex(heads);
    layers_->setValue(c.layers);
    feedForward_->setValue(c.feedForward);
    pattern_->setCurrentIndex(std::max(0, pattern_->findData(static_cast<int>(c.pattern))));
    chunk_->setValue(c.chunk);
    dropout_->setValue(static_cast<double>(c.dropout));
    maxLength_->setValue(std::max(4, c.maxLength - 1));
    updateEnabled();
    updateEstimate();
}

void ModelSettingsWidget::setVocabularySizes(std::size_t source, std::size_t target) {
    sourceVocabulary_ = source;
    targetVocabulary_ = target;
    updateEstimate();
}

}  // namespace attnlab
