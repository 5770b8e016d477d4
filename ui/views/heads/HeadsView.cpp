#include "views/heads/HeadsView.h"
#include "views/heads/HeadSwitch.h"

#include "task/translate/TranslationTypes.h"

#include "widgets/HeatmapWidget.h"

#include "widgets/WidgetStyle.h"

#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

QLabel* sectionLabel(const QString& text) {
    auto* label = new QLabel(text);
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);
    return label;
}

// The kind as the English figure title writes it ("cross attention, layer 0, head 1"), translatable.
QString kindWord(MapKind kind) {
    if (kind == MapKind::Encoder) return HeadsView::tr("encoder", "attention kind in a figure title");
    if (kind == MapKind::Decoder) return HeadsView::tr("decoder", "attention kind in a figure title");
    return HeadsView::tr("cross", "attention kind in a figure title");
}

// "0.912", "3.4e-05": a probability as the ablation line gives it.
QString probabilityText(double logProbability) {
    const double p = std::exp(logProbability);
    return p >= 0.001 ? QString::number(p, 'f', 3) : QString::number(p, 'g', 2);
}

QString outputText(const Translation& t) {
    QStringList words;
    for (const std::string& w : t.outputTokens) words << QString::fromStdString(w);
    return words.join(QLatin1Char(' '));
}

}  // namespace

