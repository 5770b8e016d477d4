#include "views/translate/TranslateView.h"

#include "widgets/AttentionPanel.h"
#include "widgets/HeatmapWidget.h"

#include "widgets/WidgetStyle.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>

#include <cmath>

namespace attnlab {

namespace {

QString joined(const std::vector<std::string>& tokens) {
    QStringList list;
    for (const auto& t : tokens) list << QString::fromStdString(t).toHtmlEscaped();
    return list.join(QStringLiteral("&nbsp; "));
}

}  // namespace

TranslateView::TranslateView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(10);

    auto* inputRow = new QHBoxLayout;
    input_ = new QLineEdit;
    input_->setPlaceholderText(tr("Type a sentence in the source language and press Enter"));
    input_->setClearButtonEnabled(true);
    scaleFont(input_, 1.3);
    input_->setToolTip(tr("The sentence to translate; words the model never saw become <unk>."));
    beam_ = new QSpinBox;
    beam_->setRange(1, 16);
    beam_->setValue(1);
    beam_->setPrefix(tr("beam "));
    beam_->setToolTip(tr("Beam width: 1 picks the likeliest word at each step, more keeps several candidate "
                         "outputs."));
    translate_ = new QPushButton(style()->standardIcon(QStyle::SP_ArrowRight), tr("Translate"));
    translate_->setToolTip(tr("Translate the sentence (Enter)."));
    inputRow->addWidget(input_, 1);
    inputRow->addWidget(beam_);
    inputRow->addWidget(translate_);
    layout->addLayout(inputRow);

    auto* outputRow = new QHBoxLayout;
    output_ = new QLabel;
    output_->setTextFormat(Qt::RichText);
    output_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    output_->setWordWrap(true);
    scaleFont(output_, 1.5);
    follow_ = new QCheckBox(tr("Update after each epoch"));
    follow_->setChecked(true);
    follow_->setToolTip(tr("Translate the sentence again whenever training finishes an epoch."));
    outputRow->addWidget(output_, 1);
    outputRow->addWidget(follow_, 0, Qt::AlignTop);
    layout->addLayout(outputRow);

    details_ = new QLabel;
    details_->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(details_);

    attention_ = new AttentionPanel;
    layout->addWidget(attention_, 1);

    connect(input_, &QLineEdit::returnPressed, this, &TranslateView::requestTranslation);
    connect(input_, &QLineEdit::textEdited, this, [this] { ++editsSinceHistoryReset_; });
    connect(translate_, &QPushButton::clicked, this, &TranslateView::requestTranslation);
    connect(beam_, &QSpinBox::valueChanged, this, [this] {
        if (!input_->text().trimmed().isEmpty()) requestTranslation();
    });
    clear();
}

QString TranslateView::sentence() const { return input_->text(); }

void TranslateView::setSentence(const QString& sentence) { input_->setText(sentence); }

int TranslateView::beam() const { return beam_->value(); }

bool TranslateView::followsTraining() const { return follow_->isChecked(); }

void TranslateView::requestTranslation() {
    // QLineEdit keeps every edit for undo, ~20 bytes a keystroke for as long as the window lives.
    // Past kMaxUndoEdits the history restarts at the sentence being translated (undo then goes back
    // to it, not beyond): a class typing for hours stays bounded, a user editing a few sentences
    // never notices.
    constexpr int kMaxUndoEdits = 2000;
    if (editsSinceHistoryReset_ > kMaxUndoEdits) {
        const int cursor = input_->cursorPosition();
        input_->setText(input_->text());  // clears the undo and redo history
        input_->setCursorPosition(cursor);
        editsSinceHistoryReset_ = 0;
    }
    Q_EMIT translateRequested(input_->text(), beam_->value());
}

void TranslateView::setModelAvailable(bool available) {
    translate_->setEnabled(available);
    if (!available) {
        attention_->showMessage(tr("Start training or open a model, then type a sentence to see where the model "
                                   "looks while it translates."));
    } else if (!attention_->hasMap() && attention_->translation().sourceTokens.empty()) {
        attention_->showMessage(tr("Type a sentence above and press Enter."));
    }
}

void TranslateView::clear() {
    output_->setText(QStringLiteral("<span style='color:gray'>%1</span>").arg(tr("Output appears here")));
    details_->clear();
    attention_->setTranslation(Translation{});
}

void TranslateView::setTranslation(const Translation& t) {
    output_->setText(t.outputTokens.empty() ? QStringLiteral("<i>%1</i>").arg(tr("(empty output)"))
                                            : joined(t.outputTokens));
    QString details = tr("output tokens: %1").arg(t.outputTokens.size());
    if (std::isfinite(t.logProbability))
        details += tr(" · log-probability %1").arg(t.logProbability, 0, 'f', 3);
    if (t.truncated) details += tr(" · the sentence was cut to the model's maximum length");
    details_->setText(details);
    attention_->setTranslation(t);
}

void TranslateView::setError(const QString& message) {
    details_->setText(QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(message.toHtmlEscaped()));
}

// ---- View ----------------------------------------------------------------------------------------

QString TranslateView::viewTitle() const { return tr("Translate"); }

QString TranslateView::viewToolTip() const {
    return tr("Translate a sentence and see the attention behind it.");
}

void TranslateView::clearView() {
    clear();
}

void TranslateView::modelAvailable(bool available) {
    setModelAvailable(available);
}

void TranslateView::applyColormap(ColormapId id) {
    attention()->heatmap()->setColormap(id);
}

void TranslateView::applyShowNumbers(bool on) {
    attention()->heatmap()->setShowNumbers(on);
}

// Only while a map is shown: Export Image and Export Matrix are disabled before the first answer
// (or for an output that ended at once) rather than failing with "no heatmap to export yet".
bool TranslateView::exportsFigure() const {
    return attention()->hasMap();
}

bool TranslateView::exportsMatrix() const {
    return attention()->hasMap();
}

bool TranslateView::exportView(const QString& path, double scale, QString* error) const {
    return exportPanel(attention(), path, scale, error);
}

HeatmapWidget* TranslateView::zoomableHeatmap() const { return attention()->heatmap(); }

}  // namespace attnlab
