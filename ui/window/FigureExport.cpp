#include "window/FigureExport.h"

#include "base/Memory.h"
#include "render/FigureWriter.h"
#include "views/View.h"
#include "widgets/FigureDialog.h"
#include "views/ViewNavigator.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>

namespace attnlab {

FigureExport::FigureExport(QWidget* window, ViewNavigator* navigator, QString* lastDirectory, Report report,
                           Status status)
    : QObject(window),
      window_(window),
      navigator_(navigator),
      lastDirectory_(lastDirectory),
      report_(std::move(report)),
      status_(std::move(status)) {}

bool FigureExport::currentExportsFigure() const {
    const View* view = navigator_->currentView();
    return view != nullptr && view->exportsFigure();
}

bool FigureExport::currentExportsMatrix() const {
    const View* view = navigator_->currentView();
    return view != nullptr && view->exportsMatrix();
}

bool FigureExport::exportCurrentView(const QString& path, double scale, QString* error) const {
    struct ReleaseAfterwards {  // a PDF or a large PNG leaves tens of MB of freed buffers behind
        ~ReleaseAfterwards() { releaseFreeMemory(); }
    } release;
    const View* view = navigator_->currentView();
    if (view == nullptr) {
        if (error) *error = tr("there is no heatmap to export in this view yet");
        return false;
    }
    return view->exportView(path, scale, error);
}

void FigureExport::finish(bool ok, const QString& path, const QString& error) {
    if (ok) {
        status_(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
    } else {
        report_(tr("Export Failed"), error);
    }
}

void FigureExport::imageDialog() {
    const QString base = QDir(*lastDirectory_).filePath(navigator_->currentName());
    const QString path = askFigurePath(window_, tr("Export Image"), base + QStringLiteral(".png"));
    if (path.isEmpty()) return;
    *lastDirectory_ = QFileInfo(path).absolutePath();
    double scale = 1.0;
    if (FigureWriter::formatForPath(path) == ExportFormat::Png) {
        const QStringList scales{tr("1× (screen)"), tr("2× (slides, print)"), tr("4× (poster)")};
        bool ok = false;
        const QString choice =
            QInputDialog::getItem(window_, tr("PNG Resolution"), tr("Scale of the image:"), scales, 1, false, &ok);
        if (!ok) return;
        scale = choice == scales[0] ? 1.0 : choice == scales[2] ? 4.0 : 2.0;
    }
    QString error;
    finish(exportCurrentView(path, scale, &error), path, error);
}

void FigureExport::matrixDialog() {
    const QString csvFilter = tr("CSV table (*.csv)");
    const QString npyFilter = tr("NumPy array (*.npy)");
    QString selected = csvFilter;
    QString path = QFileDialog::getSaveFileName(window_, tr("Export Matrix"),
                                                QDir(*lastDirectory_).filePath(QStringLiteral("attention.csv")),
                                                csvFilter + QStringLiteral(";;") + npyFilter, &selected);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += selected == npyFilter ? QStringLiteral(".npy") : QStringLiteral(".csv");
    *lastDirectory_ = QFileInfo(path).absolutePath();
    QString error;
    finish(exportCurrentView(path, 1.0, &error), path, error);
}

}  // namespace attnlab