HeadsView::HeadsView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(10);

    auto* row = new QHBoxLayout;
    input_ = new QLineEdit;
    input_->setPlaceholderText(tr("Type a sentence and press Enter to see every head"));
    input_->setClearButtonEnabled(true);
    scaleFont(input_, 1.3);
    input_->setToolTip(tr("The sentence whose attention the heads show (shared with the Translate view)."));
    row->addWidget(input_, 1);
    layout->addLayout(row);

    transformerControls_ = new QWidget;
    auto* controlRows = new QVBoxLayout(transformerControls_);
    controlRows->setContentsMargins(0, 0, 0, 0);
    controlRows->setSpacing(6);
    auto* controls = new QHBoxLayout;
    controlRows->addLayout(controls);
    kind_ = new QComboBox;
    kind_->addItem(tr("Cross-attention (decoder → encoder)"), static_cast<int>(MapKind::Cross));
    kind_->addItem(tr("Encoder self-attention"), static_cast<int>(MapKind::Encoder));
    kind_->addItem(tr("Decoder self-attention"), static_cast<int>(MapKind::Decoder));
    kind_->setToolTip(tr("Which attention of the Transformer to show."));
    layer_ = new QComboBox;
    layer_->setToolTip(tr("The layer whose heads are shown large; the overview below shows every layer."));
    scale_ = new QComboBox;
    scale_->addItem(tr("0 to 1 for all"), static_cast<int>(GridScale::Unit));
    scale_->addItem(tr("shared maximum"), static_cast<int>(GridScale::Shared));
    scale_->addItem(tr("each its own"), static_cast<int>(GridScale::PerHead));
    scale_->setToolTip(tr("How colours map to weights: one absolute scale, one scale up to the largest weight, "
                          "or every head stretched to its own maximum."));
    show_ = new QComboBox;
    show_->addItem(tr("Maps"));
    show_->addItem(tr("Lines"));
    show_->setToolTip(tr("Maps: every head as a heatmap. Lines: the tokens in two columns and a line from each "
                         "token to each token it attends to, its opacity the weight, one colour per head."));
    controls->addWidget(new QLabel(tr("Show:")));
    controls->addWidget(show_);
    controls->addSpacing(6);
    controls->addWidget(kind_);
    controls->addSpacing(6);
    controls->addWidget(new QLabel(tr("Layer:")));
    controls->addWidget(layer_);
    controls->addSpacing(6);
    controls->addWidget(new QLabel(tr("Colour scale:")));
    controls->addWidget(scale_);
    controls->addStretch(1);

    // Head ablation: switch heads off and see what the model does without them.
    ablationControls_ = new QWidget;
    auto* ablation = new QHBoxLayout(ablationControls_);
    ablation->setContentsMargins(0, 0, 0, 0);
    ablate_ = new QToolButton;
    ablate_->setText(tr("Switch Heads Off"));
    ablate_->setCheckable(true);
    ablate_->setToolTip(tr("While pressed, clicking a head switches it off, or on again: the output and every map "
                           "are then the model's without it."));
    layerOff_ = new QToolButton;
    layerOff_->setText(tr("Layer Off"));
    layerOff_->setToolTip(tr("Switch off every head of the layer shown (of this kind of attention), or on again."));
    kindOff_ = new QToolButton;
    kindOff_->setText(tr("Kind Off"));
    kindOff_->setToolTip(tr("Switch off every head of this kind of attention in every layer, or on again."));
    allOn_ = new QToolButton;
    allOn_->setText(tr("All On"));
    allOn_->setToolTip(tr("Switch every head on again."));
    ablation->addWidget(ablate_);
    ablation->addWidget(layerOff_);
    ablation->addWidget(kindOff_);
    ablation->addWidget(allOn_);
    ablation->addStretch(1);
    controlRows->addWidget(ablationControls_);
    ablationLabel_ = new QLabel;
    ablationLabel_->setTextFormat(Qt::PlainText);
    ablationLabel_->setWordWrap(true);
    ablationLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    ablationLabel_->setVisible(false);
    controlRows->addWidget(ablationLabel_);
    layout->addWidget(transformerControls_);

    stack_ = new QStackedWidget;
    message_ = makePlaceholderLabel();
    stack_->addWidget(message_);

    // Transformer: layer grid and overview on the left, the enlarged head on the right.
    transformerPage_ = new QWidget;
    auto* pageLayout = new QHBoxLayout(transformerPage_);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    auto* split = new QSplitter(Qt::Horizontal);
    auto* left = new QSplitter(Qt::Vertical);
    layerGrid_ = new HeadGridWidget;
    layerGrid_->setToolTip(tr("Click a head to enlarge it; hover a cell to follow its tokens across heads."));
    overview_ = new HeadGridWidget;
    overview_->setToolTip(tr("Every layer (rows) and head (columns) of the model; click one to enlarge it."));
    auto* overviewBox = new QWidget;
    auto* overviewLayout = new QVBoxLayout(overviewBox);
    overviewLayout->setContentsMargins(0, 6, 0, 0);
    overviewLayout->addWidget(sectionLabel(tr("Whole model: layers × heads")));
    overviewLayout->addWidget(overview_, 1);
    left->addWidget(layerGrid_);
    left->addWidget(overviewBox);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 2);
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(6, 0, 0, 0);
    enlargedCaption_ = sectionLabel(QString());
    enlarged_ = new HeatmapWidget;
    rightLayout->addWidget(enlargedCaption_);
    rightLayout->addWidget(enlarged_, 1);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    pageLayout->addWidget(split);
    stack_->addWidget(transformerPage_);

    // Lines: the layer's heads drawn as lines, with the threshold above them.
    linesPage_ = new QWidget;
    auto* linesLayout = new QVBoxLayout(linesPage_);
    linesLayout->setContentsMargins(0, 0, 0, 0);
    linesNote_ = new QLabel;
    linesNote_->setWordWrap(true);
    linesLayout->addWidget(linesNote_);
    lines_ = new LineViewWidget;
    lines_->setToolTip(tr("Hover a token to keep only its lines; click a head's colour chip to hide or show it."));
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(lines_);
    linesLayout->addWidget(scroll, 1);
    stack_->addWidget(linesPage_);

    // GRU: one map, with a sentence about why.
    gruPage_ = new QWidget;
    auto* gruLayout = new QVBoxLayout(gruPage_);
    gruLayout->setContentsMargins(0, 0, 0, 0);
    gruExplanation_ = new QLabel(
        tr("A GRU encoder–decoder has a single attention map: at every output step the decoder spreads one unit "
           "of attention over the source words. A Transformer has one map per layer and head; train one to "
           "compare its heads."));
    gruExplanation_->setWordWrap(true);
    gruMap_ = new HeatmapWidget;
    gruMap_->setAxisTitles(tr("output"), tr("source"));
    gruLayout->addWidget(gruExplanation_);
    gruLayout->addWidget(gruMap_, 1);
    stack_->addWidget(gruPage_);
    layout->addWidget(stack_, 1);

    connect(input_, &QLineEdit::returnPressed, this, [this] { Q_EMIT translateRequested(input_->text(), 1); });
    connect(kind_, &QComboBox::currentIndexChanged, this, [this] {
        selectedHead_ = 0;
        refresh();
    });
    connect(layer_, &QComboBox::currentIndexChanged, this, &HeadsView::refresh);
    connect(show_, &QComboBox::currentIndexChanged, this, &HeadsView::refresh);
    connect(lines_, &LineViewWidget::thresholdChanged, this, &HeadsView::refreshLinesNote);
    connect(lines_, &LineViewWidget::headToggled, this, &HeadsView::refreshLinesNote);
    connect(scale_, &QComboBox::currentIndexChanged, this, [this] {
        const auto scale = static_cast<GridScale>(scale_->currentData().toInt());
        layerGrid_->setScale(scale);
        overview_->setScale(scale);
    });
    connect(layerGrid_, &HeadGridWidget::headActivated, this, [this](int head) {
        if (showsRollout()) return;  // one map, no head to enlarge or switch off
        if (ablationMode()) {
            toggleHead(HeadId{kind(), layer(), head});
        } else {
            showHead(layer(), head);
        }
    });
    connect(overview_, &HeadGridWidget::layerHeadActivated, this, [this](int l, int head) {
        if (ablationMode()) {
            toggleHead(HeadId{kind(), l, head});
            return;
        }
        selectedHead_ = head;
        const int index = layer_->findData(l);
        if (index >= 0 && index != layer_->currentIndex()) {
            layer_->setCurrentIndex(index);  // refresh() shows selectedHead_
        } else {
            showHead(l, head);
        }
    });
    connect(ablate_, &QToolButton::toggled, this, [this](bool on) {
        layerGrid_->setToolTip(on ? tr("Click a head to switch it off, or on again.")
                                  : tr("Click a head to enlarge it; hover a cell to follow its tokens across heads."));
        overview_->setToolTip(on ? tr("Click a head to switch it off, or on again.")
                                 : tr("Every layer (rows) and head (columns) of the model; click one to enlarge it."));
    });
    // "Layer Off" and "Kind Off" switch the group off, or on again when all of it is off.
    const auto toggleGroup = [this](bool wholeKind) {
        const LayeredAttention* layers = currentLayers();
        if (!layers) return;
        std::vector<HeadId> group;
        for (int l = 0; l < static_cast<int>(layers->size()); ++l) {
            if (!wholeKind && l != layer() && !showsRollout()) continue;
            for (int h = 0; h < static_cast<int>((*layers)[static_cast<std::size_t>(l)].size()); ++h)
                group.push_back(HeadId{kind(), l, h});
        }
        std::vector<HeadId> heads = off_;
        const bool allOff = std::all_of(group.begin(), group.end(), [&](const HeadId& g) {
            return std::find(off_.begin(), off_.end(), g) != off_.end();
        });
        if (allOff) {
            heads.erase(std::remove_if(heads.begin(), heads.end(),
                                       [&](const HeadId& h) { return std::find(group.begin(), group.end(), h) != group.end(); }),
                        heads.end());
        } else {
            heads.insert(heads.end(), group.begin(), group.end());
        }
        setSwitchedOff(std::move(heads));
    };
    connect(layerOff_, &QToolButton::clicked, this, [toggleGroup] { toggleGroup(false); });
    connect(kindOff_, &QToolButton::clicked, this, [toggleGroup] { toggleGroup(true); });
    connect(allOn_, &QToolButton::clicked, this, [this] { setSwitchedOff({}); });
    // Follow one token across every map.
    connect(layerGrid_, &HeadGridWidget::tokenHovered, this, [this](int r, int c) {
        overview_->highlightToken(r, c);
        enlarged_->highlightToken(r, c);
    });
    connect(overview_, &HeadGridWidget::tokenHovered, this, [this](int r, int c) {
        layerGrid_->highlightToken(r, c);
        enlarged_->highlightToken(r, c);
    });
    connect(enlarged_, &HeatmapWidget::cellHovered, this, [this](int r, int c, double) {
        layerGrid_->highlightToken(r, c);
        overview_->highlightToken(r, c);
    });
    connect(enlarged_, &HeatmapWidget::hoverLeft, this, [this] {
        layerGrid_->highlightToken(-1, -1);
        overview_->highlightToken(-1, -1);
    });
    clear();
}

