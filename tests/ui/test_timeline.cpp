// The training timeline: recording probe snapshots, scrubbing and playing, thinning at the cap, and
// the small-multiples and numbered-PNG exports.
#include "widgets/AttentionPanel.h"
#include "window/MainWindow.h"
#include "task/translate/ModelSettingsWidget.h"
#include "views/translate/ProbeView.h"
#include "views/timeline/TimelineView.h"
#include "task/translate/TrainingSettingsWidget.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>

#include <memory>
#include <set>

#include "TempDir.h"
#include "TinyModels.h"
#include "ui/UiTestSupport.h"
#include "ui/WindowFixture.h"

using namespace attnlab;
using Catch::Matchers::WithinAbs;

namespace {

using test::waitUntil;

// A probe result whose cross-attention has `layers` x `heads` maps of 2 outputs x 3 source tokens,
// every weight equal to `weight` except where noted by the callers.
ProbeResult probe(int epoch, std::int64_t batches, float weight = 0.25f, int layers = 1, int heads = 1) {
    ProbeResult r;
    r.epoch = epoch;
    r.batches = batches;
    r.translation.sourceTokens = {"a", "b", "</s>"};
    r.translation.outputTokens = {"x", "y"};
    LayeredAttention cross(static_cast<std::size_t>(layers));
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < heads; ++h)
            cross[static_cast<std::size_t>(l)].push_back(AttentionMap{2, 3, std::vector<float>(6, weight)});
    r.translation.attention[MapKind::Cross] = cross;
    return r;
}

std::vector<std::int64_t> arrivals(const TimelineView& view) {
    std::vector<std::int64_t> out;
    for (int i = 0; i < view.snapshotCount(); ++i) out.push_back(view.snapshot(i).arrival);
    return out;
}

// Whether any pixel inside rect has exactly this colour.
bool hasColor(const QImage& image, const QRect& rect, QRgb color) {
    for (int y = rect.top(); y <= rect.bottom(); ++y)
        for (int x = rect.left(); x <= rect.right(); ++x)
            if ((image.pixel(x, y) & 0xffffff) == (color & 0xffffff)) return true;
    return false;
}

TEST_CASE("the timeline records probe results and the slider scrubs through them", "[ui][timeline]") {
    TimelineView view;
    view.setBatchesPerEpoch(10);
    CHECK(view.snapshotCount() == 0);
    CHECK(view.currentIndex() == -1);
    CHECK_FALSE(view.slider()->isEnabled());

    view.addSnapshot(probe(0, 0, 0.1f));
    view.addSnapshot(probe(0, 5, 0.2f));
    view.addSnapshot(probe(1, 10, 0.3f));  // after the first epoch's last batch
    view.addSnapshot(probe(1, 15, 0.4f));
    REQUIRE(view.snapshotCount() == 4);
    CHECK(view.slider()->minimum() == 0);
    CHECK(view.slider()->maximum() == 3);
    CHECK(view.currentIndex() == 3);  // follows the newest
    CHECK(view.frameLabel(0) == QStringLiteral("before training"));
    CHECK(view.frameLabel(1) == QStringLiteral("epoch 1 · batch 5"));
    CHECK(view.frameLabel(2) == QStringLiteral("epoch 1 · batch 10"));
    CHECK(view.frameLabel(3) == QStringLiteral("epoch 2 · batch 5"));
    CHECK(view.positionLabel()->text().contains(QStringLiteral("epoch 2 · batch 5")));
    CHECK(view.positionLabel()->text().contains(QStringLiteral("4 of 4")));

    const HeatmapRenderer& shown = view.attention()->heatmap()->renderer();
    CHECK_THAT(shown.weight(0, 0), WithinAbs(0.4, 1e-6));
    view.slider()->setValue(1);
    CHECK(view.currentIndex() == 1);
    CHECK_THAT(shown.weight(1, 2), WithinAbs(0.2, 1e-6));
    CHECK(shown.rows() == 2);
    CHECK(shown.columns() == 3);
    // One colour scale for every frame: 0.2 is drawn as 0.2 on [0, 1], not as the map's maximum.
    CHECK(shown.valueRange() == std::make_pair(0.0, 1.0));
    CHECK(shown.colorFor(0.2) == Colormap(ColormapId::Viridis).color(0.2));

    // Looking back at an old frame, a new result does not pull the view forward.
    view.addSnapshot(probe(2, 20, 0.5f));
    CHECK(view.snapshotCount() == 5);
    CHECK(view.currentIndex() == 1);
    CHECK(view.slider()->maximum() == 4);

    // A model opened from a file is not a moment of training.
    ProbeResult loaded = probe(0, 0);
    loaded.loadedModel = true;
    view.addSnapshot(loaded);
    CHECK(view.snapshotCount() == 5);

    view.clear();
    CHECK(view.snapshotCount() == 0);
    CHECK(view.currentIndex() == -1);
    CHECK_FALSE(view.attention()->hasMap());
}

