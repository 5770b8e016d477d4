#include "views/heads/ImportanceView.h"

#include "render/FigureWriter.h"
#include "widgets/ChartStyle.h"
#include "widgets/HeatmapWidget.h"
#include "widgets/WidgetStyle.h"

#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

namespace {

QString kindName(MapKind kind) {
    if (kind == MapKind::Encoder) return ImportanceView::tr("Encoder self-attention");
    if (kind == MapKind::Decoder) return ImportanceView::tr("Decoder self-attention");
    return ImportanceView::tr("Cross-attention");
}

}  // namespace

ImportanceView::ImportanceView(const QString& items, QWidget* parent) : QWidget(parent), items_(items) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(8);
    intro_ = new QLabel;
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    auto* row = new QHBoxLayout;
    measure_ = new QPushButton(tr("Measure the Heads"));
    measure_->setToolTip(tr("Runs on the training worker: a run in progress waits until it is done."));
    limit_ = new QSpinBox;
    limit_->setRange(0, 100000);
    limit_->setValue(200);
    limit_->setSpecialValueText(tr("all"));
    limit_->setToolTip(tr("How many held-out items to measure on (0: all). Each head costs one pass over them."));
    progress_ = new QProgressBar;
    progress_->setMaximumWidth(220);
    progress_->setVisible(false);
    status_ = new QLabel;
    status_->setWordWrap(true);
    row->addWidget(measure_);
    limitLabel_ = new QLabel;
    row->addWidget(limitLabel_);
    row->addWidget(limit_);
    row->addWidget(progress_);
    row->addWidget(status_, 1);
    layout->addLayout(row);

    auto* grids = new QHBoxLayout;
    for (HeatmapWidget** w : {&encoder_, &decoder_, &cross_}) {
        *w = new HeatmapWidget;
        (*w)->setFixedScale(true);
        (*w)->setShowNumbers(true);
        (*w)->setMassShare(1.0);
        (*w)->setProperty("attnlabNoThreshold", true);  // importances, not attention rows
        (*w)->setAxisTitles(tr("layer"), tr("head"));
        (*w)->setMinimumHeight(160);
        grids->addWidget(*w, 1);
    }
    layout->addLayout(grids, 2);

    auto* split = new QSplitter(Qt::Horizontal);
    table_ = new QTableWidget(0, 6);
    table_->setHorizontalHeaderLabels({tr("Kind"), tr("Layer"), tr("Head"), tr("Importance"), tr("Δ loss"), tr("Δ metric")});
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSortingEnabled(true);
    table_->horizontalHeader()->setStretchLastSection(true);
    split->addWidget(table_);

    chart_ = makeChart(tr("The metric as heads are switched off"));
    x_ = new QValueAxis;
    y_ = new QValueAxis;
    x_->setRange(0.0, 1.0);
    x_->setTickCount(6);
    x_->setLabelFormat(QStringLiteral("%.1f"));
    y_->setRange(0.0, 100.0);
    y_->setTickCount(6);
    y_->setLabelFormat(QStringLiteral("%d"));
    styleAxis(x_, tr("share of heads switched off"));
    styleAxis(y_, tr("metric"));
    chart_->addAxis(x_, Qt::AlignBottom);
    chart_->addAxis(y_, Qt::AlignLeft);
    pruning_ = addDottedLine(chart_, tr("least important first"), QColor(0x1f, 0x77, 0xb4), false, 8.0, true, &markers_);
    random_ = addDottedLine(chart_, tr("random order (mean)"), QColor(0xff, 0x7f, 0x0e), true, 6.0, true, &markers_);
    for (QLineSeries* line : {pruning_, random_})
        for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(line), static_cast<QAbstractSeries*>(markers_.value(line))})
            for (QAbstractAxis* axis : chart_->axes()) s->attachAxis(axis);
    split->addWidget(makeChartView(chart_));
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 3);

    connect(measure_, &QPushButton::clicked, this, [this] {
        setBusy(true);
        status_->setText(tr("Measuring…"));
        Q_EMIT measureRequested(limit_->value());
    });
    const QString noun = itemsName();
    intro_->setText(
        tr("Which heads matter? Measure switches each head off alone over the held-out %1 (the change in loss and in "
           "the task's metric) and ranks the heads by their gradient importance (Michel et al. 2019, normalised within "
           "each layer). The chart switches heads off together, the least important first, beside random orders.")
            .arg(noun));
    limitLabel_->setText(tr("At most:"));
    limit_->setSuffix(QStringLiteral(" ") + noun);
    clearView();
}

QString ImportanceView::itemsName() const { return items_.isEmpty() ? tr("pairs") : items_; }

