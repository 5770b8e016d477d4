#pragma once
// Export Image and Export Matrix: the dialogs and what they write. What a view
// exports is the view's own business (View::exportView); this class asks the one on screen.
#include <QObject>
#include <QString>

#include <functional>

class QWidget;

namespace attnlab {

class ViewNavigator;

class FigureExport : public QObject {
    Q_OBJECT

public:
    using Report = std::function<void(const QString& title, const QString& message)>;
    using Status = std::function<void(const QString& message)>;

    FigureExport(QWidget* window, ViewNavigator* navigator, QString* lastDirectory, Report report, Status status);

    // The figure of the view on screen (PNG at scale, SVG, PDF; CSV or NPY where it has a matrix).
    bool exportCurrentView(const QString& path, double scale, QString* error) const;
    bool currentExportsFigure() const;
    bool currentExportsMatrix() const;

    void imageDialog();
    void matrixDialog();

private:
    void finish(bool ok, const QString& path, const QString& error);

    QWidget* window_;
    ViewNavigator* navigator_;
    QString* lastDirectory_;
    Report report_;
    Status status_;
};

}  // namespace attnlab
