#pragma once
// The one figure writer every view and the CLI use: a figure (a size, a title and a function that
// paints it) written as PNG at a scale, SVG or PDF, and a matrix written as CSV or NumPy .npy.
// Writes go through QSaveFile, so a failed write leaves no partial file behind. Failures are data
// (FigureError: what went wrong, the file, the system's detail); each front end words them: the GUI in
// the interface language (describe()), the CLI as "FILE: reason" (reasonUntranslated()).
#include "base/AttentionMap.h"

#include <QByteArray>
#include <QColor>
#include <QCoreApplication>
#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

class QPainter;
class QRectF;

namespace attnlab {

enum class ExportFormat { Png, Svg, Pdf, Csv, Npy };

struct Figure {
    QSize size;                      // logical pixels (1/96 inch in SVG and PDF)
    QString title;                   // the SVG and PDF document title
    QColor background = Qt::white;   // PNG fill; SVG and PDF paint their own background or none
    std::function<void(QPainter&, const QRectF&)> paint;
};

struct FigureError {
    enum class Code {
        UnknownType,    // the extension is none of .png, .svg, .pdf, .csv, .npy
        ImageOnly,      // a figure that has no matrix was asked for as CSV or NPY
        NothingToShow,  // the view has nothing to draw yet; detail may say why
        BadScale,       // detail: the scale
        TooLarge,       // detail: "W x H"
        NoMemory,
        EncodingFailed,  // detail: PNG, SVG or PDF
        System,          // detail: the system's error text (QSaveFile::errorString)
    };
    Code code = Code::System;
    QString path;
    QString detail;
};

class FigureWriter {
    Q_DECLARE_TR_FUNCTIONS(attnlab::FigureWriter)

public:
    static constexpr int kMaxImageSide = 16384;

    static std::optional<ExportFormat> formatForPath(const QString& path);  // by extension, case-insensitive
    // rows * cols weights, neither negative.
    static bool isValidMap(const AttentionMap& map) {
        return map.rows >= 0 && map.cols >= 0 &&
               map.weights.size() == static_cast<std::size_t>(map.rows) * static_cast<std::size_t>(map.cols);
    }
    static bool isImage(ExportFormat format) {
        return format == ExportFormat::Png || format == ExportFormat::Svg || format == ExportFormat::Pdf;
    }

    // PNG (size * scale pixels), SVG or PDF, by the path's extension.
    static std::optional<FigureError> write(const QString& path, const Figure& figure, double scale = 1.0);
    // CSV (RFC 4180, UTF-8, labels in the first row and column) or float32 .npy, by the extension.
    static std::optional<FigureError> writeMatrix(const QString& path, const AttentionMap& map,
                                                  const QStringList& rowLabels, const QStringList& columnLabels);
    static std::optional<FigureError> writeBytes(const QString& path, const QByteArray& bytes);

    static QByteArray csvBytes(const AttentionMap& map, const QStringList& rowLabels, const QStringList& columnLabels);
    static QByteArray npyBytes(const AttentionMap& map);  // float32, C order, format version 1.0

    // One line in the interface language ("cannot write 'FILE': reason"), for the GUI.
    static QString describe(const FigureError& error);
    // The reason alone, in English, for the CLI's "FILE: reason".
    static QString reasonUntranslated(const FigureError& error);

    // For views that report through a QString*: false with describe() in *message on failure.
    static bool report(const std::optional<FigureError>& error, QString* message);
};

}  // namespace attnlab
