#pragma once
// What every task of AttnLab provides to the main window, and all the window knows of it. A task
// (translation, text classification, images, forecasting, ...) owns its setup page, its views (registered with
// the ViewNavigator under its id), its model session on a worker thread, its lessons and its own
// actions; the window lists the tasks in its Task box, shows the current one's page, views, actions
// and status-bar parts, and forwards what the user does (open or save a model, drop a file, start
// a lesson, close the window) to it. Adding a task is a folder under ui/task/ and one line in
// BuiltinTasks.cpp (docs/ARCHITECTURE.md, "Adding a task"); nothing in ui/window/ names a task.
#include "base/lesson/Lesson.h"
#include "session/LessonCard.h"

#include <QList>
#include <QMessageBox>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

class QAction;
class QMainWindow;
class QMenu;
class QSettings;
class QWidget;

namespace attnlab {

class ModelSession;
class ViewNavigator;

// How a task asks the window: a question, an error report, a status-bar message.
struct TaskHooks {
    std::function<QMessageBox::StandardButton(const QString&, const QString&, QMessageBox::StandardButtons,
                                              QMessageBox::StandardButton)>
        ask;
    std::function<void(const QString& title, const QString& message)> reportError;
    std::function<void(const QString& message, int timeoutMs)> status;
};

// What a task is given when it is made: the window (parent of its dialogs), the navigator its views
// are registered with, and the hooks.
struct TaskContext {
    QMainWindow* window = nullptr;
    ViewNavigator* navigator = nullptr;
    TaskHooks hooks;
    QString* lastDirectory = nullptr;  // the folder the file dialogs of every task start in
};

// The window's run controls (the Run menu and the toolbar): the same actions and shortcuts for every
// task, asked of the current one.
enum class RunCommand { Start, Pause, Step, Stop, Reset };

// What the run controls may do now. A task that cannot pause leaves `pausable` false: Pause and Step
// are then not shown at all.
struct RunState {
    bool pausable = false;  // the task pauses and steps its runs
    bool paused = false;    // a paused run: Start reads Resume and continues it
    bool start = false;     // enabled: Start (a new model from the settings), or Resume when paused
    bool pause = false;
    bool step = false;
    bool stop = false;
    bool reset = false;     // discard the model (and its curves)
};

class Task : public QObject {
    Q_OBJECT

public:
    explicit Task(const TaskContext& context);
    ~Task() override;

    // ---- what it is ----
    virtual QString id() const = 0;       // a base/TaskIds.h id: "translate", "classify", "images"
    virtual QString title() const = 0;    // the Task box's entry, in the interface language
    virtual QString summary() const = 0;  // its tooltip
    // The setup dock's page while the task is current.
    virtual QWidget* setupPage() const = 0;
    // Named parts of the setup page ("data", "model", "training"); false if it has no such part.
    virtual bool showSetupPart(const QString& name);
    // The view shown when the task is chosen and none of its views was shown before.
    virtual QString defaultView() const = 0;

    // ---- being current ----
    // The task became the current one (its data is made on first use) / another one did.
    virtual void activate() {}
    virtual void deactivate() {}
    // Actions only this task has: put in the File menu (before Open Model), in a menu of their own,
    // in the toolbar (after Save Model) and in the View menu; the window shows them while the task
    // is current. Permanent status-bar widgets, shown likewise.
    virtual QList<QAction*> fileActions() const { return {}; }
    virtual QList<QMenu*> menus() const { return {}; }
    virtual QList<QAction*> toolBarActions() const { return {}; }
    virtual QList<QAction*> viewActions() const { return {}; }
    virtual QList<QWidget*> statusWidgets() const { return {}; }

