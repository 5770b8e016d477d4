#include "views/lm/LmCircuitsView.h"
#include "render/Colormap.h"
#include "render/FigureWriter.h"
#include "views/lm/LmTokenText.h"
#include "widgets/ChartStyle.h"
#include "widgets/HeatmapWidget.h"
#include "widgets/WidgetStyle.h"
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QResizeEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QScatterSeries>
#include <QSplitter>
#include <QTableWidget>
#include <QValueAxis>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

double bestOf(const std::vector<std::vector<double>>& byLayer, int firstLayer = 0) {
    double best = 0;
    for (std::size_t l = static_cast<std::size_t>(std::max(0, firstLayer)); l < byLayer.size(); ++l)
        for (double v : byLayer[l]) best = std::max(best, v);
    return best;
}

// The best induction score: layer 2 on, where an induction head can be (all layers for a 1-layer model).
double bestInduction(const LmHeadScores& s) { return bestOf(s.induction, s.induction.size() > 1 ? 1 : 0); }

QColor shade(double v) {
    // White to a light teal: readable black text on every cell.
    const double t = std::clamp(v, 0.0, 1.0);
    return QColor::fromRgbF(static_cast<float>(1.0 - 0.55 * t), static_cast<float>(1.0 - 0.25 * t),
                            static_cast<float>(1.0 - 0.3 * t));
}

// A wrapping label that does not report a height for its width: with one, the window's scroll area
// would size the whole view to its preferred height (QScrollArea asks the layout's heightForWidth,
// which sums the children's size hints) and the charts would scroll off the bottom.
class CircuitsLabel : public QLabel {
public:
    explicit CircuitsLabel(int lines) {
        setWordWrap(true);
        setMinimumHeight(lines * fontMetrics().lineSpacing() + 4);
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    }
    QSize sizeHint() const override { return {QLabel::sizeHint().width(), minimumHeight()}; }
    bool hasHeightForWidth() const override { return false; }
};

QString headName(int layer, int head) { return QStringLiteral("L%1H%2").arg(layer + 1).arg(head + 1); }

}  // namespace

