#include "views/classify/ExplainView.h"

#include "render/FigureWriter.h"
#include "widgets/ChartStyle.h"
#include "widgets/WidgetStyle.h"
#include "widgets/WordStrip.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

const char* const kAttention = "attention";
const char* const kDefaultScatterMethod = "integrated_gradients";

QString dash() { return QStringLiteral("–"); }

double valueOr(const std::map<std::string, double>& values, const QString& key) {
    const auto found = values.find(key.toStdString());
    return found == values.end() ? std::numeric_limits<double>::quiet_NaN() : found->second;
}

// NaN (undefined) as a dash.
QString number(double value, int decimals) {
    if (!std::isfinite(value)) return dash();
    QString text = QString::number(value, 'f', decimals);
    if (text.startsWith(QLatin1Char('-')) && text.toDouble() == 0.0) text.remove(0, 1);  // no "-0.00"
    return text;
}

QString percent(double share) {
    if (!std::isfinite(share)) return dash();
    return QStringLiteral("%1%").arg(100.0 * share, 0, 'f', 1);
}

QColor methodColor(const QString& key) {
    if (key == QLatin1String("gradient")) return QColor(0xff, 0x7f, 0x0e);
    if (key == QLatin1String("grad_x_input")) return QColor(0x2c, 0xa0, 0x2c);
    if (key == QLatin1String("integrated_gradients")) return QColor(0x1f, 0x77, 0xb4);
    if (key == QLatin1String("leave_one_out")) return QColor(0x94, 0x67, 0xbd);
    return QColor(0x7f, 0x7f, 0x7f);
}

void setErrorStyle(QLabel* label, bool error) {
    label->setStyleSheet(error ? QStringLiteral("color: #b01c1c;") : QString());
}

QLabel* noteLabel(const QString& text = QString()) {
    auto* label = new QLabel(text);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

QTableWidgetItem* cellItem(const QString& text, Qt::Alignment alignment) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(alignment | Qt::AlignVCenter);
    item->setFlags(Qt::ItemIsEnabled);
    return item;
}

// Tall enough for every row: the view scrolls as one, not the table on its own.
void fitHeight(QTableWidget* table) {
    table->resizeRowsToContents();
    int height = table->horizontalHeader()->sizeHint().height() + 2 * table->frameWidth();
    for (int r = 0; r < table->rowCount(); ++r) height += table->rowHeight(r);
    table->setFixedHeight(height);
}

// An axis range with a little room, 0 always inside (the sign of an attribution matters).
std::pair<double, double> paddedRange(double low, double high) {
    low = std::min(low, 0.0);
    high = std::max(high, 0.0);
    const double span = high - low;
    if (span <= 0.0) return {-1.0, 1.0};
    return {low == 0.0 ? 0.0 : low - 0.08 * span, high + 0.08 * span};
}

// A whole-number axis step that gives at most eight intervals up to `top`.
int countStep(int top) {
    for (int step : {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000})
        if (top <= 8 * step) return step;
    return std::max(1, top / 8);
}

}  // namespace

ExplainView::ExplainView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(8);

    auto* input = new QHBoxLayout;
    text_ = new QLineEdit;
    text_->setObjectName(QStringLiteral("explainText"));
    text_->setPlaceholderText(tr("A sentence to classify and explain"));
    text_->setClearButtonEnabled(true);
    scaleFont(text_, 1.3);
    class_ = new QComboBox;
    class_->setObjectName(QStringLiteral("explainClass"));
    class_->setToolTip(tr("The class whose score is explained."));
    class_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    class_->addItem(tr("Predicted class"), -1);
    explain_ = new QPushButton(tr("Explain"));
    explain_->setObjectName(QStringLiteral("explainButton"));
    explain_->setToolTip(tr("Classify the text and compare its attention with four attribution methods."));
    input->addWidget(text_, 1);
    input->addWidget(class_);
    input->addWidget(explain_);
    layout->addLayout(input);

    status_ = new QLabel;
    status_->setWordWrap(true);
    layout->addWidget(status_);

    placeholder_ = makePlaceholderLabel();
    layout->addWidget(placeholder_);
    result_ = createExplanationArea();
    layout->addWidget(result_);
    layout->addWidget(createValidationGroup());
    layout->addStretch(1);

    connect(explain_, &QPushButton::clicked, this, &ExplainView::requestExplanation);
    connect(text_, &QLineEdit::returnPressed, this, [this] {
        if (explain_->isEnabled()) requestExplanation();
    });
    connect(scatterMethod_, &QComboBox::currentIndexChanged, this, &ExplainView::updateScatter);
    connect(scatter_, &QScatterSeries::hovered, this, &ExplainView::showScatterWords);
    connect(permutation_, &QPushButton::clicked, this, [this] { Q_EMIT faithfulnessRequested(false); });
    connect(baseline_, &QPushButton::clicked, this, [this] { Q_EMIT faithfulnessRequested(true); });
    connect(stop_, &QPushButton::clicked, this, [this] {
        showFaithfulnessMessage(tr("Stopping…"), false);
        Q_EMIT faithfulnessStopRequested();
    });

    result_->hide();
    updateButtons();
    updatePlaceholder();
}

