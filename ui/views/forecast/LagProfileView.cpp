#include "views/forecast/LagProfileView.h"

#include "widgets/HeatmapWidget.h"
#include "widgets/WidgetStyle.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

#include <cmath>

namespace attnlab {

LagProfileView::LagProfileView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    summary_ = new QLabel;
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    scaleFont(summary_, 1.15);
    layout->addWidget(summary_);
    placeholder_ = makePlaceholderLabel();
    placeholder_->setText(tr("Train a forecaster: after every epoch, how far back its attention looks appears here, "
                             "with the period marked."));
    layout->addWidget(placeholder_, 1);
    canvas_ = new ForecastCanvas(340);
    canvas_->setObjectName(QStringLiteral("lagProfileCanvas"));
    layout->addWidget(canvas_, 3);
    auto* row = new QHBoxLayout;
    sliderLabel_ = new QLabel;
    slider_ = new QSlider(Qt::Horizontal);
    slider_->setObjectName(QStringLiteral("lagProfileEpoch"));
    slider_->setToolTip(tr("The epoch whose profile is drawn; the newest is followed while training."));
    row->addWidget(sliderLabel_);
    row->addWidget(slider_, 1);
    layout->addLayout(row);
    timelineTitle_ = new QLabel(tr("<b>The profile forming</b>: one row per epoch, lags left to right"));
    layout->addWidget(timelineTitle_);
    timeline_ = new HeatmapWidget;
    timeline_->setKeepAspect(false);
    timeline_->setAxisTitles(tr("epoch"), tr("lag"));
    timeline_->setMinimumHeight(200);
    layout->addWidget(timeline_, 2);
    connect(slider_, &QSlider::valueChanged, this, [this](int v) { showEpoch(v); });
    connect(timeline_, &HeatmapWidget::cellClicked, this, [this](int r, int) {
        if (r >= 0) showEpoch(r);
    });
    clearView();
}

QString LagProfileView::viewTitle() const { return tr("Lag profile"); }

QString LagProfileView::viewToolTip() const {
    return tr("How far back the forecast steps look: attention against lag after every epoch, with the period "
              "marked.");
}

void LagProfileView::runStarted() {
    profiles_.clear();
    ratios_.clear();
    epochNumbers_.clear();
    shown_ = -1;
    forecastProfile_.reset();
    forecastRatio_ = 0;
    timeline_->clear();
    refresh();
}

void LagProfileView::clearView() { runStarted(); }

void LagProfileView::applyColormap(ColormapId id) { timeline_->setColormap(id); }

void LagProfileView::setShape(int context, int horizon, int period) {
    context_ = context;
    horizon_ = horizon;
    period_ = period;
    refresh();
}

void LagProfileView::addEpoch(const ForecastEpochMetrics& m) {
    if (m.lagProfile.size() < 2) return;
    const bool following = shown_ < 0 || shown_ == epochs() - 1;
    profiles_.push_back(m.lagProfile);
    ratios_.push_back(m.periodMassRatio);
    epochNumbers_.push_back(m.epoch);
    if (following) shown_ = epochs() - 1;
    QStringList rows;
    for (int e : epochNumbers_) rows << tr("epoch %1").arg(e);
    QStringList lags;
    for (std::size_t l = 1; l < profiles_.back().size(); ++l) lags << QString::number(l);
    timeline_->setAttention(timelineMap(), rows, lags);
    refresh();
}

AttentionMap LagProfileView::timelineMap() const {
    AttentionMap m;
    if (profiles_.empty()) return m;
    const std::size_t lags = profiles_.back().size() - 1;
    m.rows = static_cast<int>(profiles_.size());
    m.cols = static_cast<int>(lags);
    for (const std::vector<double>& p : profiles_)
        for (std::size_t l = 1; l <= lags; ++l) m.weights.push_back(l < p.size() ? static_cast<float>(p[l]) : 0.0f);
    return m;
}

void LagProfileView::setForecast(const Forecast& f) {
    forecastProfile_ = f.lagProfile;
    const int H = f.meanCross.rows, C = f.meanCross.cols;
    forecastRatio_ = period_ > 0 ? periodicMass(f.meanCross.weights, H, C, period_).ratio() : 0.0;
    if (context_ == 0) {
        context_ = C;
        horizon_ = H;
    }
    refresh();
}