TEST_CASE("the timeline shows the chosen layer and head of a Transformer", "[ui][timeline]") {
    TimelineView view;
    ProbeResult r = probe(1, 10, 0.0f, 2, 2);
    auto& cross = r.translation.attention[MapKind::Cross];
    // Layer 0: head 0 all 0.2, head 1 all 0.6; layer 1 keeps 0.
    std::fill(cross[0][0].weights.begin(), cross[0][0].weights.end(), 0.2f);
    std::fill(cross[0][1].weights.begin(), cross[0][1].weights.end(), 0.6f);
    view.addSnapshot(r);
    CHECK_THAT(view.mapAt(0).weights[0], WithinAbs(0.0, 1e-6));  // last layer, mean of heads by default
    view.attention()->setSelection(0, 1);
    CHECK_THAT(view.mapAt(0).weights[0], WithinAbs(0.6, 1e-6));
    CHECK_THAT(view.attention()->heatmap()->renderer().weight(1, 1), WithinAbs(0.6, 1e-6));
    view.attention()->setSelection(0, -1);
    CHECK_THAT(view.mapAt(0).weights[5], WithinAbs(0.4, 1e-6));  // (0.2 + 0.6) / 2
}

TEST_CASE("play steps through the frames and stops on the last", "[ui][timeline]") {
    TimelineView view;
    for (int i = 0; i < 5; ++i) view.addSnapshot(probe(0, i * 5, 0.1f * static_cast<float>(i)));
    view.setCurrentIndex(0);
    view.setFramesPerSecond(20);
    QSignalSpy spy(&view, &TimelineView::currentIndexChanged);
    view.play();
    CHECK(view.isPlaying());
    REQUIRE(waitUntil([&] { return !view.isPlaying(); }, 5000));
    CHECK(view.currentIndex() == 4);
    REQUIRE(spy.count() == 4);
    for (int i = 0; i < 4; ++i) CHECK(spy.at(i).at(0).toInt() == i + 1);
    CHECK_THAT(view.attention()->heatmap()->renderer().weight(0, 0), WithinAbs(0.4, 1e-6));

    // Play on the last frame starts over; Space on the slider plays and pauses.
    view.play();
    CHECK(view.currentIndex() == 0);
    view.pause();
    CHECK_FALSE(view.isPlaying());
    QTest::keyClick(view.slider(), Qt::Key_Space);
    CHECK(view.isPlaying());
    QTest::keyClick(view.slider(), Qt::Key_Space);
    CHECK_FALSE(view.isPlaying());
}

