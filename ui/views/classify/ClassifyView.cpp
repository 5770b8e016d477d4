#include "views/classify/ClassifyView.h"
#include "views/heads/HeadSwitch.h"
#include "widgets/ProbabilityTable.h"
#include "widgets/HeadGridWidget.h"
#include "widgets/WidgetStyle.h"
#include "widgets/WordStrip.h"
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

constexpr int kShownClasses = 12;  // the most probable ones; langid has 12, a TSV may have hundreds

QStringList toList(const std::vector<std::string>& tokens, std::size_t from = 0) {
    QStringList out;
    for (std::size_t i = from; i < tokens.size(); ++i) out << QString::fromStdString(tokens[i]);
    return out;
}

}  // namespace

ClassifyView::ClassifyView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    input_ = new QLineEdit;
    input_->setObjectName(QStringLiteral("classifyText"));
    input_->setPlaceholderText(tr("Type a text to classify, e.g. the film was not good"));
    scaleFont(input_, 1.3);
    classify_ = new QPushButton(tr("Classify"));
    classify_->setObjectName(QStringLiteral("classifyButton"));
    row->addWidget(input_, 1);
    row->addWidget(classify_);
    layout->addLayout(row);

    placeholder_ = makePlaceholderLabel();
    placeholder_->setText(tr("Train a classifier (Run > Start, F5) or open one: its label and attention for the text "
                             "above appear here, and change as it learns."));
    layout->addWidget(placeholder_);
    status_ = new QLabel;
    status_->setStyleSheet(QStringLiteral("color: #b00020"));
    status_->hide();
    layout->addWidget(status_);

    auto* result = new QHBoxLayout;
    auto* left = new QVBoxLayout;
    label_ = new QLabel;
    label_->setObjectName(QStringLiteral("classifyLabel"));
    scaleFont(label_, 1.6);
    label_->setTextFormat(Qt::RichText);
    left->addWidget(label_);
    ablation_ = new QLabel;  // what switching heads off changed, under the label it changed
    ablation_->setObjectName(QStringLiteral("classifyAblation"));
    ablation_->setWordWrap(true);
    ablation_->setTextFormat(Qt::RichText);
    left->addWidget(ablation_);
    strip_ = new WordStrip;
    scaleFont(strip_, 1.25);
    left->addWidget(strip_);
    auto* legend = new QLabel(tr("Each word's background is its attention weight (darker = more); hover a word "
                                 "for the number."));
    legend->setWordWrap(true);
    legend->setStyleSheet(QStringLiteral("color: palette(mid)"));
    left->addWidget(legend);
    historyTitle_ = new QLabel(tr("<b>Attention over training</b>: the same text at the end of every epoch"));
    left->addSpacing(12);
    left->addWidget(historyTitle_);
    history_ = new WordStrip;
    history_->setObjectName(QStringLiteral("classifyHistory"));
    left->addWidget(history_);
    left->addStretch(1);
    result->addLayout(left, 3);
    probabilities_ = ProbabilityTable::make();
    probabilities_->setObjectName(QStringLiteral("classifyProbabilities"));
    probabilities_->setMinimumWidth(240);
    probabilities_->setMaximumWidth(360);
    result->addWidget(probabilities_, 1, Qt::AlignTop);
    layout->addLayout(result, 1);

    auto* headsRow = new QHBoxLayout;
    headsTitle_ = new QLabel(tr("Self-attention of every layer (rows) and head (columns); token 0 is [CLS]"));
    headsRow->addWidget(headsTitle_, 1);
    ablate_ = new QPushButton(tr("Switch Heads Off"));
    ablate_->setObjectName(QStringLiteral("classifyAblate"));
    ablate_->setCheckable(true);
    ablate_->setToolTip(tr("Then click a head to switch it off, or on again: the text is classified again without it."));
    allOn_ = new QPushButton(tr("All On"));
    allOn_->setToolTip(tr("Every head on again."));
    headsRow->addWidget(ablate_);
    headsRow->addWidget(allOn_);
    layout->addLayout(headsRow);
    heads_ = new HeadGridWidget;
    heads_->setMinimumHeight(260);
    layout->addWidget(heads_, 2);

    connect(ablate_, &QPushButton::toggled, this, [this](bool on) { setAblationMode(on); });
    connect(allOn_, &QPushButton::clicked, this, [this] { setSwitchedOff({}); });
    connect(heads_, &HeadGridWidget::layerHeadActivated, this, [this](int layer, int head) {
        if (ablate_->isChecked()) setSwitchedOff(withHeadToggled(off_, HeadId{MapKind::Encoder, layer, head}));
    });
    connect(classify_, &QPushButton::clicked, this, &ClassifyView::request);
    connect(input_, &QLineEdit::returnPressed, this, &ClassifyView::request);
    clearView();
}

