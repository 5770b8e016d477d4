// The experiments view: a tiny bottleneck run and a small complexity run on the background thread,
// their charts and legends, and stopping (another experiment, closing) without hanging.
#include "views/experiments/ExperimentsView.h"

#include <catch2/catch.hpp>

#include <QChart>
#include <QElapsedTimer>
#include <QImage>
#include <QLineEdit>
#include <QLineSeries>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableWidget>

#include <cmath>
#include <memory>

#include "TempDir.h"
#include "ui/UiTestSupport.h"

using namespace attnlab;
using Catch::Matchers::WithinAbs;

namespace {

using test::waitUntil;

BottleneckOptions tinyBottleneck() {
    BottleneckOptions o;
    o.dataset = "copy";
    o.lengths = {3, 6};
    o.attentions = {"none", "dot"};
    o.epochs = 1;
    o.hidden = 16;
    o.pairs = 60;
    o.seed = 2;
    return o;
}

TEST_CASE("a tiny bottleneck run ends with one series per attention and a point per length", "[ui][experiments]") {
    ExperimentsView view;
    view.setBottleneckOptions(tinyBottleneck());
    const BottleneckOptions o = view.bottleneckOptions();
    REQUIRE(o.lengths == std::vector<int>{3, 6});
    REQUIRE(o.attentions == std::vector<std::string>{"none", "dot"});
    QSignalSpy finished(&view, &ExperimentsView::bottleneckFinished);
    view.runBottleneck();
    CHECK(view.bottleneckRunning());
    REQUIRE(waitUntil([&] { return finished.count() == 1; }, 120000));
    CHECK(finished.at(0).at(0).toBool() == false);
    CHECK_FALSE(view.isRunning());

    // The view trains each (length, attention) on its own; the points are exactly those of one call
    // of the engine with the same options (same corpora, same seeds).
    const BottleneckResult direct = runBottleneckExperiment(o);
    REQUIRE(view.bottleneckChart()->series().size() == 4);  // a line and its dots per attention
    for (const std::string& name : o.attentions) {
        QLineSeries* series = view.bottleneckSeries(QString::fromStdString(name));
        REQUIRE(series != nullptr);
        REQUIRE(series->count() == 2);
        const std::vector<double>& expected = direct.accuracy.at(name);
        for (int i = 0; i < 2; ++i) {
            CHECK(series->at(i).x() == o.lengths[static_cast<std::size_t>(i)]);
            CHECK(series->at(i).y() == expected[static_cast<std::size_t>(i)]);
            CHECK((series->at(i).y() >= 0.0 && series->at(i).y() <= 1.0));
        }
        CHECK(view.bottleneckResult().accuracy.at(name) == expected);
    }
    CHECK(view.bottleneckSeries(QStringLiteral("none"))->name().contains(QStringLiteral("fixed context")));

    // The table: one row per length, one column per attention, percent with one decimal.
    QTableWidget* table = view.bottleneckTable();
    REQUIRE(table->rowCount() == 2);
    REQUIRE(table->columnCount() == 2);
    REQUIRE(table->item(1, 1) != nullptr);
    CHECK(table->item(1, 1)->text() == QStringLiteral("%1%").arg(100.0 * direct.accuracy.at("dot")[1], 0, 'f', 1));
    CHECK(view.bottleneckMessage().contains(QStringLiteral("Done")));
}

TEST_CASE("the bottleneck presets and bad input", "[ui][experiments]") {
    const BottleneckOptions full = ExperimentsView::presetOptions(ExperimentsView::BottleneckPreset::Full);
    const BottleneckOptions engine;
    CHECK(full.lengths == engine.lengths);
    CHECK(full.epochs == engine.epochs);
    CHECK(full.pairs == engine.pairs);
    const BottleneckOptions quick = ExperimentsView::presetOptions(ExperimentsView::BottleneckPreset::Classroom);
    CHECK(quick.epochs < full.epochs);
    CHECK(quick.pairs < full.pairs);
    // Cost grows with the summed lengths, pairs, epochs, trainings and hidden^1.5: by hand,
    // 65/75 * 2000/3000 * 6/10 = 0.3467 of the full run.
    CHECK_THAT(ExperimentsView::estimatedSeconds(quick) / ExperimentsView::estimatedSeconds(full),
               WithinAbs(0.3467, 0.001));

    ExperimentsView view;
    auto* lengths = view.findChild<QLineEdit*>(QStringLiteral("lengths"));
    REQUIRE(lengths != nullptr);
    lengths->setText(QStringLiteral("5, x"));
    view.runBottleneck();
    CHECK_FALSE(view.isRunning());
    CHECK(view.bottleneckMessage().contains(QStringLiteral("'x'")));
    lengths->setText(QStringLiteral("5 10;20"));
    CHECK(view.bottleneckOptions().lengths == std::vector<int>{5, 10, 20});

    // An engine error (no date is 100 tokens long) comes back as a message, not a crash.
    BottleneckOptions bad = tinyBottleneck();
    bad.dataset = "dates";
    bad.lengths = {100};
    view.setBottleneckOptions(bad);
    QSignalSpy failed(&view, &ExperimentsView::experimentFailed);
    view.runBottleneck();
    REQUIRE(waitUntil([&] { return failed.count() == 1; }, 30000));
    CHECK(view.bottleneckMessage().contains(QStringLiteral("failed")));
}

TEST_CASE("the complexity lab on small lengths puts the fitted slopes in the legends", "[ui][experiments]") {
    ExperimentsView view;
    REQUIRE(view.showPage(QStringLiteral("complexity")));
    ComplexityOptions o;
    o.lengths = {256, 512, 1024};
    o.repeats = 1;
    o.fitFrom = 256;
    view.setComplexityOptions(o);
    REQUIRE(view.complexityOptions().lengths == o.lengths);
    QSignalSpy finished(&view, &ExperimentsView::complexityFinished);
    view.runComplexity();
    REQUIRE(waitUntil([&] { return finished.count() == 1; }, 60000));
    CHECK(finished.at(0).at(0).toBool() == false);

    for (const char* m : {"full", "local", "strided", "chunked", "linear"}) {
        for (bool memory : {false, true}) {
            QLineSeries* series = view.complexitySeries(QString::fromLatin1(m), memory);
            REQUIRE(series != nullptr);
            REQUIRE(series->count() == 3);
            CHECK(series->at(0).x() == 256);
            CHECK(series->at(2).x() == 1024);
            // "full: slope 2.0": the time slopes are measured, so only their form is checked here.
            CHECK(QRegularExpression(QStringLiteral("^%1: slope -?\\d+\\.\\d$").arg(QLatin1String(m)))
                      .match(series->name())
                      .hasMatch());
        }
    }
    // Memory is counted, not timed. Full attention keeps scores and weights (N x N floats each) and
    // the output (N x d): 8N^2 + 4Nd bytes, 0.589824 MB at N = 256 and 8.650752 MB at N = 1024. Its
    // log-log slope over 256, 512, 1024 (equally spaced in log N) is ln(8650752 / 589824) / ln 4 = 1.937.
    QLineSeries* full = view.complexitySeries(QStringLiteral("full"), true);
    CHECK_THAT(full->at(0).y(), WithinAbs(0.589824, 1e-9));
    CHECK_THAT(full->at(2).y(), WithinAbs(8.650752, 1e-9));
    CHECK_THAT(view.complexityResult().methods.at("full").memorySlope, WithinAbs(1.937, 0.001));
    CHECK(full->name() == QStringLiteral("full: slope 1.9"));
    // Linear attention, at the allocator's peak: phi(Q), phi(K), phi(Q) K^T V and the output (N x d
    // each), K^T V (d x d), the normaliser (N) and Σ phi(K) (d): 16Nd + 4d^2 + 4N + 4d = 279808 and
    // 1069312 bytes, slope ln(1069312 / 279808) / ln 4 = 0.967.
    CHECK_THAT(view.complexityResult().methods.at("linear").memorySlope, WithinAbs(0.967, 0.001));
    CHECK(view.complexitySeries(QStringLiteral("linear"), true)->name() == QStringLiteral("linear: slope 1.0"));

    // Moving the fit's start refits the measured points: from 512 only the last two count,
    // ln(8650752 / 2228224) / ln 2 = 1.957.
    o.fitFrom = 512;
    view.setComplexityOptions(o);
    CHECK_THAT(view.complexityResult().methods.at("full").memorySlope, WithinAbs(1.957, 0.001));
    CHECK(full->name() == QStringLiteral("full: slope 2.0"));
    CHECK(view.complexityMessage().contains(QStringLiteral("Done")));

    // Export: both charts stacked, 900 x 520 each, whatever the window.
    test::TempDir dir;
    QString error;
    REQUIRE(view.exportImage(dir.filePath(QStringLiteral("complexity.png")), &error, 1.0));
    CHECK(QImage(dir.filePath(QStringLiteral("complexity.png"))).size() == QSize(900, 1040));
    CHECK_FALSE(view.exportImage(dir.filePath(QStringLiteral("complexity.csv")), &error));
    CHECK(error.contains(QStringLiteral("complexity.csv")));
}

TEST_CASE("starting another experiment or closing the view stops the running one promptly", "[ui][experiments]") {
    auto view = std::make_unique<ExperimentsView>();
    view->applyPreset(ExperimentsView::BottleneckPreset::Full);  // minutes of work
    QSignalSpy bottleneckDone(view.get(), &ExperimentsView::bottleneckFinished);
    QSignalSpy complexityDone(view.get(), &ExperimentsView::complexityFinished);
    view->runBottleneck();
    REQUIRE(view->bottleneckRunning());
    // Inside the first training: its first epoch has reported (10 epochs each, 8 trainings).
    const auto training = [&] { return view->bottleneckMessage().contains(QStringLiteral("epoch")); };
    REQUIRE(waitUntil(training, 60000));

    ComplexityOptions o;
    o.lengths = {64, 128};
    o.repeats = 1;
    view->setComplexityOptions(o);
    QElapsedTimer timer;
    timer.start();
    view->runComplexity();  // stops and joins the bottleneck thread first
    CHECK(timer.elapsed() < 5000);
    const bool bothDone = waitUntil([&] { return bottleneckDone.count() == 1 && complexityDone.count() == 1; }, 30000);
    INFO("finished: bottleneck " << bottleneckDone.count() << ", complexity " << complexityDone.count() << "; "
                                 << view->bottleneckMessage().toStdString() << " | "
                                 << view->complexityMessage().toStdString());
    REQUIRE(bothDone);
    CHECK(bottleneckDone.at(0).at(0).toBool() == true);   // stopped
    CHECK(complexityDone.at(0).at(0).toBool() == false);  // ran to the end
    CHECK(view->bottleneckResult().accuracy.empty());     // the interrupted training gave no point
    CHECK(view->bottleneckMessage().contains(QStringLiteral("Stopped")));

    // Stop asks; the run ends within a batch and says so.
    view->runBottleneck();
    REQUIRE(waitUntil(training, 60000));
    view->stop();
    REQUIRE(waitUntil([&] { return bottleneckDone.count() == 2; }, 10000));
    CHECK(bottleneckDone.at(1).at(0).toBool() == true);

    // Destroying the view (closing the window) while a run is going joins its thread promptly.
    view->runBottleneck();
    REQUIRE(waitUntil(training, 60000));
    REQUIRE(view->isRunning());
    timer.restart();
    view.reset();
    CHECK(timer.elapsed() < 5000);
}

}  // namespace
