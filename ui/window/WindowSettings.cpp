#include "window/WindowSettings.h"

#include "task/Task.h"
#include "views/ViewNavigator.h"

#include <QMainWindow>
#include <QSettings>
#include <QStandardPaths>

namespace attnlab {

void WindowSettings::restore() {
    QSettings settings;
    window->restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    window->restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    lastDirectory = settings.value(QStringLiteral("lastDirectory"),
                                   QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                        .toString();
    for (Task* task : tasks) task->restoreSettings(settings);
    colormap = Colormap::fromName(settings.value(QStringLiteral("view/colormap")).toString()).value_or(ColormapId::Viridis);
    showNumbers = settings.value(QStringLiteral("view/numbers"), false).toBool();
    viewName = settings.value(QStringLiteral("view/name")).toString();
}

void WindowSettings::save() const {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), window->saveGeometry());
    settings.setValue(QStringLiteral("window/state"), window->saveState());
    settings.setValue(QStringLiteral("lastDirectory"), lastDirectory);
    for (const Task* task : tasks) task->saveSettings(settings);
    settings.setValue(QStringLiteral("view/colormap"), Colormap::nameOf(colormap));
    settings.setValue(QStringLiteral("view/numbers"), showNumbers);
    settings.setValue(QStringLiteral("view/name"), navigator->currentName());
}

}  // namespace attnlab
