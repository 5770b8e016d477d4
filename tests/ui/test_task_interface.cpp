// A task is all the window needs: one more task written only here (a setup page, one view, one
// lesson) appears in the Task box, switches in and out, gets its lesson in the Lessons menu and the
// files dropped while it is current, without a line of ui/window/ knowing it.
#include "task/Task.h"
#include "views/View.h"
#include "views/ViewNavigator.h"

#include "ui/WindowFixture.h"

#include <QAction>
#include <QComboBox>
#include <QFrame>
#include <QLabel>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QStackedWidget>
#include <QStatusBar>

using namespace attnlab;

namespace {

class ToyView : public QWidget, public View {
public:
    QString viewTitle() const override { return QStringLiteral("Toy"); }
    QString viewToolTip() const override { return QStringLiteral("What the toy task shows."); }
    void runStarted() override { ++runs; }
    int runs = 0;
};

class ToyTask : public Task {
public:
    explicit ToyTask(const TaskContext& c) : Task(c), page_(new QLabel(QStringLiteral("toy setup"))) {
        view_ = new ToyView;
        navigator()->addView(ViewGroup::Watch, QStringLiteral("toy-view"), view_, id());
        status_ = new QLabel(QStringLiteral("toy status"));
    }
    QString id() const override { return QStringLiteral("toy"); }
    QString title() const override { return QStringLiteral("Toy task"); }
    QString summary() const override { return QStringLiteral("A task that exists only in this test."); }
    QWidget* setupPage() const override { return page_; }
    QString defaultView() const override { return QStringLiteral("toy-view"); }
    void activate() override { ++activations; }
    void deactivate() override { ++deactivations; }
    QList<QWidget*> statusWidgets() const override { return {status_}; }
    ModelSession* modelSession() const override { return nullptr; }
    bool hasModel() const override { return trained; }
    bool isModified() const override { return trained; }
    bool isBusy() const override { return false; }
    void openModel(const QString& path) override { opened << path; }
    void openModelDialog() override {}
    void saveModel() override {}
    void saveModelAs() override {}
    QString titleText() const override { return QStringLiteral("toy data"); }
    QList<LessonCard> lessons() const override {
        return {LessonCard{QStringLiteral("toy-lesson"), QStringLiteral("The toy lesson"),
                           QStringLiteral("What to look for."), QStringLiteral("toy-view")}};
    }
    bool startLesson(const QString& lessonId) override {
        if (lessonId != QLatin1String("toy-lesson")) return false;
        lesson_ = lessonId;
        trained = true;
        view_->runStarted();
        Q_EMIT lessonStarted(lessons().front().title, lessons().front().summary);
        Q_EMIT titleChanged();
        return true;
    }
    QString lesson() const override { return lesson_; }
    RunState runState() const override {
        RunState s;
        s.start = !running;
        s.stop = running;
        s.reset = trained && !running;
        return s;
    }
    void run(RunCommand command) override {
        commands.push_back(command);
        if (command == RunCommand::Start) running = trained = true;
        if (command == RunCommand::Stop) running = false;
        if (command == RunCommand::Reset) trained = false;
        Q_EMIT actionsChanged();
    }
    void openFiles(const QStringList& paths) override { opened << paths; }
    bool confirmClose() override { return true; }
    void shutdown() override { ++shutdowns; }

    int activations = 0, deactivations = 0, shutdowns = 0;
    bool trained = false, running = false;
    std::vector<RunCommand> commands;
    QStringList opened;
    ToyView* view_;

private:
    QLabel* page_;
    QLabel* status_;
    QString lesson_;
};

}  // namespace

