#include "widgets/AttentionPanel.h"

#include "widgets/WidgetStyle.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace attnlab {

namespace {

QToolButton* zoomButton(const QString& text, const QString& toolTip, QWidget* parent) {
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(toolTip);
    button->setAutoRaise(true);
    button->setMinimumWidth(32);
    return button;
}

}  // namespace

AttentionPanel::AttentionPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);

    auto* bar = new QHBoxLayout;
    selectors_ = new QWidget;
    auto* selectorLayout = new QHBoxLayout(selectors_);
    selectorLayout->setContentsMargins(0, 0, 0, 0);
    layer_ = new QComboBox;
    layer_->setToolTip(tr("Which decoder layer's cross-attention to show."));
    head_ = new QComboBox;
    head_->setToolTip(tr("One attention head, or the mean of all heads of the layer."));
    selectorLayout->addWidget(new QLabel(tr("Layer:")));
    selectorLayout->addWidget(layer_);
    selectorLayout->addSpacing(8);
    selectorLayout->addWidget(new QLabel(tr("Head:")));
    selectorLayout->addWidget(head_);
    selectors_->setVisible(false);
    bar->addWidget(selectors_);
    bar->addStretch(1);

    heatmap_ = new HeatmapWidget;
    heatmap_->setAxisTitles(tr("output"), tr("source"));
    auto* zoomOut = zoomButton(QStringLiteral("\u2212"), tr("Zoom out (-)"), this);
    auto* zoomIn = zoomButton(QStringLiteral("+"), tr("Zoom in (+, or Ctrl+wheel)"), this);
    auto* zoomReset = zoomButton(tr("Fit"), tr("Show the whole map (0, or double-click)"), this);
    bar->addWidget(zoomOut);
    bar->addWidget(zoomIn);
    bar->addWidget(zoomReset);
    layout->addLayout(bar);

    stack_ = new QStackedWidget;
    message_ = makePlaceholderLabel();
    stack_->addWidget(message_);
    stack_->addWidget(heatmap_);
    layout->addWidget(stack_, 1);
    selectionInfo_ = new QLabel;
    selectionInfo_->setWordWrap(true);
    selectionInfo_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    selectionInfo_->setVisible(false);
    layout->addWidget(selectionInfo_);

    connect(zoomIn, &QToolButton::clicked, heatmap_, &HeatmapWidget::zoomIn);
    connect(zoomOut, &QToolButton::clicked, heatmap_, &HeatmapWidget::zoomOut);
    connect(zoomReset, &QToolButton::clicked, heatmap_, &HeatmapWidget::resetZoom);
    connect(heatmap_, &HeatmapWidget::selectionChanged, this, &AttentionPanel::updateSelectionInfo);
    connect(layer_, &QComboBox::currentIndexChanged, this, &AttentionPanel::refresh);
    connect(head_, &QComboBox::currentIndexChanged, this, &AttentionPanel::refresh);
    showMessage(tr("No attention to show yet."));
}

AttentionMap AttentionPanel::meanOfHeads(const std::vector<AttentionMap>& heads) {
    if (heads.empty()) return {};
    AttentionMap mean{heads.front().rows, heads.front().cols,
                      std::vector<float>(heads.front().weights.size(), 0.0f)};
    for (const AttentionMap& h : heads) {
        if (h.rows != mean.rows || h.cols != mean.cols || h.weights.size() != mean.weights.size()) return heads.front();
        for (std::size_t i = 0; i < mean.weights.size(); ++i) mean.weights[i] += h.weights[i];
    }
    for (float& w : mean.weights) w /= static_cast<float>(heads.size());
    return mean;
}

bool AttentionPanel::hasMap() const { return stack_->currentWidget() == heatmap_; }

int AttentionPanel::layer() const {
    const QVariant v = layer_->currentData();
    return v.isValid() ? v.toInt() : -1;
}

int AttentionPanel::head() const {
    const QVariant v = head_->currentData();
    return v.isValid() ? v.toInt() : -1;
}

