#include "views/attribution/AttributionView.h"
#include "task/translate/TranslationSession.h"
#include "views/classify/ExplainView.h"  // methodKeys, methodTitle: the explanation lab's names
#include "widgets/WidgetStyle.h"
#include "widgets/WordStrip.h"
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

namespace attnlab {

namespace {

QString number(double v) { return std::isfinite(v) ? QString::number(v, 'f', 2) : QStringLiteral("–"); }

}  // namespace

AttributionView::AttributionView(TranslationSession* controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Is the cross-attention an explanation of the translation? For one output word, its "
                                "attention over the source beside four attribution methods: which source words the "
                                "word's score depends on (gradients, integrated gradients) and what removing each "
                                "one changes (leave one out)."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* row = new QHBoxLayout;
    input_ = new QLineEdit;
    input_->setObjectName(QStringLiteral("attributionSentence"));
    input_->setPlaceholderText(tr("A sentence to translate"));
    scaleFont(input_, 1.3);
    token_ = new QComboBox;
    token_->setObjectName(QStringLiteral("attributionToken"));
    token_->setToolTip(tr("The output word to explain"));
    token_->setMinimumContentsLength(10);
    button_ = new QPushButton(tr("Explain"));
    row->addWidget(input_, 1);
    row->addWidget(new QLabel(tr("Output word:")));
    row->addWidget(token_);
    row->addWidget(button_);
    layout->addLayout(row);
    status_ = new QLabel;
    status_->setWordWrap(true);
    layout->addWidget(status_);
    header_ = new QLabel;
    scaleFont(header_, 1.3);
    layout->addWidget(header_);
    strip_ = new WordStrip;
    scaleFont(strip_, 1.2);
    layout->addWidget(strip_);
    completeness_ = new QLabel;
    layout->addWidget(completeness_);
    agreement_ = new QTableWidget(0, 3);
    agreement_->setHorizontalHeaderLabels({tr("Method"), tr("Kendall τ"), tr("Spearman ρ")});
    agreement_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    agreement_->verticalHeader()->hide();
    agreement_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    agreement_->setMaximumWidth(520);
    layout->addWidget(agreement_);
    layout->addStretch(1);

    const auto request = [this] { explain(explainedSentence_ == input_->text().trimmed() ? token_->currentIndex() : 0); };
    connect(button_, &QPushButton::clicked, this, request);
    connect(input_, &QLineEdit::returnPressed, this, [this] { explain(0); });
    connect(token_, &QComboBox::activated, this, [this](int index) { explain(index); });
    connect(controller_, &TranslationSession::tokenExplained, this,
            [this](quint64 id, const OutputTokenExplanation& e) {
                if (id == request_) show(e);
            });
    connect(controller_, &TranslationSession::explainFailed, this, [this](quint64 id, const QString& message) {
        if (id != request_) return;
        status_->setStyleSheet(QStringLiteral("color: #b00020"));
        status_->setText(tr("Cannot explain: %1").arg(message));
    });
    clearView();
    modelAvailable(false);
}

QString AttributionView::viewTitle() const { return tr("Attribution"); }

QString AttributionView::viewToolTip() const {
    return tr("One output word's cross-attention beside gradients, integrated gradients and leave-one-out over the source.");
}

void AttributionView::setSentence(const QString& sentence) { input_->setText(sentence); }

QString AttributionView::sentence() const { return input_->text(); }

QString AttributionView::message() const { return status_->text(); }

void AttributionView::explain(int index) {
    const QString text = input_->text().trimmed();
    status_->setStyleSheet(QString());
    if (text.isEmpty()) {
        status_->setText(tr("Type a sentence first."));
        return;
    }
    status_->setText(tr("Explaining…"));
    request_ = controller_->explainToken(text, std::max(0, index));
    explainedSentence_ = text;
}

void AttributionView::show(const OutputTokenExplanation& r) {
    result_ = r;
    const Explanation& e = r.explanation;
    status_->clear();
    {
        const QSignalBlocker block(token_);
        token_->clear();
        for (std::size_t i = 0; i < r.outputTokens.size(); ++i)
            token_->addItem(QStringLiteral("%1 · %2").arg(i + 1).arg(QString::fromStdString(r.outputTokens[i])));
        token_->setCurrentIndex(r.outputIndex);
    }
    QStringList output;
    for (const auto& t : r.outputTokens) output << QString::fromStdString(t);
    header_->setText(tr("<b>%1</b> (p = %2) in “%3”")
                         .arg(QString::fromStdString(e.label).toHtmlEscaped())
                         .arg(e.probability, 0, 'f', 2)
                         .arg(output.join(QLatin1Char(' ')).toHtmlEscaped()));
    QStringList words;
    for (const auto& t : e.tokens) words << QString::fromStdString(t);
    std::vector<WordRow> rows;
    for (const QString& key : ExplainView::methodKeys()) {
        const auto found = e.methods.find(key.toStdString());
        if (found == e.methods.end()) continue;
        rows.push_back({key == QLatin1String("attention") ? tr("Cross-attention") : ExplainView::methodTitle(key), found->second});
    }
    strip_->setWords(words, rows);
    completeness_->setText(tr("Integrated gradients: sum of attributions %1, logit difference %2 (%3 steps)")
                               .arg(e.igAttributionSum, 0, 'f', 3)
                               .arg(e.igOutputDifference, 0, 'f', 3)
                               .arg(e.igSteps));
    agreement_->setRowCount(0);
    for (const QString& key : ExplainView::methodKeys()) {
        const auto tau = e.kendallTau.find(key.toStdString());
        if (tau == e.kendallTau.end()) continue;
        const int row = agreement_->rowCount();
        agreement_->insertRow(row);
        agreement_->setItem(row, 0, new QTableWidgetItem(ExplainView::methodTitle(key)));
        agreement_->setItem(row, 1, new QTableWidgetItem(number(tau->second)));
        const auto rho = e.spearman.find(key.toStdString());
        agreement_->setItem(row, 2, new QTableWidgetItem(number(rho == e.spearman.end() ? std::nan("") : rho->second)));
    }
    agreement_->setVisible(agreement_->rowCount() > 0);
    int height = agreement_->horizontalHeader()->sizeHint().height() + 2 * agreement_->frameWidth();
    for (int row = 0; row < agreement_->rowCount(); ++row) height += agreement_->rowHeight(row);
    agreement_->setFixedHeight(height);  // as tall as its rows: the view scrolls, not the table
}

void AttributionView::clearView() {
    result_.reset();
    header_->clear();
    strip_->clear();
    completeness_->clear();
    agreement_->setRowCount(0);
    token_->clear();
    status_->setStyleSheet(QString());
    status_->setText(tr("Train or open a translation model, type a sentence and press Explain."));
}

void AttributionView::modelAvailable(bool available) { button_->setEnabled(available); }

bool AttributionView::exportView(const QString& path, double scale, QString* error) const {
    if (!result_) return fail(error, tr("Explain an output word first"));
    if (isMatrixPath(path)) return fail(error, tr("The attribution is exported as PNG, SVG or PDF"));
    return FigureWriter::report(
        FigureWriter::write(path, strip_->figure(QString::fromStdString(result_->explanation.label)), scale), error);
}

}  // namespace attnlab
