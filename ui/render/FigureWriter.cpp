#include "render/FigureWriter.h"

#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QtEndian>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>

namespace attnlab {

namespace {

FigureError failure(FigureError::Code code, const QString& path, const QString& detail = QString()) {
    return FigureError{code, path, detail};
}

QString quoteCsv(const QString& field) {
    const bool needsQuotes = field.contains(QLatin1Char(',')) || field.contains(QLatin1Char('"')) ||
                             field.contains(QLatin1Char('\n')) || field.contains(QLatin1Char('\r')) ||
                             field.startsWith(QLatin1Char(' ')) || field.endsWith(QLatin1Char(' '));
    if (!needsQuotes) {
        return field;
    }
    QString escaped = field;
    escaped.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

// Paints into a vector device (SVG or PDF) that writes to file; commit after the painter has ended.
std::optional<FigureError> paintInto(QPaintDevice& device, const QString& path, const Figure& figure,
                                     const char* format) {
    QPainter painter;
    if (!painter.begin(&device)) {
        return failure(FigureError::Code::EncodingFailed, path, QString::fromLatin1(format));
    }
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    figure.paint(painter, QRectF(QPointF(0, 0), QSizeF(figure.size)));
    painter.end();
    return std::nullopt;
}

std::optional<FigureError> commit(QSaveFile& file, const QString& path) {
    if (!file.commit()) {
        return failure(FigureError::Code::System, path, file.errorString());
    }
    return std::nullopt;
}

std::optional<FigureError> writePng(const QString& path, const Figure& figure, double scale) {
    if (!(scale > 0.0) || scale > 16.0) {
        return failure(FigureError::Code::BadScale, path, QString::number(scale));
    }
    const QSize pixels(static_cast<int>(std::lround(figure.size.width() * scale)),
                       static_cast<int>(std::lround(figure.size.height() * scale)));
    if (pixels.isEmpty() || pixels.width() > FigureWriter::kMaxImageSide ||
        pixels.height() > FigureWriter::kMaxImageSide) {
        return failure(FigureError::Code::TooLarge, path,
                       QStringLiteral("%1 x %2").arg(pixels.width()).arg(pixels.height()));
    }
    QImage image(pixels, figure.background.alpha() == 255 ? QImage::Format_RGB32 : QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) {
        return failure(FigureError::Code::NoMemory, path);
    }
    image.setDevicePixelRatio(scale);
    const int dotsPerMeter = static_cast<int>(std::lround(96.0 * scale / 0.0254));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    image.fill(figure.background);
    {
        QPainter painter(&image);
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        figure.paint(painter, QRectF(QPointF(0, 0), QSizeF(figure.size)));
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return failure(FigureError::Code::System, path, file.errorString());
    }
    if (!image.save(&file, "PNG")) {
        file.cancelWriting();
        return failure(FigureError::Code::EncodingFailed, path, QStringLiteral("PNG"));
    }
    return commit(file, path);
}

std::optional<FigureError> writeSvg(const QString& path, const Figure& figure) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return failure(FigureError::Code::System, path, file.errorString());
    }
    QSvgGenerator generator;
    generator.setOutputDevice(&file);
    generator.setSize(figure.size);
    generator.setViewBox(QRect(QPoint(0, 0), figure.size));
    generator.setResolution(96);
    generator.setTitle(figure.title.isEmpty() ? QStringLiteral("Attention heatmap") : figure.title);
    generator.setDescription(QStringLiteral("Drawn by AttnLab"));
    if (auto error = paintInto(generator, path, figure, "SVG")) {
        file.cancelWriting();
        return error;
    }
    return commit(file, path);
}

std::optional<FigureError> writePdf(const QString& path, const Figure& figure) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return failure(FigureError::Code::System, path, file.errorString());
    }
    {
        QPdfWriter pdf(&file);
        pdf.setResolution(96);  // one logical pixel = 1/96 inch, as on screen
        pdf.setTitle(figure.title.isEmpty() ? QStringLiteral("Attention heatmap") : figure.title);
        pdf.setCreator(QStringLiteral("AttnLab"));
        const qreal w = figure.size.width() * 72.0 / 96.0;
        const qreal h = figure.size.height() * 72.0 / 96.0;
        const QPageSize page(QSizeF(std::min(w, h), std::max(w, h)), QPageSize::Point, QString(),
                             QPageSize::ExactMatch);
        pdf.setPageLayout(QPageLayout(page, w > h ? QPageLayout::Landscape : QPageLayout::Portrait, QMarginsF()));
        if (auto error = paintInto(pdf, path, figure, "PDF")) {
            file.cancelWriting();
            return error;
        }
    }
    return commit(file, path);
}

// English and translatable at once: the GUI passes the texts through tr(), the CLI does not.
QString reasonText(const FigureError& e, bool translated) {
    auto text = [translated](const char* source) {
        return translated ? QCoreApplication::translate("attnlab::FigureWriter", source) : QString::fromUtf8(source);
    };
    switch (e.code) {
    case FigureError::Code::UnknownType: return text(QT_TRANSLATE_NOOP("attnlab::FigureWriter", "unknown file type (use .png, .svg, .pdf, .csv or .npy)"));
    case FigureError::Code::ImageOnly: return text(QT_TRANSLATE_NOOP("attnlab::FigureWriter", "this figure is saved as .png, .svg or .pdf"));
    case FigureError::Code::NothingToShow:
        return e.detail.isEmpty() ? text(QT_TRANSLATE_NOOP("attnlab::FigureWriter", "nothing to show yet")) : e.detail;
    case FigureError::Code::BadScale: return text(QT_TRANSLATE_NOOP("attnlab::FigureWriter", "scale %1 is outside (0, 16]")).arg(e.detail);
    case FigureError::Code::TooLarge: return text(QT_TRANSLATE_NOOP("attnlab::FigureWriter", "an image of %1 pixels is too large")).arg(e.detail);
    case FigureError::Code::NoMemory: return text(QT_TRANSLATE_NOOP("attnlab::FigureWriter", "out of memory for the image"));
    case FigureError::Code::EncodingFailed: return text(QT_TRANSLATE_NOOP("attnlab::FigureWriter", "%1 encoding failed")).arg(e.detail);
    case FigureError::Code::System: break;
    }
    return e.detail;
}

}  // namespace

