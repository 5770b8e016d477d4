// A fifth task written only in this file registers through the registries (core/base's model tasks
// and lesson schemas, attnlab-cli's front end and engine tasks, the window's tasks) and appears in
// `attnlab-cli train --task`, `train --help`, `lessons --check`, the window's Task box and its Lessons
// menu, without a line of it anywhere else. The CLI's commands run in this process (the engine's
// command table, as attnlab-cli-engine runs them).
#include "CliTasks.h"
#include "Dispatch.h"
#include "EngineTasks.h"
#include "base/TaskIds.h"
#include "base/lesson/Lesson.h"
#include "base/lesson/LessonSchema.h"
#include "task/BuiltinTasks.h"
#include "views/View.h"
#include "views/ViewNavigator.h"

#include "TempDir.h"
#include "ui/WindowFixture.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace attnlab;

namespace {

constexpr const char* kFifth = "fifth";

class FifthView : public QWidget, public View {
public:
    QString viewTitle() const override { return QStringLiteral("Fifth"); }
    QString viewToolTip() const override { return QStringLiteral("The fifth task's one view."); }
};

class FifthTask : public Task {
public:
    explicit FifthTask(const TaskContext& c) : Task(c), page_(new QLabel(QStringLiteral("fifth setup"))) {
        navigator()->addView(ViewGroup::Watch, QStringLiteral("fifth-view"), new FifthView, id());
    }
    QString id() const override { return QString::fromLatin1(kFifth); }
    QString title() const override { return QStringLiteral("Fifth task"); }
    QString summary() const override { return QStringLiteral("A task that exists only in this test."); }
    QWidget* setupPage() const override { return page_; }
    QString defaultView() const override { return QStringLiteral("fifth-view"); }
    ModelSession* modelSession() const override { return nullptr; }
    bool hasModel() const override { return false; }
    bool isModified() const override { return false; }
    bool isBusy() const override { return false; }
    void openModel(const QString&) override {}
    void openModelDialog() override {}
    void saveModel() override {}
    void saveModelAs() override {}
    QString titleText() const override { return {}; }
    RunState runState() const override { return RunState{}; }
    void run(RunCommand) override {}
    QList<LessonCard> lessons() const override { return fifthLessons(); }
    bool startLesson(const QString& lessonId) override { return lessonId == QLatin1String("fifth-lesson"); }
    QString lesson() const override { return {}; }
    void openFiles(const QStringList&) override {}
    bool confirmClose() override { return true; }
    void shutdown() override {}

    static QList<LessonCard> fifthLessons() {
        return {LessonCard{QStringLiteral("fifth-lesson"), QStringLiteral("The fifth lesson"),
                           QStringLiteral("What to look for."), QStringLiteral("fifth-view")}};
    }

private:
    QLabel* page_;
};

// Every registry's entry for the fifth task; `trained` counts its train command's runs.
void registerFifthTask(int* trained) {
    tasks::registerModelTask({kFifth, kFifth});

    LessonSchema schema;
    schema.task = kFifth;
    schema.datasets = [] { return std::vector<std::string>{"fifth-data"}; };
    schema.dataFields = {"length"};
    schema.controls = {"speed", "size"};
    registerLessonSchema(schema);

    cli::FrontTask front;
    front.id = kFifth;
    front.trainHelp = "Fifth: attnlab-cli train --task fifth --out MODEL.safetensors\n";
    front.inspect = [](const cli::Args&) {
        std::cout << "fifth data: ok\n";
        return 0;
    };
    cli::registerFrontTask(front);

    cli::EngineTask engine;
    engine.id = kFifth;
    engine.train = [trained](const cli::Args& args) {
        ++*trained;
        return args.back() == "fifth.safetensors" ? 0 : 2;
    };
    cli::registerEngineTask(engine);

    registerTask({QString::fromLatin1(kFifth), [](const TaskContext& c) -> Task* { return new FifthTask(c); },
                  FifthTask::fifthLessons});
}

struct CliRun {
    int code = -1;
    std::string out, err;
};

// attnlab-cli ARGS in this process, as attnlab-cli-engine runs it.
CliRun runCli(std::vector<std::string> args) {
    args.insert(args.begin(), "attnlab-cli");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::ostringstream out, err;
    std::streambuf* oldOut = std::cout.rdbuf(out.rdbuf());
    std::streambuf* oldErr = std::cerr.rdbuf(err.rdbuf());
    CliRun r;
    r.code = cli::dispatch(static_cast<int>(args.size()), argv.data(), cli::allCommands());
    std::cout.rdbuf(oldOut);
    std::cerr.rdbuf(oldErr);
    r.out = out.str();
    r.err = err.str();
    return r;
}

std::string lessonJson(const std::string& control) {
    return R"({"format": "attnlab-lesson", "version": 1, "id": "fifth-lesson", "task": "fifth",
               "title": "The fifth lesson", "card": "What to look for.",
               "data": {"dataset": "fifth-data", "size": 10, "length": 12},
               "controls": {"hide": [")" + control + R"("]}})";
}

}  // namespace