QWidget* ExplainView::createExplanationArea() {
    auto* area = new QWidget;
    auto* layout = new QVBoxLayout(area);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);

    header_ = new QLabel;
    QFont bold = header_->font();
    bold.setBold(true);
    header_->setFont(bold);
    scaleFont(header_, 1.2);
    layout->addWidget(header_);

    strip_ = new WordStrip;
    layout->addWidget(strip_);
    layout->addWidget(noteLabel(tr("Each row is scaled to its own largest magnitude: red is for, blue against the "
                                   "class, white nothing. Hover a word for its value.")));
    completeness_ = new QLabel;
    completeness_->setWordWrap(true);
    completeness_->setToolTip(tr("Integrated gradients are complete: their sum should come close to the class "
                                 "logit of the text minus that of all-zero embeddings."));
    layout->addWidget(completeness_);

    comparison_ = new QWidget;
    auto* row = new QHBoxLayout(comparison_);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(12);

    auto* left = new QVBoxLayout;
    auto* tableTitle = new QLabel(tr("Agreement with the attention"));
    tableTitle->setFont(bold);
    table_ = new QTableWidget(0, 3);
    table_->setObjectName(QStringLiteral("agreementTable"));
    table_->setHorizontalHeaderLabels({tr("Method"), tr("Kendall τ"), tr("Spearman ρ")});
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setFocusPolicy(Qt::NoFocus);
    table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->setWordWrap(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    fitHeight(table_);
    left->addWidget(tableTitle);
    left->addWidget(table_);
    left->addWidget(noteLabel(tr("Both rank the words by attention and by the method (the gradient methods by "
                                 "magnitude): 1 = the same order, 0 = unrelated, −1 = reversed.")));
    left->addStretch(1);
    row->addLayout(left, 2);

    auto* right = new QVBoxLayout;
    auto* choose = new QHBoxLayout;
    scatterMethod_ = new QComboBox;
    scatterMethod_->setObjectName(QStringLiteral("scatterMethod"));
    for (const QString& key : methodKeys())
        if (key != QLatin1String(kAttention)) scatterMethod_->addItem(methodTitle(key), key);
    scatterMethod_->setCurrentIndex(scatterMethod_->findData(QString::fromLatin1(kDefaultScatterMethod)));
    choose->addWidget(new QLabel(tr("Attention against:")));
    choose->addWidget(scatterMethod_);
    choose->addStretch(1);
    right->addLayout(choose);

    scatterChart_ = makeChart(tr("One dot per word"));
    scatterChart_->legend()->hide();
    scatter_ = new QScatterSeries;
    scatter_->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    scatter_->setMarkerSize(11.0);
    scatter_->setColor(QColor(0x1f, 0x77, 0xb4));
    scatter_->setBorderColor(Qt::white);
    scatterChart_->addSeries(scatter_);
    scatterX_ = new QValueAxis;
    scatterY_ = new QValueAxis;
    styleAxis(scatterX_, tr("Attention weight"));
    styleAxis(scatterY_, methodTitle(QString::fromLatin1(kDefaultScatterMethod)));
    scatterX_->setLabelFormat(QStringLiteral("%.2f"));
    scatterY_->setLabelFormat(QStringLiteral("%.3g"));
    scatterChart_->addAxis(scatterX_, Qt::AlignBottom);
    scatterChart_->addAxis(scatterY_, Qt::AlignLeft);
    scatter_->attachAxis(scatterX_);
    scatter_->attachAxis(scatterY_);
    scatterView_ = makeChartView(scatterChart_);
    scatterView_->setMinimumHeight(260);
    scatterView_->setToolTip(tr("Hover a dot to see its word."));
    right->addWidget(scatterView_, 1);
    row->addLayout(right, 3);
    layout->addWidget(comparison_);

    noAttention_ = noteLabel(tr("This model has no attention to compare with."));
    scaleFont(noAttention_, 1.15);
    noAttention_->hide();
    layout->addWidget(noAttention_);
    return area;
}