void LagProfileView::showEpoch(int index) {
    if (profiles_.empty()) return;
    shown_ = std::clamp(index, 0, epochs() - 1);
    refresh();
}

void LagProfileView::refresh() {
    const bool hasEpochs = !profiles_.empty();
    const bool hasForecast = forecastProfile_ && forecastProfile_->size() >= 2;
    placeholder_->setVisible(!hasEpochs && !hasForecast);
    canvas_->setVisible(hasEpochs || hasForecast);
    for (QWidget* w : {static_cast<QWidget*>(slider_), static_cast<QWidget*>(sliderLabel_),
                       static_cast<QWidget*>(timelineTitle_), static_cast<QWidget*>(timeline_)})
        w->setVisible(hasEpochs);
    if (!hasEpochs && !hasForecast) {
        canvas_->clear();
        summary_->clear();
        summary_->hide();
        return;
    }
    LagPicture pic;
    pic.period = period_;
    QString text;
    if (hasEpochs) {
        {
            const QSignalBlocker block(slider_);
            slider_->setRange(0, epochs() - 1);
            slider_->setValue(shown_);
        }
        const int epoch = epochNumbers_[static_cast<std::size_t>(shown_)];
        sliderLabel_->setText(tr("Epoch %1 of %2").arg(epoch).arg(epochNumbers_.back()));
        pic.profile = profiles_[static_cast<std::size_t>(shown_)];
        pic.profileName = tr("held-out windows' mean, epoch %1").arg(epoch);
        const double ratio = ratios_[static_cast<std::size_t>(shown_)];
        pic.title = tr("Attention against lag after epoch %1: period-mass ratio %2").arg(epoch).arg(ratio, 0, 'f', 2);
        text = tr("Epoch %1: the attention on points a whole number of periods back is %2 times their share of the "
                  "history (1 = uniform)")
                   .arg(epoch)
                   .arg(ratio, 0, 'f', 2);
        timeline_->highlightToken(shown_, -1);
        if (hasForecast) {
            pic.overlay = *forecastProfile_;
            pic.overlayName = tr("the forecast shown");
        }
    } else {
        pic.profile = *forecastProfile_;
        pic.profileName = tr("the forecast shown");
        pic.title = tr("Attention against lag of the forecast shown: period-mass ratio %1").arg(forecastRatio_, 0, 'f', 2);
        text = tr("The forecast shown puts %1 times their share of the history on points a whole number of periods "
                  "back (1 = uniform)")
                   .arg(forecastRatio_, 0, 'f', 2);
    }
    if (period_ <= 0) {
        text = tr("No period: none was given and none was found in the training part.");
        pic.title = tr("Attention against lag");
    }
    if (context_ > 0 && horizon_ > 0 &&
        static_cast<int>(pic.profile.size()) == context_ + horizon_)
        pic.uniform = ForecastPlot::uniformLagProfile(horizon_, context_);
    canvas_->setPicture(pic);
    summary_->setText(text);
    summary_->show();
}

bool LagProfileView::exportView(const QString& path, double scale, QString* error) const {
    if (!canvas_->hasPicture()) return fail(error, tr("there is no lag profile to export yet: train a forecaster first"));
    const std::optional<ExportFormat> format = FigureWriter::formatForPath(path);
    if (format == ExportFormat::Csv || format == ExportFormat::Npy) {
        QStringList rows, lags;
        AttentionMap m;
        if (!profiles_.empty()) {
            m = timelineMap();
            for (int e : epochNumbers_) rows << tr("epoch %1").arg(e);
        } else {
            m.rows = 1;
            m.cols = static_cast<int>(forecastProfile_->size()) - 1;
            for (std::size_t l = 1; l < forecastProfile_->size(); ++l)
                m.weights.push_back(static_cast<float>((*forecastProfile_)[l]));
            rows << tr("the forecast shown");
        }
        for (int l = 1; l <= m.cols; ++l) lags << QString::number(l);
        return FigureWriter::report(FigureWriter::writeMatrix(path, m, rows, lags), error);
    }
    return FigureWriter::report(FigureWriter::write(path, ForecastPlot::figure(canvas_->lagPicture(), QSize(1100, 520)), scale),
                                error);
}

}  // namespace attnlab
