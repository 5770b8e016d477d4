// The text-classification task in the main window: the Task box switches the setup panel, the views
// and the View menu; a classifier trains on the worker thread while the Classify view shows its
// attention; Explain, the dataset browser and the lesson work end to end.
#include "widgets/HeatmapWidget.h"
#include "task/classify/ClassifierSetupPanel.h"
#include "task/translate/DataPanel.h"
#include "views/classify/ClassifierCurvesView.h"
#include "views/classify/ClassifyView.h"
#include "views/classify/ExplainView.h"
#include "views/classify/TextsView.h"
#include "widgets/HeadGridWidget.h"
#include "widgets/WordStrip.h"
#include "task/TaskSupport.h"
#include "task/classify/ClassifierTask.h"
#include "ui/WindowFixture.h"
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QLineSeries>
#include <QPushButton>
#include <QTableView>
#include <algorithm>
#include <cmath>
#include <functional>

using namespace attnlab;
using attnlab::test::chooseTask;
using attnlab::test::openAndWait;
using attnlab::test::saveThenReset;
using attnlab::test::waitUntil;
using attnlab::test::WindowFixture;

namespace {

// A small sentiment corpus and a quick schedule: what the tests train.
void smallSetup(ClassifierTask& task, int epochs) {
    ClassifierDataChoice data;
    data.dataset = QStringLiteral("sentiment");
    data.size = 600;
    data.seed = 1;
    task.panel()->setData(data);
    ClassifierTrainingOptions options = task.panel()->options();
    options.epochs = epochs;
    task.panel()->setOptions(options);
    REQUIRE(waitUntil([&] { return task.corpus() && !task.isLoadingData() && task.corpus()->examples.size() == 600; }));
}

// A window on the classification task with a small model trained (epochs > 0) on smallSetup's texts.
struct TrainedWindow {
    WindowFixture f;
    MainWindow& w = *f.window;
    ClassifierTask& task = *w.task<ClassifierTask>();
    explicit TrainedWindow(int epochs, const std::function<void(ClassifierTask&)>& configure = {}) {
        chooseTask(w, QStringLiteral("classify"));
        if (configure) configure(task);
        smallSetup(task, epochs);
        task.train();
        REQUIRE(waitUntil([&] { return task.session()->hasModel() && !task.session()->isBusy(); }, 120000));
    }
};

}  // namespace

TEST_CASE("the Task box switches the setup panel, the views and the View menu", "[ui][classify]") {
    WindowFixture f;
    MainWindow& w = *f.window;
    const QStringList translationTabs = w.tabNames();
    CHECK(translationTabs.contains(QStringLiteral("translate")));
    CHECK_FALSE(translationTabs.contains(QStringLiteral("classify")));

    chooseTask(w, QStringLiteral("classify"));
    const QStringList classify = w.tabNames();
    CHECK(classify == QStringList({"texts", "classify", "class-curves", "explain", "class-importance", "needle"}));
    CHECK(w.task<ClassifierTask>()->panel()->isVisibleTo(&w));
    CHECK_FALSE(translation(w).dataPanel()->isVisibleTo(&w));
    // The built-in sentiment texts are made when the task is first chosen.
    REQUIRE(waitUntil([&] { return w.task<ClassifierTask>()->corpus() != nullptr; }));
    CHECK(w.task<ClassifierTask>()->textsView()->table()->model()->rowCount() == 2000);

    // A view of the other task switches back.
    REQUIRE(w.showTab(QStringLiteral("translate")));
    CHECK(w.taskChooser()->currentData().toString() == QStringLiteral("translate"));
    CHECK(w.tabNames() == translationTabs);
    REQUIRE(w.showTab(QStringLiteral("explain")));
    CHECK(w.taskChooser()->currentData().toString() == QStringLiteral("classify"));
    CHECK(w.currentTabName() == QStringLiteral("explain"));
    CHECK(f.errors.isEmpty());
}

