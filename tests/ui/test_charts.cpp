#include "views/translate/TranslationCurvesView.h"

#include <catch2/catch.hpp>

#include <QChart>
#include <QCoreApplication>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

using namespace attnlab;

TEST_CASE("a long run keeps a bounded, evenly spaced set of points and markers that ends at the newest epoch",
          "[ui][charts]") {
    TranslationCurvesView charts;
    charts.setPlannedEpochs(2000);
    for (int e = 1; e <= 2000; ++e) {
        TranslationEpochMetrics m;
        m.epoch = e;
        m.trainLoss = 1.0 / e;
        m.validationLoss = 1.5 / e;
        m.tokenAccuracy = 0.5;
        m.bleu = 10.0;
        charts.addEpoch(m);
    }
    // The line: every 4th epoch from the first (500 points at most: it is thinned to every other
    // point at epochs 501 and 1001), then the newest epoch.
    const QList<QPointF> line = charts.validationLossSeries()->points();
    CHECK(line.size() == 501);
    CHECK(charts.epochCount() == 2000);
    for (qsizetype i = 0; i + 1 < line.size(); ++i) {
        CHECK(line[i].x() == 1.0 + 4.0 * i);
        CHECK(line[i].y() == Approx(1.5 / line[i].x()));  // thinning keeps measured values, it does not average
    }
    CHECK(line.back() == QPointF(2000.0, 1.5 / 2000.0));
    // Markers: one every 32 epochs from the first (2000 epochs / 120 -> stride 32), each on a point of the line.
    QScatterSeries* markers = charts.markersOf(charts.validationLossSeries());
    REQUIRE(markers);
    CHECK(markers->count() <= 120);
    CHECK(markers->count() >= 60);
    const QList<QPointF> points = markers->points();
    for (qsizetype i = 1; i < points.size(); ++i) CHECK(points[i].x() - points[i - 1].x() == 32.0);
    CHECK(points.front().x() == 1.0);
    for (const QPointF& p : points) CHECK(line.contains(p));
    // The other lines are thinned alike.
    CHECK(charts.trainLossSeries()->count() == 501);
    CHECK(charts.bleuSeries()->count() == 501);
    // A new run starts again with a marker per epoch.
    charts.clear();
    TranslationEpochMetrics m;
    m.epoch = 1;
    m.validationLoss = 1.0;
    charts.addEpoch(m);
    m.epoch = 2;
    charts.addEpoch(m);
    CHECK(markers->count() == 2);
}

TEST_CASE("the epoch axis grows in round steps and changes only when the run crosses one", "[ui][charts]") {
    TranslationCurvesView charts;
    charts.setPlannedEpochs(10000);
    QValueAxis* axis = charts.epochAxis();
    REQUIRE(axis);
    CHECK(axis->max() == 5.0);  // an empty chart is 5 epochs wide
    int changes = 0;
    QObject::connect(axis, &QValueAxis::rangeChanged, [&] { ++changes; });
    auto addEpoch = [&](int e) {
        for (int b = 1; b <= 10; ++b) {
            BatchReport r;
            r.epoch = e;
            r.batch = b;
            r.batchesPerEpoch = 10;
            r.loss = 2.0 / e;
            charts.addBatch(r);
        }
        TranslationEpochMetrics m;
        m.epoch = e;
        m.trainLoss = m.validationLoss = 2.0 / e;
        charts.addEpoch(m);
    };
    for (int e = 1; e <= 5; ++e) addEpoch(e);
    CHECK(changes == 0);
    for (int e = 6; e <= 37; ++e) addEpoch(e);
    CHECK(axis->max() == 40.0);  // ticks every 5 epochs
    CHECK(axis->tickInterval() == 5.0);
    for (int e = 38; e <= 1000; ++e) addEpoch(e);
    CHECK(axis->min() == 0.0);
    CHECK(axis->max() == 1000.0);
    CHECK(axis->tickInterval() == 100.0);
    // 6..10 one epoch at a time, then steps of 2, 5, 10, ... 100: a few dozen changes, not one or
    // more per epoch (each change re-lays out every curve).
    CHECK(changes < 60);
    addEpoch(1001);
    CHECK(axis->max() == 1200.0);
    CHECK(axis->tickInterval() == 200.0);

    // A short planned run ends at its last epoch, not at the next round step.
    TranslationCurvesView shortRun;
    shortRun.setPlannedEpochs(37);
    TranslationEpochMetrics m;
    for (int e = 1; e <= 37; ++e) {
        m.epoch = e;
        m.validationLoss = 1.0;
        shortRun.addEpoch(m);
    }
    CHECK(shortRun.epochAxis()->max() == 37.0);
}

TEST_CASE("the alignment error line, once shown, has one legend entry", "[ui][charts]") {
    TranslationCurvesView charts;
    charts.setPlannedEpochs(3);
    auto visibleEntries = [&](const QString& name) {
        QCoreApplication::processEvents();  // the legend follows the series through queued signals
        int n = 0;
        for (QLegendMarker* marker : charts.alignmentErrorSeries()->chart()->legend()->markers())
            if (marker->isVisible() && marker->label() == name) ++n;
        return n;
    };
    const QString name = charts.alignmentErrorSeries()->name();
    CHECK(visibleEntries(name) == 0);  // no gold links: no line
    for (int e = 1; e <= 3; ++e) {
        TranslationEpochMetrics m;
        m.epoch = e;
        m.validationLoss = 1.0;
        m.alignmentErrorRate = 0.3 / e;
        charts.addEpoch(m);
    }
    CHECK(charts.alignmentErrorSeries()->isVisible());
    CHECK(visibleEntries(name) == 1);
    charts.clear();
    CHECK(visibleEntries(name) == 0);
}