QString HeadsView::sentence() const { return input_->text(); }

void HeadsView::setSentence(const QString& sentence) { input_->setText(sentence); }

MapKind HeadsView::kind() const { return static_cast<MapKind>(kind_->currentData().toInt()); }

void HeadsView::setKind(MapKind kind) {
    const int index = kind_->findData(static_cast<int>(kind));
    if (index >= 0) kind_->setCurrentIndex(index);
}

int HeadsView::layer() const {
    const QVariant v = layer_->currentData();
    return v.isValid() ? v.toInt() : 0;
}

bool HeadsView::showsTransformer() const { return stack_->currentWidget() == transformerPage_; }

bool HeadsView::showsGru() const { return stack_->currentWidget() == gruPage_; }

bool HeadsView::showsLines() const { return stack_->currentWidget() == linesPage_; }

void HeadsView::setShowLines(bool on) { show_->setCurrentIndex(on ? 1 : 0); }

void HeadsView::refreshLinesNote() {
    const LineViewRenderer& r = lines_->renderer();
    if (r.isEmpty()) {
        linesNote_->clear();
        return;
    }
    const auto [kept, visible] = r.keptCounts();
    const int percent = static_cast<int>(std::lround(r.threshold() * 100));
    const QString which = percent >= 100 ? tr("Every weight is a line (the toolbar's Keep slider thins them).")
                                         : tr("Each row's largest weights up to %1% of its mass (the toolbar's Keep slider).").arg(percent);
    linesNote_->setText(which + QLatin1Char(' ') +
                        (visible > static_cast<std::size_t>(LineViewRenderer::kLineBudget)
                             ? tr("%1 lines kept; the %2 heaviest are drawn.").arg(kept).arg(LineViewRenderer::kLineBudget)
                             : tr("%1 lines kept.").arg(kept)) +
                        QLatin1Char(' ') + tr("Hover a token to keep only its lines; click a colour chip to hide a head."));
}

