#include "widgets/WidgetStyle.h"

#include <QAction>
#include <QIcon>
#include <QLabel>

namespace attnlab {

void scaleFont(QWidget* widget, double factor) {
    QFont font = widget->font();
    font.setPointSizeF(font.pointSizeF() * factor);
    widget->setFont(font);
}

QLabel* makePlaceholderLabel() {
    auto* label = new QLabel;
    label->setAlignment(Qt::AlignCenter);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    label->setMargin(24);
    scaleFont(label, 1.25);
    return label;
}

QAction* makeAction(QObject* parent, const QIcon& icon, const QString& text, const QKeySequence& shortcut,
                    const QString& toolTip) {
    auto* action = new QAction(icon, text, parent);
    if (!shortcut.isEmpty()) action->setShortcut(shortcut);
    if (!toolTip.isEmpty()) action->setToolTip(toolTip);
    return action;
}

}  // namespace attnlab
