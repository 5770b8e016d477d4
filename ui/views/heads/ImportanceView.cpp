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

ImportanceView::ImportanceView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(8);
    auto* intro = new QLabel(
        tr("Which heads matter? Measure switches each head off alone over the validation pairs (the change in loss "
           "and in BLEU) and ranks the heads by their gradient importance (Michel et al. 2019, normalised within each "
           "layer). The chart switches heads off together, the least important first, beside random orders."));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* row = new QHBoxLayout;
    measure_ = new QPushButton(tr("Measure the Heads"));
    measure_->setToolTip(tr("Runs on the training worker: a run in progress waits until it is done."));
    limit_ = new QSpinBox;
    limit_->setRange(0, 100000);
    limit_->setValue(200);
    limit_->setSpecialValueText(tr("all"));
    limit_->setToolTip(tr("How many validation pairs to measure on (0: all). Each head costs one pass over them."));
    progress_ = new QProgressBar;
    progress_->setMaximumWidth(220);
    progress_->setVisible(false);
    status_ = new QLabel;
    status_->setWordWrap(true);
    row->addWidget(measure_);
    row->addWidget(new QLabel(tr("Pairs:")));
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
    table_->setHorizontalHeaderLabels({tr("Kind"), tr("Layer"), tr("Head"), tr("Importance"), tr("Δ loss"), tr("Δ BLEU")});
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSortingEnabled(true);
    table_->horizontalHeader()->setStretchLastSection(true);
    split->addWidget(table_);

    chart_ = makeChart(tr("BLEU as heads are switched off"));
    x_ = new QValueAxis;
    y_ = new QValueAxis;
    x_->setRange(0.0, 1.0);
    x_->setTickCount(6);
    x_->setLabelFormat(QStringLiteral("%.1f"));
    y_->setRange(0.0, 100.0);
    y_->setTickCount(6);
    y_->setLabelFormat(QStringLiteral("%d"));
    styleAxis(x_, tr("share of heads switched off"));
    styleAxis(y_, tr("BLEU"));
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
    clearView();
}

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
    status_->setText(tr("Measuring: pass %1 of %2 over the pairs…").arg(done).arg(total));
}

void ImportanceView::setReport(const HeadImportanceReport& report, const QString& corpus) {
    report_ = report;
    hasReport_ = true;
    setBusy(false);
    status_->setText(tr("%1 heads over %2 pairs of %3: BLEU %4 with every head on, loss %5.")
                         .arg(report.heads.size())
                         .arg(report.pairs)
                         .arg(corpus)
                         .arg(report.baseline.bleu, 0, 'f', 1)
                         .arg(report.baseline.loss, 0, 'f', 3));
    // The grids: layers x heads of each kind, importance in [0, 1] (each layer's vector has norm 1).
    int layers = 0, heads = 0;
    for (const HeadEffect& e : report.heads) {
        layers = std::max(layers, e.head.layer + 1);
        heads = std::max(heads, e.head.head + 1);
    }
    QStringList layerLabels, headLabels;
    for (int l = 0; l < layers; ++l) layerLabels << QString::number(l + 1);
    for (int h = 0; h < heads; ++h) headLabels << QString::number(h + 1);
    for (MapKind kind : kHeadKinds) {
        AttentionMap map{layers, heads, std::vector<float>(static_cast<std::size_t>(layers) * heads, 0.0f)};
        for (const HeadEffect& e : report.heads)
            if (e.head.kind == kind)
                map.weights[static_cast<std::size_t>(e.head.layer) * heads + e.head.head] = static_cast<float>(e.importance);
        HeatmapWidget* w = grid(kind);
        w->setTitle(tr("%1: importance").arg(kindName(kind)));
        w->setAttention(map, layerLabels, headLabels);
    }
    // The table, most important first.
    table_->setSortingEnabled(false);
    table_->setRowCount(static_cast<int>(report.heads.size()));
    int r = 0;
    for (const HeadEffect& e : report.heads) {
        const auto number = [](double v, int decimals) {
            auto* item = new QTableWidgetItem;
            item->setData(Qt::DisplayRole, QString::number(v, 'f', decimals).toDouble());
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            return item;
        };
        table_->setItem(r, 0, new QTableWidgetItem(kindName(e.head.kind)));
        table_->setItem(r, 1, number(e.head.layer + 1, 0));
        table_->setItem(r, 2, number(e.head.head + 1, 0));
        table_->setItem(r, 3, number(e.importance, 3));
        table_->setItem(r, 4, number(e.deltaLoss, 4));
        table_->setItem(r, 5, number(e.deltaMetric, 2));
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
    QByteArray out = "kind,layer,head,importance,gradient,delta_loss,delta_bleu,loss,bleu\n";
    for (const HeadEffect& e : report_.heads) {
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9\n")
                   .arg(QLatin1String(toString(e.head.kind)))
                   .arg(e.head.layer + 1)
                   .arg(e.head.head + 1)
                   .arg(e.importance, 0, 'g', 9)
                   .arg(e.gradient, 0, 'g', 9)
                   .arg(e.deltaLoss, 0, 'g', 9)
                   .arg(e.deltaMetric, 0, 'g', 9)
                   .arg(e.loss, 0, 'g', 9)
                   .arg(e.bleu, 0, 'g', 9)
                   .toUtf8();
    }
    return out;
}

// ---- View ----------------------------------------------------------------------------------------

QString ImportanceView::viewTitle() const { return tr("Importance"); }

QString ImportanceView::viewToolTip() const {
    return tr("Each head of a Transformer switched off over the validation pairs: its importance, what it costs, and "
              "the pruning curve.");
}

void ImportanceView::clearView() {
    report_ = HeadImportanceReport{};
    hasReport_ = false;
    for (HeatmapWidget* w : {encoder_, decoder_, cross_}) w->clear();
    table_->setRowCount(0);
    for (QLineSeries* line : {pruning_, random_}) {
        line->clear();
        markers_.value(line)->clear();
    }
    setBusy(false);
    status_->setText(transformer_ ? tr("Press Measure the Heads once the model has trained.")
                                  : tr("Train or open a Transformer: a GRU has no attention heads to switch off."));
}

void ImportanceView::modelChanged(const ModelInfo* model) {
    transformer_ = model != nullptr && model->architecture == QLatin1String("transformer");
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
