#include "widgets/FigureDialog.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>

namespace attnlab {

namespace {

struct FigureDialog {
    Q_DECLARE_TR_FUNCTIONS(attnlab::FigureDialog)
};

}  // namespace

QString askFigurePath(QWidget* parent, const QString& title, const QString& suggestedPath) {
    const QString pngFilter = FigureDialog::tr("PNG image (*.png)");
    const QString svgFilter = FigureDialog::tr("SVG drawing (*.svg)");
    const QString pdfFilter = FigureDialog::tr("PDF document (*.pdf)");
    QString selected = pngFilter;
    QString path = QFileDialog::getSaveFileName(parent, title, suggestedPath,
                                                QStringList{pngFilter, svgFilter, pdfFilter}.join(QStringLiteral(";;")),
                                                &selected);
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty())
        path += selected == svgFilter ? QStringLiteral(".svg") : selected == pdfFilter ? QStringLiteral(".pdf")
                                                                                        : QStringLiteral(".png");
    return path;
}

}  // namespace attnlab