LmCircuitsView::LmCircuitsView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(8);
    summary_ = new CircuitsLabel(2);
    summary_->setObjectName(QStringLiteral("lmCircuitsSummary"));
    scaleFont(summary_, 1.1);
    summary_->setMinimumHeight(2 * summary_->fontMetrics().lineSpacing() + 4);
    summary_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
    placeholder_ = makePlaceholderLabel();
    placeholder_->setText(tr("Train a language model: every head's previous-token, duplicate-token and induction "
                             "scores appear here at each report, beside the loss."));
    layout->addWidget(placeholder_, 1);

    // No chart titles: the axes and legends say what each chart is, and the charts keep their height
    // on a projector's 1024 x 768.
    lossChart_ = makeChart(QString());
    scoreChart_ = makeChart(QString());
    lossX_ = new QValueAxis;
    lossY_ = new QValueAxis;
    scoreX_ = new QValueAxis;
    scoreY_ = new QValueAxis;
    styleAxis(lossY_, tr("loss (nats)"));
    scoreY_->setRange(0.0, 1.0);
    scoreY_->setTickCount(6);
    scoreY_->setLabelFormat(QStringLiteral("%.1f"));
    styleAxis(scoreY_, tr("head score"));
    for (QValueAxis* x : {lossX_, scoreX_}) {
        x->setLabelFormat(QStringLiteral("%d"));
        x->setTickType(QValueAxis::TicksDynamic);  // a tick every 1, 2 or 5 times a power of ten steps
        x->setTickAnchor(0.0);
        styleAxis(x, tr("step"));
    }
    lossChart_->addAxis(lossX_, Qt::AlignBottom);
    lossChart_->addAxis(lossY_, Qt::AlignLeft);
    scoreChart_->addAxis(scoreX_, Qt::AlignBottom);
    scoreChart_->addAxis(scoreY_, Qt::AlignLeft);
    auto line = [this](QChart* chart, const QString& name, const QColor& color, bool dashed) {
        QLineSeries* s = addDottedLine(chart, name, color, dashed, 6.0, true, &markers_);
        QValueAxis* x = chart == lossChart_ ? lossX_ : scoreX_;
        QValueAxis* y = chart == lossChart_ ? lossY_ : scoreY_;
        s->attachAxis(x);
        s->attachAxis(y);
        if (QScatterSeries* dots = markers_.value(s)) {
            dots->attachAxis(x);
            dots->attachAxis(y);
        }
        return s;
    };
    trainLoss_ = line(lossChart_, tr("training"), QColor(0x1f, 0x77, 0xb4), false);
    heldLoss_ = line(lossChart_, tr("held out"), QColor(0xff, 0x7f, 0x0e), false);
    icl_ = line(lossChart_, tr("ICL score"), QColor(0x7f, 0x7f, 0x7f), true);
    induction_ = line(scoreChart_, tr("induction"), QColor(0xd6, 0x27, 0x28), false);
    previous_ = line(scoreChart_, tr("previous token"), QColor(0x2c, 0xa0, 0x2c), false);
    duplicate_ = line(scoreChart_, tr("duplicate"), QColor(0x94, 0x67, 0xbd), true);
    copy_ = line(scoreChart_, tr("copy accuracy"), QColor(0x17, 0x17, 0x17), true);
    auto rise = [this](QChart* chart) {
        auto* s = new QLineSeries;
        s->setName(tr("induction head forms"));
        QPen pen(QColor(0xd6, 0x27, 0x28));
        pen.setWidthF(1.5);
        pen.setStyle(Qt::DashLine);
        s->setPen(pen);
        chart->addSeries(s);
        s->attachAxis(chart == lossChart_ ? lossX_ : scoreX_);
        s->attachAxis(chart == lossChart_ ? lossY_ : scoreY_);
        for (QLegendMarker* marker : chart->legend()->markers(s)) marker->setVisible(false);
        return s;
    };
    lossRise_ = rise(lossChart_);
    scoreRise_ = rise(scoreChart_);

    auto* charts = new QSplitter(Qt::Vertical);
    charts->setObjectName(QStringLiteral("lmCircuitsCharts"));
    charts->setChildrenCollapsible(false);
    for (QChart* chart : {lossChart_, scoreChart_}) {
        QChartView* view = makeChartView(chart);
        view->setMinimumHeight(180);
        charts->addWidget(view);
    }

    table_ = new QTableWidget(0, 4);
    table_->setObjectName(QStringLiteral("lmCircuitsTable"));
    table_->setHorizontalHeaderLabels({tr("Head"), tr("Previous token"), tr("Duplicate token"), tr("Induction")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->setToolTip(tr("The share of each head's attention on the expected positions of a repeated random "
                          "sequence (TransformerLens's head detector; <bos> and the token itself left out). Click "
                          "a head to see its attention."));
    connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) {
        QTableWidgetItem* item = table_->item(row, 0);
        if (item == nullptr) return;
        const int layer = item->data(Qt::UserRole).toInt(), head = item->data(Qt::UserRole + 1).toInt();
        chosen_ = true;
        selectHead(layer, head);
    });
    table_->setMinimumHeight(120);
    table_->setMaximumHeight(290);
    mapTitle_ = new CircuitsLabel(2);
    mapTitle_->setText(tr("Click a head in the table: its attention on a repeated random sequence."));
    map_ = new HeatmapWidget;
    map_->setObjectName(QStringLiteral("lmRepeatMap"));
    map_->setAxisTitles(tr("query"), tr("key"));
    map_->setMinimumSize(200, 200);
    overlay_ = new QWidget(map_);
    overlay_->setAttribute(Qt::WA_TransparentForMouseEvents);
    overlay_->setAttribute(Qt::WA_NoSystemBackground);
    overlay_->installEventFilter(this);
    map_->installEventFilter(this);
    auto* right = new QWidget;
    right->setObjectName(QStringLiteral("lmCircuitsRight"));
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(table_, 2);
    rightLayout->addWidget(mapTitle_);
    rightLayout->addWidget(map_, 3);

    auto* split = new QSplitter(Qt::Horizontal);
    split->setObjectName(QStringLiteral("lmCircuitsSplit"));
    split->setChildrenCollapsible(false);
    split->addWidget(charts);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    split->hide();
    connect(this, &LmCircuitsView::headSelected, this, [this] { showMap(); });
    clear();
}

QString LmCircuitsView::viewTitle() const { return tr("Circuits"); }

QString LmCircuitsView::viewToolTip() const {
    return tr("Every head's previous-token, duplicate-token and induction scores as the model trains, beside the loss.");
}

void LmCircuitsView::applyColormap(ColormapId id) { map_->setColormap(id); }

void LmCircuitsView::clear() {
    reports_.clear();
    scores_.reset();
    chosen_ = false;
    selected_.reset();
    repeat_.reset();
    riseStep_ = 0;
    for (QLineSeries* s : {trainLoss_, heldLoss_, icl_, previous_, duplicate_, induction_, copy_}) {
        s->clear();
        if (QScatterSeries* dots = markers_.value(s)) dots->clear();
    }
    lossRise_->clear();
    scoreRise_->clear();
    table_->setRowCount(0);
    map_->clear();
    summary_->clear();
    placeholder_->show();
    if (QWidget* split = findChild<QSplitter*>(QStringLiteral("lmCircuitsSplit"))) split->hide();
    lossLow_ = 0;
    lossHigh_ = 1;
    updateRanges();
}

