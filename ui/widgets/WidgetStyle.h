#pragma once
// Small pieces of look the views share.
class QLabel;
class QWidget;

namespace attnlab {

// Multiplies the widget's font size: sentences typed and read in class are set larger.
void scaleFont(QWidget* widget, double factor);
// The large grey, centred, wrapping sentence a view shows instead of an empty plot.
QLabel* makePlaceholderLabel();

}  // namespace attnlab