TEST_CASE("a classifier trains live: curves, the Classify view, Explain and the dataset browser", "[ui][classify]") {
    WindowFixture f;
    MainWindow& w = *f.window;
    chooseTask(w, QStringLiteral("classify"));
    ClassifierTask& task = *w.task<ClassifierTask>();
    smallSetup(task, 4);
    task.classifyView()->setText(QStringLiteral("the film was not good"));
    task.run(RunCommand::Start);  // the window's Start (Run menu, toolbar, F5)
    REQUIRE(waitUntil([&] { return task.session()->isTraining(); }));
    // The probe answers while the model trains.
    REQUIRE(waitUntil([&] { return task.classifyView()->classification() != nullptr; }, 60000));
    REQUIRE(waitUntil([&] { return !task.session()->isBusy(); }, 120000));
    CHECK(f.errors.isEmpty());
    CHECK(task.curvesView()->epochs() == 4);
    CHECK(task.session()->hasModel());
    CHECK(task.session()->isModified());

    // Classify a text: its label, probabilities and one attention row over its words.
    REQUIRE(w.showTab(QStringLiteral("classify")));
    task.classifyView()->setText(QStringLiteral("the acting was awful"));
    task.classifyView()->classifyButton()->click();
    REQUIRE(waitUntil([&] {
        const Classification* c = task.classifyView()->classification();
        return c && c->tokens.size() == 4;
    }));
    const Classification& c = *task.classifyView()->classification();
    CHECK(c.probabilities.size() == 2);
    REQUIRE(task.classifyView()->strip()->rows().size() == 1);
    double sum = 0;
    for (double v : task.classifyView()->strip()->rows()[0].values) sum += v;
    CHECK(sum == Approx(1.0).epsilon(1e-4));
    const QString png = f.dir.filePath(QStringLiteral("classify.png"));
    QString error;
    CHECK(w.exportCurrentView(png, 1.0, &error));
    CHECK(QFileInfo(png).size() > 0);

    // Explain it: five methods, integrated gradients complete to 5 %.
    REQUIRE(w.showTab(QStringLiteral("explain")));
    ExplainView* explain = task.explainView();
    explain->setText(QStringLiteral("the acting was awful"));
    explain->findChild<QPushButton*>(QStringLiteral("explainButton"))->click();
    REQUIRE(waitUntil([&] { return explain->explanation() && explain->explanation()->tokens.size() == 4; }));
    const Explanation& e = *explain->explanation();
    CHECK(e.methods.size() == 5);
    CHECK(explain->strip()->rows().size() == 5);
    CHECK(std::abs(e.igAttributionSum - e.igOutputDifference) <= 0.05 * std::abs(e.igOutputDifference) + 1e-6);
    const QString svg = f.dir.filePath(QStringLiteral("explain.svg"));
    CHECK(w.exportCurrentView(svg, 1.0, &error));

    // The dataset browser: the gold rationale against the model's attention.
    REQUIRE(w.showTab(QStringLiteral("texts")));
    task.textsView()->selectExample(0);
    REQUIRE(waitUntil([&] { return task.textsView()->strip()->rows().size() == 2; }));
    CHECK(task.textsView()->strip()->rows()[0].label == TextsView::tr("Rationale"));
    CHECK(f.errors.isEmpty());
}

TEST_CASE("the permutation test runs over the validation texts from the Explain view", "[ui][classify]") {
    TrainedWindow t(2);
    ClassifierTask& task = t.task;
    WindowFixture& f = t.f;
    ExplainView* explain = task.explainView();
    explain->findChild<QPushButton*>(QStringLiteral("permutationButton"))->click();
    REQUIRE(waitUntil([&] { return task.session()->isExperimenting(); }));
    REQUIRE(waitUntil([&] { return !task.session()->isBusy(); }, 120000));
    CHECK(explain->faithfulnessResult() != nullptr);
    CHECK_FALSE(explain->faithfulnessSummary().isEmpty());
    CHECK(f.errors.isEmpty());
}

