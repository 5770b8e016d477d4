#include "views/forecast/ForecastPlot.h"

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPen>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

const QColor kText(0x1a, 0x1a, 0x1a);
const QColor kGrid(0xe3, 0xe3, 0xe3);
const QColor kHistory(0x1f, 0x77, 0xb4);
const QColor kTruth(0x33, 0x33, 0x33);
using forecast_colors::kForecast;
using forecast_colors::kNaive;
const QColor kAttention(0x75, 0x4f, 0xa8);
using forecast_colors::kPeriod;
const QColor kTail(0xf6, 0xf1, 0xea);

constexpr double kLeft = 64, kRight = 18, kTop = 70, kBottom = 34, kGap = 30;

// A tick step of 1, 2, 5 times a power of ten giving at most `most` intervals over `span`.
double niceStep(double span, int most) {
    if (!(span > 0)) return 1.0;
    const double raw = span / most;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double f : {1.0, 2.0, 5.0, 10.0})
        if (f * power >= raw) return f * power;
    return 10.0 * power;
}

QString number(double v, double step) {
    int decimals = 0;
    while (decimals < 4 && std::abs(step * std::pow(10.0, decimals) - std::round(step * std::pow(10.0, decimals))) > 1e-6)
        ++decimals;
    return QString::number(v, 'f', decimals);
}

void legendItem(QPainter& p, QPointF& at, const QColor& color, const QString& text, bool dashed, bool band) {
    const QFontMetricsF fm(p.font());
    const double y = at.y();
    if (band) {
        QColor fill = color;
        fill.setAlpha(70);
        p.fillRect(QRectF(at.x(), y - 5, 22, 10), fill);
    }
    QPen pen(color, dashed ? 1.6 : 2.4);
    if (dashed) pen.setStyle(Qt::DashLine);
    p.setPen(pen);
    p.drawLine(QPointF(at.x(), y), QPointF(at.x() + 22, y));
    p.setPen(kText);
    p.drawText(QPointF(at.x() + 27, y + fm.ascent() / 2 - 1), text);
    at.rx() += 27 + fm.horizontalAdvance(text) + 18;
}

void drawTitle(QPainter& p, const QRectF& rect, const QString& title) {
    QFont bold = p.font();
    bold.setBold(true);
    p.save();
    p.setFont(bold);
    p.setPen(kText);
    p.drawText(QRectF(rect.left() + kLeft, rect.top() + 4, rect.width() - kLeft - kRight, 20),
               Qt::AlignLeft | Qt::AlignVCenter, title);
    p.restore();
}

void drawYAxis(QPainter& p, const QRectF& area, double low, double high, const QString& title) {
    const QFontMetricsF fm(p.font());
    const double step = niceStep(high - low, 4);
    p.setPen(QPen(kGrid, 1));
    for (double v = std::ceil(low / step) * step; v <= high + 1e-9; v += step) {
        const double y = area.bottom() - (v - low) / (high - low) * area.height();
        p.setPen(QPen(kGrid, 1));
        p.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
        p.setPen(kText);
        const QString label = number(v, step);
        p.drawText(QPointF(area.left() - 6 - fm.horizontalAdvance(label), y + fm.ascent() / 2 - 1), label);
    }
    if (!title.isEmpty()) {
        p.save();
        p.setPen(kText);
        p.translate(area.left() - kLeft + 12, area.center().y());
        p.rotate(-90);
        p.drawText(QRectF(-area.height() / 2, -10, area.height(), 20), Qt::AlignCenter, title);
        p.restore();
    }
}

struct ForecastGeometry {
    QRectF series, attention;
    int columns = 0;  // C + H
    int context = 0;
    double xAt(int column) const { return series.left() + (column + 0.5) * series.width() / columns; }
    double columnWidth() const { return series.width() / columns; }
};