QWidget* ExplainView::createValidationGroup() {
    auto* group = new QGroupBox(tr("Over the validation set"));
    auto* layout = new QVBoxLayout(group);
    layout->setSpacing(6);
    layout->addWidget(noteLabel(tr("The same comparison for the first validation texts of the corpus: how often "
                                   "attention agrees with the other methods, whether the most attended word is a "
                                   "rationale word, and whether shuffling the attention changes the output.")));

    auto* buttons = new QHBoxLayout;
    permutation_ = new QPushButton(tr("Permutation Test"));
    permutation_->setObjectName(QStringLiteral("permutationButton"));
    permutation_->setToolTip(tr("Explain the validation texts, then shuffle each text's attention and measure how "
                                "much the output changes."));
    baseline_ = new QPushButton(tr("Uniform Baseline"));
    baseline_->setObjectName(QStringLiteral("baselineButton"));
    baseline_->setToolTip(tr("The permutation test, and a model of the same kind trained with uniform attention: "
                             "does learned attention help the accuracy?"));
    stop_ = new QPushButton(tr("Stop"));
    stop_->setObjectName(QStringLiteral("faithfulnessStopButton"));
    buttons->addWidget(permutation_);
    buttons->addWidget(baseline_);
    buttons->addWidget(stop_);
    buttons->addStretch(1);
    layout->addLayout(buttons);

    auto* progressRow = new QHBoxLayout;
    progress_ = new QProgressBar;
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setMaximumWidth(240);
    progressMessage_ = new QLabel;
    progressMessage_->setWordWrap(true);
    progressRow->addWidget(progress_, 1);
    progressRow->addWidget(progressMessage_, 2);
    layout->addLayout(progressRow);

    auto* results = new QHBoxLayout;
    tauChart_ = makeChart(tr("Kendall τ: attention against each method"));
    tauX_ = new QBarCategoryAxis;
    QStringList bins;
    for (int i = 0; i < kTauBins; ++i) bins << QString::number(-1.0 + (i + 0.5) * 2.0 / kTauBins, 'f', 1);
    tauX_->append(bins);
    styleAxis(tauX_, tr("Kendall τ (bin centre)"));
    tauY_ = new QValueAxis;
    styleAxis(tauY_, tr("Texts"));
    tauY_->setLabelFormat(QStringLiteral("%d"));
    tauY_->setRange(0, 1);
    tauY_->setTickType(QValueAxis::TicksDynamic);
    tauY_->setTickAnchor(0);
    tauY_->setTickInterval(1);
    tauChart_->addAxis(tauX_, Qt::AlignBottom);
    tauChart_->addAxis(tauY_, Qt::AlignLeft);
    tauView_ = makeChartView(tauChart_);
    tauView_->setMinimumHeight(280);
    summary_ = new QLabel;
    summary_->setWordWrap(true);
    summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    results->addWidget(tauView_, 3);
    results->addWidget(summary_, 2);
    layout->addLayout(results);
    return group;
}

// ---- one text -------------------------------------------------------------------------------------

QStringList ExplainView::methodKeys() {
    return {QStringLiteral("attention"), QStringLiteral("gradient"), QStringLiteral("grad_x_input"),
            QStringLiteral("integrated_gradients"), QStringLiteral("leave_one_out")};
}

QString ExplainView::methodTitle(const QString& key) {
    if (key == QLatin1String("attention")) return tr("Attention");
    if (key == QLatin1String("gradient")) return tr("Gradient");
    if (key == QLatin1String("grad_x_input")) return tr("Gradient × input");
    if (key == QLatin1String("integrated_gradients")) return tr("Integrated gradients");
    if (key == QLatin1String("leave_one_out")) return tr("Leave one out");
    return key;
}

