#pragma once
// What every task's render shares (RenderCommand.cpp; a task's render, e.g. translate/RenderTranslation.cpp,
// images/RenderImageCommand.cpp): the Qt application they paint under and the one way a figure is written.
#ifdef ATTNLAB_HAVE_RENDER
#include <QGuiApplication>

#include <memory>
#include <string>

#include "Commands.h"
#include "render/FigureWriter.h"

namespace attnlab::cli {

// Qt needs a platform plugin even to paint into an image; "offscreen" needs no display. Created only
// by the render commands, so that the others never touch Qt; it lives until the figure is written,
// not into static destruction. Qt's chatter is kept off stderr; a fatal message becomes one line.
std::unique_ptr<QGuiApplication> makeRenderApplication();
// PNG at the scale, SVG or PDF; std::runtime_error("FILE: reason") on failure.
void writeFigure(const std::string& path, const Figure& figure, double scale);

}  // namespace attnlab::cli
#endif
