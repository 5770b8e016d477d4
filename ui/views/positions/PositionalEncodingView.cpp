#include "views/positions/PositionalEncodingView.h"

#include "task/translate/TranslationTypes.h"

#include "base/translation/ModelConfig.h"
#include "base/PositionalEncoding.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

namespace {

QStringList indexLabels(int n) {
    QStringList labels;
    for (int i = 0; i < n; ++i) labels << QString::number(i);
    return labels;
}

QWidget* captioned(const QString& caption, QWidget* content, QLabel* note) {
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* title = new QLabel(caption);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(title);
    layout->addWidget(content, 1);
    layout->addWidget(note);
    return box;
}

}  // namespace

PositionalEncodingView::PositionalEncodingView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(8);

    auto* controls = new QHBoxLayout;
    positions_ = new QSpinBox;
    positions_->setRange(1, 512);
    positions_->setValue(kDefaultPositions);
    positions_->setToolTip(tr("How many positions (rows) to show, from 0."));
    width_ = new QSpinBox;
    width_->setRange(2, 1024);
    width_->setSingleStep(2);
    width_->setValue(kDefaultModelWidth);
    width_->setToolTip(tr("d_model: the width of the vectors, one column per dimension."));
    useModel_ = new QPushButton(tr("Use the model's"));
    useModel_->setToolTip(tr("Show the table of the Transformer that is loaded or training."));
    modelNote_ = new QLabel;
    modelNote_->setForegroundRole(QPalette::PlaceholderText);
    controls->addWidget(new QLabel(tr("Positions:")));
    controls->addWidget(positions_);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(tr("d_model:")));
    controls->addWidget(width_);
    controls->addWidget(useModel_);
    controls->addSpacing(8);
    controls->addWidget(modelNote_, 1);
    layout->addLayout(controls);

    formula_ = new QLabel;
    formula_->setTextFormat(Qt::RichText);
    formula_->setWordWrap(true);
    formula_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    formula_->setText(
        tr("<b>PE</b>(pos, 2i) = sin(pos / 10000<sup>2i / d</sup>) &nbsp;&nbsp; <b>PE</b>(pos, 2i+1) = "
           "cos(pos / 10000<sup>2i / d</sup>)<br>Each position gets one vector, added to its token's embedding. "
           "Dimension pair i turns at its own speed: the left columns change from one position to the next, the "
           "right ones over thousands of positions, like the hands of a clock."));
    layout->addWidget(formula_);

    auto* split = new QSplitter(Qt::Horizontal);
    encoding_ = new HeatmapWidget;
    encoding_->setColormap(ColormapId::RdBuR);
    encoding_->setValueRange(-1.0, 1.0);
    encoding_->setAxisTitles(tr("position"), tr("dimension"));
    encoding_->setKeepAspect(false);  // 128 dimensions by 50 positions would leave it a thin strip
    similarity_ = new HeatmapWidget;
    similarity_->setColormap(ColormapId::RdBuR);
    similarity_->setValueRange(-1.0, 1.0);
    similarity_->setAxisTitles(tr("position"), tr("position"));
    split->addWidget(captioned(tr("Encoding: one row per position"), encoding_,
                               new QLabel(tr("Blue −1, white 0, red +1. Hover a cell for its value."))));
    split->addWidget(captioned(tr("Cosine similarity between positions"), similarity_,
                               new QLabel(tr("Every diagonal has one colour: the similarity of two positions "
                                             "depends only on their distance, so attention can learn “the word "
                                             "two to the left” once for every position."))));
    layout->addWidget(split, 1);

    connect(positions_, &QSpinBox::valueChanged, this, &PositionalEncodingView::refresh);
    connect(width_, &QSpinBox::valueChanged, this, &PositionalEncodingView::refresh);
    connect(useModel_, &QPushButton::clicked, this, [this] {
        if (transformerWidth_ > 0) setModelWidth(transformerWidth_);
    });
    updateModelNote();
    refresh();
}

int PositionalEncodingView::modelWidth() const { return width_->value(); }

int PositionalEncodingView::positions() const { return positions_->value(); }

void PositionalEncodingView::setModelWidth(int d) { width_->setValue(d); }

void PositionalEncodingView::setPositions(int positions) { positions_->setValue(positions); }

void PositionalEncodingView::setModel(const ModelConfig* config) {
    if (config == nullptr || config->architecture != Architecture::Transformer) {
        setModelShape(0, 0);
    } else {
        setModelShape(config->hidden, config->maxLength);
    }
}

void PositionalEncodingView::setModelShape(int width, int maxPositions) {
    const bool transformer = width > 0;
    transformerWidth_ = width;
    {
        const QSignalBlocker a(width_);
        const QSignalBlocker b(positions_);
        width_->setValue(transformer ? width : kDefaultModelWidth);
        if (transformer) positions_->setValue(std::min(kDefaultPositions, std::max(1, maxPositions)));
    }
    updateModelNote();
    refresh();
}

void PositionalEncodingView::updateModelNote() {
    useModel_->setEnabled(transformerWidth_ > 0);
    modelNote_->setText(transformerWidth_ > 0 ? tr("The current Transformer has d_model = %1.").arg(transformerWidth_)
                                              : tr("No Transformer loaded: showing d_model = %1.").arg(kDefaultModelWidth));
}

void PositionalEncodingView::refresh() {
    const int p = positions();
    const int d = modelWidth();
    const AttentionMap table = sinusoidalEncoding(p, d);
    encoding_->setTitle(tr("%1 positions × %2 dimensions").arg(p).arg(d));
    encoding_->setAttention(table, indexLabels(p), indexLabels(d));
    similarity_->setTitle(tr("cos(PE(p), PE(q)), d_model = %1").arg(d));
    similarity_->setAttention(cosineSimilarity(table), indexLabels(p), indexLabels(p));
}

// ---- View ----------------------------------------------------------------------------------------

QString PositionalEncodingView::viewTitle() const { return tr("Positions"); }

QString PositionalEncodingView::viewToolTip() const {
    return tr("The Transformer's sinusoidal positional encoding and how alike positions are.");
}

void PositionalEncodingView::modelChanged(const ModelInfo* model) {
    // The sinusoidal table is the translation Transformer's; other models keep the explorer's sizes.
    const bool sinusoidal = model != nullptr && model->maxPositions > 0 && model->width > 0;
    setModelShape(sinusoidal ? model->width : 0, sinusoidal ? model->maxPositions : 0);
}

}  // namespace attnlab
