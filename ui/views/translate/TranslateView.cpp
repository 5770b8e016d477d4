#include "views/translate/TranslateView.h"

#include "widgets/AttentionPanel.h"
#include "widgets/HeatmapWidget.h"

#include "widgets/WidgetStyle.h"

#include <QCheckBox>
#include <QCursor>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
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

    editRow_ = new QWidget;
    auto* editLayout = new QHBoxLayout(editRow_);
    editLayout->setContentsMargins(0, 0, 0, 0);
    editNote_ = new QLabel;
    editNote_->setTextFormat(Qt::PlainText);
    editNote_->setWordWrap(true);
    undoEdits_ = new QToolButton;
    undoEdits_->setText(tr("Undo Edits"));
    undoEdits_->setToolTip(tr("Back to the sentence as typed."));
    editLayout->addWidget(editNote_, 1);
    editLayout->addWidget(undoEdits_, 0, Qt::AlignTop);
    editRow_->setVisible(false);
    layout->addWidget(editRow_);

    attention_ = new AttentionPanel;
    layout->addWidget(attention_, 1);
    attention_->heatmap()->setToolTip(tr("Double-click a source word's label to mask it (<unk>) or drop it and see "
                                         "what the model does without it."));

    connect(input_, &QLineEdit::returnPressed, this, &TranslateView::requestTranslation);
    connect(input_, &QLineEdit::textEdited, this, [this] { ++editsSinceHistoryReset_; });
    connect(translate_, &QPushButton::clicked, this, &TranslateView::requestTranslation);
    connect(attention_->heatmap(), &HeatmapWidget::columnLabelDoubleClicked, this, &TranslateView::chooseTokenEdit);
    connect(undoEdits_, &QToolButton::clicked, this, &TranslateView::undoEdits);
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
    // The sentence as typed (a new one, or again after an epoch): any edit is over.
    edited_ = false;
    editPending_ = false;
    editedWords_.clear();
    editLog_.clear();
    editRow_->setVisible(false);
    output_->setText(t.outputTokens.empty() ? QStringLiteral("<i>%1</i>").arg(tr("(empty output)"))
                                            : joined(t.outputTokens));
    QString details = tr("output tokens: %1").arg(t.outputTokens.size());
    if (std::isfinite(t.logProbability))
        details += tr(" · log-probability %1").arg(t.logProbability, 0, 'f', 3);
    if (t.truncated) details += tr(" · the sentence was cut to the model's maximum length");
    details_->setText(details);
    attention_->setTranslation(t);
}

namespace {

QString quoted(const QString& word) { return QStringLiteral("«%1»").arg(word); }

QString outputWords(const Translation& t) {
    QStringList words;
    for (const std::string& w : t.outputTokens) words << QString::fromStdString(w);
    return words.join(QLatin1Char(' '));
}

}  // namespace

void TranslateView::chooseTokenEdit(int column) {
    const std::vector<std::string>& tokens = attention_->translation().sourceTokens;
    const int words = static_cast<int>(tokens.size()) - (tokens.empty() || tokens.back() != "</s>" ? 0 : 1);
    if (column < 0 || column >= words) return;  // </s> is the model's own
    const QString word = QString::fromStdString(tokens[static_cast<std::size_t>(column)]);
    QMenu menu(this);
    QAction* mask = menu.addAction(tr("Mask %1 (the model reads <unk>)").arg(quoted(word)));
    QAction* drop = menu.addAction(tr("Drop %1").arg(quoted(word)));
    drop->setEnabled(words > 1);
    QAction* undo = nullptr;
    if (edited_) {
        menu.addSeparator();
        undo = menu.addAction(tr("Undo Edits"));
    }
    QAction* chosen = menu.exec(QCursor::pos());
    if (chosen == mask) editToken(column, TokenEdit::Mask);
    if (chosen == drop) editToken(column, TokenEdit::Drop);
    if (undo != nullptr && chosen == undo) undoEdits();
}

bool TranslateView::editToken(int column, TokenEdit edit) {
    const Translation& shown = attention_->translation();
    QStringList words;
    for (const std::string& t : shown.sourceTokens) words << QString::fromStdString(t);
    if (!words.isEmpty() && words.back() == QLatin1String("</s>")) words.removeLast();
    if (column < 0 || column >= words.size() || (edit == TokenEdit::Drop && words.size() < 2)) return false;
    if (!edited_) {
        original_ = shown;
        editLog_.clear();
    }
    const QString word = words[column];
    if (edit == TokenEdit::Mask) {
        words[column] = QStringLiteral("<unk>");
        editLog_ << tr("masked %1").arg(quoted(word));
    } else {
        words.removeAt(column);
        editLog_ << tr("dropped %1").arg(quoted(word));
    }
    editedWords_ = words;
    editPending_ = true;
    editNote_->setText(tr("Translating the edited sentence…"));
    editRow_->setVisible(true);
    Q_EMIT editRequested(words, beam_->value());
    return true;
}

void TranslateView::setEditedTranslation(const Translation& t) {
    if (!editPending_) return;  // undone meanwhile
    editPending_ = false;
    edited_ = true;
    output_->setText(t.outputTokens.empty() ? QStringLiteral("<i>%1</i>").arg(tr("(empty output)"))
                                            : joined(t.outputTokens));
    details_->setText(tr("output tokens: %1").arg(t.outputTokens.size()) +
                      (std::isfinite(t.logProbability) ? tr(" · log-probability %1").arg(t.logProbability, 0, 'f', 3)
                                                       : QString()));
    attention_->setTranslation(t);
    editNote_->setText(editSummary());
    editRow_->setVisible(true);
}

QString TranslateView::editSummary() const {
    if (!edited_) return QString();
    const QString before = outputWords(original_);
    const QString after = outputWords(attention_->translation());
    const QString change = before == after ? tr("The output does not change.")
                                           : tr("As typed, the sentence gave %1.").arg(quoted(before));
    return tr("Edited (%1): the source is now %2. %3")
        .arg(editLog_.join(QStringLiteral(", ")), quoted(editedWords_.join(QLatin1Char(' '))), change);
}

void TranslateView::undoEdits() {
    const bool had = edited_ || editPending_;
    const Translation original = original_;
    if (had) setTranslation(original);  // clears the edit state
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