ForecastGeometry geometryOf(const QRectF& rect, const ForecastPicture& pic) {
    ForecastGeometry g;
    g.context = static_cast<int>(pic.history.size());
    g.columns = g.context + static_cast<int>(pic.forecast.size());
    const QRectF inner(rect.left() + kLeft, rect.top() + kTop, rect.width() - kLeft - kRight,
                       rect.height() - kTop - kBottom);
    const bool bars = !pic.attention.empty();
    const double seriesHeight = bars ? (inner.height() - kGap) * 0.68 : inner.height();
    g.series = QRectF(inner.left(), inner.top(), inner.width(), seriesHeight);
    g.attention = bars ? QRectF(inner.left(), g.series.bottom() + kGap, inner.width(), inner.height() - seriesHeight - kGap)
                       : QRectF();
    return g;
}

}  // namespace

std::vector<double> ForecastPlot::uniformLagProfile(int horizon, int context) {
    std::vector<double> u(static_cast<std::size_t>(std::max(0, context + horizon)), 0.0);
    if (horizon <= 0 || context <= 0) return u;
    for (int h = 0; h < horizon; ++h)
        for (int c = 0; c < context; ++c) u[static_cast<std::size_t>(context - c + h)] += 1.0 / context / horizon;
    return u;
}

int ForecastPlot::stepAt(const QRectF& rect, const ForecastPicture& pic, double x) {
    if (pic.empty()) return -1;
    const ForecastGeometry g = geometryOf(rect, pic);
    const int column = static_cast<int>(std::floor((x - g.series.left()) / g.columnWidth()));
    const int step = column - g.context;
    return step >= 0 && step < static_cast<int>(pic.forecast.size()) ? step : -1;
}

