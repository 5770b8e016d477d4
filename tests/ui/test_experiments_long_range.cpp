// The Experiments view's Long range and Positions pages: a tiny run of each on the background
// thread fills its chart and table with exactly the engine's rows, and starting one stops the other.
#include "views/experiments/ExperimentsView.h"
#include "views/experiments/LongRangePage.h"
#include "views/experiments/PositionalPage.h"

#include <catch2/catch.hpp>

#include <QLineSeries>
#include <QSignalSpy>
#include <QTableWidget>

#include "ui/UiTestSupport.h"

using namespace attnlab;
using test::waitUntil;

namespace {

TEST_CASE("the long-range page charts each measured row and fills the articles' table", "[experiments]") {
    ExperimentsView view;
    REQUIRE(view.showPage(QStringLiteral("long-range")));
    CHECK(view.currentPage() == QLatin1String("long-range"));
    LongRangePage* page = view.longRangePage();
    LongRangeOptions o = page->options();
    CHECK(o.lengths == std::vector<int>{128, 512, 2048});
    CHECK(o.patterns.size() == 5);
    o.lengths = {16, 32};
    o.patterns = {"full", "linear"};
    o.steps = 2;
    o.extend = false;
    o.texts = 4;
    o.seed = 3;
    page->setOptions(o);
    const LongRangeOptions read = page->options();
    REQUIRE(read.lengths == o.lengths);
    REQUIRE(read.patterns == o.patterns);
    QSignalSpy finished(page, &LongRangePage::finished);
    page->run();
    CHECK(page->isRunning());
    REQUIRE(waitUntil([&] { return finished.count() == 1; }, 120000));
    CHECK(finished.at(0).at(0).toBool() == false);
    REQUIRE(page->rows().size() == 4);
    for (const char* p : {"full", "linear"}) {
        QLineSeries* line = page->accuracySeries(QString::fromLatin1(p));
        REQUIRE(line);
        CHECK(line->count() == 2);
        for (const QPointF& point : line->points()) CHECK((point.y() >= 0.0 && point.y() <= 1.0));
    }
    CHECK(page->accuracySeries(QStringLiteral("local"))->count() == 0);
    QTableWidget* table = page->table();
    REQUIRE(table->rowCount() == 2);
    CHECK(table->item(0, 0)->text() == QLatin1String("full"));
    CHECK(table->item(0, 3)->text() == QLatin1String("32"));  // the longest N reached
    CHECK(table->item(1, 1)->text() == QLatin1String("O(N)"));
}

TEST_CASE("the positions page charts one point per model and length; a new run stops it", "[experiments]") {
    ExperimentsView view;
    REQUIRE(view.showPage(QStringLiteral("positional")));
    PositionalPage* page = view.positionalPage();
    PositionalOptions o = page->options();
    CHECK(o.dataset == "reverse");
    CHECK(o.models.size() == 4);
    o.lengths = {3, 4};
    o.models = {"none", "gru"};
    o.epochs = 1;
    o.pairs = 40;
    o.hidden = 8;
    page->setOptions(o);
    QSignalSpy finished(page, &PositionalPage::finished);
    page->run();
    REQUIRE(waitUntil([&] { return finished.count() == 1; }, 120000));
    CHECK(finished.at(0).at(0).toBool() == false);
    for (const char* m : {"none", "gru"}) {
        INFO(m);
        CHECK(page->series(QString::fromLatin1(m))->count() == 2);
        CHECK(page->result().exactMatch.at(m).size() == 2);
    }
    CHECK(page->series(QStringLiteral("learned"))->count() == 0);
    CHECK(page->table()->rowCount() == 2);

    // A long run, then the long-range page starts: the positions run ends as stopped.
    o.lengths = {60};
    o.epochs = 50;
    o.pairs = 4000;
    page->setOptions(o);
    page->run();
    REQUIRE(page->isRunning());
    LongRangePage* other = view.longRangePage();
    LongRangeOptions tiny = other->options();
    tiny.lengths = {16};
    tiny.patterns = {"local"};
    tiny.steps = 1;
    tiny.extend = false;
    tiny.texts = 4;
    other->setOptions(tiny);
    QSignalSpy otherDone(other, &LongRangePage::finished);
    other->run();
    REQUIRE(waitUntil([&] { return finished.count() == 2 && otherDone.count() == 1; }, 120000));
    CHECK(finished.at(1).at(0).toBool() == true);
    CHECK_FALSE(view.isRunning());
}

}  // namespace
