#pragma once
// What the main window keeps between runs (QSettings): its geometry, the recent files, the last
// folder, the data, model and training settings, the heatmap look, the probe and the view shown.
#include "render/Colormap.h"

#include <QString>

class QMainWindow;

namespace attnlab {

class DataPanel;
class ModelSettingsWidget;
class ProbeView;
class RecentFiles;
class TrainingSettingsWidget;
class ViewNavigator;

struct WindowSettings {
    // Where each setting lives in the window.
    QMainWindow* window = nullptr;
    RecentFiles* recent = nullptr;
    DataPanel* data = nullptr;
    ModelSettingsWidget* model = nullptr;
    TrainingSettingsWidget* training = nullptr;
    ProbeView* probe = nullptr;
    ViewNavigator* navigator = nullptr;
    // Values the window holds itself.
    QString lastDirectory;
    ColormapId colormap = ColormapId::Viridis;
    bool showNumbers = false;
    bool logScale = false;

    void restore();     // into the widgets above and the values
    void save() const;  // from them
};

}  // namespace attnlab
