#include "views/forecast/ForecastHeadsView.h"
#include "views/heads/HeadSwitch.h"

#include "render/FigureWriter.h"
#include "widgets/HeadGridWidget.h"
#include "widgets/WidgetStyle.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

QStringList offsets(int context) {
    QStringList out;
    for (int c = 0; c < context; ++c) out << QString::number(c - (context - 1));
    return out;
}

QStringList steps(int horizon) {
    QStringList out;
    for (int h = 1; h <= horizon; ++h) out << QStringLiteral("+%1").arg(h);
    return out;
}

}  // namespace

ForecastHeadsView::ForecastHeadsView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    placeholder_ = makePlaceholderLabel();
    placeholder_->setText(tr("Train or open a forecaster: the attention of every layer and head for the forecast "
                             "shown appears here."));
    layout->addWidget(placeholder_, 1);
    auto* ablationRow = new QHBoxLayout;
    ablation_ = new QLabel;
    ablation_->setObjectName(QStringLiteral("forecastAblation"));
    ablation_->setWordWrap(true);
    ablation_->setTextFormat(Qt::RichText);
    ablate_ = new QPushButton(tr("Switch Heads Off"));
    ablate_->setCheckable(true);
    ablate_->setToolTip(tr("Then click a head of either grid to switch it off, or on again: the forecast and every "
                           "map become the model's without it."));
    allOn_ = new QPushButton(tr("All On"));
    allOn_->setToolTip(tr("Every head on again."));
    ablationRow->addWidget(ablation_, 1);
    ablationRow->addWidget(ablate_);
    ablationRow->addWidget(allOn_);
    layout->addLayout(ablationRow);
    encoderTitle_ = new QLabel(tr("<b>Encoder self-attention</b> over the history, every layer (rows) and head "
                                  "(columns), each on its own scale: a lattice with the period's spacing is the period seen by the encoder"));
    encoderTitle_->setWordWrap(true);
    layout->addWidget(encoderTitle_);
    encoder_ = new HeadGridWidget;
    encoder_->setObjectName(QStringLiteral("forecastEncoderHeads"));
    encoder_->setScale(GridScale::PerHead);  // a head's weights are small beside a few sharp ones
    encoder_->setMinimumHeight(300);
    layout->addWidget(encoder_, 3);
    crossTitle_ = new QLabel(tr("<b>Cross-attention</b>: every forecast step (rows) over the history (columns), "
                                "every decoder layer and head, on one scale"));
    crossTitle_->setWordWrap(true);
    layout->addWidget(crossTitle_);
    cross_ = new HeadGridWidget;
    cross_->setObjectName(QStringLiteral("forecastCrossHeads"));
    cross_->setScale(GridScale::Shared);
    cross_->setMinimumHeight(130);
    layout->addWidget(cross_, 1);
    connect(ablate_, &QPushButton::toggled, this, [this](bool on) { setAblationMode(on); });
    connect(allOn_, &QPushButton::clicked, this, [this] { setSwitchedOff({}); });
    connect(encoder_, &HeadGridWidget::layerHeadActivated, this,
            [this](int layer, int head) { toggle(MapKind::Encoder, layer, head); });
    connect(cross_, &HeadGridWidget::layerHeadActivated, this,
            [this](int layer, int head) { toggle(MapKind::Cross, layer, head); });
    clearView();
}

void ForecastHeadsView::toggle(MapKind kind, int layer, int head) {
    if (ablate_->isChecked()) setSwitchedOff(withHeadToggled(off_, HeadId{kind, layer, head}));
}

void ForecastHeadsView::setAblationMode(bool on) {
    if (ablate_->isChecked() != on) ablate_->setChecked(on);  // re-enters through toggled
    if (!on && !off_.empty()) setSwitchedOff({});
}

bool ForecastHeadsView::ablationMode() const { return ablate_->isChecked(); }

void ForecastHeadsView::setSwitchedOff(std::vector<HeadId> heads) {
    std::sort(heads.begin(), heads.end());
    off_ = std::move(heads);
    showSwitchedOff();
    Q_EMIT ablationChanged();
}

void ForecastHeadsView::showSwitchedOff() {
    std::vector<std::pair<int, int>> encoder, cross;
    for (const HeadId& h : off_) (h.kind == MapKind::Cross ? cross : encoder).emplace_back(h.layer, h.head);
    encoder_->setSwitchedOff(encoder);
    cross_->setSwitchedOff(cross);
    allOn_->setEnabled(!off_.empty());
    if (off_.empty()) ablation_->clear();
}

