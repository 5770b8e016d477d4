#include "views/forecast/ForecastView.h"

#include "widgets/HeatmapWidget.h"
#include "widgets/WidgetStyle.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace attnlab {

namespace {

QStringList stepLabels(int horizon) {
    QStringList out;
    for (int h = 1; h <= horizon; ++h) out << QStringLiteral("+%1").arg(h);
    return out;
}

QStringList historyLabels(int context) {
    QStringList out;
    for (int c = 0; c < context; ++c) out << QString::number(c - (context - 1));
    return out;
}

double meanAbsoluteError(const std::vector<double>& a, const std::vector<double>& b) {
    const std::size_t n = std::min(a.size(), b.size());
    if (n == 0) return std::nan("");
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += std::abs(a[i] - b[i]);
    return sum / static_cast<double>(n);
}

}  // namespace

ForecastView::ForecastView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Forecast from:")));
    slider_ = new QSlider(Qt::Horizontal);
    slider_->setObjectName(QStringLiteral("forecastPositionSlider"));
    slider_->setToolTip(tr("Where in the held-out tail the forecast starts."));
    position_ = new QSpinBox;
    position_->setObjectName(QStringLiteral("forecastPosition"));
    position_->setPrefix(tr("t = "));
    position_->setToolTip(tr("The index of the first value forecast; the model reads the values before it."));
    row->addWidget(slider_, 1);
    row->addWidget(position_);
    row->addSpacing(16);
    row->addWidget(new QLabel(tr("Step:")));
    stepBox_ = new QSpinBox;
    stepBox_->setObjectName(QStringLiteral("forecastStep"));
    stepBox_->setRange(1, 1);
    stepBox_->setToolTip(tr("The forecast step whose attention is drawn under the series; or click a step."));
    row->addWidget(stepBox_);
    layout->addLayout(row);

    summary_ = new QLabel;
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    scaleFont(summary_, 1.1);
    layout->addWidget(summary_);
    placeholder_ = makePlaceholderLabel();
    placeholder_->setText(tr("Train a forecaster (Run > Start, F5) or open one: its forecast of the held-out tail and "
                             "where it looked in the history appear here, and change as it learns."));
    layout->addWidget(placeholder_, 1);
    status_ = new QLabel;
    status_->setStyleSheet(QStringLiteral("color: #b00020"));
    status_->setWordWrap(true);
    status_->hide();
    layout->addWidget(status_);

    canvas_ = new ForecastCanvas(400);
    canvas_->setObjectName(QStringLiteral("forecastCanvas"));
    canvas_->setToolTip(tr("Click a forecast step to see its attention over the history."));
    layout->addWidget(canvas_, 3);
    mapTitle_ = new QLabel(tr("<b>Cross-attention</b>: every forecast step (rows) over the history (columns), the "
                              "last layer's heads averaged; click a row to pick its step"));
    mapTitle_->setWordWrap(true);
    layout->addWidget(mapTitle_);
    heatmap_ = new HeatmapWidget;
    heatmap_->setKeepAspect(false);
    heatmap_->setFixedScale(false);
    heatmap_->setAxisTitles(tr("forecast step"), tr("history (steps from the last value read)"));
    heatmap_->setMinimumHeight(240);
    layout->addWidget(heatmap_, 2);

    connect(slider_, &QSlider::valueChanged, this, [this](int v) { setPosition(v); });
    connect(position_, &QSpinBox::valueChanged, this, [this](int v) { setPosition(v); });
    connect(stepBox_, &QSpinBox::valueChanged, this, [this](int v) { setStep(v - 1); });
    connect(canvas_, &ForecastCanvas::stepClicked, this, &ForecastView::setStep);
    connect(heatmap_, &HeatmapWidget::cellClicked, this, [this](int r, int) {
        if (r >= 0) setStep(r);
    });
    slider_->setEnabled(false);
    position_->setEnabled(false);
    clearView();
}

QString ForecastView::viewTitle() const { return tr("Forecast"); }

QString ForecastView::viewToolTip() const {
    return tr("A forecast of the held-out tail against the truth and seasonal naive, and each step's attention over "
              "the history.");
}

void ForecastView::clearView() {
    forecast_.reset();
    forecastAt_ = -1;
    modelMae_ = naiveMae_ = 0;
    summary_->clear();
    summary_->hide();
    status_->hide();
    canvas_->clear();
    canvas_->hide();
    mapTitle_->hide();
    heatmap_->clear();
    heatmap_->hide();
    placeholder_->show();
}

void ForecastView::modelAvailable(bool available) {
    if (!available) clearView();
}

void ForecastView::applyColormap(ColormapId id) { heatmap_->setColormap(id); }

void ForecastView::applyShowNumbers(bool on) { heatmap_->setShowNumbers(on); }

void ForecastView::setSeries(std::shared_ptr<const Series> series, long first, long last, int period) {
    series_ = std::move(series);
    period_ = period;
    const bool any = series_ && last >= first;
    const long keep = position();
    {
        const QSignalBlocker a(slider_), b(position_);
        slider_->setRange(static_cast<int>(any ? first : 0), static_cast<int>(any ? last : 0));
        position_->setRange(static_cast<int>(any ? first : 0), static_cast<int>(any ? last : 0));
        const long at = any && keep >= first && keep <= last ? keep : (any ? first : 0);
        slider_->setValue(static_cast<int>(at));
        position_->setValue(static_cast<int>(at));
        slider_->setPageStep(std::max(1, period > 0 ? period : 10));
    }
    slider_->setEnabled(any);
    position_->setEnabled(any);
    if (forecast_) showForecast();
}

long ForecastView::position() const { return position_->value(); }