void LmCircuitsView::addReport(const LmStepMetrics& m) {
    reports_.push_back(m);
    const double x = m.step;
    const LmCircuitScores& c = m.circuits;
    appendDotted(markers_, trainLoss_, x, m.trainLoss);
    appendDotted(markers_, heldLoss_, x, m.validationLoss);
    appendDotted(markers_, icl_, x, c.inContextLearning);
    appendDotted(markers_, induction_, x, bestInduction(c.heads));
    appendDotted(markers_, previous_, x, bestOf(c.heads.previousToken));
    appendDotted(markers_, duplicate_, x, bestOf(c.heads.duplicateToken));
    appendDotted(markers_, copy_, x, c.copyAccuracy);
    for (double v : {m.trainLoss, m.validationLoss, c.inContextLearning})
        if (std::isfinite(v)) {
            lossHigh_ = std::max(lossHigh_, v);
            lossLow_ = std::min(lossLow_, v);
        }
    if (riseStep_ == 0 && bestInduction(c.heads) >= kInductionRise) {
        riseStep_ = m.step;
        markRise();
    }
    updateRanges();
    placeholder_->hide();
    if (QWidget* split = findChild<QSplitter*>(QStringLiteral("lmCircuitsSplit"))) split->show();
    if (QWidget* charts = findChild<QSplitter*>(QStringLiteral("lmCircuitsCharts"))) charts->show();
    showTable(c);
}

void LmCircuitsView::setScores(const LmCircuitScores& scores) {
    placeholder_->hide();
    if (QWidget* split = findChild<QSplitter*>(QStringLiteral("lmCircuitsSplit"))) split->show();
    // A model opened from a file has no run to draw: the table and the map only.
    if (QWidget* charts = findChild<QSplitter*>(QStringLiteral("lmCircuitsCharts"))) charts->setVisible(!reports_.empty());
    showTable(scores);
}

QString LmCircuitsView::summary() const { return summary_->text(); }

int LmCircuitsView::lossBumpStep() const {
    int step = 0;
    double largest = 0;
    for (std::size_t i = 1; i < reports_.size(); ++i) {
        const double fall = reports_[i - 1].validationLoss - reports_[i].validationLoss;
        if (std::isfinite(fall) && fall > largest) {
            largest = fall;
            step = reports_[i].step;
        }
    }
    return step;
}

void LmCircuitsView::markRise() {
    lossRise_->clear();
    scoreRise_->clear();
    if (riseStep_ <= 0) return;
    lossRise_->append(riseStep_, lossLow_ < 0 ? lossLow_ * 1.05 : 0.0);
    lossRise_->append(riseStep_, lossHigh_ * 1.05);
    scoreRise_->append(riseStep_, 0.0);
    scoreRise_->append(riseStep_, 1.0);
}