TEST_CASE("at the cap the timeline keeps evenly spaced snapshots and the newest", "[ui][timeline]") {
    TimelineView view;
    view.setMaxSnapshots(8);
    for (int i = 0; i < 20; ++i) {
        view.addSnapshot(probe(0, i));
        CHECK(view.snapshotCount() <= 8);
    }
    // Worked by hand: at arrival 8 the 8 kept (0..7) thin to 0, 2, 4, 6 and every 2nd arrival stays;
    // at arrival 15 the 8 kept (0, 2, ..., 14) thin to 0, 4, 8, 12; arrivals 16..19 then keep 16 and
    // the newest, 19.
    CHECK(view.receivedCount() == 20);
    CHECK(view.keepEvery() == 4);
    CHECK(arrivals(view) == std::vector<std::int64_t>{0, 4, 8, 12, 16, 19});
    CHECK(view.snapshot(view.snapshotCount() - 1).batches == 19);

    // The frame being looked at survives a thinning, or the next kept one is shown.
    view.setCurrentIndex(1);  // arrival 4
    for (int i = 20; i < 40; ++i) view.addSnapshot(probe(1, i));
    CHECK(view.snapshotCount() <= 8);
    CHECK(view.snapshot(view.currentIndex()).arrival >= 4);
    CHECK(view.snapshot(view.currentIndex()).arrival <= 8);
    CHECK(view.snapshot(view.snapshotCount() - 1).arrival == 39);
    for (std::int64_t a : arrivals(view))
        if (a != 39) CHECK(a % view.keepEvery() == 0);

    // The default cap is the documented one.
    CHECK(TimelineView().maxSnapshots() == 400);
}

TEST_CASE("the small-multiples export has the grid's size and a fixed colour scale", "[ui][timeline]") {
    TimelineView view;
    view.setBatchesPerEpoch(10);
    for (int i = 0; i < 5; ++i) {
        ProbeResult r = probe(i, i * 10, 0.0f);
        r.translation.attention[MapKind::Cross][0][0].weights[0] = 1.0f;  // row x, column a
        view.addSnapshot(r);
    }
    view.addSnapshot(probe(5, 55, 0.5f));  // all 0.5: drawn as 0.5, never as the top of the scale
    test::TempDir dir;
    QString error;

    // 6 panels of 200 x 150 in 3 columns and 2 rows: 16 + 3*200 + 2*12 + 72 + 16 wide,
    // 16 + 36 + 2*150 + 12 + 16 high.
    const QString grid = dir.filePath(QStringLiteral("grid.png"));
    REQUIRE(view.exportSmallMultiples(grid, 6, 3, &error, 1.0, QSize(200, 150)));
    const QImage image(grid);
    CHECK(image.size() == QSize(728, 380));
    const Colormap viridis(ColormapId::Viridis);
    const QRect first(16, 52, 200, 150);
    const QRect last(16 + 2 * 212, 52 + 162, 200, 150);
    CHECK(hasColor(image, first, viridis.color(1.0)));
    CHECK(hasColor(image, first, viridis.color(0.0)));
    CHECK(hasColor(image, last, viridis.color(0.5)));
    CHECK_FALSE(hasColor(image, last, viridis.color(1.0)));

    // At 2x the pixels double; the default panel does not depend on the widget's size.
    REQUIRE(view.exportSmallMultiples(grid, 6, 3, &error, 2.0, QSize(200, 150)));
    CHECK(QImage(grid).size() == QSize(1456, 760));
    view.resize(300, 200);
    REQUIRE(view.exportSmallMultiples(grid, 4, 2, &error));
    const QSize small = QImage(grid).size();
    view.resize(1400, 900);
    REQUIRE(view.exportSmallMultiples(grid, 4, 2, &error));
    CHECK(QImage(grid).size() == small);
    const QSize panel = view.defaultPanelSize(view.evenlySpaced(4));
    CHECK(small == QSize(16 + 2 * panel.width() + 12 + 72 + 16, 16 + 36 + 2 * panel.height() + 12 + 16));

    // Four of six snapshots, evenly spaced: the first and the last included.
    CHECK(view.evenlySpaced(4) == QList<int>{0, 2, 3, 5});
    CHECK(view.evenlySpaced(10) == QList<int>{0, 1, 2, 3, 4, 5});

    CHECK_FALSE(view.exportSmallMultiples(dir.filePath(QStringLiteral("grid.csv")), 6, 3, &error));
    CHECK(error.contains(QStringLiteral("grid.csv")));
    TimelineView empty;
    CHECK_FALSE(empty.exportSmallMultiples(grid, 6, 3, &error));
    CHECK(error.contains(QStringLiteral("no snapshots")));
}

