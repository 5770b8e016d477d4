#include "views/translate/ProbeView.h"

#include "widgets/AttentionPanel.h"
#include "widgets/HeatmapWidget.h"

#include "widgets/WidgetStyle.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace attnlab {

ProbeView::ProbeView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(10);

    auto* row = new QHBoxLayout;
    input_ = new QLineEdit;
    input_->setPlaceholderText(tr("A sentence to watch while the model trains"));
    input_->setClearButtonEnabled(true);
    scaleFont(input_, 1.3);
    input_->setToolTip(tr("The probe sentence; press Enter to watch this one instead."));
    cadence_ = new QComboBox;
    cadence_->addItem(tr("every batch"), 1);
    cadence_->addItem(tr("every 5 batches"), 5);
    cadence_->addItem(tr("every 20 batches"), 20);
    cadence_->addItem(tr("every 100 batches"), 100);
    cadence_->addItem(tr("every epoch"), 0);
    cadence_->setCurrentIndex(1);
    cadence_->setToolTip(tr("How often the probe is translated again while training runs."));
    row->addWidget(new QLabel(tr("Probe:")));
    row->addWidget(input_, 1);
    row->addWidget(new QLabel(tr("Update")));
    row->addWidget(cadence_);
    layout->addLayout(row);

    auto* statusRow = new QHBoxLayout;
    output_ = new QLabel;
    output_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    scaleFont(output_, 1.5);
    status_ = new QLabel;
    status_->setForegroundRole(QPalette::PlaceholderText);
    statusRow->addWidget(output_, 1);
    statusRow->addWidget(status_, 0, Qt::AlignRight | Qt::AlignVCenter);
    layout->addLayout(statusRow);

    attention_ = new AttentionPanel;
    layout->addWidget(attention_, 1);

    connect(input_, &QLineEdit::returnPressed, this, &ProbeView::emitChanged);
    connect(cadence_, &QComboBox::currentIndexChanged, this, &ProbeView::emitChanged);
    clear();
}

QString ProbeView::sentence() const { return input_->text().trimmed(); }

void ProbeView::setSentence(const QString& sentence) {
    const QSignalBlocker blocker(input_);
    input_->setText(sentence);
}

int ProbeView::everyBatches() const { return cadence_->currentData().toInt(); }

void ProbeView::setEveryBatches(int batches) {
    const int index = cadence_->findData(batches);
    if (index < 0) return;
    const QSignalBlocker blocker(cadence_);
    cadence_->setCurrentIndex(index);
}

void ProbeView::emitChanged() { Q_EMIT probeChanged(sentence(), everyBatches()); }

void ProbeView::clear() {
    updates_ = 0;
    output_->clear();
    status_->setText(tr("Start training to watch the probe's attention form."));
    attention_->setTranslation(Translation{});
    attention_->showMessage(tr("Start training: the probe sentence is translated as the model learns, and its "
                               "attention map is redrawn each time."));
}

void ProbeView::setResult(const ProbeResult& result) {
    ++updates_;
    QStringList tokens;
    for (const auto& t : result.translation.outputTokens) tokens << QString::fromStdString(t);
    output_->setText(tokens.isEmpty() ? tr("(empty output)") : tokens.join(QLatin1Char(' ')));
    status_->setText(result.loadedModel                             ? tr("model opened from a file")
                     : result.batches == 0 && result.epoch == 0 ? tr("untrained model: random attention")
                         : tr("batches trained: %1 · epochs done: %2").arg(result.batches).arg(result.epoch));
    attention_->setTranslation(result.translation);
}

// ---- View ----------------------------------------------------------------------------------------

QString ProbeView::viewTitle() const { return tr("Live Probe"); }

QString ProbeView::viewToolTip() const {
    return tr("Watch one sentence's attention form while the model trains.");
}

void ProbeView::clearView() {
    clear();
}

void ProbeView::runStarted() {
    clear();
}

void ProbeView::applyColormap(ColormapId id) {
    attention()->heatmap()->setColormap(id);
}

void ProbeView::applyShowNumbers(bool on) {
    attention()->heatmap()->setShowNumbers(on);
}

// Only while a map is shown: Export Image and Export Matrix are disabled before the first answer
// (or for an output that ended at once) rather than failing with "no heatmap to export yet".
bool ProbeView::exportsFigure() const {
    return attention()->hasMap();
}

bool ProbeView::exportsMatrix() const {
    return attention()->hasMap();
}

bool ProbeView::exportView(const QString& path, double scale, QString* error) const {
    return exportPanel(attention(), path, scale, error);
}

HeatmapWidget* ProbeView::zoomableHeatmap() const { return attention()->heatmap(); }

}  // namespace attnlab