void HeadsView::setColormap(ColormapId id) {
    colormap_ = id;
    layerGrid_->setColormap(id);
    overview_->setColormap(id);
    enlarged_->setColormap(id);
    gruMap_->setColormap(id);
}

void HeadsView::setShowNumbers(bool on) {
    enlarged_->setShowNumbers(on);
    gruMap_->setShowNumbers(on);
}

void HeadsView::setModelAvailable(bool available) {
    if (!available) {
        clear();
    } else if (translation_.sourceTokens.empty()) {
        message_->setText(tr("Type a sentence above and press Enter to see the attention of every head."));
        stack_->setCurrentWidget(message_);
    }
}

void HeadsView::clear() {
    translation_ = Translation{};
    original_ = Translation{};
    off_.clear();
    showsAblation_ = false;
    updateAblationControls();
    layerGrid_->clear();
    lines_->clear();
    linesNote_->clear();
    overview_->clear();
    enlarged_->clear();
    gruMap_->clear();
    transformerControls_->setVisible(false);
    message_->setText(tr("Start training or open a model, then type a sentence: every attention head of the "
                         "model is shown here."));
    stack_->setCurrentWidget(message_);
}

void HeadsView::labelsFor(const Translation& t, MapKind kind, QStringList* rows, QStringList* columns) {
    const QStringList source = HeatmapRenderer::toStringList(t.sourceTokens);
    const QStringList output = HeatmapRenderer::toStringList(t.outputTokens);
    if (kind == MapKind::Encoder) {
        *rows = source;
        *columns = source;
    } else if (kind == MapKind::Decoder) {
        *rows = output;
        *columns = QStringList{QStringLiteral("<s>")} + output.mid(0, std::max<qsizetype>(0, output.size() - 1));
    } else {
        *rows = output;
        *columns = source;
    }
}