void ForecastPlot::paint(QPainter& p, const QRectF& rect, const ForecastPicture& pic) {
    p.save();
    p.fillRect(rect, Qt::white);
    p.setRenderHint(QPainter::Antialiasing);
    if (pic.empty()) {
        p.restore();
        return;
    }
    const ForecastGeometry g = geometryOf(rect, pic);
    const int C = g.context, H = static_cast<int>(pic.forecast.size());
    const int step = std::clamp(pic.step, 0, H - 1);
    drawTitle(p, rect, pic.title);

    // The value range over everything drawn.
    double low = INFINITY, high = -INFINITY;
    auto cover = [&](double v) {
        if (!std::isfinite(v)) return;
        low = std::min(low, v);
        high = std::max(high, v);
    };
    for (double v : pic.history) cover(v);
    for (double v : pic.truth) cover(v);
    for (double v : pic.naive) cover(v);
    for (int h = 0; h < H; ++h) {
        const double s = h < static_cast<int>(pic.spread.size()) ? pic.spread[static_cast<std::size_t>(h)] : 0.0;
        cover(pic.forecast[static_cast<std::size_t>(h)] - s);
        cover(pic.forecast[static_cast<std::size_t>(h)] + s);
    }
    if (!(high > low)) {
        low -= 1;
        high += 1;
    }
    const double pad = (high - low) * 0.06;
    low -= pad;
    high += pad;
    const QRectF& s = g.series;
    auto yAt = [&](double v) { return s.bottom() - (v - low) / (high - low) * s.height(); };

    // The forecast region, the grid, the origin.
    p.fillRect(QRectF(g.xAt(C) - g.columnWidth() / 2, s.top(), s.right() - g.xAt(C) + g.columnWidth() / 2, s.height()),
               kTail);
    drawYAxis(p, s, low, high, tr("value"));
    QColor selected = kForecast;
    selected.setAlpha(40);
    p.fillRect(QRectF(g.xAt(C + step) - g.columnWidth() / 2, s.top(), g.columnWidth(), s.height()), selected);

    // The points a whole number of periods before the selected step, through both panels.
    if (pic.period > 0) {
        QPen pen(kPeriod, 1.2, Qt::DashLine);
        const QFontMetricsF fm(p.font());
        for (int k = 1; C + step - k * pic.period >= 0; ++k) {
            const double x = g.xAt(C + step - k * pic.period);
            const double bottom = g.attention.isNull() ? s.bottom() : g.attention.bottom();
            p.setPen(pen);
            p.drawLine(QPointF(x, s.top()), QPointF(x, bottom));
            p.setPen(kPeriod);
            const QString label = tr("%1P").arg(k);
            p.drawText(QPointF(x - fm.horizontalAdvance(label) / 2, s.top() - 5), label);
        }
    }

    // The error band, then the lines.
    if (static_cast<int>(pic.spread.size()) == H) {
        QPainterPath band;
        for (int h = 0; h < H; ++h) {
            const QPointF pt(g.xAt(C + h), yAt(pic.forecast[static_cast<std::size_t>(h)] + pic.spread[static_cast<std::size_t>(h)]));
            if (h == 0) band.moveTo(pt); else band.lineTo(pt);
        }
        for (int h = H - 1; h >= 0; --h)
            band.lineTo(QPointF(g.xAt(C + h), yAt(pic.forecast[static_cast<std::size_t>(h)] - pic.spread[static_cast<std::size_t>(h)])));
        band.closeSubpath();
        QColor fill = kForecast;
        fill.setAlpha(60);
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawPath(band);
        p.setBrush(Qt::NoBrush);
    }
    auto polyline = [&](const std::vector<double>& values, int firstColumn, const QPen& pen, double dot,
                        const QPointF* from) {
        QPainterPath path;
        bool started = false;
        if (from) {
            path.moveTo(*from);
            started = true;
        }
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (!std::isfinite(values[i])) continue;
            const QPointF pt(g.xAt(firstColumn + static_cast<int>(i)), yAt(values[i]));
            if (!started) {
                path.moveTo(pt);
                started = true;
            } else {
                path.lineTo(pt);
            }
        }
        p.setPen(pen);
        p.drawPath(path);
        if (dot > 0) {
            p.setBrush(pen.color());
            for (std::size_t i = 0; i < values.size(); ++i)
                if (std::isfinite(values[i]))
                    p.drawEllipse(QPointF(g.xAt(firstColumn + static_cast<int>(i)), yAt(values[i])), dot, dot);
            p.setBrush(Qt::NoBrush);
        }
    };
    const QPointF last(g.xAt(C - 1), yAt(pic.history.back()));
    polyline(pic.history, 0, QPen(kHistory, 1.6), 0, nullptr);
    if (!pic.truth.empty()) polyline(pic.truth, C, QPen(kTruth, 1.4), 2.2, &last);
    if (static_cast<int>(pic.naive.size()) == H) polyline(pic.naive, C, QPen(kNaive, 1.6, Qt::DashLine), 0, &last);
    polyline(pic.forecast, C, QPen(kForecast, 2.4), 2.8, &last);
    p.setPen(QPen(kForecast, 1.5));
    p.setBrush(Qt::white);
    p.drawEllipse(QPointF(g.xAt(C + step), yAt(pic.forecast[static_cast<std::size_t>(step)])), 5, 5);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(0x99, 0x99, 0x99), 1));
    p.drawRect(s);

    // The selected step's attention over the history, as bars under the series.
    if (!g.attention.isNull()) {
        const QRectF& a = g.attention;
        double top = 0;
        for (float w : pic.attention) top = std::max(top, static_cast<double>(w));
        if (!(top > 0)) top = 1;
        top = niceStep(top, 4) * std::ceil(top / niceStep(top, 4) - 1e-9);
        drawYAxis(p, a, 0.0, top, tr("attention"));
        p.setPen(Qt::NoPen);
        p.setBrush(kAttention);
        const double w = std::max(1.0, g.columnWidth() * 0.8);
        for (int c = 0; c < C && c < static_cast<int>(pic.attention.size()); ++c) {
            const double v = pic.attention[static_cast<std::size_t>(c)];
            const double height = v / top * a.height();
            p.drawRect(QRectF(g.xAt(c) - w / 2, a.bottom() - height, w, height));
        }
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(QColor(0x99, 0x99, 0x99), 1));
        p.drawRect(a);
        p.setPen(kText);
        p.drawText(QRectF(a.left() + 6, a.top() + 2, a.width() - 12, 18), Qt::AlignLeft | Qt::AlignTop,
                   tr("cross-attention of step %1 over the history").arg(step + 1));
    }

    // The x axis: offsets from the last history point.
    {
        const QFontMetricsF fm(p.font());
        const QRectF& bottomPanel = g.attention.isNull() ? s : g.attention;
        const double tick = std::max(1.0, niceStep(g.columns, 12));
        p.setPen(kText);
        for (int offset = static_cast<int>(std::ceil((1 - C) / tick) * tick); offset <= H; offset += static_cast<int>(tick)) {
            const int column = offset + C - 1;
            if (column < 0 || column >= g.columns) continue;
            const double x = g.xAt(column);
            const QString label = offset > 0 ? QStringLiteral("+%1").arg(offset) : QString::number(offset);
            p.drawLine(QPointF(x, bottomPanel.bottom()), QPointF(x, bottomPanel.bottom() + 4));
            p.drawText(QPointF(x - fm.horizontalAdvance(label) / 2, bottomPanel.bottom() + 6 + fm.ascent()), label);
        }
        const QString axis = tr("steps from the last value read (0); the forecast is +1 … +%1").arg(H);
        p.drawText(QRectF(rect.left() + kLeft, rect.bottom() - 16, rect.width() - kLeft - kRight, 16),
                   Qt::AlignRight | Qt::AlignVCenter, axis);
    }

    // The legend, above the series.
    QPointF at(rect.left() + kLeft, rect.top() + 38);
    legendItem(p, at, kHistory, tr("history"), false, false);
    if (!pic.truth.empty()) legendItem(p, at, kTruth, tr("truth"), false, false);
    legendItem(p, at, kForecast, static_cast<int>(pic.spread.size()) == H ? tr("forecast ± validation RMSE") : tr("forecast"),
               false, static_cast<int>(pic.spread.size()) == H);
    if (static_cast<int>(pic.naive.size()) == H) legendItem(p, at, kNaive, tr("seasonal naive"), true, false);
    if (pic.period > 0) legendItem(p, at, kPeriod, tr("whole periods back (P = %1)").arg(pic.period), true, false);
    p.restore();
}