void ExplainView::setLabels(const QStringList& labels) {
    const QString chosen = chosenClass() >= 0 ? class_->currentText() : QString();
    const QSignalBlocker blocker(class_);
    class_->clear();
    class_->addItem(tr("Predicted class"), -1);
    for (int i = 0; i < labels.size(); ++i) class_->addItem(labels[i], i);
    const int keep = chosen.isEmpty() ? -1 : labels.indexOf(chosen);
    class_->setCurrentIndex(keep >= 0 ? keep + 1 : 0);
}

QStringList ExplainView::labels() const {
    QStringList result;
    for (int i = 1; i < class_->count(); ++i) result << class_->itemText(i);
    return result;
}

void ExplainView::setText(const QString& text) { text_->setText(text); }

QString ExplainView::text() const { return text_->text(); }

int ExplainView::chosenClass() const { return class_->currentIndex() < 0 ? -1 : class_->currentData().toInt(); }

void ExplainView::requestExplanation() {
    const QString text = text_->text().trimmed();
    if (text.isEmpty()) {
        showStatus(tr("Type a text first, then press Explain."), false);
        return;
    }
    showStatus(tr("Explaining…"), false);
    Q_EMIT explainRequested(text, chosenClass());
}

void ExplainView::showStatus(const QString& text, bool error) {
    setErrorStyle(status_, error);
    status_->setText(text);
}

void ExplainView::setExplainFailed(const QString& message) {
    showStatus(tr("Cannot explain: %1").arg(message), true);
}

void ExplainView::setExplanation(const Explanation& e) {
    explanation_ = e;
    showStatus(QString(), false);
    header_->setText(tr("%1 (p = %2)").arg(QString::fromStdString(e.label), number(e.probability, 2)));

    QStringList words;
    for (const std::string& token : e.tokens) words << QString::fromStdString(token);
    std::vector<WordRow> rows;
    for (const QString& key : methodKeys()) {
        const auto found = e.methods.find(key.toStdString());
        if (found != e.methods.end()) rows.push_back(WordRow{methodTitle(key), found->second});
    }
    strip_->setWords(words, rows);

    completeness_->setText(tr("Integrated gradients: sum of attributions %1, logit difference %2 (%3 steps)")
                               .arg(number(e.igAttributionSum, 3), number(e.igOutputDifference, 3))
                               .arg(e.igSteps));
    completeness_->setVisible(e.methods.count("integrated_gradients") > 0);

    const bool attention = e.methods.count(kAttention) > 0;
    comparison_->setVisible(attention);
    noAttention_->setVisible(!attention);
    fillTable(e);
    updateScatter();
    result_->show();
    updatePlaceholder();
}

void ExplainView::fillTable(const Explanation& e) {
    table_->setRowCount(0);
    if (e.methods.count(kAttention) == 0) {
        fitHeight(table_);
        return;
    }
    for (const QString& key : methodKeys()) {
        if (key == QLatin1String(kAttention) || e.methods.count(key.toStdString()) == 0) continue;
        const int r = table_->rowCount();
        table_->insertRow(r);
        table_->setItem(r, 0, cellItem(methodTitle(key), Qt::AlignLeft));
        table_->setItem(r, 1, cellItem(number(valueOr(e.kendallTau, key), 2), Qt::AlignRight));
        table_->setItem(r, 2, cellItem(number(valueOr(e.spearman, key), 2), Qt::AlignRight));
    }
    fitHeight(table_);
}

void ExplainView::updateScatter() {
    const QString key = scatterMethod_->currentData().toString();
    scatterY_->setTitleText(methodTitle(key));
    scatterWords_.clear();
    QList<QPointF> points;
    if (explanation_) {
        const auto attention = explanation_->methods.find(kAttention);
        const auto method = explanation_->methods.find(key.toStdString());
        if (attention != explanation_->methods.end() && method != explanation_->methods.end()) {
            const std::size_t n = std::min({attention->second.size(), method->second.size(), explanation_->tokens.size()});
            for (std::size_t i = 0; i < n; ++i) {
                const double x = attention->second[i];
                const double y = method->second[i];
                if (!std::isfinite(x) || !std::isfinite(y)) continue;
                points << QPointF(x, y);
                scatterWords_.push_back(QString::fromStdString(explanation_->tokens[i]));
            }
        }
    }
    scatter_->replace(points);
    double yLow = 0.0, yHigh = 0.0;
    for (const QPointF& p : points) {
        yLow = std::min(yLow, p.y());
        yHigh = std::max(yHigh, p.y());
    }
    // Weights lie in [0, 1]: ticks at 0, 0.2, ... 1; the attributions' axis at round values.
    scatterX_->setRange(0.0, 1.0);
    scatterX_->setTickCount(6);
    const auto [low, high] = paddedRange(yLow, yHigh);
    scatterY_->setRange(low, high);
    scatterY_->applyNiceNumbers();
}