const LayeredAttention* HeadsView::currentLayers() const {
    const auto found = translation_.attention.find(kind());
    if (found == translation_.attention.end() || found->second.empty()) return nullptr;
    return &found->second;
}

QString HeadsView::kindTitle() const {
    const MapKind k = kind();
    if (k == MapKind::Encoder) return tr("Encoder self-attention");
    if (k == MapKind::Decoder) return tr("Decoder self-attention");
    return tr("Cross-attention");
}

void HeadsView::setArchitecture(Architecture architecture) {
    architecture_ = architecture;
    refresh();
}

void HeadsView::setTranslation(const Translation& translation) {
    original_ = translation;
    if (!off_.empty() && !translation.sourceTokens.empty()) {
        // The full model's answer; the maps wait for the ablated model's (shown at once only when
        // nothing was shown before, with the heads that are off crossed out).
        if (translation_.sourceTokens.empty()) {
            translation_ = translation;
            showsAblation_ = false;
            refresh();
        }
        requestAgain();
        return;
    }
    translation_ = translation;
    showsAblation_ = false;
    refresh();
    updateAblationControls();
}

// ---- head ablation -------------------------------------------------------------------------------

bool HeadsView::ablationMode() const { return ablate_->isChecked(); }

void HeadsView::setAblationMode(bool on) { ablate_->setChecked(on); }

void HeadsView::toggleHead(const HeadId& head) { setSwitchedOff(withHeadToggled(off_, head)); }

void HeadsView::setSwitchedOff(std::vector<HeadId> heads) {
    std::sort(heads.begin(), heads.end());
    heads.erase(std::unique(heads.begin(), heads.end()), heads.end());
    if (heads == off_) return;
    off_ = std::move(heads);
    if (off_.empty() && showsAblation_) {
        // Every head on again: the full model's translation is at hand.
        translation_ = original_;
        showsAblation_ = false;
        refresh();
    } else {
        updateSwitchedOffMarks();
        requestAgain();
    }
    updateAblationControls();
}

void HeadsView::requestAgain() {
    if (off_.empty() || original_.sourceTokens.empty() || input_->text().trimmed().isEmpty()) return;
    ablationLabel_->setText(off_.size() == 1 ? tr("Switching 1 head off…")
                                             : tr("Switching %1 heads off…").arg(off_.size()));
    ablationLabel_->setVisible(true);
    Q_EMIT ablationRequested(input_->text());
}

void HeadsView::setAblatedTranslation(const AblatedTranslation& result) {
    if (off_.empty()) return;  // every head is on again: a late answer
    original_ = result.original;
    translation_ = result.ablated;
    showsAblation_ = true;
    originalLogProbability_ = result.originalLogProbability;
    ablatedLogProbability_ = result.originalLogProbabilityAblated;
    refresh();
    updateAblationControls();
}

void HeadsView::setAblationFailed(const QString& message) {
    ablationLabel_->setText(tr("The heads could not be switched off: %1").arg(message));
    ablationLabel_->setVisible(true);
}

QString HeadsView::ablationSummary() const {
    if (off_.empty()) return QString();
    QStringList names;
    for (std::size_t i = 0; i < off_.size() && i < 6; ++i) names << QString::fromStdString(toString(off_[i]));
    if (off_.size() > 6) names << QStringLiteral("…");
    const QString list = names.join(QStringLiteral(", "));
    const QString which = off_.size() == 1 ? tr("1 head off (%1).").arg(list)
                                           : tr("%1 heads off (%2).").arg(off_.size()).arg(list);
    if (!showsAblation_) return which;
    const QString full = outputText(original_);
    const QString without = outputText(translation_);
    const QString outputs = full == without
        ? tr("The output stays «%1».").arg(full)
        : tr("Every head on: «%1»; with these off: «%2».").arg(full, without);
    return which + QLatin1Char(' ') + outputs + QLatin1Char(' ') +
           tr("The probability of the full model's output: %1 with every head, %2 with these off.")
               .arg(probabilityText(originalLogProbability_), probabilityText(ablatedLogProbability_));
}