TEST_CASE("a classifier saved from the window opens again; a bad file is reported", "[ui][classify]") {
    TrainedWindow t(1);
    ClassifierTask& task = t.task;
    WindowFixture& f = t.f;
    const QString path = f.dir.filePath(QStringLiteral("c.safetensors"));
    saveThenReset(task, path);
    openAndWait(task, path);
    CHECK(task.session()->model().labels == QStringList({"negative", "positive"}));
    REQUIRE(waitUntil([&] { return task.classifyView()->classification() != nullptr; }));

    task.openModel(f.dir.filePath(QStringLiteral("missing.safetensors")));
    REQUIRE(waitUntil([&] { return !f.errors.isEmpty(); }));
    CHECK(f.errors.front().title == TaskSupport::tr("Cannot Open Model"));
    CHECK(f.errors.front().message.contains(QStringLiteral("missing.safetensors")));
    CHECK(task.session()->hasModel());  // the model that was open stays
}

TEST_CASE("the lesson 'Is attention an explanation?' trains a classifier that attends to the deciding words",
          "[ui][classify][lessons]") {
    WindowFixture f;
    MainWindow& w = *f.window;
    // Started while another classifier trains: that run stops, then the lesson's trains.
    chooseTask(w, QStringLiteral("classify"));
    REQUIRE(waitUntil([&] { return w.task<ClassifierTask>()->corpus() && !w.task<ClassifierTask>()->isLoadingData(); }));
    w.task<ClassifierTask>()->train();
    REQUIRE(waitUntil([&] { return w.task<ClassifierTask>()->session()->isTraining(); }));
    REQUIRE(w.startLesson(QStringLiteral("explanation")));
    CHECK(w.currentLesson() == QStringLiteral("explanation"));
    CHECK(w.currentTabName() == QStringLiteral("classify"));
    ClassifierTask& task = *w.task<ClassifierTask>();
    // The run that was going is Stopping; the lesson's own run is the next to be Training (it starts
    // once that run has ended and the lesson's texts are made, in either order).
    REQUIRE(waitUntil([&] { return task.session()->runState() == ModelSession::RunState::Training; }, 30000));
    REQUIRE(waitUntil([&] { return !task.session()->isBusy(); }, 180000));
    REQUIRE(task.curvesView()->epochs() == 10);
    // What the lesson promises: the sentiment learned, the attention on the gold rationale.
    REQUIRE(task.curvesView()->accuracySeries()->count() == 10);
    CHECK(task.curvesView()->accuracySeries()->points().last().y() >= 0.9);
    REQUIRE(task.curvesView()->rationaleMassSeries()->count() == 10);
    CHECK(task.curvesView()->rationaleMassSeries()->points().last().y() >= 0.5);
    REQUIRE(waitUntil([&] { return task.explainView()->explanation() != nullptr; }));
    const Classification* c = task.classifyView()->classification();
    REQUIRE(c != nullptr);
    CHECK(c->label == "negative");  // "... but the acting was awful"
    // The attention's largest weight is on the second clause, after "but".
    const auto& weights = c->pooling.at(0);
    const auto top = std::max_element(weights.begin(), weights.end()) - weights.begin();
    CHECK(top > 5);
    CHECK(f.errors.isEmpty());
}