void ExplainView::showScatterWords(const QPointF& point, bool state) {
    if (!state) {
        QToolTip::hideText();
        return;
    }
    QStringList words;  // dots on top of each other: every word
    const QList<QPointF> points = scatter_->points();
    for (int i = 0; i < points.size() && i < static_cast<int>(scatterWords_.size()); ++i)
        if (points[i] == point) words << scatterWords_[static_cast<std::size_t>(i)];
    if (words.isEmpty()) return;
    QToolTip::showText(QCursor::pos(), tr("%1: attention %2, %3 %4")
                                           .arg(words.join(QStringLiteral(", ")), number(point.x(), 3),
                                                methodTitle(scatterMethod_->currentData().toString()),
                                                QString::number(point.y(), 'g', 3)),
                       scatterView_);
}

bool ExplainView::showsComparison() const { return explanation_ && explanation_->methods.count(kAttention) > 0; }

QString ExplainView::headerText() const { return header_->text(); }

QString ExplainView::statusText() const { return status_->text(); }

QString ExplainView::placeholderText() const { return placeholder_->isHidden() ? QString() : placeholder_->text(); }

QString ExplainView::completenessText() const { return completeness_->text(); }

void ExplainView::clearExplanation() {
    explanation_.reset();
    header_->clear();
    strip_->clear();
    completeness_->clear();
    table_->setRowCount(0);
    fitHeight(table_);
    updateScatter();
    result_->hide();
    showStatus(QString(), false);
    updatePlaceholder();
}

void ExplainView::updatePlaceholder() {
    placeholder_->setText(modelAvailable_ ? tr("Type a text and press Explain to see which words the attention and "
                                               "four attribution methods pick out.")
                                          : tr("Train or open a classifier first"));
    placeholder_->setVisible(!explanation_);
}

void ExplainView::updateButtons() {
    explain_->setEnabled(modelAvailable_);
    permutation_->setEnabled(modelAvailable_ && !running_);
    baseline_->setEnabled(modelAvailable_ && !running_);
    stop_->setEnabled(running_);
}

// ---- over the validation set ----------------------------------------------------------------------

std::vector<int> ExplainView::tauHistogram(const std::vector<double>& taus, int bins) {
    std::vector<int> counts(static_cast<std::size_t>(std::max(bins, 1)), 0);
    const int last = static_cast<int>(counts.size()) - 1;
    for (double tau : taus) {
        if (!std::isfinite(tau)) continue;
        const int bin = static_cast<int>(std::floor((tau + 1.0) / 2.0 * static_cast<double>(counts.size())));
        ++counts[static_cast<std::size_t>(std::clamp(bin, 0, last))];
    }
    return counts;
}

void ExplainView::showFaithfulnessMessage(const QString& text, bool error) {
    setErrorStyle(progressMessage_, error);
    progressMessage_->setText(text);
}

void ExplainView::setFaithfulnessRunning(bool running) {
    if (running && !running_) {
        progress_->setRange(0, 1);
        progress_->setValue(0);
        showFaithfulnessMessage(tr("Explaining the validation texts…"), false);
    }
    running_ = running;
    updateButtons();
}

void ExplainView::setFaithfulnessProgress(int done, int total, const QString& message) {
    progress_->setRange(0, std::max(total, 1));
    progress_->setValue(std::clamp(done, 0, std::max(total, 1)));
    showFaithfulnessMessage(message, false);
}

void ExplainView::setFaithfulnessFailed(const QString& message) {
    showFaithfulnessMessage(tr("The validation run failed: %1").arg(message), true);
    running_ = false;
    updateButtons();
}

