// attnlab-cli render: the task that draws what was asked for, with the GUI's own renderers, and what
// every render shares (RenderOutput.h): the Qt application without a display and the one figure
// writer. It links the render library (QtGui + QtSvg) and core, no Widgets.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "ArgParser.h"
#include "Commands.h"
#include "EngineTasks.h"
#include "support/RenderOutput.h"
#include "base/InputError.h"

#ifdef ATTNLAB_HAVE_RENDER
#include <QGuiApplication>

#include <cstdlib>
#include <iostream>
#include <memory>

#include "render/Colormap.h"
#include "render/FigureWriter.h"
#include "base/InputError.h"
#endif

namespace attnlab::cli {

// render: the task that draws what was asked for (EngineTask::render): the one whose flag
// (render --image) is given, else the one that renders without a flag (a translation).
int runRender(const Args& argv) {
#ifndef ATTNLAB_HAVE_RENDER
    (void)argv;
    throw std::runtime_error("render is not available: this attnlab-cli was built without the GUI "
                             "(configure with -DATTNLAB_BUILD_GUI=ON)");
#else
    const EngineTask* chosen = nullptr;
    for (const EngineTask& task : engineTasks()) {
        if (!task.render) continue;
        if (!task.renderFlag.empty() && std::find(argv.begin(), argv.end(), task.renderFlag) != argv.end())
            return task.render(argv);
        if (task.renderFlag.empty() && chosen == nullptr) chosen = &task;
    }
    if (chosen == nullptr) throw UsageError("render: no task renders these arguments");
    return chosen->render(argv);
#endif
}

#ifdef ATTNLAB_HAVE_RENDER

// The CLI contract is "FILE: reason", in English whatever the locale.
void writeFigure(const std::string& path, const Figure& figure, double scale) {
    if (auto error = FigureWriter::write(QString::fromStdString(path), figure, scale))
        throw std::runtime_error(path + ": " + FigureWriter::reasonUntranslated(*error).toStdString());
}

namespace {


// Qt's own chatter ("XDG_RUNTIME_DIR not set", font fallbacks) is not the user's business;
// stderr keeps its one-line-per-problem contract. A fatal message (e.g. QT_QPA_PLATFORM=xcb
// without a display) would abort: report it as one line and exit instead.
void qtMessage(QtMsgType type, const QMessageLogContext&, const QString& message) {
    const std::string firstLine = message.section(QLatin1Char('\n'), 0, 0).trimmed().toStdString();
    if (type == QtCriticalMsg) std::cerr << "warning: " << firstLine << "\n";
    if (type != QtFatalMsg) return;
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    std::cerr << "error: " << firstLine << " (QT_QPA_PLATFORM=" << (platform ? platform : "")
              << "; unset it to render without a display)" << std::endl;
    std::_Exit(kInternal);
}

}  // namespace

std::unique_ptr<QGuiApplication> makeRenderApplication() {
    if (QCoreApplication::instance() != nullptr) return nullptr;
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    if (platform == nullptr || *platform == '\0') setenv("QT_QPA_PLATFORM", "offscreen", 1);
    qInstallMessageHandler(qtMessage);
    static int argc = 1;
    static char name[] = "attnlab-cli";
    static char* argv[] = {name, nullptr};
    return std::make_unique<QGuiApplication>(argc, argv);
}


#endif

}  // namespace attnlab::cli