void ForecastPlot::paint(QPainter& p, const QRectF& rect, const LagPicture& pic) {
    p.save();
    p.fillRect(rect, Qt::white);
    p.setRenderHint(QPainter::Antialiasing);
    if (pic.empty()) {
        p.restore();
        return;
    }
    drawTitle(p, rect, pic.title);
    const int lags = static_cast<int>(pic.profile.size()) - 1;  // 1 .. lags
    const QRectF a(rect.left() + kLeft, rect.top() + kTop, rect.width() - kLeft - kRight, rect.height() - kTop - kBottom);
    double top = 0;
    for (const auto* v : {&pic.profile, &pic.uniform, &pic.overlay})
        for (std::size_t i = 1; i < v->size(); ++i) top = std::max(top, (*v)[i]);
    if (!(top > 0)) top = 1;
    top = niceStep(top, 4) * std::ceil(top / niceStep(top, 4) - 1e-9);
    drawYAxis(p, a, 0.0, top, tr("share of attention"));
    const double cw = a.width() / lags;
    auto xAt = [&](int lag) { return a.left() + (lag - 0.5) * cw; };
    auto yAt = [&](double v) { return a.bottom() - v / top * a.height(); };

    // The period and its multiples.
    const QFontMetricsF fm(p.font());
    if (pic.period > 0) {
        for (int k = 1; k * pic.period <= lags; ++k) {
            const double x = xAt(k * pic.period);
            p.setPen(QPen(kPeriod, 1.2, Qt::DashLine));
            p.drawLine(QPointF(x, a.top()), QPointF(x, a.bottom()));
            p.setPen(kPeriod);
            const QString label = k == 1 ? tr("P = %1").arg(pic.period) : tr("%1P").arg(k);
            p.drawText(QPointF(x - fm.horizontalAdvance(label) / 2, a.top() - 5), label);
        }
    }
    p.setPen(Qt::NoPen);
    p.setBrush(kAttention);
    const double w = std::max(1.0, cw * 0.8);
    for (int lag = 1; lag <= lags; ++lag) {
        const double v = pic.profile[static_cast<std::size_t>(lag)];
        if (!std::isfinite(v)) continue;
        p.drawRect(QRectF(xAt(lag) - w / 2, yAt(v), w, a.bottom() - yAt(v)));
    }
    p.setBrush(Qt::NoBrush);
    auto line = [&](const std::vector<double>& values, const QPen& pen) {
        if (values.size() < 2) return;
        QPainterPath path;
        for (int lag = 1; lag < static_cast<int>(values.size()) && lag <= lags; ++lag) {
            const QPointF pt(xAt(lag), yAt(values[static_cast<std::size_t>(lag)]));
            if (lag == 1) path.moveTo(pt); else path.lineTo(pt);
        }
        p.setPen(pen);
        p.drawPath(path);
    };
    line(pic.uniform, QPen(kNaive, 1.6, Qt::DashLine));
    line(pic.overlay, QPen(kForecast, 1.8));
    p.setPen(QPen(QColor(0x99, 0x99, 0x99), 1));
    p.drawRect(a);

    // The lag axis.
    p.setPen(kText);
    const double tick = std::max(1.0, niceStep(lags, 12));
    for (int lag = static_cast<int>(tick); lag <= lags; lag += static_cast<int>(tick)) {
        const double x = xAt(lag);
        const QString label = QString::number(lag);
        p.drawLine(QPointF(x, a.bottom()), QPointF(x, a.bottom() + 4));
        p.drawText(QPointF(x - fm.horizontalAdvance(label) / 2, a.bottom() + 6 + fm.ascent()), label);
    }
    p.drawText(QRectF(rect.left() + kLeft, rect.bottom() - 16, rect.width() - kLeft - kRight, 16),
               Qt::AlignRight | Qt::AlignVCenter, tr("lag: steps between a forecast step and the history point it reads"));

    QPointF at(rect.left() + kLeft, rect.top() + 38);
    {
        // The bars' legend entry is a filled square.
        p.fillRect(QRectF(at.x() + 6, at.y() - 5, 10, 10), kAttention);
        p.setPen(kText);
        p.drawText(QPointF(at.x() + 27, at.y() + fm.ascent() / 2 - 1), pic.profileName);
        at.rx() += 27 + fm.horizontalAdvance(pic.profileName) + 18;
    }
    if (pic.uniform.size() >= 2) legendItem(p, at, kNaive, tr("uniform attention"), true, false);
    if (pic.overlay.size() >= 2) legendItem(p, at, kForecast, pic.overlayName, false, false);
    if (pic.period > 0) legendItem(p, at, kPeriod, tr("multiples of the period"), true, false);
    p.restore();
}

