#include "task/translate/DataPanel.h"
#include "task/translate/Lessons.h"
#include "window/MainWindow.h"
#include "task/translate/ModelSettingsWidget.h"
#include "views/translate/ProbeView.h"
#include "task/translate/TrainingSettingsWidget.h"
#include "views/translate/TranslateView.h"

#include <catch2/catch.hpp>

#include <QSettings>
#include <QSignalSpy>

#include <memory>
#include <vector>

#include "ui/UiTestSupport.h"
#include "ui/WindowFixture.h"

using namespace attnlab;
using test::waitUntil;

namespace {

// The shared window fixture (settings in a temporary folder, errors recorded, questions answered
// Discard), with a lesson's first losses.
struct LessonWindow : test::WindowFixture {
    // The first losses of a lesson's run, then the run is stopped.
    std::vector<double> firstLosses(const QString& lesson, int batches) {
        std::vector<double> losses;
        auto connection = QObject::connect(translation(*window).session(), &TranslationSession::batchTrained,
                                           [&](const BatchReport& r) { losses.push_back(r.loss); });
        REQUIRE(window->startLesson(lesson));
        REQUIRE(waitUntil([&] { return static_cast<int>(losses.size()) >= batches; }, 60000));
        translation(*window).session()->stop();
        REQUIRE(waitUntil([&] { return !translation(*window).session()->isActive(); }));
        QObject::disconnect(connection);
        losses.resize(static_cast<std::size_t>(batches));
        return losses;
    }
};

}  // namespace

TEST_CASE("every lesson sets up its dataset, model, seed, sentences and view", "[ui][lessons]") {
    LessonWindow w;
    const std::vector<Lesson> all = lessons();
    REQUIRE(all.size() >= 3);
    for (const Lesson& lesson : all) {
        INFO(lesson.id.toStdString());
        CHECK_FALSE(lesson.summary.isEmpty());
        REQUIRE(w.window->startLesson(lesson.id));
        CHECK(w.window->currentLesson() == lesson.id);
        CHECK(w.window->currentTabName() == lesson.tab);
        REQUIRE(waitUntil([&] { return translation(*w.window).session()->isActive(); }, 30000));
        CHECK(translation(*w.window).corpus().source.dataset == lesson.dataset);
        CHECK(translation(*w.window).corpus().corpus->pairs.size() == lesson.data.size);
        const ModelConfig config = translation(*w.window).modelSettings()->config();
        CHECK(config.architecture == lesson.config.architecture);
        CHECK(config.attention == lesson.config.attention);
        CHECK(config.hidden == lesson.config.hidden);
        CHECK(translation(*w.window).trainingSettings()->options().seed == lesson.options.seed);
        CHECK(translation(*w.window).trainingSettings()->options().epochs == lesson.options.epochs);
        CHECK(translation(*w.window).probeView()->sentence() == lesson.probeSentence);
        CHECK(translation(*w.window).translateView()->sentence() == lesson.translateSentence);
        translation(*w.window).session()->stop();
        REQUIRE(waitUntil([&] { return !translation(*w.window).session()->isActive(); }));
    }
    CHECK_FALSE(w.window->startLesson(QStringLiteral("no-such-lesson")));
    CHECK(w.errors.isEmpty());
}

TEST_CASE("a lesson repeats exactly: the same seed gives the same losses", "[ui][lessons]") {
    LessonWindow w;
    const std::vector<double> first = w.firstLosses(QStringLiteral("alignment"), 8);
    const std::vector<double> second = w.firstLosses(QStringLiteral("alignment"), 8);
    CHECK(first == second);
    CHECK(first.front() > first.back());  // and it learns
}
