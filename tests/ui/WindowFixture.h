#pragma once
// The main window as the GUI tests drive it: its settings in a temporary folder (the machine's own
// settings are neither read nor changed), errors recorded instead of shown in message boxes, and
// every question answered without a dialog. One fixture for every test that opens a MainWindow.
#include "task/BuiltinTasks.h"
#include "task/classify/ClassifierTask.h"
#include "task/images/ImageTask.h"
#include "task/translate/TranslationTask.h"
#include "views/heads/ImportanceView.h"
#include "window/MainWindow.h"

#include "base/translation/Datasets.h"

#include <catch2/catch.hpp>

#include <QComboBox>
#include <QFileInfo>
#include <QList>
#include <QMessageBox>
#include <QSettings>
#include <QString>
#include <QStringList>

#include <QLineSeries>
#include <QPushButton>
#include <QTableWidget>
#include <map>
#include <memory>
#include <utility>

#include "TempDir.h"
#include "ui/UiTestSupport.h"

namespace attnlab {

// The window's translation task, as the tests reach it.
inline TranslationTask& translation(MainWindow& w) { return *w.task<TranslationTask>(); }
inline const TranslationTask& translation(const MainWindow& w) { return *w.task<TranslationTask>(); }

}  // namespace attnlab

namespace attnlab::test {

struct ReportedError {
    QString title;
    QString message;
};

struct WindowOptions {
    // False: only the settings folder is set up; the test opens the window with openWindow() when
    // it is ready (e.g. after installing a translation).
    bool createWindow = true;
    // The default dataset loads at start; waiting for it means it cannot land after the test's own.
    bool waitForCorpus = true;
    // The answer to every question (unsaved training: Discard; the language notice: Ok).
    QMessageBox::StandardButton answer = QMessageBox::Discard;
    // Tasks the window gets after the built-in ones (a test's own task).
    std::vector<TaskFactory> extraTasks;
};

class WindowFixture {
public:
    TempDir dir;  // the settings live in dir/settings; tests may put their files here too
    std::unique_ptr<MainWindow> window;
    QList<ReportedError> errors;  // what the window reported, in order
    QStringList questions;        // the text of every question it asked, in order

    explicit WindowFixture(const WindowOptions& options = WindowOptions()) : options_(options) {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath(QStringLiteral("settings")));
        QSettings().clear();  // a fresh folder is empty already; this makes it certain
        if (options_.createWindow) openWindow();
    }
    ~WindowFixture() { closeWindow(); }
    WindowFixture(const WindowFixture&) = delete;
    WindowFixture& operator=(const WindowFixture&) = delete;

    // A new window (closing and destroying the previous one), wired to record errors and answer
    // questions; with waitForCorpus, returns once the default dataset has loaded.
    MainWindow& openWindow() {
        closeWindow();
        std::vector<TaskFactory> tasks = taskFactories();
        tasks.insert(tasks.end(), options_.extraTasks.begin(), options_.extraTasks.end());
        window = std::make_unique<MainWindow>(tasks);
        window->setErrorReporter([this](const QString& title, const QString& message) {
            errors.append({title, message});
        });
        const QMessageBox::StandardButton answer = options_.answer;
        window->setPrompt([this, answer](const QString&, const QString& text, QMessageBox::StandardButtons) {
            questions << text;
            return answer;
        });
        if (options_.waitForCorpus)
            REQUIRE(waitUntil([&] { return translation(*window).corpus().corpus != nullptr && !translation(*window).isLoadingCorpus(); }));
        return *window;
    }

    // Closes the window (answering its question, if it asks) and destroys it.
    void closeWindow() {
        if (!window) return;
        window->close();
        window.reset();
    }

    // The 64 pairs of five-letter "copy" the window-level training tests run on.
    void loadTinyCopy() {
        DatasetOptions data;
        data.size = 64;
        data.maxLen = 5;
        translation(*window).loadCorpus(CorpusSource::builtin(QStringLiteral("copy"), data));
        REQUIRE(waitUntil([&] {
            return translation(*window).corpus().source.dataset == QLatin1String("copy") && !translation(*window).isLoadingCorpus();
        }));
    }

    QString firstSource() const { return QString::fromStdString(translation(*window).corpus().corpus->pairs.at(0).source); }

private:
    WindowOptions options_;
};

// A task's model (ClassifierTask, ImageTask) saved to `path`, waited for, then reset.
template <typename Task>
void saveThenReset(Task& task, const QString& path) {
    task.saveModelTo(path);
    REQUIRE(waitUntil([&] { return !task.session()->isModified(); }));
    CHECK(QFileInfo(path).size() > 0);

    task.session()->reset();
    CHECK_FALSE(task.session()->hasModel());
}

// The task's model opened from `path`, waited for.
template <typename Task>
void openAndWait(Task& task, const QString& path) {
    task.openModel(path);
    REQUIRE(waitUntil([&] { return task.session()->hasModel() && !task.session()->isBusy(); }));
}

// The Importance view of the tab `tab` measured as the user does it (Measure pressed, the report
// waited for), then the checks every task's study answers: `heads` heads, each importance >= 0 and
// each layer's importances of norm 1 (or all 0), the pruning curve from 0 to every head off, the
// table and the CSV one row per head, the chart exported.
inline void measureImportance(MainWindow& w, const QString& tab, ImportanceView* view, std::size_t heads,
                              const std::string& metric, const TempDir& dir) {
    REQUIRE(w.showTab(tab));
    REQUIRE(view->measureButton()->isEnabled());
    QTest::mouseClick(view->measureButton(), Qt::LeftButton);
    REQUIRE(waitUntil([&] { return view->hasReport(); }, 60000));
    INFO(view->status().toStdString());
    const HeadStudyReport& r = view->report();
    CHECK(r.metric == metric);
    REQUIRE(r.heads.size() == heads);
    std::map<std::pair<int, int>, double> norms;  // (kind, layer) -> sum of squares
    for (const HeadStudyEffect& e : r.heads) {
        CHECK(e.importance >= 0.0);
        norms[{static_cast<int>(e.head.kind), e.head.layer}] += e.importance * e.importance;
    }
    for (const auto& [layer, squares] : norms) CHECK((squares == Approx(1.0).epsilon(1e-6) || squares == 0.0));
    CHECK(view->pruningSeries()->count() == static_cast<int>(heads) + 1);
    CHECK(view->table()->rowCount() == static_cast<int>(heads));
    const QByteArray csv = view->csv();
    CHECK(csv.count('\n') == static_cast<int>(heads) + 1);
    CHECK(csv.startsWith("kind,layer,head,importance,gradient,delta_loss,delta_" +
                         QByteArray::fromStdString(metric).toLower() + ","));
    QString error;
    CHECK(w.exportCurrentView(dir.filePath(QStringLiteral("pruning.png")), 1.0, &error));
    CHECK(w.exportCurrentView(dir.filePath(QStringLiteral("heads.csv")), 1.0, &error));
}

// Picks the task `id` in the window's Task box, as the user does.
inline void chooseTask(MainWindow& w, const QString& id) {
    QComboBox* box = w.taskChooser();
    const int index = box->findData(id);
    REQUIRE(index >= 0);
    box->setCurrentIndex(index);
}

}  // namespace attnlab::test