void AttentionPanel::setSelection(int layer, int head) {
    const int l = layer_->findData(layer);
    const int h = head_->findData(head);
    if (l >= 0) layer_->setCurrentIndex(l);
    if (h >= 0) head_->setCurrentIndex(h);
}

void AttentionPanel::showMessage(const QString& message) {
    message_->setText(message);
    stack_->setCurrentWidget(message_);
    Q_EMIT mapChanged();
    updateSelectionInfo();
}

void AttentionPanel::updateSelectionInfo() {
    // Without a selection the line says how to make one.
    const bool selected = heatmap_->hasSelection();
    selectionInfo_->setForegroundRole(selected ? QPalette::WindowText : QPalette::PlaceholderText);
    selectionInfo_->setText(selected ? heatmap_->selectionSummary()
                                     : tr("Click token labels (Ctrl+click for several) to sum their attention; "
                                          "Escape clears."));
    selectionInfo_->setVisible(stack_->currentWidget() == heatmap_);
}

void AttentionPanel::updateSelectors(int layers, int heads) {
    // Rebuilt only when the model's shape changes, so a live update keeps the user's choice.
    if (layer_->count() != layers) {
        const QSignalBlocker blocker(layer_);
        layer_->clear();
        for (int l = 0; l < layers; ++l) layer_->addItem(QString::number(l + 1), l);  // from 1, as the CLI's --layer
        layer_->setCurrentIndex(layers - 1);  // the last layer is usually the clearest alignment
    }
    if (head_->count() != heads + 1) {
        const QSignalBlocker blocker(head_);
        head_->clear();
        head_->addItem(tr("mean of all"), -1);
        for (int h = 0; h < heads; ++h) head_->addItem(QString::number(h + 1), h);
        head_->setCurrentIndex(0);
    }
}

void AttentionPanel::setTranslation(const Translation& translation) {
    translation_ = translation;
    refresh();
}

void AttentionPanel::refresh() {
    const Translation& t = translation_;
    if (!t.sourceTokens.empty() && t.outputTokens.empty()) {
        showMessage(tr("The model ended the output at once, so there is no output token to show attention "
                       "for. Train it a little longer."));
        return;
    }
    const auto found = t.attention.find(MapKind::Cross);
    if (found == t.attention.end() || found->second.empty()) {
        selectors_->setVisible(false);
        showMessage(t.sourceTokens.empty()
                        ? tr("No attention to show yet.")
                        : tr("This model has no attention: its decoder sees the whole sentence as one fixed "
                             "vector. Choose an attention variant to see where it looks."));
        return;
    }
    const LayeredAttention& layers = found->second;
    const int layerCount = static_cast<int>(layers.size());
    int headCount = 0;
    for (const auto& l : layers) headCount = std::max(headCount, static_cast<int>(l.size()));
    const bool multi = layerCount > 1 || headCount > 1;
    selectors_->setVisible(multi);
    updateSelectors(layerCount, headCount);

    int l = layer();
    if (l < 0 || l >= layerCount) l = layerCount - 1;
    const auto& heads = layers[static_cast<std::size_t>(l)];
    const int h = head();
    AttentionMap map = h >= 0 && h < static_cast<int>(heads.size()) ? heads[static_cast<std::size_t>(h)]
                                                                      : meanOfHeads(heads);
    QString title = tr("Cross-attention");
    if (multi) {
        title = h >= 0 ? tr("Cross-attention, layer %1, head %2").arg(l + 1).arg(h + 1)
                       : tr("Cross-attention, layer %1, mean of %2 heads").arg(l + 1).arg(heads.size());
    }
    heatmap_->setTitle(title);
    heatmap_->setAttention(map, t.outputTokens, t.sourceTokens);
    stack_->setCurrentWidget(heatmap_);
    Q_EMIT mapChanged();
    updateSelectionInfo();
}

}  // namespace attnlab