TEST_CASE("the frames export writes one numbered PNG per snapshot", "[ui][timeline]") {
    TimelineView view;
    for (int i = 0; i < 12; ++i) view.addSnapshot(probe(0, i, 0.05f * static_cast<float>(i)));
    test::TempDir dir;
    QStringList written;
    QString error;
    REQUIRE(view.exportSequence(dir.qpath(), QStringLiteral("step"), &written, &error));
    REQUIRE(written.size() == 12);
    CHECK(QFileInfo(written.front()).fileName() == QStringLiteral("step_001.png"));
    CHECK(QFileInfo(written.back()).fileName() == QStringLiteral("step_012.png"));
    CHECK(QDir(dir.qpath()).entryList(QDir::Files).size() == 12);
    const QSize size = QImage(written.front()).size();
    CHECK(!size.isEmpty());
    for (const QString& path : written) CHECK(QImage(path).size() == size);  // one size: frames of a video

    // A folder that does not exist yet is created; a name with a separator is refused.
    const QString nested = dir.filePath(QStringLiteral("a/b"));
    REQUIRE(view.exportSequence(nested, QStringLiteral("f"), nullptr, &error));
    CHECK(QFileInfo::exists(QDir(nested).filePath(QStringLiteral("f_012.png"))));
    CHECK_FALSE(view.exportSequence(dir.qpath(), QStringLiteral("x/y"), nullptr, &error));
    CHECK(error.contains(QStringLiteral("x/y")));
}

TEST_CASE("the window's timeline records a run's probe and a new run clears it", "[ui][timeline]") {
    test::WindowFixture f;
    MainWindow* window = f.window.get();
    const auto& errors = f.errors;
    f.loadTinyCopy();
    ModelConfig config = test::tinyGru(AttentionKind::Dot);
    config.dropout = 0.0f;
    config.maxLength = 16;
    translation(*window).modelSettings()->setConfig(config);
    TranslationTrainingOptions options = translation(*window).trainingSettings()->options();
    options.epochs = 2;
    options.batchSize = 16;
    translation(*window).trainingSettings()->setOptions(options);
    translation(*window).probeView()->setEveryBatches(1);
    translation(*window).probeView()->setSentence(QString::fromStdString(translation(*window).corpus().corpus->pairs.at(0).source));
    REQUIRE(window->showTab(QStringLiteral("timeline")));
    CHECK(window->currentTabName() == QStringLiteral("timeline"));

    translation(*window).startTraining();
    REQUIRE(waitUntil([&] { return translation(*window).session()->state() == TranslationSession::State::Finished; }));
    const int batches = static_cast<int>(translation(*window).session()->batchesTrained());
    REQUIRE(waitUntil([&] { return translation(*window).probeView()->updates() >= batches + 1; }));
    TimelineView* timeline = translation(*window).timelineView();
    // One snapshot per probe update: before the first batch and after each one.
    CHECK(timeline->snapshotCount() == translation(*window).probeView()->updates());
    CHECK(timeline->frameLabel(0) == QStringLiteral("before training"));
    const int perEpoch = translation(*window).session()->summary().batchesPerEpoch;
    CHECK(timeline->frameLabel(timeline->snapshotCount() - 1) ==
          QStringLiteral("epoch 2 · batch %1").arg(perEpoch));
    CHECK(timeline->attention()->hasMap());
    QString error;
    test::TempDir out;
    CHECK(window->exportCurrentView(out.filePath(QStringLiteral("frame.csv")), 1.0, &error));

    translation(*window).startTraining(true);  // a new run, paused: the old snapshots are gone
    CHECK(timeline->snapshotCount() <= 1);
    window->close();
    CHECK(errors.isEmpty());
}

}  // namespace
