#pragma once
// The save dialog for a figure: PNG, SVG or PDF, the extension added from the chosen filter when
// the name has none. Returns an empty string when the user cancels.
#include <QString>

class QWidget;

namespace attnlab {

QString askFigurePath(QWidget* parent, const QString& title, const QString& suggestedPath);

}  // namespace attnlab
