#pragma once
// The pictures of the forecasting views, painted onto any QPainter (the screen and FigureWriter's
// PNG, SVG and PDF share them), from plain values:
//   ForecastPicture  the history and, past the forecast origin, the truth, the forecast with its
//                    error band (the validation RMSE of each step), the seasonal naive forecast; under
//                    the series, the selected step's cross-attention over the history as bars, with
//                    the points a whole number of periods before the step marked (1P, 2P, ...).
//   LagPicture       attention mass against lag (bars), with the uniform weights' mass beside it, an
//                    optional second profile as a line, and the period and its multiples marked.
// ForecastCanvas draws either at the widget's size and reports clicks on a forecast step.
// x offsets: the last history point is 0, history -C+1..0, forecast steps 1..H (a step h, 0-based,
// is offset h + 1; the lag of history point c from step h is (C - c) + h).
#include "render/FigureWriter.h"

#include <QColor>
#include <QCoreApplication>
#include <QString>
#include <QWidget>

#include <functional>
#include <vector>

class QPainter;
class QRectF;

namespace attnlab {

// The colours the forecasting views share: the forecast, the seasonal naive baseline, the period.
namespace forecast_colors {
inline const QColor kForecast(0xd6, 0x5f, 0x00);
inline const QColor kNaive(0x8c, 0x8c, 0x8c);
inline const QColor kPeriod(0x2c, 0x8a, 0x2c);
}  // namespace forecast_colors

struct ForecastPicture {
    std::vector<double> history;   // C
    std::vector<double> truth;     // the values at the forecast steps, if known (at most H)
    std::vector<double> forecast;  // H
    std::vector<double> spread;    // H, or empty
    std::vector<double> naive;     // the seasonal naive forecast (H), or empty
    std::vector<float> attention;  // the selected step's cross-attention over the history (C), or empty
    int step = 0;                  // the selected forecast step, 0-based
    int period = 0;                // marked when > 0
    QString title;
    bool empty() const { return history.empty() || forecast.empty(); }
};

struct LagPicture {
    std::vector<double> profile;  // index = lag (0 unused), 1 .. C + H - 1
    std::vector<double> uniform;  // what uniform attention gives at each lag, or empty
    std::vector<double> overlay;  // a second profile drawn as a line, or empty
    QString profileName;          // the legend's words for the bars
    QString overlayName;
    int period = 0;
    QString title;
    bool empty() const { return profile.size() < 2; }
};

class ForecastPlot {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ForecastPlot)
public:
    static void paint(QPainter& painter, const QRectF& rect, const ForecastPicture& picture);
    static void paint(QPainter& painter, const QRectF& rect, const LagPicture& picture);
    // The forecast step (0-based) whose column holds x, or -1.
    static int stepAt(const QRectF& rect, const ForecastPicture& picture, double x);
    static Figure figure(const ForecastPicture& picture, QSize size);
    static Figure figure(const LagPicture& picture, QSize size);
    // What uniform weights over the history give at each lag (lagProfile's indexing).
    static std::vector<double> uniformLagProfile(int horizon, int context);
};

// Paints a ForecastPicture or a LagPicture at its own size; a click on a forecast step: stepClicked.
class ForecastCanvas : public QWidget {
    Q_OBJECT
public:
    explicit ForecastCanvas(int minimumHeight, QWidget* parent = nullptr);
    void setPicture(const ForecastPicture& picture);
    void setPicture(const LagPicture& picture);
    void clear();
    bool hasPicture() const;
    const ForecastPicture& forecastPicture() const { return forecast_; }
    const LagPicture& lagPicture() const { return lag_; }
    QSize sizeHint() const override { return {760, minimumHeight()}; }

Q_SIGNALS:
    void stepClicked(int step);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    enum class Kind { None, Forecast, Lag };
    Kind kind_ = Kind::None;
    ForecastPicture forecast_;
    LagPicture lag_;
};

}  // namespace attnlab
