#include "TrainingChartsView.h"

#include <catch2/catch.hpp>

#include <QLineSeries>
#include <QScatterSeries>

using namespace attnlab;

TEST_CASE("a long run keeps every epoch on the lines but a bounded, evenly spaced set of markers",
          "[ui][charts]") {
    TrainingChartsView charts;
    charts.setPlannedEpochs(2000);
    for (int e = 1; e <= 2000; ++e) {
        EpochMetrics m;
        m.epoch = e;
        m.trainLoss = 1.0 / e;
        m.validationLoss = 1.5 / e;
        m.tokenAccuracy = 0.5;
        m.bleu = 10.0;
        charts.addEpoch(m);
    }
    CHECK(charts.validationLossSeries()->count() == 2000);
    QScatterSeries* markers = charts.markersOf(charts.validationLossSeries());
    REQUIRE(markers);
    CHECK(markers->count() <= 120);
    CHECK(markers->count() >= 60);
    // Evenly spaced: one marker every 32 epochs from the first (2000 epochs / 120 -> stride 32).
    const QList<QPointF> points = markers->points();
    for (qsizetype i = 1; i < points.size(); ++i) CHECK(points[i].x() - points[i - 1].x() == 32.0);
    CHECK(points.front().x() == 1.0);
    // A new run starts again with a marker per epoch.
    charts.clear();
    EpochMetrics m;
    m.epoch = 1;
    m.validationLoss = 1.0;
    charts.addEpoch(m);
    m.epoch = 2;
    charts.addEpoch(m);
    CHECK(markers->count() == 2);
}
