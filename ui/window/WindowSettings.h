#pragma once
// What the main window keeps between runs (QSettings): its geometry, the last folder, the heatmap
// look and the view shown; each task keeps its own settings (Task::restoreSettings / saveSettings)
// in the same store.
#include "render/Colormap.h"

#include <QList>
#include <QString>

class QMainWindow;

namespace attnlab {

class Task;
class ViewNavigator;

struct WindowSettings {
    // Where each setting lives in the window.
    QMainWindow* window = nullptr;
    QList<Task*> tasks;
    ViewNavigator* navigator = nullptr;
    // Values the window holds itself.
    QString lastDirectory;
    ColormapId colormap = ColormapId::Viridis;
    bool showNumbers = false;
    QString viewName;  // the view shown last (restored by the window once its tasks are ready)

    void restore();     // into the tasks and the values above
    void save() const;  // from them
};

}  // namespace attnlab