TEST_CASE("a fifth task written only in a test registers through the registries", "[tasks][registries]") {
    int trained = 0;
    registerFifthTask(&trained);

    // The CLI: train --task fifth runs its train command; its help is part of train's; inspect --task
    // reaches it; an unknown task's error lists it.
    const CliRun train = runCli({"train", "--task", "fifth", "--out", "fifth.safetensors"});
    INFO(train.err);
    CHECK(train.code == 0);
    CHECK(trained == 1);
    const CliRun help = runCli({"train", "--help"});
    CHECK(help.code == 0);
    CHECK(help.out.find("Fifth: attnlab-cli train --task fifth") != std::string::npos);
    CHECK(help.out.find("fifth") != help.out.rfind("fifth"));  // also in the list of --task values
    const CliRun inspect = runCli({"inspect", "--task", "fifth"});
    CHECK(inspect.code == 0);
    CHECK(inspect.out == "fifth data: ok\n");
    const CliRun unknown = runCli({"train", "--task", "sixth", "--out", "x.safetensors"});
    CHECK(unknown.code == 2);
    CHECK(unknown.err.find("fifth") != std::string::npos);

    // lessons --check: its lesson schema decides the datasets, fields and controls.
    test::TempDir dir;
    const std::string good = dir.filePath(QStringLiteral("good.json")).toStdString();
    const std::string bad = dir.filePath(QStringLiteral("bad.json")).toStdString();
    std::ofstream(good) << lessonJson("speed");
    std::ofstream(bad) << lessonJson("colour");
    const CliRun ok = runCli({"lessons", "--check", good});
    INFO(ok.err);
    CHECK(ok.code == 0);
    CHECK(readLessonFile(good).task == kFifth);
    const CliRun refused = runCli({"lessons", "--check", bad});
    CHECK(refused.code == 3);
    CHECK(refused.err.find("unknown control 'colour' (one of speed, size)") != std::string::npos);

    // The window: its entry in the Task box (after the built-in tasks) and its lesson in the Lessons
    // menu, from the window's registry alone.
    test::WindowFixture f;
    MainWindow& w = *f.window;
    const int index = w.taskChooser()->findData(QString::fromLatin1(kFifth));
    REQUIRE(index >= 0);
    CHECK(w.taskChooser()->itemText(index) == QStringLiteral("Fifth task"));
    QAction* entry = nullptr;
    for (QAction* menu : w.menuBar()->actions()) {
        if (!menu->menu()) continue;
        for (QAction* a : menu->menu()->actions())
            if (a->text() == QStringLiteral("The fifth lesson")) entry = a;
    }
    REQUIRE(entry != nullptr);
    entry->trigger();
    CHECK(w.currentTask()->id() == QString::fromLatin1(kFifth));
    CHECK(allLessonCards().back().id == QStringLiteral("fifth-lesson"));
}