void ExplainView::setFaithfulnessResult(const FaithfulnessResult& r) {
    faithfulness_ = r;
    running_ = false;
    updateButtons();
    progress_->setValue(progress_->maximum());
    showFaithfulnessMessage(tr("Done."), false);
    rebuildTauChart(r);

    QStringList lines;
    lines << tr("%1 validation texts; model accuracy %2").arg(QString::number(r.texts), percent(r.accuracy));
    QStringList keys;
    for (const QString& key : methodKeys())
        if (key != QLatin1String(kAttention) && r.agreement.count(key.toStdString()) > 0) keys << key;
    for (const auto& [name, agreement] : r.agreement)
        if (!methodKeys().contains(QString::fromStdString(name))) keys << QString::fromStdString(name);
    for (const QString& key : keys) {
        const MethodAgreement& a = r.agreement.at(key.toStdString());
        lines << tr("%1: mean τ %2, median τ %3, mean ρ %4")
                     .arg(methodTitle(key), number(a.meanTau, 2), number(a.medianTau, 2), number(a.meanRho, 2));
    }
    if (std::isfinite(r.topWordInRationale))
        lines << tr("Most attended word is a rationale word: %1 of texts").arg(percent(r.topWordInRationale));
    lines << tr("Shuffled attention changes the output by %1 (median total variation); %2 of texts change by less "
                "than 0.05")
                 .arg(number(r.permutationMedianChange, 3), percent(r.permutationShareSmall));
    if (std::isfinite(r.uniformAccuracy))
        lines << tr("Uniform attention, trained the same way: accuracy %1 (the model: %2)")
                     .arg(percent(r.uniformAccuracy), percent(r.accuracy));
    summary_->setText(lines.join(QLatin1Char('\n')));
}

void ExplainView::rebuildTauChart(const FaithfulnessResult& r) {
    tauChart_->removeAllSeries();
    auto* series = new QBarSeries;
    series->setBarWidth(0.85);
    int top = 1;
    for (const QString& key : methodKeys()) {
        const auto found = r.agreement.find(key.toStdString());
        if (key == QLatin1String(kAttention) || found == r.agreement.end()) continue;
        auto* set = new QBarSet(methodTitle(key));
        set->setColor(methodColor(key));
        set->setBorderColor(methodColor(key));
        for (int count : tauHistogram(found->second.taus)) {
            set->append(count);
            top = std::max(top, count);
        }
        series->append(set);
    }
    tauChart_->addSeries(series);
    series->attachAxis(tauX_);
    series->attachAxis(tauY_);
    const int step = countStep(top);
    tauY_->setTickInterval(step);
    tauY_->setRange(0, static_cast<double>((top + step - 1) / step * step));
}

void ExplainView::clearFaithfulness() {
    faithfulness_.reset();
    tauChart_->removeAllSeries();
    tauY_->setTickInterval(1);
    tauY_->setRange(0, 1);
    summary_->clear();
    if (!running_) {
        progress_->setRange(0, 1);
        progress_->setValue(0);
        showFaithfulnessMessage(QString(), false);
    }
}

QString ExplainView::faithfulnessSummary() const { return summary_->text(); }

QString ExplainView::faithfulnessMessage() const { return progressMessage_->text(); }

// ---- View ----------------------------------------------------------------------------------------

QString ExplainView::viewTitle() const { return tr("Explain"); }

QString ExplainView::viewToolTip() const {
    return tr("Is attention an explanation? A classified text's attention against gradient-based and leave-one-out "
              "attributions, for one text and over the validation set.");
}

void ExplainView::clearView() {
    clearExplanation();
    clearFaithfulness();
}

void ExplainView::runStarted() {
    clearExplanation();
    clearFaithfulness();
}

void ExplainView::modelAvailable(bool available) {
    modelAvailable_ = available;
    updateButtons();
    updatePlaceholder();
}

bool ExplainView::exportView(const QString& path, double scale, QString* error) const {
    if (isMatrixPath(path)) return fail(error, tr("The explanation is exported as PNG, SVG or PDF"));
    if (!explanation_) return fail(error, tr("Explain a text first"));
    return FigureWriter::report(FigureWriter::write(path, strip_->figure(header_->text()), scale), error);
}

}  // namespace attnlab