HeatmapWidget* ImportanceView::grid(MapKind kind) const {
    if (kind == MapKind::Encoder) return encoder_;
    if (kind == MapKind::Decoder) return decoder_;
    return cross_;
}

QString ImportanceView::status() const { return status_->text(); }

void ImportanceView::setBusy(bool busy) {
    measure_->setEnabled(!busy && available_ && transformer_);
    progress_->setVisible(busy);
    if (busy) progress_->setRange(0, 0);  // until the first progress report
}

void ImportanceView::setProgress(int done, int total) {
    progress_->setRange(0, std::max(1, total));
    progress_->setValue(done);
    status_->setText(tr("Measuring: pass %1 of %2 over the %3…").arg(done).arg(total).arg(itemsName()));
}

namespace {

// A metric's name as the window shows it.
QString metricTitle(const std::string& metric) {
    if (metric == "accuracy") return ImportanceView::tr("accuracy");
    if (metric == "MAE") return ImportanceView::tr("MAE");
    return QString::fromStdString(metric);
}

int metricDecimals(const std::string& metric) { return metric == "BLEU" ? 1 : 3; }

}  // namespace

void ImportanceView::setReport(const HeadStudyReport& report, const QString& source) {
    report_ = report;
    hasReport_ = true;
    setBusy(false);
    const QString metric = metricTitle(report.metric);
    const int decimals = metricDecimals(report.metric);
    status_->setText(tr("%1 heads over %2 %3 of %4: %5 %6 with every head on, loss %7.")
                         .arg(report.heads.size())
                         .arg(report.items)
                         .arg(itemsName(), source, metric)
                         .arg(report.baseline.metric, 0, 'f', decimals)
                         .arg(report.baseline.loss, 0, 'f', 3));
    table_->horizontalHeaderItem(5)->setText(tr("Δ %1").arg(metric));
    QString title = tr("%1 as heads are switched off").arg(metric);
    if (!title.isEmpty()) title[0] = title[0].toUpper();  // "Accuracy as ..."
    chart_->setTitle(title);
    y_->setTitleText(metric);
    // The metric's axis: BLEU 0..100, accuracy 0..1, an error from 0 to above its largest value.
    double top = report.metric == "BLEU" ? 100.0 : 1.0;
    if (!report.higherIsBetter) {
        top = report.baseline.metric;
        for (const std::vector<PruningPoint>* curve : {&report.pruningCurve, &report.randomCurve})
            for (const PruningPoint& p : *curve) top = std::max(top, p.metric);
        top = top > 0.0 ? top * 1.1 : 1.0;
    }
    y_->setRange(0.0, top);
    if (!report.higherIsBetter) y_->applyNiceNumbers();  // an error's axis to round ticks
    y_->setLabelFormat(report.metric == "BLEU" ? QStringLiteral("%d") : QStringLiteral("%.2f"));
    // The grids: layers x heads of each kind, importance in [0, 1] (each layer's vector has norm 1).
    // (A forecaster's decoder may have fewer layers than its encoder: each kind's grid its own rows.)
    int heads = 0;
    for (const HeadStudyEffect& e : report.heads) heads = std::max(heads, e.head.head + 1);
    QStringList headLabels;
    for (int h = 0; h < heads; ++h) headLabels << QString::number(h + 1);
    for (MapKind kind : kHeadKinds) {
        int layers = 0;
        for (const HeadStudyEffect& e : report.heads)
            if (e.head.kind == kind) layers = std::max(layers, e.head.layer + 1);
        HeatmapWidget* w = grid(kind);
        w->setVisible(layers > 0);  // a classifier's or a ViT's heads are all encoder self-attention
        if (layers == 0) {
            w->clear();
            continue;
        }
        AttentionMap map{layers, heads, std::vector<float>(static_cast<std::size_t>(layers) * heads, 0.0f)};
        for (const HeadStudyEffect& e : report.heads)
            if (e.head.kind == kind)
                map.weights[static_cast<std::size_t>(e.head.layer) * heads + e.head.head] = static_cast<float>(e.importance);
        QStringList layerLabels;
        for (int l = 0; l < layers; ++l) layerLabels << QString::number(l + 1);
        w->setTitle(tr("%1: importance").arg(kindName(kind)));
        w->setAttention(map, layerLabels, headLabels);
    }
    // The table, most important first.
    table_->setSortingEnabled(false);
    table_->setRowCount(static_cast<int>(report.heads.size()));
    int r = 0;
    for (const HeadStudyEffect& e : report.heads) {
        const auto number = [](double v, int places) {
            auto* item = new QTableWidgetItem;
            item->setData(Qt::DisplayRole, QString::number(v, 'f', places).toDouble());
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            return item;
        };
        table_->setItem(r, 0, new QTableWidgetItem(kindName(e.head.kind)));
        table_->setItem(r, 1, number(e.head.layer + 1, 0));
        table_->setItem(r, 2, number(e.head.head + 1, 0));
        table_->setItem(r, 3, number(e.importance, 3));
        table_->setItem(r, 4, number(e.deltaLoss, 4));
        table_->setItem(r, 5, number(e.deltaMetric, decimals + 1));
        ++r;
    }
    table_->setSortingEnabled(true);
    table_->sortItems(3, Qt::DescendingOrder);
    table_->resizeColumnsToContents();
    // The pruning chart.
    for (QLineSeries* line : {pruning_, random_}) {
        line->clear();
        markers_.value(line)->clear();
    }
    for (const PruningPoint& p : report.pruningCurve) appendDotted(markers_, pruning_, p.prunedFraction, p.metric);
    for (const PruningPoint& p : report.randomCurve) appendDotted(markers_, random_, p.prunedFraction, p.metric);
    random_->setVisible(!report.randomCurve.empty());
    markers_.value(random_)->setVisible(!report.randomCurve.empty());
}