void HeadsView::updateAblationControls() {
    allOn_->setEnabled(!off_.empty());
    const bool maps = currentLayers() != nullptr;
    layerOff_->setEnabled(maps);
    kindOff_->setEnabled(maps);
    const QString summary = ablationSummary();
    ablationLabel_->setText(summary);
    ablationLabel_->setVisible(!summary.isEmpty());
}

void HeadsView::updateSwitchedOffMarks() {
    std::vector<std::pair<int, int>> inLayer, inModel;
    for (const HeadId& h : off_) {
        if (h.kind != kind()) continue;
        inModel.emplace_back(h.layer, h.head);
        if (h.layer == layer()) inLayer.emplace_back(0, h.head);
    }
    layerGrid_->setSwitchedOff(inLayer);
    overview_->setSwitchedOff(inModel);
}

void HeadsView::updateLayers(int count) {
    // Encoder self-attention also offers its rollout through every layer (Abnar & Zuidema 2020).
    const bool rollout = kind() == MapKind::Encoder;
    if (layer_->count() == count + (rollout ? 1 : 0) && (layer_->findData(-1) >= 0) == rollout) return;
    const QVariant wanted = layer_->currentData();
    const QSignalBlocker blocker(layer_);
    layer_->clear();
    for (int l = 0; l < count; ++l) layer_->addItem(QString::number(l + 1), l);  // from 1, as the grid captions
    if (rollout) layer_->addItem(tr("rollout"), -1);
    const int keep = wanted.isValid() ? layer_->findData(wanted) : -1;
    layer_->setCurrentIndex(keep >= 0 ? keep : count - 1);
}

bool HeadsView::showsRollout() const { return kind() == MapKind::Encoder && layer() < 0; }

void HeadsView::setShowRollout(bool on) {
    const int index = layer_->findData(on ? -1 : layer_->count() - (layer_->findData(-1) >= 0 ? 2 : 1));
    if (index >= 0) layer_->setCurrentIndex(index);
}