TEST_CASE("a Transformer classifier shows its rollout and every layer's and head's attention", "[ui][classify]") {
    TrainedWindow t(1, [](ClassifierTask& task) {
        ClassifierConfig config = task.panel()->config();
        config.architecture = ClassifierArchitecture::Transformer;
        config.layers = 2;
        config.heads = 4;
        task.panel()->setConfig(config);
        task.classifyView()->setText(QStringLiteral("the acting was awful"));
    });
    ClassifierTask& task = t.task;
    WindowFixture& f = t.f;
    task.classifyView()->classifyButton()->click();
    REQUIRE(waitUntil([&] {
        const Classification* c = task.classifyView()->classification();
        return c && !c->rollout.empty();
    }));
    const Classification& c = *task.classifyView()->classification();
    CHECK(c.tokens.front() == kClsToken);
    REQUIRE(task.classifyView()->strip()->rows().size() == 1);  // the rollout over the words, without [CLS]
    CHECK(task.classifyView()->strip()->words().size() == static_cast<int>(c.tokens.size()) - 1);
    CHECK(task.classifyView()->heads()->layerCount() == 2);
    CHECK(task.classifyView()->heads()->headCount() == 4);

    // Live ablation: Switch Heads Off, then a click on layer 1's first head; the text is classified
    // again without it, the line compares both, All On brings the full model back.
    ClassifyView* view = task.classifyView();
    const std::vector<double> full = c.probabilities;
    REQUIRE(f.window->showTab(QStringLiteral("classify")));
    REQUIRE(view->ablationButton()->isVisibleTo(view));
    view->ablationButton()->click();
    REQUIRE(view->ablationMode());
    const QPoint head = view->heads()->thumbnailRect(0, 0).center().toPoint();
    QTest::mouseClick(view->heads(), Qt::LeftButton, Qt::NoModifier, head);
    REQUIRE(view->switchedOff() == std::vector<HeadId>{HeadId{MapKind::Encoder, 0, 0}});
    REQUIRE(waitUntil([&] { return !view->ablationSummary().isEmpty(); }));
    INFO(view->ablationSummary().toStdString());
    CHECK(view->ablationSummary().contains(QStringLiteral("1 head off")));
    CHECK(view->ablationSummary().contains(QStringLiteral("every head on")));
    CHECK(view->classification()->probabilities != full);
    double rolled = 0;
    for (float w : view->classification()->rollout) rolled += w;
    CHECK(rolled == Approx(1.0).epsilon(1e-4));
    QTest::mouseClick(view->heads(), Qt::LeftButton, Qt::NoModifier, head);  // on again
    REQUIRE(waitUntil([&] { return view->switchedOff().empty() && view->classification()->probabilities == full; }));
    CHECK(view->ablationSummary().isEmpty());
    view->setSwitchedOff({HeadId{MapKind::Encoder, 1, 2}, HeadId{MapKind::Encoder, 1, 3}});
    REQUIRE(waitUntil([&] { return view->ablationSummary().contains(QStringLiteral("2 heads off")); }));
    view->setAblationMode(false);  // leaving the mode switches every head on
    REQUIRE(waitUntil([&] { return view->switchedOff().empty() && view->classification()->probabilities == full; }));

    // Importance: the 8 encoder heads switched off in turn over the run's validation texts, metric
    // accuracy; only the encoder's grid is shown.
    measureImportance(*f.window, QStringLiteral("class-importance"), task.importanceView(), 8, "accuracy", f.dir);
    CHECK(task.importanceView()->report().items == std::min<std::size_t>(200, task.session()->model().validationTexts));
    CHECK(task.importanceView()->status().contains(QStringLiteral("(validation)")));
    CHECK(task.importanceView()->grid(MapKind::Encoder)->isVisibleTo(task.importanceView()));
    CHECK_FALSE(task.importanceView()->grid(MapKind::Cross)->isVisibleTo(task.importanceView()));
    CHECK(f.errors.isEmpty());
}

TEST_CASE("a dropped TSV becomes the classifier's corpus; a broken one is reported with its line", "[ui][classify]") {
    WindowFixture f;
    MainWindow& w = *f.window;
    chooseTask(w, QStringLiteral("classify"));
    ClassifierTask& task = *w.task<ClassifierTask>();
    REQUIRE(waitUntil([&] { return task.corpus() && !task.isLoadingData(); }));
    const QString good = f.dir.filePath(QStringLiteral("reviews.tsv"));
    QFile file(good);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write("a fine film\tpositive\na dull film\tnegative\nfine acting\tpositive\n");
    file.close();
    task.openFiles({good});
    REQUIRE(waitUntil([&] { return task.corpus()->examples.size() == 3 && !task.isLoadingData(); }));
    CHECK(task.panel()->data().dataset == QStringLiteral("file"));
    CHECK(task.textsView()->table()->model()->rowCount() == 3);

    const QString bad = f.dir.filePath(QStringLiteral("broken.tsv"));
    QFile broken(bad);
    REQUIRE(broken.open(QIODevice::WriteOnly));
    broken.write("a fine film\tpositive\nno tab on this line\n");
    broken.close();
    task.openFiles({bad});
    REQUIRE(waitUntil([&] { return !f.errors.isEmpty(); }));
    CHECK(f.errors.front().title == ClassifierTask::tr("Cannot Open Corpus"));
    CHECK(f.errors.front().message.contains(QStringLiteral("broken.tsv:2")));
    CHECK(task.corpus()->examples.size() == 3);  // the corpus that was open stays, and the panel says so
    CHECK(task.panel()->data().path == good);
}