std::optional<ExportFormat> FigureWriter::formatForPath(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png")) return ExportFormat::Png;
    if (suffix == QLatin1String("svg")) return ExportFormat::Svg;
    if (suffix == QLatin1String("pdf")) return ExportFormat::Pdf;
    if (suffix == QLatin1String("csv")) return ExportFormat::Csv;
    if (suffix == QLatin1String("npy")) return ExportFormat::Npy;
    return std::nullopt;
}

std::optional<FigureError> FigureWriter::write(const QString& path, const Figure& figure, double scale) {
    const std::optional<ExportFormat> format = formatForPath(path);
    if (!format) {
        return failure(FigureError::Code::UnknownType, path);
    }
    if (!isImage(*format)) {
        return failure(FigureError::Code::ImageOnly, path);
    }
    if (figure.size.isEmpty() || !figure.paint) {
        return failure(FigureError::Code::NothingToShow, path);
    }
    try {
        switch (*format) {
        case ExportFormat::Png: return writePng(path, figure, scale);
        case ExportFormat::Svg: return writeSvg(path, figure);
        default: return writePdf(path, figure);
        }
    } catch (const std::exception& e) {
        return failure(FigureError::Code::System, path, QString::fromUtf8(e.what()));
    }
}

std::optional<FigureError> FigureWriter::writeMatrix(const QString& path, const AttentionMap& map,
                                                     const QStringList& rowLabels, const QStringList& columnLabels) {
    const std::optional<ExportFormat> format = formatForPath(path);
    if (format != ExportFormat::Csv && format != ExportFormat::Npy) {
        return failure(FigureError::Code::UnknownType, path);
    }
    if (!isValidMap(map) || map.rows == 0 || map.cols == 0) {
        return failure(FigureError::Code::NothingToShow, path);
    }
    return writeBytes(path, format == ExportFormat::Csv ? csvBytes(map, rowLabels, columnLabels) : npyBytes(map));
}

std::optional<FigureError> FigureWriter::writeBytes(const QString& path, const QByteArray& bytes) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return failure(FigureError::Code::System, path, file.errorString());
    }
    if (file.write(bytes) != bytes.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return failure(FigureError::Code::System, path, why);
    }
    return commit(file, path);
}

QByteArray FigureWriter::csvBytes(const AttentionMap& map, const QStringList& rowLabels,
                                  const QStringList& columnLabels) {
    if (!isValidMap(map)) {
        return QByteArray();
    }
    // RFC 4180 quoting, UTF-8, LF line ends (as numpy.savetxt and pandas write them); 9 significant
    // digits give back the exact float32.
    QByteArray out;
    out.reserve(static_cast<int>(std::min<std::size_t>(map.weights.size() * 12 + 1024, 1u << 30)));
    for (int c = 0; c < map.cols; ++c) {
        out += ',';
        out += quoteCsv(c < columnLabels.size() ? columnLabels.at(c) : QString::number(c)).toUtf8();
    }
    out += '\n';
    for (int r = 0; r < map.rows; ++r) {
        out += quoteCsv(r < rowLabels.size() ? rowLabels.at(r) : QString::number(r)).toUtf8();
        for (int c = 0; c < map.cols; ++c) {
            out += ',';
            out += QByteArray::number(static_cast<double>(map.at(r, c)), 'g', 9);
        }
        out += '\n';
    }
    return out;
}

QByteArray FigureWriter::npyBytes(const AttentionMap& map) {
    if (!isValidMap(map)) {
        return QByteArray();
    }
    QByteArray header = QStringLiteral("{'descr': '<f4', 'fortran_order': False, 'shape': (%1, %2), }")
                            .arg(map.rows)
                            .arg(map.cols)
                            .toLatin1();
    // magic (6) + version (2) + header length (2) + header, padded so the data starts 64-byte aligned.
    const int unpadded = 10 + header.size() + 1;
    header += QByteArray((64 - unpadded % 64) % 64, ' ');
    header += '\n';
    QByteArray out("\x93NUMPY\x01\x00", 8);
    const quint16 length = qToLittleEndian(static_cast<quint16>(header.size()));
    out.append(reinterpret_cast<const char*>(&length), 2);
    out += header;
    const int offset = out.size();
    out.resize(offset + static_cast<int>(map.weights.size() * sizeof(float)));
    char* data = out.data() + offset;
    for (std::size_t i = 0; i < map.weights.size(); ++i) {
        quint32 bits = 0;
        std::memcpy(&bits, &map.weights[i], sizeof bits);
        qToLittleEndian(bits, data + i * sizeof bits);
    }
    return out;
}

QString FigureWriter::describe(const FigureError& error) {
    return tr("cannot write '%1': %2").arg(error.path, reasonText(error, true));
}

QString FigureWriter::reasonUntranslated(const FigureError& error) { return reasonText(error, false); }

bool FigureWriter::report(const std::optional<FigureError>& error, QString* message) {
    if (!error) {
        return true;
    }
    if (message != nullptr) {
        *message = describe(*error);
    }
    return false;
}

}  // namespace attnlab