void LmCircuitsView::updateRanges() {
    const int last = reports_.empty() ? 1 : std::max(1, reports_.back().step);
    double interval = 1;  // at most 4 intervals of 1, 2 or 5 times a power of ten
    for (double scale = 1; interval * 4 < last; scale *= 10)
        for (double f : {1.0, 2.0, 5.0}) {
            interval = f * scale;
            if (interval * 4 >= last) break;
        }
    for (QValueAxis* x : {lossX_, scoreX_}) {
        x->setRange(0, last);
        x->setTickInterval(interval);
    }
    // The loss axis from the lowest ICL score (negative) to above the highest loss, a tick every 1,
    // 2 or 5 times a power of ten from 0, at most 6 intervals.
    const double low = std::min(0.0, std::floor(lossLow_)), high = std::max(1.0, std::ceil(lossHigh_ * 1.05));
    double step = 0.1;
    for (double scale = 0.1; step * 6 < high - low; scale *= 10)
        for (double f : {1.0, 2.0, 5.0}) {
            step = f * scale;
            if (step * 6 >= high - low) break;
        }
    lossY_->setTickType(QValueAxis::TicksDynamic);
    lossY_->setTickAnchor(0.0);
    lossY_->setTickInterval(step);
    lossY_->setLabelFormat(step < 1 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    lossY_->setRange(std::floor(low / step) * step, std::ceil(high / step) * step);
    markRise();
}

void LmCircuitsView::showTable(const LmCircuitScores& c) {
    scores_ = c;
    const LmHeadScores& s = c.heads;
    int rows = 0;
    for (const auto& layer : s.induction) rows += static_cast<int>(layer.size());
    const int keepRow = table_->currentRow();
    table_->setRowCount(rows);
    const double bestPrevious = bestOf(s.previousToken), bestDuplicate = bestOf(s.duplicateToken),
                 bestInd = bestOf(s.induction);
    int row = 0;
    for (std::size_t l = 0; l < s.induction.size(); ++l)
        for (std::size_t h = 0; h < s.induction[l].size(); ++h, ++row) {
            auto* name = new QTableWidgetItem(headName(static_cast<int>(l), static_cast<int>(h)));
            name->setData(Qt::UserRole, static_cast<int>(l));
            name->setData(Qt::UserRole + 1, static_cast<int>(h));
            table_->setItem(row, 0, name);
            const double values[3] = {s.previousToken[l][h], s.duplicateToken[l][h], s.induction[l][h]};
            const double best[3] = {bestPrevious, bestDuplicate, bestInd};
            for (int k = 0; k < 3; ++k) {
                auto* item = new QTableWidgetItem(QString::number(values[k], 'f', 2));
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                item->setBackground(shade(values[k]));
                item->setForeground(QColor(Qt::black));
                if (values[k] == best[k] && values[k] > 0.2) {
                    QFont bold = item->font();
                    bold.setBold(true);
                    item->setFont(bold);
                }
                table_->setItem(row, k + 1, item);
            }
        }
    if (!chosen_) {  // until the learner clicks one: the head with the best induction score
        int bestRow = -1, bestLayer = 0, bestHead = 0, r = 0;
        double top = -1;
        const std::size_t from = s.induction.size() > 1 ? 1 : 0;
        for (std::size_t l = 0; l < s.induction.size(); ++l)
            for (std::size_t h = 0; h < s.induction[l].size(); ++h, ++r)
                if (l >= from && s.induction[l][h] > top) {
                    top = s.induction[l][h];
                    bestRow = r;
                    bestLayer = static_cast<int>(l);
                    bestHead = static_cast<int>(h);
                }
        if (bestRow >= 0) {
            table_->selectRow(bestRow);
            if (!selected_ || *selected_ != std::make_pair(bestLayer, bestHead)) selectHead(bestLayer, bestHead);
        }
    } else if (keepRow >= 0 && keepRow < rows) {
        table_->selectRow(keepRow);
    }

    QStringList parts;
    if (!reports_.empty()) {
        const LmStepMetrics& m = reports_.back();
        parts << tr("Step %1: loss %2 (held out %3)")
                     .arg(m.step)
                     .arg(m.trainLoss, 0, 'f', 2)
                     .arg(m.validationLoss, 0, 'f', 2);
    }
    parts << tr("copy accuracy %1").arg(c.copyAccuracy, 0, 'f', 2)
          << tr("in-context learning %1").arg(c.inContextLearning, 0, 'f', 2)
          << tr("best induction %1, previous token %2").arg(bestInduction(s), 0, 'f', 2).arg(bestPrevious, 0, 'f', 2);
    QString text = parts.join(QStringLiteral(" · "));
    if (riseStep_ > 0)
        text += QLatin1Char('\n') + tr("The induction score rose past %1 at step %2; the held-out loss fell most by "
                                       "step %3.")
                                        .arg(kInductionRise, 0, 'f', 1)
                                        .arg(riseStep_)
                                        .arg(lossBumpStep());
    else if (!reports_.empty() && s.induction.size() < 2)
        text += QLatin1Char('\n') + tr("One layer: no head can find the token after an earlier copy of the current one.");
    summary_->setText(text);
}

void LmCircuitsView::selectHead(int layer, int head) {
    selected_ = std::make_pair(layer, head);
    Q_EMIT headSelected(layer, head);
}

void LmCircuitsView::setRepeat(const LmReading& reading) {
    repeat_ = reading;
    showMap();
}

void LmCircuitsView::setRepeatFailed(const QString& message) {
    repeat_.reset();
    map_->clear();
    mapTitle_->setText(message);
}

void LmCircuitsView::showMap() {
    if (!selected_ || !repeat_) return;
    const auto [layer, head] = *selected_;
    if (layer >= static_cast<int>(repeat_->attention.size()) ||
        head >= static_cast<int>(repeat_->attention[static_cast<std::size_t>(layer)].size()))
        return;
    QStringList labels;
    for (const std::string& t : repeat_->tokens) labels << lmTokenText(t);
    map_->setAttention(repeat_->attention[static_cast<std::size_t>(layer)][static_cast<std::size_t>(head)], labels,
                       labels);
    QString title = tr("%1 on a random sequence repeated once. Red line: the token after the earlier copy "
                       "(induction); green: the previous token.")
                        .arg(headName(layer, head));
    if (scores_ && layer < static_cast<int>(scores_->heads.induction.size()))
        title += QLatin1Char(' ') + tr("Scores: previous %1, duplicate %2, induction %3.")
                                        .arg(scores_->heads.previousToken[layer][head], 0, 'f', 2)
                                        .arg(scores_->heads.duplicateToken[layer][head], 0, 'f', 2)
                                        .arg(scores_->heads.induction[layer][head], 0, 'f', 2);
    mapTitle_->setText(title);
    overlay_->update();
}

bool LmCircuitsView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == map_ && (event->type() == QEvent::Resize || event->type() == QEvent::Paint)) {
        overlay_->setGeometry(map_->rect());
        overlay_->raise();
        if (event->type() == QEvent::Paint) overlay_->update();
    }
    if (watched == overlay_ && event->type() == QEvent::Paint) {
        paintDiagonals();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void LmCircuitsView::paintDiagonals() {
    if (!repeat_ || !selected_) return;
    const int n = static_cast<int>(repeat_->tokens.size());
    const int length = (n - 1) / 2;  // <bos>, the sequence, the sequence again
    if (length < 2 || map_->renderer().options().showNumbers) return;
    QPainter p(overlay_);
    p.setRenderHint(QPainter::Antialiasing);
    auto centre = [this](int row, int column) { return map_->cellRect(row, column).center(); };
    auto draw = [&](const QColor& color, int firstRow, int lastRow, int offset) {
        QPen pen(color);
        pen.setWidthF(2.0);
        pen.setStyle(Qt::DashLine);
        p.setPen(pen);
        p.drawLine(centre(firstRow, firstRow - offset), centre(lastRow, lastRow - offset));
    };
    // Previous token: (i, i - 1) from the first token on.
    draw(QColor(0x2c, 0xa0, 0x2c), 2, n - 1, 1);
    // Induction: a query of the second copy at i (i > length) attends to i - length + 1.
    draw(QColor(0xd6, 0x27, 0x28), length + 1, n - 1, length - 1);
}

void LmCircuitsView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // Beside each other when there is room; on a projector's 1024 x 768 the charts above the table,
    // each tall enough for its axis labels, and the view scrolls.
    auto* split = findChild<QSplitter*>(QStringLiteral("lmCircuitsSplit"));
    auto* charts = findChild<QSplitter*>(QStringLiteral("lmCircuitsCharts"));
    auto* right = findChild<QWidget*>(QStringLiteral("lmCircuitsRight"));
    if (split == nullptr || charts == nullptr || right == nullptr) return;
    const bool narrow = width() < 1000;
    const Qt::Orientation wanted = narrow ? Qt::Vertical : Qt::Horizontal;
    if (split->orientation() == wanted) return;
    split->setOrientation(wanted);
    for (int i = 0; i < charts->count(); ++i) charts->widget(i)->setMinimumHeight(narrow ? 300 : 180);
    right->setMinimumHeight(narrow ? 480 : 0);
}