void ImportanceView::setFailed(const QString& message) {
    setBusy(false);
    status_->setText(tr("The heads could not be measured: %1").arg(message));
}

QByteArray ImportanceView::csv() const {
    const QByteArray metric = QString::fromStdString(report_.metric.empty() ? "metric" : report_.metric).toLower().toUtf8();
    QByteArray out = "kind,layer,head,importance,gradient,delta_loss,delta_" + metric + ",loss," + metric + "\n";
    for (const HeadStudyEffect& e : report_.heads) {
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9\n")
                   .arg(QLatin1String(toString(e.head.kind)))
                   .arg(e.head.layer + 1)
                   .arg(e.head.head + 1)
                   .arg(e.importance, 0, 'g', 9)
                   .arg(e.gradient, 0, 'g', 9)
                   .arg(e.deltaLoss, 0, 'g', 9)
                   .arg(e.deltaMetric, 0, 'g', 9)
                   .arg(e.score.loss, 0, 'g', 9)
                   .arg(e.score.metric, 0, 'g', 9)
                   .toUtf8();
    }
    return out;
}

// ---- View ----------------------------------------------------------------------------------------

QString ImportanceView::viewTitle() const { return tr("Importance"); }

QString ImportanceView::viewToolTip() const {
    return tr("Each head of a Transformer switched off over the held-out %1: its importance, what it costs, and the "
              "pruning curve.")
        .arg(itemsName());
}

void ImportanceView::clearView() {
    report_ = HeadStudyReport{};
    hasReport_ = false;
    for (HeatmapWidget* w : {encoder_, decoder_, cross_}) {
        w->clear();
        w->setVisible(true);
    }
    table_->setRowCount(0);
    for (QLineSeries* line : {pruning_, random_}) {
        line->clear();
        markers_.value(line)->clear();
    }
    setBusy(false);
    showIdleStatus();
}

void ImportanceView::showIdleStatus() {
    status_->setText(transformer_ ? tr("Press Measure the Heads once the model has trained.")
                                  : tr("Train or open a Transformer: a GRU has no attention heads to switch off."));
}

void ImportanceView::modelChanged(const ModelInfo* model) {
    transformer_ = model != nullptr && model->layers > 0 && model->heads > 0;
    clearView();
}

void ImportanceView::setModelHasHeads(bool has) {
    if (has == transformer_ && !hasReport_) return;
    transformer_ = has;
    clearView();
}

void ImportanceView::modelAvailable(bool available) {
    available_ = available;
    if (!progress_->isVisible()) setBusy(false);
}

void ImportanceView::applyColormap(ColormapId id) {
    for (HeatmapWidget* w : {encoder_, decoder_, cross_}) w->setColormap(id);
}

bool ImportanceView::exportView(const QString& path, double scale, QString* error) const {
    const std::optional<ExportFormat> format = FigureWriter::formatForPath(path);
    if (format == ExportFormat::Npy)
        return fail(error, tr("the heads are exported as CSV, not NPY: save the file with the .csv extension"));
    if (format && !hasReport_) return fail(error, tr("there is nothing to export yet: measure the heads first"));
    if (format == ExportFormat::Csv) return FigureWriter::report(FigureWriter::writeBytes(path, csv()), error);
    return exportCharts({chart_}, {1.0}, QSize(900, 560), tr("Head pruning curve"), path, scale, error);
}

}  // namespace attnlab
