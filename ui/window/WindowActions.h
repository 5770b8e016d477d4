#pragma once
// The main window's actions, menus and toolbar. It creates them and lays them out; MainWindow
// connects them to what they do. Built from the navigator's views (View menu, Ctrl+1..9) and the
// lessons (Lessons menu), so neither list is written twice.
#include "render/Colormap.h"

#include <QObject>
#include <QString>
#include <utility>
#include <vector>

class QAction;
class QActionGroup;
class QComboBox;
class QMainWindow;
class QMenu;

namespace attnlab {

class ViewNavigator;

class WindowActions : public QObject {
    Q_OBJECT

public:
    explicit WindowActions(QMainWindow* window);

    // Menus and toolbar; call once, after the views are registered with the navigator.
    void createMenus(QMainWindow* window, ViewNavigator* navigator);
    void createToolBar(QMainWindow* window);

    // The colour map as the menu and the toolbar's box show it.
    void showColormap(ColormapId id);
    void showLanguage(const QString& code);
    // The task changed: the View menu lists its views (Ctrl+1..9 for the first nine) and the
    // translation task's file and training actions show only in the translation task.
    void showTask(const QString& task, ViewNavigator* navigator);

    // Display names of the colour maps; Colormap::nameOf() stays the untranslated key.
    static QString colormapLabel(ColormapId id);

    QAction* openCorpus;
    QAction* openParallel;
    QAction* openModel;
    QAction* saveModel;
    QAction* saveModelAs;
    QAction* exportImage;
    QAction* exportMatrix;
    QAction* exportHeads;
    QAction* quit;
    QAction* start;
    QAction* pause;
    QAction* resume;
    QAction* step;
    QAction* stop;
    QAction* reset;
    QAction* numbers;
    QAction* zoomIn;
    QAction* zoomOut;
    QAction* zoomReset;
    QAction* logScale;
    QAction* about;
    QActionGroup* colormaps;
    QActionGroup* languages;
    QMenu* recent = nullptr;
    QMenu* trainingMenu = nullptr;
    QComboBox* colormapBox = nullptr;

Q_SIGNALS:
    void colormapChosen(ColormapId id);
    void languageChosen(const QString& code);
    void lessonChosen(const QString& id);

private:
    std::vector<std::pair<QString, QAction*>> viewActions_;  // view name -> its View menu entry
};

}  // namespace attnlab
