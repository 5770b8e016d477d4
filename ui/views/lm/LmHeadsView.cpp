#include "views/lm/LmHeadsView.h"
#include "render/FigureWriter.h"
#include "views/lm/LmTokenText.h"
#include "widgets/HeadGridWidget.h"
#include "widgets/HeatmapWidget.h"
#include "widgets/LineViewWidget.h"
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace attnlab {

LmHeadsView::LmHeadsView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    auto* top = new QHBoxLayout;
    text_ = new QLineEdit;
    text_->setObjectName(QStringLiteral("lmHeadsText"));
    text_->setPlaceholderText(tr("A text for the model to read"));
    show_ = new QPushButton(tr("Show"));
    mode_ = new QComboBox;
    mode_->addItem(tr("Grid"));
    mode_->addItem(tr("Lines"));
    mode_->setToolTip(tr("Grid: every head as a heatmap. Lines: one layer's heads as lines between the tokens."));
    layerBox_ = new QComboBox;
    layerBox_->setToolTip(tr("The layer the line view draws."));
    top->addWidget(new QLabel(tr("Text:")));
    top->addWidget(text_, 1);
    top->addWidget(show_);
    top->addWidget(new QLabel(tr("Show:")));
    top->addWidget(mode_);
    top->addWidget(layerBox_);
    layout->addLayout(top);
    note_ = new QLabel;
    note_->setWordWrap(true);
    layout->addWidget(note_);

    stack_ = new QStackedWidget;
    auto* split = new QSplitter(Qt::Horizontal);
    grid_ = new HeadGridWidget;
    grid_->setObjectName(QStringLiteral("lmHeadGrid"));
    auto* enlargedBox = new QWidget;
    auto* enlargedLayout = new QVBoxLayout(enlargedBox);
    enlargedLayout->setContentsMargins(0, 0, 0, 0);
    enlargedTitle_ = new QLabel;
    enlarged_ = new HeatmapWidget;
    enlarged_->setAxisTitles(tr("query"), tr("key"));
    enlargedLayout->addWidget(enlargedTitle_);
    enlargedLayout->addWidget(enlarged_, 1);
    split->addWidget(grid_);
    split->addWidget(enlargedBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    stack_->addWidget(split);
    lines_ = new LineViewWidget;
    auto* scroll = new QScrollArea;
    scroll->setWidget(lines_);
    scroll->setWidgetResizable(true);
    stack_->addWidget(scroll);
    layout->addWidget(stack_, 1);

    auto request = [this] { Q_EMIT textChanged(text()); };
    connect(text_, &QLineEdit::returnPressed, this, request);
    connect(show_, &QPushButton::clicked, this, request);
    connect(mode_, &QComboBox::currentIndexChanged, this, [this](int i) {
        stack_->setCurrentIndex(i);
        layerBox_->setEnabled(i == 1);
        showReading();
    });
    connect(layerBox_, &QComboBox::currentIndexChanged, this, [this] { showReading(); });
    connect(grid_, &HeadGridWidget::layerHeadActivated, this, &LmHeadsView::selectHead);
    connect(grid_, &HeadGridWidget::tokenHovered, enlarged_, &HeatmapWidget::highlightToken);
    connect(enlarged_, &HeatmapWidget::cellHovered, grid_, [this](int row, int column, double) {
        grid_->highlightToken(row, column);
    });
    connect(enlarged_, &HeatmapWidget::hoverLeft, grid_, [this] { grid_->highlightToken(-1, -1); });
    layerBox_->setEnabled(false);
    modelAvailable(false);
}

QString LmHeadsView::viewTitle() const { return tr("Heads"); }

QString LmHeadsView::viewToolTip() const {
    return tr("Every layer's and head's attention over a text, as heatmaps or as lines.");
}

void LmHeadsView::clearView() {
    reading_.reset();
    grid_->clear();
    enlarged_->clear();
    lines_->clear();
    enlargedTitle_->clear();
    note_->clear();
}

void LmHeadsView::modelAvailable(bool available) {
    show_->setEnabled(available);
    if (!available && !reading_) note_->setText(tr("Train or open a language model to see its heads."));
}

void LmHeadsView::applyColormap(ColormapId id) {
    grid_->setColormap(id);
    enlarged_->setColormap(id);
}

void LmHeadsView::applyShowNumbers(bool on) { enlarged_->setShowNumbers(on); }

QString LmHeadsView::text() const { return text_->text(); }

void LmHeadsView::setText(const QString& text) { text_->setText(text); }

void LmHeadsView::setReading(const LmReading& reading) {
    const bool newShape = !reading_ || reading_->attention.size() != reading.attention.size();
    reading_ = reading;
    if (newShape) {
        layerBox_->clear();
        for (std::size_t l = 0; l < reading.attention.size(); ++l) layerBox_->addItem(tr("Layer %1").arg(l + 1));
    }
    note_->setText(reading.cut > 0 ? tr("The text is longer than the model's context: its first %n token(s) were "
                                        "left out.",
                                        nullptr, reading.cut)
                                   : QString());
    showReading();
}

void LmHeadsView::setFailed(const QString& message) { note_->setText(message); }

bool LmHeadsView::showsLines() const { return mode_->currentIndex() == 1; }

void LmHeadsView::setShowLines(bool on) { mode_->setCurrentIndex(on ? 1 : 0); }

void LmHeadsView::selectHead(int layer, int head) {
    layer_ = layer;
    head_ = head;
    showReading();
}

void LmHeadsView::showReading() {
    if (!reading_ || reading_->attention.empty()) return;
    QStringList labels;
    for (const std::string& t : reading_->tokens) labels << lmTokenText(t);
    const LayeredAttention& a = reading_->attention;
    grid_->setLayers(a, labels, labels);
    if (layer_ >= static_cast<int>(a.size())) layer_ = 0;
    if (head_ >= static_cast<int>(a[static_cast<std::size_t>(layer_)].size())) head_ = 0;
    enlarged_->setAttention(a[static_cast<std::size_t>(layer_)][static_cast<std::size_t>(head_)], labels, labels);
    enlargedTitle_->setText(tr("Layer %1, head %2 (rows: the token reading; columns: the tokens read)")
                                .arg(layer_ + 1)
                                .arg(head_ + 1));
    const int lineLayer = std::clamp(layerBox_->currentIndex(), 0, static_cast<int>(a.size()) - 1);
    if (showsLines()) {
        lines_->setMaps(a[static_cast<std::size_t>(lineLayer)], labels, labels);
        lines_->setTitle(tr("Layer %1").arg(lineLayer + 1));
    }
}

bool LmHeadsView::exportView(const QString& path, double scale, QString* error) const {
    if (!reading_) return fail(error, tr("No text read yet."));
    if (isMatrixPath(path)) return enlarged_->exportTo(path, error, scale);
    if (showsLines()) return lines_->exportImage(path, error, scale);
    return grid_->exportImage(path, error, scale);
}

}  // namespace attnlab