QString ForecastHeadsView::ablationSummary() const { return off_.empty() ? QString() : ablation_->text(); }

QString ForecastHeadsView::viewTitle() const { return tr("Heads"); }

QString ForecastHeadsView::viewToolTip() const {
    return tr("The forecaster's encoder self-attention and cross-attention, every layer and head.");
}

void ForecastHeadsView::clearView() {
    forecast_.reset();
    full_.reset();
    off_.clear();
    ablate_->setChecked(false);
    showSwitchedOff();
    ablate_->hide();
    allOn_->hide();
    encoder_->clear();
    cross_->clear();
    for (QWidget* w : {static_cast<QWidget*>(encoderTitle_), static_cast<QWidget*>(encoder_),
                       static_cast<QWidget*>(crossTitle_), static_cast<QWidget*>(cross_)})
        w->hide();
    placeholder_->show();
}

void ForecastHeadsView::modelAvailable(bool available) {
    if (!available) clearView();
}

void ForecastHeadsView::applyColormap(ColormapId id) {
    encoder_->setColormap(id);
    cross_->setColormap(id);
}

void ForecastHeadsView::setForecast(const Forecast& f, const std::vector<HeadId>& off) {
    std::vector<HeadId> sorted = off;
    std::sort(sorted.begin(), sorted.end());
    if (sorted != off_) return;  // made for other heads than the ones switched off now
    if (off.empty()) full_ = f;
    else if (full_ && full_->history != f.history) full_.reset();  // another position
    forecast_ = f;
    ablate_->show();
    allOn_->show();
    if (!off.empty()) {
        const QString count = off.size() == 1 ? tr("1 head off") : tr("%1 heads off").arg(off.size());
        QString line = tr("<b>%1</b>: the forecast and every map are the model's without them.").arg(count);
        if (full_ && full_->forecast.size() == f.forecast.size() && !f.forecast.empty()) {
            double moved = 0;
            for (std::size_t h = 0; h < f.forecast.size(); ++h) moved += std::abs(f.forecast[h] - full_->forecast[h]);
            line += QStringLiteral(" ") + tr("It moves by %1 a step on average from the full model's.")
                                             .arg(moved / static_cast<double>(f.forecast.size()), 0, 'g', 3);
        }
        ablation_->setText(line);
    }
    showSwitchedOff();
    const int C = static_cast<int>(f.history.size());
    const int H = static_cast<int>(f.forecast.size());
    const QStringList history = offsets(C);
    placeholder_->hide();
    const bool hasEncoder = !f.encoder.empty() && !f.encoder.front().empty();
    encoderTitle_->setVisible(hasEncoder);
    encoder_->setVisible(hasEncoder);
    if (hasEncoder) encoder_->setLayers(f.encoder, history, history);
    const bool hasCross = !f.cross.empty() && !f.cross.front().empty();
    crossTitle_->setVisible(hasCross);
    cross_->setVisible(hasCross);
    if (hasCross) cross_->setLayers(f.cross, steps(H), history);
}

bool ForecastHeadsView::exportView(const QString& path, double scale, QString* error) const {
    if (!forecast_) return fail(error, tr("there are no heads to show yet: train or open a forecaster first"));
    if (isMatrixPath(path)) return fail(error, tr("The Heads view is exported as PNG, SVG or PDF"));
    const Figure top = encoder_->renderer().figure();
    const Figure bottom = cross_->renderer().figure();
    Figure both;
    const bool hasTop = !encoder_->renderer().isEmpty(), hasBottom = !cross_->renderer().isEmpty();
    const QSize a = hasTop ? top.size : QSize(0, 0), b = hasBottom ? bottom.size : QSize(0, 0);
    both.size = QSize(std::max(a.width(), b.width()), a.height() + b.height());
    both.title = tr("Forecaster heads");
    both.paint = [top, bottom, a, b, hasTop, hasBottom](QPainter& p, const QRectF& r) {
        p.fillRect(r, Qt::white);
        if (hasTop) top.paint(p, QRectF(r.left(), r.top(), a.width(), a.height()));
        if (hasBottom) bottom.paint(p, QRectF(r.left(), r.top() + a.height(), b.width(), b.height()));
    };
    return FigureWriter::report(FigureWriter::write(path, both, scale), error);
}

}  // namespace attnlab
