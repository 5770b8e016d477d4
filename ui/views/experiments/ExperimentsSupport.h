#pragma once
// Internal to views/experiments/: constants and small widget helpers that ExperimentsView.cpp (runs,
// charts, export) and ExperimentsPages.cpp (the two pages' forms) share.
#include "widgets/ChartStyle.h"
#include "session/ExperimentRunner.h"
#include "render/HeatmapRenderer.h"
#include "widgets/WidgetStyle.h"

#include "base/translation/Datasets.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFormLayout>
#include <QGraphicsLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnlab::experiments_detail {

// The GRU attentions a bottleneck run can compare, in the order of the form and the legend.
inline const char* const kAttentions[] = {"none", "dot", "general", "scaled-dot", "additive", "local-m", "local-p"};
inline const char* const kMethods[] = {"full", "local", "strided", "chunked", "linear"};

// CPU seconds per (token of length x pair x epoch x training x hidden^1.5), from runs measured on the
// 2-core development machine: the classroom preset took 105 s; hidden-64 runs of 18 s and 47 s are
// predicted within 25%. The full default run is predicted at 5 minutes (it took 8.6 under load).
inline constexpr double kSecondsPerUnit = 105.0 / (65.0 * 2000 * 6 * 2 * 1448.15);

inline QColor attentionColor(const QString& name) {
    static const QMap<QString, QColor> colors{
        {QStringLiteral("none"), QColor(0xd6, 0x27, 0x28)},    {QStringLiteral("dot"), QColor(0xff, 0x7f, 0x0e)},
        {QStringLiteral("general"), QColor(0x2c, 0xa0, 0x2c)}, {QStringLiteral("scaled-dot"), QColor(0x94, 0x67, 0xbd)},
        {QStringLiteral("additive"), QColor(0x1f, 0x77, 0xb4)}, {QStringLiteral("local-m"), QColor(0x8c, 0x56, 0x4b)},
        {QStringLiteral("local-p"), QColor(0xe3, 0x77, 0xc2)},
    };
    return colors.value(name, Qt::black);
}

inline QColor methodColor(const QString& method) {
    if (method == QLatin1String("full")) return QColor(0xd6, 0x27, 0x28);
    if (method == QLatin1String("local")) return QColor(0x2c, 0xa0, 0x2c);
    if (method == QLatin1String("strided")) return QColor(0xff, 0x7f, 0x0e);
    if (method == QLatin1String("chunked")) return QColor(0x94, 0x67, 0xbd);
    return QColor(0x1f, 0x77, 0xb4);
}

// A progress bar (per mille) beside the line that says what is being done.
inline QHBoxLayout* makeProgressRow(QProgressBar** bar, QLabel** message) {
    auto* row = new QHBoxLayout;
    *bar = new QProgressBar;
    (*bar)->setRange(0, 1000);
    (*bar)->setFormat(QStringLiteral("%p%"));
    (*bar)->setFixedWidth(220);
    *message = new QLabel;
    (*message)->setWordWrap(true);
    row->addWidget(*bar);
    row->addWidget(*message, 1);
    return row;
}

inline QLineSeries* makeSeries(const QString& name, const QColor& color) {
    auto* series = new QLineSeries;
    series->setName(name);
    QPen pen(color);
    pen.setWidthF(2.6);
    pen.setCapStyle(Qt::RoundCap);
    pen.setJoinStyle(Qt::RoundJoin);
    series->setPen(pen);
    series->setPointsVisible(false);  // the dots are a scatter series: QLineSeries clips its end markers
    return series;
}

inline QLabel* explanation(const QString& text) {
    auto* label = new QLabel(text);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    scaleFont(label, 1.08);
    return label;
}

// "5, 10, 20" or "5 10 20" -> {5, 10, 20}; *error names the bad item.
inline std::vector<int> parseLengths(const QString& text, QString* error) {
    std::vector<int> lengths;
    const QStringList items = text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    for (const QString& item : items) {
        bool ok = false;
        const int v = item.toInt(&ok);
        if (!ok || v < 1 || v > 200) {
            *error = ExperimentsView::tr("lengths: '%1' is not a length between 1 and 200").arg(item);
            return {};
        }
        lengths.push_back(v);
    }
    if (lengths.empty()) *error = ExperimentsView::tr("lengths: give at least one sentence length, e.g. 5, 10, 20");
    return lengths;
}

inline QString lengthsText(const std::vector<int>& lengths) {
    QStringList items;
    for (int v : lengths) items << QString::number(v);
    return items.join(QStringLiteral(", "));
}

inline QString formatDuration(double seconds) {
    const long long s = std::llround(seconds);
    if (s < 60) return ExperimentsView::tr("%1 s").arg(s);
    return ExperimentsView::tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

inline QString slopeText(double slope) {
    return std::isfinite(slope) ? QString::number(slope, 'f', 1) : QStringLiteral("–");
}

inline void fillPowersOfTwo(QComboBox* box, int from, int to) {
    for (int n = from; n <= to; n *= 2) box->addItem(QString::number(n), n);
}

inline void selectData(QComboBox* box, int value) {
    int best = 0;
    for (int i = 0; i < box->count(); ++i)
        if (std::abs(box->itemData(i).toInt() - value) < std::abs(box->itemData(best).toInt() - value)) best = i;
    box->setCurrentIndex(best);
}

inline void setErrorStyle(QLabel* label, bool error) {
    label->setStyleSheet(error ? QStringLiteral("color: #b01c1c;") : QString());
}


}  // namespace attnlab::experiments_detail