    // ---- the model ----
    // The task's model session (ModelSession.h): its run, requests and their answers.
    virtual ModelSession* modelSession() const = 0;  // null only for a task without a model
    virtual bool hasModel() const = 0;
    virtual bool isModified() const = 0;  // trained since built, saved or opened
    virtual bool isBusy() const = 0;      // a run, a load or a save is in progress
    virtual void openModel(const QString& path) = 0;
    virtual void openModelDialog() = 0;
    // Save Model (to the file it came from when it has one, else asks) and Save Model As.
    virtual void saveModel() = 0;
    virtual void saveModelAs() = 0;
    // The window title's part: the model file or the data; empty if there is neither.
    virtual QString titleText() const = 0;

    // ---- the run ----
    // What Start, Pause, Step, Stop and Reset may do now; the task emits actionsChanged() when it
    // changes. run() is called only for a command runState() enables.
    virtual RunState runState() const = 0;
    virtual void run(RunCommand command) = 0;

    // ---- lessons ----
    virtual QList<LessonCard> lessons() const { return {}; }
    // attnlab --demo DATASET: the task's demonstration on a built-in dataset of its own (translation:
    // a Transformer training on it); false if the task has none or the dataset is not its.
    virtual bool startDemo(const QString& dataset) { (void)dataset; return false; }
    virtual bool startLesson(const QString& id) = 0;  // false for an id that is not among lessons()
    virtual QString lesson() const = 0;               // the lesson set up last; empty if none
    // A lesson file of this task (a built-in one, or one the user opened: File > Open Lesson,
    // --lesson FILE, a drop): sets up its data, model, training, probe, view and hidden or locked
    // controls, then trains. False if the task takes no lesson files, the user cancelled, or the
    // lesson cannot be set up (reported through the hooks in one line naming the file).
    virtual bool startLessonFile(const LessonFile& lesson) { (void)lesson; return false; }
    // File > Save Setup as Lesson: the current setup (data, model, training, probe, view, hidden
    // and locked controls) as a lesson of this task that reopens to the same setup; false with the
    // reason (in the interface language) when the task cannot say it as a lesson.
    virtual bool setupAsLesson(LessonFile& lesson, QString* why) const {
        (void)lesson;
        if (why != nullptr) *why = tr("This task cannot save its setup as a lesson.");
        return false;
    }

    // ---- files from outside ----
    // Whether a drop of these local paths is for this task (one file by default).
    virtual bool acceptsDrop(const QStringList& paths) const { return paths.size() == 1; }
    // Whether these paths are a model only this task opens, whatever task is shown (the language
    // model's Hugging Face folder): the window switches to it before openFiles. False by default.
    virtual bool claimsFiles(const QStringList& paths) const { (void)paths; return false; }
    // A dropped file or one named on the command line: a model, data, an image, ...
    virtual void openFiles(const QStringList& paths) = 0;

    // ---- settings and closing ----
    virtual void restoreSettings(QSettings& settings) { (void)settings; }
    virtual void saveSettings(QSettings& settings) const { (void)settings; }
    // Before the window closes: false if the user cancelled (asked to save a modified model; a
    // save runs to its end before this returns).
    virtual bool confirmClose() = 0;
    // Stops the worker and waits for it (bounded); nothing is answered after it.
    virtual void shutdown() = 0;

Q_SIGNALS:
    void lessonStarted(const QString& title, const QString& summary);
    void titleChanged();      // titleText() or isModified() changed
    void actionsChanged();    // hasModel(), isBusy(), runState() or what a view exports changed
    void dataReady();         // the task's data (corpus, images, ...) has loaded

protected:
    const TaskContext& context() const { return context_; }
    QWidget* windowWidget() const;
    ViewNavigator* navigator() const { return context_.navigator; }
    const TaskHooks& hooks() const { return context_.hooks; }
    QString& lastDirectory() const;

private:
    TaskContext context_;
    mutable QString ownDirectory_;  // when the context has none
};

// Makes a task; it is a child of context.window, which deletes it.
using TaskFactory = std::function<Task*(const TaskContext&)>;

}  // namespace attnlab