bool LmCircuitsView::exportView(const QString& path, double scale, QString* error) const {
    const std::optional<ExportFormat> format = FigureWriter::formatForPath(path);
    if (format == ExportFormat::Csv || format == ExportFormat::Npy) {
        if (!scores_) return fail(error, tr("No scores yet: train or open a model first."));
        if (format == ExportFormat::Npy) return fail(error, tr("The circuits table is written as CSV only."));
        QByteArray csv("layer,head,previous_token,duplicate_token,induction\n");
        const LmHeadScores& s = scores_->heads;
        for (std::size_t l = 0; l < s.induction.size(); ++l)
            for (std::size_t h = 0; h < s.induction[l].size(); ++h)
                csv += QStringLiteral("%1,%2,%3,%4,%5\n")
                           .arg(l + 1)
                           .arg(h + 1)
                           .arg(s.previousToken[l][h], 0, 'g', 6)
                           .arg(s.duplicateToken[l][h], 0, 'g', 6)
                           .arg(s.induction[l][h], 0, 'g', 6)
                           .toUtf8();
        return FigureWriter::report(FigureWriter::writeBytes(path, csv), error);
    }
    if (reports_.empty()) return fail(error, tr("No curves yet: the charts fill as the model trains."));
    return exportCharts({lossChart_, scoreChart_}, {1.0, 1.0}, QSize(900, 880), tr("Circuits"), path, scale, error);
}

}  // namespace attnlab
