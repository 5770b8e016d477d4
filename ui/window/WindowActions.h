#pragma once
// The main window's actions, menus and toolbar. It creates them and lays them out; MainWindow
// connects them to what they do. Built from the tasks' own actions, the navigator's views (View
// menu, Ctrl+1..9) and the tasks' lessons (Lessons menu), so no list is written twice.
#include "render/Colormap.h"

#include <QObject>
#include <QString>
#include <utility>
#include <vector>

class QAction;
class QActionGroup;
class QComboBox;
class QLabel;
class QSlider;
class QMainWindow;
class QMenu;
class QToolBar;

namespace attnlab {

class Task;
class ViewNavigator;

class WindowActions : public QObject {
    Q_OBJECT

public:
    explicit WindowActions(QMainWindow* window);

    // Menus and toolbars; call once, after the tasks have registered their views with the navigator.
    void createMenus(QMainWindow* window, ViewNavigator* navigator, const QList<Task*>& tasks);
    void createToolBar(QMainWindow* window, const QList<Task*>& tasks);

    // The toolbar at the window's width: its buttons show their text where there is room, else only
    // their icons (Start keeps its text; every button keeps its tooltip). Call when the window's
    // width, its font or the current task changes.
    void fitToolBars(QMainWindow* window);

    // The colour map as the menu and the toolbar's box show it.
    void showColormap(ColormapId id);
    void showMassShare(double share);
    void showLanguage(const QString& code);
    // The task changed: the View menu lists its views (Ctrl+1..9 for the first nine), and only its
    // own actions, menus and toolbar show.
    void showTask(const Task* task, ViewNavigator* navigator);

    // Display names of the colour maps; Colormap::nameOf() stays the untranslated key.
    static QString colormapLabel(ColormapId id);

    QAction* openLesson;         // File > Open Lesson… (a lesson file, docs/lessons.md)
    QAction* saveSetupAsLesson;  // File > Save Setup as Lesson…
    QAction* openModel;
    QAction* saveModel;
    QAction* saveModelAs;
    // The run controls (Run menu and toolbar), the same for every task: MainWindow asks the current
    // task (Task::runState, Task::run). Start and Resume share F5; only one of them shows.
    QAction* start;
    QAction* resume;
    QAction* pause;
    QAction* step;
    QAction* stop;
    QAction* reset;
    QAction* exportImage;
    QAction* exportMatrix;
    QAction* quit;
    QAction* numbers;
    QAction* zoomIn;
    QAction* zoomOut;
    QAction* zoomReset;
    QAction* about;
    QActionGroup* colormaps;
    QActionGroup* languages;
    QComboBox* colormapBox = nullptr;
    QSlider* massSlider = nullptr;  // the threshold: Keep N% of each row's mass
    QLabel* massLabel = nullptr;

Q_SIGNALS:
    void colormapChosen(ColormapId id);
    void massShareChosen(double share);
    void languageChosen(const QString& code);
    void lessonChosen(const QString& id);

private:
    std::vector<std::pair<QString, QAction*>> viewActions_;  // view name -> its View menu entry
    struct TaskParts {
        const Task* task;
        QList<QAction*> actions;  // its File and View menu entries and its menus' titles
        QList<QAction*> toolBarActions;  // its own in the toolbar, with the separator before them
    };
    std::vector<TaskParts> tasks_;
    QToolBar* mainBar_ = nullptr;
};

}  // namespace attnlab