QString ClassifyView::viewTitle() const { return tr("Classify"); }

QString ClassifyView::viewToolTip() const {
    return tr("Type a text: the label, every class's probability, and the words the attention pooled.");
}

QString ClassifyView::text() const { return input_->text(); }

void ClassifyView::setText(const QString& text) { input_->setText(text); }

void ClassifyView::request() {
    const QString text = input_->text().trimmed();
    if (text.isEmpty()) {
        setFailed(tr("Type a text first."));
        return;
    }
    Q_EMIT classifyRequested(text);
}

void ClassifyView::setAblationMode(bool on) {
    if (ablate_->isChecked() != on) ablate_->setChecked(on);  // re-enters through toggled
    if (!on && !off_.empty()) setSwitchedOff({});
}

bool ClassifyView::ablationMode() const { return ablate_->isChecked(); }

void ClassifyView::setSwitchedOff(std::vector<HeadId> heads) {
    std::sort(heads.begin(), heads.end(), [](const HeadId& a, const HeadId& b) {
        return std::make_pair(a.layer, a.head) < std::make_pair(b.layer, b.head);
    });
    off_ = std::move(heads);
    showSwitchedOff();
    if (result_) request();
}

void ClassifyView::showSwitchedOff() {
    std::vector<std::pair<int, int>> cells;
    for (const HeadId& h : off_) cells.emplace_back(h.layer, h.head);
    heads_->setSwitchedOff(cells);
    allOn_->setEnabled(!off_.empty());
    if (off_.empty()) ablation_->clear();
    ablation_->setVisible(!off_.empty());
}

QString ClassifyView::ablationSummary() const { return off_.empty() ? QString() : ablation_->text(); }

void ClassifyView::runStarted() {
    historyRows_.clear();
    historyTokens_.clear();
    history_->clear();
    historyTitle_->hide();
}

void ClassifyView::addEpochSnapshot(int epoch, const Classification& c) {
    if (c.tokens != historyTokens_) {  // another text: start again
        historyRows_.clear();
        historyTokens_ = c.tokens;
    }
    const std::vector<double> weights = wordAttention(c);
    if (weights.empty()) return;  // nothing attends
    historyRows_.push_back({tr("Epoch %1").arg(epoch), weights});
    history_->setWords(toList(c.tokens, c.rollout.empty() ? 0 : 1), historyRows_);
    historyTitle_->show();
}

void ClassifyView::clearView() {
    runStarted();
    result_.reset();
    label_->clear();
    status_->hide();
    strip_->clear();
    probabilities_->setRowCount(0);
    heads_->clear();
    headsTitle_->hide();
    heads_->hide();
    ablate_->hide();
    allOn_->hide();
    full_.reset();
    off_.clear();
    ablate_->setChecked(false);
    showSwitchedOff();
    placeholder_->show();
}

void ClassifyView::modelAvailable(bool available) {
    classify_->setEnabled(available);
    if (!available) clearView();
}