TEST_CASE("a task written outside the window plugs in through the Task interface", "[ui][tasks]") {
    test::WindowOptions options;
    options.extraTasks.push_back([](const TaskContext& c) -> Task* { return new ToyTask(c); });
    test::WindowFixture f(options);
    MainWindow& w = *f.window;
    auto* toy = w.task<ToyTask>();
    REQUIRE(toy != nullptr);
    const int builtin = static_cast<int>(taskFactories().size());  // the toy comes after them
    CHECK(static_cast<int>(w.tasks().size()) == builtin + 1);
    REQUIRE(w.taskChooser()->findData(QStringLiteral("toy")) == builtin);
    CHECK(w.taskChooser()->itemText(builtin) == QStringLiteral("Toy task"));
    CHECK(w.currentTask()->id() == QStringLiteral("translate"));
    CHECK(toy->activations == 0);
    CHECK_FALSE(toy->statusWidgets().front()->isVisibleTo(&w));

    // Chosen in the Task box: its page, its one view, its status part, its title.
    test::chooseTask(w, QStringLiteral("toy"));
    CHECK(w.currentTask() == toy);
    CHECK(toy->activations == 1);
    CHECK(w.tabNames() == QStringList({"toy-view"}));
    CHECK(w.currentTabName() == QStringLiteral("toy-view"));
    CHECK(toy->setupPage()->isVisibleTo(&w));
    CHECK(toy->statusWidgets().front()->isVisibleTo(&w));
    CHECK(w.windowTitle().startsWith(QStringLiteral("toy data")));
    w.openFiles({QStringLiteral("/tmp/some.toy")});
    CHECK(toy->opened == QStringList({"/tmp/some.toy"}));

    // The window's run controls (Run menu, toolbar, F5) act on it, as they do on every task: Start,
    // then Stop, then Reset; Pause and Step are not offered to a task that does not pause.
    QMenu* runMenu = w.findChild<QMenu*>(QStringLiteral("runMenu"));
    REQUIRE(runMenu != nullptr);
    auto runAction = [&](const QString& text) -> QAction* {
        for (QAction* a : runMenu->actions())
            if (a->iconText() == text) return a;
        return nullptr;
    };
    QAction* start = runAction(QStringLiteral("Start"));
    QAction* stop = runAction(QStringLiteral("Stop"));
    QAction* reset = runAction(QStringLiteral("Reset"));
    REQUIRE((start && stop && reset && runAction(QStringLiteral("Pause")) && runAction(QStringLiteral("Step"))));
    CHECK_FALSE(runAction(QStringLiteral("Pause"))->isVisible());
    CHECK_FALSE(runAction(QStringLiteral("Step"))->isVisible());
    CHECK(start->isEnabled());
    CHECK_FALSE(stop->isEnabled());
    CHECK(start->shortcut() == QKeySequence(Qt::Key_F5));
    start->trigger();
    CHECK(toy->commands == std::vector<RunCommand>{RunCommand::Start});
    CHECK_FALSE(start->isEnabled());
    REQUIRE(stop->isEnabled());
    stop->trigger();
    REQUIRE(reset->isEnabled());
    reset->trigger();
    CHECK(toy->commands == std::vector<RunCommand>{RunCommand::Start, RunCommand::Stop, RunCommand::Reset});
    CHECK_FALSE(reset->isEnabled());
    // Translation pauses and steps: its Pause and Step show again.
    test::chooseTask(w, QStringLiteral("translate"));
    CHECK(runAction(QStringLiteral("Pause"))->isVisible());
    CHECK(runAction(QStringLiteral("Step"))->isVisible());
    test::chooseTask(w, QStringLiteral("toy"));

    // Out again: translation's views and page come back; the toy's go.
    REQUIRE(w.showTab(QStringLiteral("heads")));
    CHECK(w.currentTask()->id() == QStringLiteral("translate"));
    CHECK(toy->deactivations == 2);  // once above, for translation's run controls
    CHECK_FALSE(w.tabNames().contains(QStringLiteral("toy-view")));
    CHECK_FALSE(toy->setupPage()->isVisibleTo(&w));
    CHECK_FALSE(toy->statusWidgets().front()->isVisibleTo(&w));

    // Its lesson is in the Lessons menu and starts from there, switching to the task.
    QAction* entry = nullptr;
    for (QAction* menu : w.menuBar()->actions()) {
        if (!menu->menu()) continue;
        for (QAction* a : menu->menu()->actions())
            if (a->text() == QStringLiteral("The toy lesson")) entry = a;
    }
    REQUIRE(entry != nullptr);
    entry->trigger();
    CHECK(w.currentTask() == toy);
    CHECK(w.currentLesson() == QStringLiteral("toy-lesson"));
    CHECK(toy->view_->runs == 1);
    CHECK(w.isWindowModified());
    CHECK_FALSE(w.startLesson(QStringLiteral("no-such-lesson")));
    // The lesson card goes with its task.
    auto* card = w.findChild<QFrame*>(QStringLiteral("lessonBar"));
    REQUIRE(card != nullptr);
    CHECK(card->isVisibleTo(&w));
    test::chooseTask(w, QStringLiteral("translate"));
    CHECK_FALSE(card->isVisibleTo(&w));
    test::chooseTask(w, QStringLiteral("toy"));
    CHECK(card->isVisibleTo(&w));
    CHECK(w.currentTabName() == QStringLiteral("toy-view"));

    // A model task's id opens the window's task that trains it; an unknown id changes nothing.
    REQUIRE(w.switchTask(QStringLiteral("caption")));
    CHECK(w.currentTask()->id() == QStringLiteral("images"));
    CHECK_FALSE(w.switchTask(QStringLiteral("no-such-task")));
    CHECK(w.currentTask()->id() == QStringLiteral("images"));

    // Closing asks every task and shuts each down once.
    f.closeWindow();
    CHECK(f.errors.isEmpty());
}