void HeadsView::refresh() {
    const Translation& t = translation_;
    if (t.sourceTokens.empty()) {
        transformerControls_->setVisible(false);
        stack_->setCurrentWidget(message_);
        return;
    }
    // A Transformer reports its self-attention too; a GRU only cross-attention (or none at all).
    const bool transformer = architecture_ == Architecture::Transformer || t.attention.count(MapKind::Encoder) > 0;
    transformerControls_->setVisible(transformer);
    if (t.outputTokens.empty()) {
        // The engine captures attention along the output; with no output token there is none.
        message_->setText(tr("The model ended its output at once, so there is no attention to show for this "
                             "sentence. Train it a little longer."));
        stack_->setCurrentWidget(message_);
        return;
    }
    if (!transformer) {
        const auto cross = t.attention.find(MapKind::Cross);
        if (cross == t.attention.end() || cross->second.empty() || cross->second.front().empty()) {
            message_->setText(tr("This GRU has no attention: the decoder only sees one fixed vector that sums up "
                                 "the whole sentence. Choose an attention variant (e.g. additive) and train again "
                                 "to see an attention map."));
            stack_->setCurrentWidget(message_);
            return;
        }
        gruMap_->setTitle(tr("Cross-attention (the GRU's only attention map)"));
        gruMap_->setAttention(cross->second.front().front(), t.outputTokens, t.sourceTokens);
        stack_->setCurrentWidget(gruPage_);
        return;
    }
    const LayeredAttention* layers = currentLayers();
    if (!layers) {
        message_->setText(tr("This model reported no %1.").arg(kindTitle().toLower()));
        stack_->setCurrentWidget(message_);
        return;
    }
    updateLayers(static_cast<int>(layers->size()));
    QStringList rows, columns;
    labelsFor(t, kind(), &rows, &columns);
    if (showsRollout()) {
        // One map: what each source token draws on after every layer, the residual counted
        // (per layer the heads' mean A, (A + I) / 2 renormalised, multiplied through the layers;
        // the heads switched off are left out of their layer's mean).
        const std::vector<AttentionMap> rollout{encoderRollout(t, off_)};
        const QString title = tr("Encoder self-attention: rollout through %1 layers").arg(layers->size());
        layerGrid_->setTitle(title);
        layerGrid_->setHeads(rollout, rows, columns);
        overview_->setTitle(QString());
        overview_->setLayers(*layers, rows, columns);
        updateSwitchedOffMarks();
        layerGrid_->setSwitchedOff({});
        if (show_->currentIndex() == 1) {
            lines_->setTitle(title);
            lines_->setMaps(rollout, rows, columns);
            refreshLinesNote();
            stack_->setCurrentWidget(linesPage_);
            return;
        }
        enlargedCaption_->setText(tr("Enlarged: the rollout (Abnar & Zuidema 2020), each row sums to 1"));
        enlarged_->setTitle(title);
        enlarged_->setAxisTitles(tr("source"), tr("source"));
        enlarged_->setAttention(rollout.front(), rows, columns);
        stack_->setCurrentWidget(transformerPage_);
        return;
    }
    const int l = std::clamp(layer(), 0, static_cast<int>(layers->size()) - 1);
    layerGrid_->setTitle(showsAblation_ ? tr("%1, layer %2: every head (%3 off)")
                                              .arg(kindTitle())
                                              .arg(l + 1)
                                              .arg(off_.size())
                                        : tr("%1, layer %2: every head").arg(kindTitle()).arg(l + 1));
    layerGrid_->setHeads((*layers)[static_cast<std::size_t>(l)], rows, columns);
    overview_->setTitle(QString());
    overview_->setLayers(*layers, rows, columns);
    updateSwitchedOffMarks();
    if (show_->currentIndex() == 1) {
        lines_->setTitle(tr("%1, layer %2: each head's lines").arg(kindTitle()).arg(l + 1));
        lines_->setMaps((*layers)[static_cast<std::size_t>(l)], rows, columns);
        refreshLinesNote();
        stack_->setCurrentWidget(linesPage_);
        return;
    }
    stack_->setCurrentWidget(transformerPage_);
    showHead(l, selectedHead_);
}

void HeadsView::showHead(int l, int head) {
    const LayeredAttention* layers = currentLayers();
    if (!layers || l < 0 || l >= static_cast<int>(layers->size())) return;
    const auto& heads = (*layers)[static_cast<std::size_t>(l)];
    if (heads.empty()) return;
    head = std::clamp(head, 0, static_cast<int>(heads.size()) - 1);
    selectedHead_ = head;
    QStringList rows, columns;
    labelsFor(translation_, kind(), &rows, &columns);
    const QString title = tr("%1, layer %2, head %3").arg(kindTitle()).arg(l + 1).arg(head + 1);
    const bool off = std::find(off_.begin(), off_.end(), HeadId{kind(), l, head}) != off_.end();
    enlargedCaption_->setText(off ? tr("Enlarged: layer %1, head %2, switched off (its softmax, which no longer "
                                       "reaches the output)").arg(l + 1).arg(head + 1)
                                  : tr("Enlarged: layer %1, head %2 (click a thumbnail to choose)").arg(l + 1).arg(head + 1));
    enlarged_->setTitle(title);
    const MapKind k = kind();
    enlarged_->setAxisTitles(k == MapKind::Encoder ? tr("source") : tr("output"),
                             k == MapKind::Decoder ? tr("decoder input") : tr("source"));
    enlarged_->setAttention(heads[static_cast<std::size_t>(head)], rows, columns);
}

