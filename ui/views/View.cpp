#include "views/View.h"

#include "render/FigureWriter.h"
#include "widgets/AttentionPanel.h"
#include "widgets/HeatmapWidget.h"

namespace attnlab {

bool View::exportView(const QString& path, double scale, QString* error) const {
    (void)path;
    (void)scale;
    return fail(error, tr("this view has nothing to export"));
}

bool View::exportPanel(const AttentionPanel* panel, const QString& path, double scale, QString* error) {
    if (panel == nullptr || !panel->hasMap()) return fail(error, tr("there is no heatmap to export in this view yet"));
    return panel->heatmap()->exportTo(path, error, scale);
}

bool View::fail(QString* error, const QString& message) {
    if (error != nullptr) *error = message;
    return false;
}

bool View::isMatrixPath(const QString& path) {
    const auto format = FigureWriter::formatForPath(path);
    return format == ExportFormat::Csv || format == ExportFormat::Npy;
}

}  // namespace attnlab