void ClassifyView::applyColormap(ColormapId id) { heads_->setColormap(id); }

void ClassifyView::setFailed(const QString& message) {
    status_->setText(message);
    status_->show();
}

void ClassifyView::setClassification(const Classification& c, const std::vector<HeadId>& off) {
    if (off != off_) return;  // an answer for heads that are no longer the ones switched off
    if (off.empty()) full_ = c;
    else if (full_ && full_->tokens != c.tokens) full_.reset();  // another text
    result_ = c;
    ++classifications_;
    placeholder_->hide();
    status_->hide();
    const double p = ProbabilityTable::of(c.probabilities, c.labelIndex);
    QString text = tr("<b>%1</b> &nbsp; p = %2").arg(QString::fromStdString(c.label).toHtmlEscaped()).arg(p, 0, 'f', 3);
    if (c.truncated) text += QStringLiteral(" &nbsp; <small>") + tr("(text truncated to the model's length)") +
                             QStringLiteral("</small>");
    label_->setText(text);

    ProbabilityTable::show(probabilities_, c.probabilities, labels_, kShownClasses);  // most probable first

    // The words and their attention.
    std::vector<WordRow> rows;
    QStringList words;
    if (!c.rollout.empty()) {
        words = toList(c.tokens, 1);  // the words after [CLS]
        rows.push_back({tr("Rollout"), std::vector<double>(c.rollout.begin(), c.rollout.end())});
    } else {
        words = toList(c.tokens);
        for (std::size_t h = 0; h < c.pooling.size(); ++h)
            rows.push_back({c.pooling.size() == 1 ? tr("Attention") : tr("Hop %1").arg(h + 1),
                            std::vector<double>(c.pooling[h].begin(), c.pooling[h].end())});
        if (rows.empty()) rows.push_back({tr("No attention"), std::vector<double>(words.size(), std::nan(""))});
    }
    strip_->setWords(words, rows);

    const bool transformer = !c.encoder.empty();
    headsTitle_->setVisible(transformer);
    heads_->setVisible(transformer);
    ablate_->setVisible(transformer);
    allOn_->setVisible(transformer);
    if (!off.empty()) {
        const QString count = off.size() == 1 ? tr("1 head off") : tr("%1 heads off").arg(off.size());
        QString line = tr("<b>%1</b>: «%2» p = %3.")
                           .arg(count, QString::fromStdString(c.label).toHtmlEscaped())
                           .arg(p, 0, 'f', 3);
        if (full_) {
            const double keep = ProbabilityTable::of(c.probabilities, full_->labelIndex);
            line += QStringLiteral(" ") +
                    tr("With every head on: «%1» p = %2; the ablated model gives «%1» p = %3.")
                        .arg(QString::fromStdString(full_->label).toHtmlEscaped())
                        .arg(ProbabilityTable::of(full_->probabilities, full_->labelIndex), 0, 'f', 3)
                        .arg(keep, 0, 'f', 3);
        }
        ablation_->setText(line);
    }
    showSwitchedOff();
    if (transformer) {
        const QStringList all = toList(c.tokens);
        heads_->setLayers(c.encoder, all, all);
    } else {
        heads_->clear();
    }
}

bool ClassifyView::exportView(const QString& path, double scale, QString* error) const {
    if (!result_) return fail(error, tr("Classify a text first"));
    if (isMatrixPath(path)) return fail(error, tr("The Classify view is exported as PNG, SVG or PDF"));
    const QString title = tr("%1 (p = %2)")
                              .arg(QString::fromStdString(result_->label))
                              .arg(result_->probabilities.empty()
                                       ? 0.0
                                       : result_->probabilities[static_cast<std::size_t>(std::max(0, result_->labelIndex))],
                                   0, 'f', 3);
    return FigureWriter::report(FigureWriter::write(path, strip_->figure(title), scale), error);
}

}  // namespace attnlab
