#pragma once
// Small pieces of look the views, the tasks and the window share.
#include <QKeySequence>
#include <QString>

class QAction;
class QIcon;
class QLabel;
class QObject;
class QWidget;

namespace attnlab {

// Multiplies the widget's font size: sentences typed and read in class are set larger.
void scaleFont(QWidget* widget, double factor);
// The large grey, centred, wrapping sentence a view shows instead of an empty plot.
QLabel* makePlaceholderLabel();
// A menu or toolbar action with its icon, text, shortcut and tooltip (either may be empty).
QAction* makeAction(QObject* parent, const QIcon& icon, const QString& text, const QKeySequence& shortcut = {},
                    const QString& toolTip = {});

}  // namespace attnlab
