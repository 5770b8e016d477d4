#include "views/forecast/ForecastHeadsView.h"

#include "render/FigureWriter.h"
#include "widgets/HeadGridWidget.h"
#include "widgets/WidgetStyle.h"

#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

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
    clearView();
}

QString ForecastHeadsView::viewTitle() const { return tr("Heads"); }

QString ForecastHeadsView::viewToolTip() const {
    return tr("The forecaster's encoder self-attention and cross-attention, every layer and head.");
}

void ForecastHeadsView::clearView() {
    forecast_.reset();
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

void ForecastHeadsView::setForecast(const Forecast& f) {
    forecast_ = f;
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