void ForecastView::setPosition(long at) {
    const long clamped = std::clamp<long>(at, position_->minimum(), position_->maximum());
    {
        const QSignalBlocker a(slider_), b(position_);
        slider_->setValue(static_cast<int>(clamped));
        position_->setValue(static_cast<int>(clamped));
    }
    if (clamped != forecastAt_) Q_EMIT positionChanged(clamped);
}

void ForecastView::setStep(int step) {
    const int horizon = forecast_ ? static_cast<int>(forecast_->forecast.size()) : 1;
    step_ = std::clamp(step, 0, std::max(0, horizon - 1));
    {
        const QSignalBlocker block(stepBox_);
        stepBox_->setValue(step_ + 1);
    }
    if (forecast_) showForecast();
}

void ForecastView::setFailed(const QString& message) {
    status_->setText(message);
    status_->show();
}

void ForecastView::setForecast(const Forecast& forecast, long at) {
    const bool newShape = !forecast_ || forecast_->forecast.size() != forecast.forecast.size() ||
                          forecast_->history.size() != forecast.history.size();
    forecast_ = forecast;
    forecastAt_ = at;
    const int horizon = static_cast<int>(forecast.forecast.size());
    {
        const QSignalBlocker block(stepBox_);
        stepBox_->setRange(1, std::max(1, horizon));
    }
    if (step_ >= horizon) step_ = 0;
    if (at != position()) {
        const QSignalBlocker a(slider_), b(position_);
        slider_->setValue(static_cast<int>(at));
        position_->setValue(static_cast<int>(at));
    }
    status_->hide();
    placeholder_->hide();
    canvas_->show();
    const int context = static_cast<int>(forecast.history.size());
    if (newShape) heatmap_->clear();
    heatmap_->setAttention(forecast.meanCross, stepLabels(horizon), historyLabels(context));
    mapTitle_->show();
    heatmap_->show();
    showForecast();
}

ForecastPicture ForecastView::picture() const {
    ForecastPicture pic;
    if (!forecast_) return pic;
    const Forecast& f = *forecast_;
    const int H = static_cast<int>(f.forecast.size());
    const int C = static_cast<int>(f.history.size());
    pic.history = f.history;
    pic.forecast = f.forecast;
    pic.spread = f.spread;
    pic.step = std::clamp(step_, 0, std::max(0, H - 1));
    pic.period = period_;
    if (series_ && forecastAt_ >= 0)
        for (long i = forecastAt_; i < forecastAt_ + H && i < static_cast<long>(series_->values.size()); ++i)
            pic.truth.push_back(series_->values[static_cast<std::size_t>(i)]);
    if (period_ > 0 && period_ <= C) pic.naive = seasonalNaiveForecast(f.history, H, period_);
    const AttentionMap& m = f.meanCross;
    if (m.rows == H && m.cols == C && static_cast<int>(m.weights.size()) == H * C)
        pic.attention.assign(m.weights.begin() + static_cast<long>(pic.step) * C,
                             m.weights.begin() + static_cast<long>(pic.step + 1) * C);
    QString when = tr("t = %1").arg(forecastAt_);
    if (series_ && forecastAt_ >= 0 && static_cast<std::size_t>(forecastAt_) < series_->timestamps.size())
        when = QString::fromStdString(series_->timestamps[static_cast<std::size_t>(forecastAt_)]);
    pic.title = tr("%1: %2 steps forecast from %3, reading %4 values").arg(
        series_ ? QString::fromStdString(series_->name) : tr("series")).arg(H).arg(when).arg(C);
    return pic;
}

void ForecastView::showForecast() {
    if (!forecast_) return;
    const ForecastPicture pic = picture();
    canvas_->setPicture(pic);
    heatmap_->highlightToken(pic.step, -1);
    modelMae_ = meanAbsoluteError(pic.forecast, pic.truth);
    naiveMae_ = meanAbsoluteError(pic.naive, pic.truth);
    QString text;
    if (std::isfinite(modelMae_)) {
        text = tr("This forecast's mean absolute error: %1").arg(modelMae_, 0, 'g', 3);
        if (std::isfinite(naiveMae_))
            text += QStringLiteral(" · ") + tr("seasonal naive (period %1): %2").arg(period_).arg(naiveMae_, 0, 'g', 3);
    }
    const int H = static_cast<int>(pic.forecast.size());
    if (!pic.attention.empty() && pic.step < H) {
        // Where the selected step looks most.
        const auto top = std::max_element(pic.attention.begin(), pic.attention.end()) - pic.attention.begin();
        const long lag = static_cast<long>(pic.history.size()) - top + pic.step;
        if (!text.isEmpty()) text += QStringLiteral(" · ");
        text += tr("step %1 looks most at lag %2").arg(pic.step + 1).arg(lag);
        if (period_ > 0) text += tr(" (%1 periods)").arg(static_cast<double>(lag) / period_, 0, 'f', 2);
    }
    summary_->setText(text);
    summary_->setVisible(!text.isEmpty());
}

bool ForecastView::exportView(const QString& path, double scale, QString* error) const {
    if (!forecast_) return fail(error, tr("there is no forecast to export yet: train or open a forecaster first"));
    const std::optional<ExportFormat> format = FigureWriter::formatForPath(path);
    if (format == ExportFormat::Csv || format == ExportFormat::Npy)
        return FigureWriter::report(
            FigureWriter::writeMatrix(path, forecast_->meanCross, stepLabels(static_cast<int>(forecast_->forecast.size())),
                                      historyLabels(static_cast<int>(forecast_->history.size()))),
            error);
    return FigureWriter::report(FigureWriter::write(path, ForecastPlot::figure(picture(), QSize(1100, 600)), scale), error);
}

}  // namespace attnlab
