#include "widgets/WidgetStyle.h"

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

}  // namespace attnlab