HeatmapWidget* HeadsView::currentHeatmap() const {
    if (showsTransformer()) return enlarged_;
    if (showsGru()) return gruMap_;
    return nullptr;
}

bool HeadsView::exportFigure(const QString& path, QString* error, double scale) const {
    if (showsLines()) return lines_->exportImage(path, error, scale);
    if (showsTransformer()) {
        // What is on screen, but never smaller than the grid needs, nor too small for its title.
        const QSize size = layerGrid_->size().expandedTo(layerGrid_->preferredSize()).expandedTo(QSize(640, 480));
        return layerGrid_->exportImage(path, error, scale, size);
    }
    if (showsGru()) return gruMap_->exportTo(path, error, scale);
    if (error) *error = tr("there is no attention to export yet");
    return false;
}

bool HeadsView::exportAllHeads(const QString& directory, const QString& extension, double scale,
                               QStringList* written, QString* error) const {
    const LayeredAttention* layers = showsTransformer() || showsGru() || showsLines() ? currentLayers() : nullptr;
    if (showsGru()) {
        const auto cross = translation_.attention.find(MapKind::Cross);
        layers = cross != translation_.attention.end() ? &cross->second : nullptr;
    }
    if (!layers) {
        if (error) *error = tr("there is no attention to export yet");
        return false;
    }
    const MapKind k = showsGru() ? MapKind::Cross : kind();
    QStringList rows, columns;
    labelsFor(translation_, k, &rows, &columns);
    const QDir dir(directory);
    for (std::size_t l = 0; l < layers->size(); ++l) {
        for (std::size_t h = 0; h < (*layers)[l].size(); ++h) {
            HeatmapOptions options;
            options.colormap = colormap_;
            options.title = tr("%1 attention, layer %2, head %3").arg(kindWord(k)).arg(l + 1).arg(h + 1);
            options.rowAxisTitle = k == MapKind::Encoder ? tr("source") : tr("output");
            options.columnAxisTitle = k == MapKind::Decoder ? tr("decoder input") : tr("source");
            HeatmapRenderer renderer(options);
            renderer.setMap((*layers)[l][h], rows, columns);
            const QString name = QStringLiteral("%1-layer%2-head%3.%4").arg(QLatin1String(toString(k))).arg(l + 1).arg(h + 1).arg(extension);
            const QString path = dir.filePath(name);
            if (!renderer.exportFile(path, error, scale)) return false;
            if (written) *written << path;
        }
    }
    return true;
}

// ---- View ----------------------------------------------------------------------------------------

QString HeadsView::viewTitle() const { return tr("Heads"); }

QString HeadsView::viewToolTip() const {
    return tr("Every attention head of every layer.");
}

void HeadsView::clearView() {
    clear();
}

void HeadsView::modelChanged(const ModelInfo* model) {
    setSwitchedOff({});  // another model: its heads are not these
    if (model != nullptr)
        setArchitecture(model->architecture == QLatin1String("transformer") ? Architecture::Transformer : Architecture::Gru);
}

void HeadsView::modelAvailable(bool available) {
    setModelAvailable(available);
}

void HeadsView::applyColormap(ColormapId id) {
    setColormap(id);
}

void HeadsView::applyShowNumbers(bool on) {
    setShowNumbers(on);
}

// Only while a map is shown (not the message before the first translation, or for an output that
// ended at once): Export Image is disabled rather than failing with "no attention to export yet".
bool HeadsView::exportsFigure() const {
    return showsTransformer() || showsGru() || showsLines();
}

bool HeadsView::exportsMatrix() const {
    return currentHeatmap() != nullptr;
}

bool HeadsView::exportView(const QString& path, double scale, QString* error) const {
    if (!isMatrixPath(path)) return exportFigure(path, error, scale);
    const HeatmapWidget* heatmap = currentHeatmap();
    if (heatmap == nullptr) return fail(error, View::tr("there is no heatmap to export in this view yet"));
    return heatmap->exportTo(path, error, scale);
}

}  // namespace attnlab