Figure ForecastPlot::figure(const ForecastPicture& picture, QSize size) {
    Figure f;
    f.size = size;
    f.title = picture.title;
    f.paint = [picture](QPainter& p, const QRectF& r) { paint(p, r, picture); };
    return f;
}

Figure ForecastPlot::figure(const LagPicture& picture, QSize size) {
    Figure f;
    f.size = size;
    f.title = picture.title;
    f.paint = [picture](QPainter& p, const QRectF& r) { paint(p, r, picture); };
    return f;
}

// ---- ForecastCanvas ------------------------------------------------------------------------------

ForecastCanvas::ForecastCanvas(int minimumHeight, QWidget* parent) : QWidget(parent) {
    setMinimumHeight(minimumHeight);
    setMinimumWidth(480);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ForecastCanvas::setPicture(const ForecastPicture& picture) {
    forecast_ = picture;
    kind_ = Kind::Forecast;
    update();
}

void ForecastCanvas::setPicture(const LagPicture& picture) {
    lag_ = picture;
    kind_ = Kind::Lag;
    update();
}

void ForecastCanvas::clear() {
    forecast_ = ForecastPicture();
    lag_ = LagPicture();
    kind_ = Kind::None;
    update();
}

bool ForecastCanvas::hasPicture() const {
    return (kind_ == Kind::Forecast && !forecast_.empty()) || (kind_ == Kind::Lag && !lag_.empty());
}

void ForecastCanvas::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::TextAntialiasing);
    if (kind_ == Kind::Forecast)
        ForecastPlot::paint(painter, QRectF(rect()), forecast_);
    else if (kind_ == Kind::Lag)
        ForecastPlot::paint(painter, QRectF(rect()), lag_);
}

void ForecastCanvas::mousePressEvent(QMouseEvent* event) {
    if (kind_ != Kind::Forecast) return;
    const int step = ForecastPlot::stepAt(QRectF(rect()), forecast_, event->position().x());
    if (step >= 0) Q_EMIT stepClicked(step);
}

}  // namespace attnlab
