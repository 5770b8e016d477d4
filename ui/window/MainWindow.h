#pragma once
// AttnLab's main window: the Task box and the current task's setup page on the left, the views in
// the middle, grouped by the ViewNavigator (Data, Watch, Explain, Experiments), the actions in the
// menus and toolbars, progress in the status bar. It knows the tasks only through the Task
// interface (ui/task/Task.h): it lists them, shows the current one's page, views, actions and
// status-bar parts, and forwards the user's requests (open, save, drop, lessons, close) to it. Its
// parts are their own classes: WindowActions (actions, menus, toolbar), FigureExport (the export
// dialogs) and WindowSettings (what the window keeps between runs). All model work happens on the
// tasks' worker threads, so the window never freezes.
#include "task/Task.h"
#include "views/ViewNavigator.h"

#include "render/Colormap.h"

#include <QDeadlineTimer>
#include <QMainWindow>
#include <QMap>
#include <QMessageBox>

#include <functional>
#include <vector>

class QComboBox;
class QFrame;
class QLabel;
class QStackedWidget;

namespace attnlab {

class FigureExport;
class HeatmapWidget;
class WindowActions;
struct WindowSettings;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // The window with these tasks, in Task box order (taskFactories(): translation, text
    // classification, images); the first is current until a view or lesson of another is chosen.
    explicit MainWindow(QWidget* parent = nullptr);
    explicit MainWindow(const std::vector<TaskFactory>& tasks, QWidget* parent = nullptr);
    ~MainWindow() override;

    // The tasks, in Task box order; one by id (nullptr if unknown); the current one.
    const QList<Task*>& tasks() const { return tasks_; }
    Task* task(const QString& id) const;
    Task* currentTask() const { return current_; }
    template <typename T>
    T* task() const {
        for (Task* t : tasks_)
            if (auto* found = dynamic_cast<T*>(t)) return found;
        return nullptr;
    }
    // Makes the task current (by its id, or by the id of a model task it trains: "caption" ->
    // "images"); false for an unknown id.
    bool switchTask(const QString& id);

    // Sets up a lesson of any task (switching to it) and starts training it; false for an unknown
    // id. Asks before discarding unsaved training.
    bool startLesson(const QString& id);
    // attnlab --demo DATASET: the first task whose demo takes the dataset (Task::startDemo) becomes
    // current and starts it; false if none does.
    bool startDemo(const QString& dataset);
    QString currentLesson() const;
    // A lesson file (docs/lessons.md): switches to its task and starts it. A broken file is
    // reported in one line naming the file and the field ("Cannot Open Lesson"); false then.
    bool openLesson(const QString& path);
    // Writes the current task's setup as a lesson file that reopens to the same setup; false (and
    // reported) when the task cannot say its setup as a lesson or the file cannot be written.
    bool saveSetupAsLesson(const QString& path);
    // Whether a path names a lesson file (*.json whose format is "attnlab-lesson").
    static bool isLessonFile(const QString& path);
    // The views by name (every task's; a view of another task switches the task first); false for
    // an unknown name. ViewNavigator::allNames() lists them.
    bool showTab(const QString& name);
    QString currentTabName() const;
    QStringList tabNames() const;  // the current task's, in navigation order
    ViewNavigator* navigator() const { return navigator_; }
    QComboBox* taskChooser() const { return task_; }
    // A part of the current task's setup page ("data", "model", "training" for translation).
    bool showSetupPage(const QString& name);
    // Files from the command line or a drop: the current task opens them (a model, data, ...).
    void openFiles(const QStringList& paths);
    // Writes the figure of the current view (PNG at scale, SVG, PDF; CSV/NPY for heatmaps).
    bool exportCurrentView(const QString& path, double scale, QString* error);

    // Errors that need the user's attention; a message box by default (tests record them instead).
    using ErrorReporter = std::function<void(const QString& title, const QString& message)>;
    void setErrorReporter(ErrorReporter reporter);
    // Questions before unsaved training is discarded (close: Save, Discard or Cancel; a new run or
    // reset: Discard or Cancel), and the notice that a new language applies at the next start (Ok).
    // A message box by default; tests answer them instead.
    using Prompt = std::function<QMessageBox::StandardButton(const QString& title, const QString& text,
                                                             QMessageBox::StandardButtons buttons)>;
    void setPrompt(Prompt prompt);

    ColormapId colormap() const { return colormap_; }
    void setColormap(ColormapId id);
    void setShowNumbers(bool on);
    // The threshold of every heatmap, head grid and line view (HeatmapOptions::massShare), and of
    // those made later; not kept between sessions (a learner's first maps show every weight).
    void setMassShare(double share);
    // Stores the interface language ("" follows the system; else a Translations::available() code)
    // and says that it applies at the next start.
    void setLanguage(const QString& language);

    static QIcon applicationIcon();

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;  // the toolbar fits the new width
    void changeEvent(QEvent* event) override;        // and the new font
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createTasks(const std::vector<TaskFactory>& factories);
    WindowSettings windowSettings();  // the settings kept between runs, and where they live
    QWidget* createLessonBar();
    void showLessonCard();  // the current task's lesson card, if it has one
    void connectActions();
    void updateTitle();
    void updateActions();
    // A run control (Run menu, toolbar, F5 ...) on the current task, if its run state allows it now.
    void runCurrent(RunCommand command);
    HeatmapWidget* currentHeatmap() const;
    void reportError(const QString& title, const QString& message);
    void showStatus(const QString& message, int timeoutMs);
    QMessageBox::StandardButton ask(const QString& title, const QString& text, QMessageBox::StandardButtons buttons,
                                    QMessageBox::StandardButton defaultButton);
    void showAbout();
    void openLessonDialog();
    void saveLessonDialog();

    // A task's status message and until when it shows (the window shows only the current task's; the
    // others' wait, and a switch shows the new task's if it has not expired, else clears the bar).
    struct TaskStatus {
        QString message;
        QDeadlineTimer until;
    };
    void showTaskStatus(int index);

    QList<Task*> tasks_;
    std::vector<TaskStatus> statuses_;  // one per task, by index
    Task* current_ = nullptr;
    WindowActions* actions_ = nullptr;
    FigureExport* export_;
    ViewNavigator* navigator_;
    bool shuttingDown_ = false;
    QString lastDirectory_;
    ColormapId colormap_ = ColormapId::Viridis;
    bool showNumbers_ = false;
    ErrorReporter errorReporter_;
    Prompt prompt_;

    QComboBox* task_;
    QFrame* lessonBar_;
    QLabel* lessonText_;
    QMap<const Task*, QString> lessonCards_;  // each task's lesson card, until the user closes it
    QStackedWidget* setupStack_;
};

}  // namespace attnlab
