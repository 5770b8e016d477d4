#include "HeatmapRenderer.h"

#include <QFileInfo>
#include <QFontMetricsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPaintEngine>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QtEndian>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>

namespace attnlab {

namespace {

constexpr qreal kTickLength = 3.0;
constexpr qreal kLabelGap = 4.0;
constexpr qreal kMinLabelCap = 60.0;
constexpr qreal kMaxLabelWidth = 240.0;  // longer tokens are elided
constexpr qreal kLabelShare = 0.4;       // labels may take this much of the width (or height)
constexpr int kMaxImageSide = 16384;

const QStringList& fallbackFamilies() {
    // Latin first, then CJK so that Chinese/Japanese/Korean tokens never render as boxes.
    static const QStringList families = {
        QStringLiteral("DejaVu Sans"),        QStringLiteral("Noto Sans"),        QStringLiteral("Noto Sans CJK SC"),
        QStringLiteral("Noto Sans CJK JP"),   QStringLiteral("Noto Sans CJK KR"), QStringLiteral("WenQuanYi Micro Hei"),
        QStringLiteral("Source Han Sans SC"), QStringLiteral("Microsoft YaHei"),  QStringLiteral("PingFang SC"),
        QStringLiteral("Segoe UI"),           QStringLiteral("Helvetica"),        QStringLiteral("Arial"),
    };
    return families;
}

QFont scaledFont(const QFont& font, double factor, bool bold) {
    QFont out = font;
    out.setPixelSize(std::max(1, static_cast<int>(std::lround(font.pixelSize() * factor))));
    out.setBold(bold);
    return out;
}

QFont titleFontFor(const QFont& font) { return scaledFont(font, 1.2, true); }

// Ticks at 1, 2, 2.5 or 5 times a power of ten, at most maxTicks of them inside [low, high].
std::vector<double> niceTicks(double low, double high, int maxTicks, int* decimals) {
    std::vector<double> ticks;
    *decimals = 0;
    const double span = high - low;
    if (!(span > 0.0) || !std::isfinite(span)) {
        ticks.push_back(low);
        return ticks;
    }
    maxTicks = std::max(2, maxTicks);
    const double rough = span / (maxTicks - 1);
    const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
    double step = 10.0 * magnitude;
    for (double factor : {1.0, 2.0, 2.5, 5.0}) {
        if (rough <= factor * magnitude * (1.0 + 1e-9)) {
            step = factor * magnitude;
            break;
        }
    }
    *decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
    if (std::abs(step / std::pow(10.0, -*decimals) - 2.5) < 1e-6) {
        ++*decimals;  // 0.25 needs one more digit than 0.2
    }
    const double first = std::ceil(low / step - 1e-9) * step;
    for (double v = first; v <= high + step * 1e-9 && ticks.size() < 50; v += step) {
        ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    }
    return ticks;
}

bool isVectorDevice(const QPainter& painter) {
    const QPaintEngine* engine = painter.paintEngine();
    if (engine == nullptr) {
        return false;
    }
    switch (engine->type()) {
    case QPaintEngine::Pdf:
    case QPaintEngine::SVG:
    case QPaintEngine::Picture:
        return true;
    default:
        return false;
    }
}

double srgbToLinear(int channel) {
    const double c = channel / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
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

void setError(QString* error, const QString& message) {
    if (error != nullptr) {
        *error = message;
    }
}

QString cannotWrite(const QString& path, const QString& why) {
    return HeatmapRenderer::tr("cannot write '%1': %2").arg(path, why);
}

}  // namespace

HeatmapRenderer::HeatmapRenderer() : HeatmapRenderer(HeatmapOptions{}) {}

HeatmapRenderer::HeatmapRenderer(const HeatmapOptions& options) : options_(options) {
    options_.font = normalizedFont(options.font);
}

QFont HeatmapRenderer::defaultFont() {
    QFont font;
    font.setFamilies(fallbackFamilies());
    font.setStyleHint(QFont::SansSerif);
    font.setPixelSize(13);
    return font;
}

QFont HeatmapRenderer::normalizedFont(const QFont& font) {
    if (font == QFont()) {
        return defaultFont();
    }
    QFont out = font;
    if (out.pixelSize() <= 0) {
        const double points = out.pointSizeF() > 0 ? out.pointSizeF() : 10.0;
        // Pixel sizes keep the layout identical on screens, images, SVG and PDF.
        out.setPixelSize(std::max(1, static_cast<int>(std::lround(points * 96.0 / 72.0))));
    }
    QStringList families = out.families();
    if (families.isEmpty()) {
        families << out.family();
    }
    for (const QString& family : fallbackFamilies()) {
        if (!families.contains(family, Qt::CaseInsensitive)) {
            families << family;
        }
    }
    out.setFamilies(families);
    return out;
}

QColor HeatmapRenderer::contrastingTextColor(QRgb background) {
    const double luminance = 0.2126 * srgbToLinear(qRed(background)) + 0.7152 * srgbToLinear(qGreen(background)) +
                             0.0722 * srgbToLinear(qBlue(background));
    // 0.179 is where black and white text have equal contrast (WCAG).
    return luminance < 0.179 ? QColor(Qt::white) : QColor(0x1a, 0x1a, 0x1a);
}

bool HeatmapRenderer::isValidMap(const AttentionMap& map) {
    if (map.rows < 0 || map.cols < 0) {
        return false;
    }
    return map.weights.size() == static_cast<std::size_t>(map.rows) * static_cast<std::size_t>(map.cols);
}

QStringList HeatmapRenderer::toStringList(const std::vector<std::string>& items) {
    QStringList list;
    list.reserve(static_cast<int>(items.size()));
    for (const std::string& item : items) {
        list << QString::fromStdString(item);
    }
    return list;
}

// ---- data ----------------------------------------------------------------------------------------

void HeatmapRenderer::setMap(const AttentionMap& map, const QStringList& rowLabels, const QStringList& columnLabels) {
    invalidReason_.clear();
    if (isValidMap(map)) {
        map_ = map;
    } else {
        invalidReason_ = tr("Invalid attention map: %1 × %2 with %3 weights")
                             .arg(map.rows)
                             .arg(map.cols)
                             .arg(static_cast<qulonglong>(map.weights.size()));
        map_ = AttentionMap{};
    }
    rowLabels_ = rowLabels.mid(0, std::max(0, map_.rows));
    columnLabels_ = columnLabels.mid(0, std::max(0, map_.cols));
    dataLow_ = 0.0;
    dataHigh_ = -std::numeric_limits<double>::infinity();
    for (float w : map_.weights) {
        if (std::isfinite(w)) {
            dataLow_ = std::min(dataLow_, static_cast<double>(w));
            dataHigh_ = std::max(dataHigh_, static_cast<double>(w));
        }
    }
    if (!(dataHigh_ > dataLow_)) {
        dataHigh_ = dataLow_ + 1.0;
    }
    if (options_.highlightRow >= map_.rows || options_.highlightColumn >= map_.cols) {
        options_.highlightRow = -1;
        options_.highlightColumn = -1;
    }
    setSelection(options_.selectedRows, options_.selectedColumns);
    measureLabels();
    invalidateImage();
}

void HeatmapRenderer::setMap(const AttentionMap& map, const std::vector<std::string>& rowLabels,
                             const std::vector<std::string>& columnLabels) {
    setMap(map, toStringList(rowLabels), toStringList(columnLabels));
}

void HeatmapRenderer::clear() { setMap(AttentionMap{}, QStringList(), QStringList()); }

QString HeatmapRenderer::rowLabel(int row) const {
    return row >= 0 && row < rowLabels_.size() ? rowLabels_.at(row) : QString::number(row);
}

QString HeatmapRenderer::columnLabel(int column) const {
    return column >= 0 && column < columnLabels_.size() ? columnLabels_.at(column) : QString::number(column);
}

QStringList HeatmapRenderer::rowLabels() const {
    QStringList labels;
    for (int r = 0; r < map_.rows; ++r) {
        labels << rowLabel(r);
    }
    return labels;
}

QStringList HeatmapRenderer::columnLabels() const {
    QStringList labels;
    for (int c = 0; c < map_.cols; ++c) {
        labels << columnLabel(c);
    }
    return labels;
}

double HeatmapRenderer::weight(int row, int column) const {
    if (row < 0 || column < 0 || row >= map_.rows || column >= map_.cols) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return map_.at(row, column);
}

QString HeatmapRenderer::emptyText() const {
    return invalidReason_.isEmpty() ? tr("No attention to show yet") : invalidReason_;
}

void HeatmapRenderer::measureLabels() {
    // Bold is the widest variant a label is drawn in (highlighted).
    const QFontMetricsF metrics(scaledFont(options_.font, 1.0, true));
    maxRowLabelWidth_ = 0.0;
    maxColumnLabelWidth_ = 0.0;
    if (!options_.showLabels) {
        return;
    }
    for (int r = 0; r < map_.rows; ++r) {
        maxRowLabelWidth_ = std::max(maxRowLabelWidth_, metrics.horizontalAdvance(rowLabel(r)));
    }
    for (int c = 0; c < map_.cols; ++c) {
        maxColumnLabelWidth_ = std::max(maxColumnLabelWidth_, metrics.horizontalAdvance(columnLabel(c)));
    }
    maxRowLabelWidth_ = std::ceil(maxRowLabelWidth_);
    maxColumnLabelWidth_ = std::ceil(maxColumnLabelWidth_);
}

// ---- options -------------------------------------------------------------------------------------

void HeatmapRenderer::setOptions(const HeatmapOptions& options) {
    const bool recolor = options.colormap != options_.colormap || options.scale != options_.scale ||
                         options.valueMin != options_.valueMin || options.valueMax != options_.valueMax;
    const bool remeasure = options.font != options_.font || options.showLabels != options_.showLabels;
    options_ = options;
    options_.font = normalizedFont(options.font);
    if (remeasure) {
        measureLabels();
    }
    if (recolor) {
        invalidateImage();
    }
}

void HeatmapRenderer::setColormap(ColormapId id) {
    if (id != options_.colormap) {
        options_.colormap = id;
        invalidateImage();
    }
}

void HeatmapRenderer::setScale(ScaleMode mode, double valueMin, double valueMax) {
    options_.scale = mode;
    options_.valueMin = valueMin;
    options_.valueMax = valueMax;
    invalidateImage();
}

void HeatmapRenderer::setTitle(const QString& title) { options_.title = title; }

void HeatmapRenderer::setAxisTitles(const QString& rowAxis, const QString& columnAxis) {
    options_.rowAxisTitle = rowAxis;
    options_.columnAxisTitle = columnAxis;
}

void HeatmapRenderer::setShowNumbers(bool on) { options_.showNumbers = on; }

void HeatmapRenderer::setShowColorBar(bool on) { options_.showColorBar = on; }

void HeatmapRenderer::setShowLabels(bool on) {
    if (on != options_.showLabels) {
        options_.showLabels = on;
        measureLabels();
    }
}

void HeatmapRenderer::setFont(const QFont& font) {
    options_.font = normalizedFont(font);
    measureLabels();
}

void HeatmapRenderer::setColors(const QColor& text, const QColor& background) {
    options_.textColor = text;
    options_.backgroundColor = background;
}

void HeatmapRenderer::setHighlight(int row, int column) {
    options_.highlightRow = row >= 0 && row < map_.rows ? row : -1;
    options_.highlightColumn = column >= 0 && column < map_.cols ? column : -1;
}

void HeatmapRenderer::setSelection(const std::vector<int>& rows, const std::vector<int>& columns) {
    auto clean = [](std::vector<int> indices, int limit) {
        indices.erase(std::remove_if(indices.begin(), indices.end(), [limit](int i) { return i < 0 || i >= limit; }),
                      indices.end());
        std::sort(indices.begin(), indices.end());
        indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
        return indices;
    };
    options_.selectedRows = clean(rows, map_.rows);
    options_.selectedColumns = options_.selectedRows.empty() ? clean(columns, map_.cols) : std::vector<int>{};
}

std::vector<double> HeatmapRenderer::selectionSums() const {
    std::vector<double> sums;
    auto add = [](double& sum, float w) {
        if (std::isfinite(w)) sum += w;
    };
    if (!options_.selectedRows.empty()) {
        sums.assign(static_cast<std::size_t>(map_.cols), 0.0);
        for (int r : options_.selectedRows) {
            for (int c = 0; c < map_.cols; ++c) add(sums[static_cast<std::size_t>(c)], map_.at(r, c));
        }
    } else if (!options_.selectedColumns.empty()) {
        sums.assign(static_cast<std::size_t>(map_.rows), 0.0);
        for (int r = 0; r < map_.rows; ++r) {
            for (int c : options_.selectedColumns) add(sums[static_cast<std::size_t>(r)], map_.at(r, c));
        }
    }
    return sums;
}

std::pair<double, double> HeatmapRenderer::valueRange() const {
    switch (options_.scale) {
    case ScaleMode::Unit:
        return {0.0, 1.0};
    case ScaleMode::Fixed: {
        double low = options_.valueMin;
        double high = options_.valueMax;
        if (!std::isfinite(low) || !std::isfinite(high)) {
            return {0.0, 1.0};
        }
        if (high < low) {
            std::swap(low, high);
        }
        if (!(high > low)) {
            high = low + 1.0;
        }
        return {low, high};
    }
    case ScaleMode::DataMax:
        break;
    }
    return {dataLow_, dataHigh_};
}

QRgb HeatmapRenderer::colorFor(double weight) const {
    const auto [low, high] = valueRange();
    return colormap().color((weight - low) / (high - low));
}

const QImage& HeatmapRenderer::matrixImage() const {
    if (!imageDirty_) {
        return image_;
    }
    imageDirty_ = false;
    if (isEmpty() || map_.rows > kMaxImageSide * 4 || map_.cols > kMaxImageSide * 4) {
        image_ = QImage();
        return image_;
    }
    if (image_.size() != QSize(map_.cols, map_.rows) || image_.format() != QImage::Format_RGB32) {
        image_ = QImage(map_.cols, map_.rows, QImage::Format_RGB32);
        if (image_.isNull()) {
            return image_;  // could not allocate
        }
    }
    const Colormap::Table& lut = colormap().table();
    const auto [low, high] = valueRange();
    const double span = high - low;
    const float* weights = map_.weights.data();
    for (int r = 0; r < map_.rows; ++r) {
        auto* line = reinterpret_cast<QRgb*>(image_.scanLine(r));
        const float* source = weights + static_cast<std::size_t>(r) * map_.cols;
        for (int c = 0; c < map_.cols; ++c) {
            line[c] = lut[Colormap::indexFor((source[c] - low) / span)];
        }
    }
    return image_;
}

// ---- layout --------------------------------------------------------------------------------------

QSize HeatmapRenderer::preferredSize(double cellSize) const {
    if (isEmpty()) {
        return QSize(360, 240);
    }
    const QFontMetricsF metrics(options_.font);
    const qreal line = metrics.height();
    const qreal cell =
        cellSize > 0 ? cellSize : std::clamp(std::floor(640.0 / std::max(map_.rows, map_.cols)), 1.0, 40.0);
    const bool decorated = options_.showLabels || options_.showColorBar || !options_.title.isEmpty();
    const qreal pad = decorated ? std::round(line * 0.6) : 0.0;
    qreal rowLabels = 0.0;
    qreal columnLabels = 0.0;
    if (options_.showLabels) {
        rowLabels = std::min(maxRowLabelWidth_, kMaxLabelWidth) + kTickLength + kLabelGap;
        const bool rotate = maxColumnLabelWidth_ + 4 > cell;
        columnLabels = (rotate ? std::min(maxColumnLabelWidth_, kMaxLabelWidth) : line) + kTickLength + kLabelGap;
    }
    qreal colorBar = 0.0;
    if (options_.showColorBar) {
        const auto [low, high] = valueRange();
        colorBar = pad + std::max(10.0, std::round(line * 0.9)) + kTickLength + kLabelGap +
                   colorBarLabelWidth(low, high, options_.font);
    }
    const qreal titleHeight =
        options_.title.isEmpty() ? 0.0 : QFontMetricsF(titleFontFor(options_.font)).height() + pad / 2;
    const qreal rowAxis = options_.rowAxisTitle.isEmpty() ? 0.0 : line + 2;
    const qreal columnAxis = options_.columnAxisTitle.isEmpty() ? 0.0 : line + 2;
    const qreal stripGap = std::round(line * 0.4);
    const qreal bottomStrip = options_.selectedRows.empty() ? 0.0 : stripGap + sumStripExtent();
    const qreal rightStrip = options_.selectedColumns.empty() ? 0.0 : stripGap + sumStripExtent();
    qreal width = 2 * pad + rowAxis + rowLabels + cell * map_.cols + rightStrip + colorBar;
    // The colour bar's lowest tick label hangs half a line below the matrix.
    const qreal overhang = options_.showColorBar ? std::ceil(line / 2) : 0.0;
    qreal height = 2 * pad + titleHeight + columnAxis + columnLabels + cell * map_.rows + bottomStrip + overhang;
    // layout() lets labels take at most kLabelShare of the size: make room so that none is elided.
    width = std::max(width, (rowLabels - kTickLength - kLabelGap) / kLabelShare);
    height = std::max(height, (columnLabels - kTickLength - kLabelGap) / kLabelShare);
    if (!options_.title.isEmpty()) {
        width = std::max(width, QFontMetricsF(titleFontFor(options_.font)).horizontalAdvance(options_.title) + 2 * pad);
    }
    return QSize(static_cast<int>(std::ceil(width)), static_cast<int>(std::ceil(height)));
}

void HeatmapRenderer::layout(const QRectF& target) const {
    Layout l;
    l.target = target;
    if (isEmpty() || target.isEmpty()) {
        layout_ = l;
        return;
    }
    const QFontMetricsF metrics(options_.font);
    const qreal line = metrics.height();
    const bool decorated = options_.showLabels || options_.showColorBar || !options_.title.isEmpty() ||
                           !options_.rowAxisTitle.isEmpty() || !options_.columnAxisTitle.isEmpty();
    const qreal pad = decorated ? std::round(line * 0.6) : 0.0;
    const qreal width = target.width();
    const qreal height = target.height();

    const qreal titleHeight =
        options_.title.isEmpty() ? 0.0 : QFontMetricsF(titleFontFor(options_.font)).height() + pad / 2;
    const qreal columnAxis = options_.columnAxisTitle.isEmpty() ? 0.0 : line + 2;
    const qreal rowAxis = options_.rowAxisTitle.isEmpty() ? 0.0 : line + 2;
    qreal rowLabels = 0.0;
    if (options_.showLabels) {
        l.rowLabelWidth = std::min({maxRowLabelWidth_, kMaxLabelWidth, std::max(kMinLabelCap, width * kLabelShare)});
        rowLabels = l.rowLabelWidth + kTickLength + kLabelGap;
    }
    qreal barWidth = 0.0;
    qreal colorBar = 0.0;
    if (options_.showColorBar) {
        const auto [low, high] = valueRange();
        barWidth = std::max(10.0, std::round(line * 0.9));
        colorBar = pad + barWidth + kTickLength + kLabelGap + colorBarLabelWidth(low, high, options_.font);
    }
    // The colour bar's lowest tick label hangs half a line below the matrix.
    const qreal overhang = options_.showColorBar ? std::ceil(line / 2) : 0.0;
    // The selection's sums: a strip under the matrix (rows) or right of it (columns).
    const qreal stripGap = std::round(line * 0.4);
    const qreal bottomStrip = options_.selectedRows.empty() ? 0.0 : stripGap + sumStripExtent();
    const qreal rightStrip = options_.selectedColumns.empty() ? 0.0 : stripGap + sumStripExtent();
    const qreal availableWidth = width - 2 * pad - rowAxis - rowLabels - rightStrip - colorBar;
    auto cellsFor = [&](qreal columnLabels) {
        const qreal availableHeight =
            height - 2 * pad - titleHeight - columnAxis - columnLabels - bottomStrip - overhang;
        qreal cw = std::max(0.0, availableWidth / map_.cols);
        qreal ch = std::max(0.0, availableHeight / map_.rows);
        if (options_.keepAspect) {
            cw = ch = std::min(cw, ch);
        }
        return std::make_pair(cw, ch);
    };
    qreal columnLabels = options_.showLabels ? line + kTickLength + kLabelGap : 0.0;
    auto [cw, ch] = cellsFor(columnLabels);
    l.columnLabelExtent = cw;
    if (options_.showLabels && maxColumnLabelWidth_ + 4 > cw) {
        l.rotateColumnLabels = true;
        l.columnLabelExtent =
            std::min({maxColumnLabelWidth_, kMaxLabelWidth, std::max(kMinLabelCap, height * kLabelShare)});
        columnLabels = l.columnLabelExtent + kTickLength + kLabelGap;
        std::tie(cw, ch) = cellsFor(columnLabels);
    }
    // Whole-pixel cells keep cell edges crisp once cells are a few pixels wide.
    if (cw >= 4) {
        cw = std::floor(cw);
    }
    if (ch >= 4) {
        ch = std::floor(ch);
    }
    l.cellWidth = cw;
    l.cellHeight = ch;
    if (!l.rotateColumnLabels) {
        l.columnLabelExtent = cw;
    }
    l.rowStride = ch > 0 ? std::max(1, static_cast<int>(std::ceil(line * 1.05 / ch))) : map_.rows + 1;
    l.columnStride = !l.rotateColumnLabels ? 1
                     : cw > 0              ? std::max(1, static_cast<int>(std::ceil(line * 1.05 / cw)))
                                           : map_.cols + 1;

    const qreal matrixWidth = cw * map_.cols;
    const qreal matrixHeight = ch * map_.rows;
    const qreal contentWidth = rowAxis + rowLabels + matrixWidth + rightStrip + colorBar;
    const qreal contentHeight = titleHeight + columnAxis + columnLabels + matrixHeight + bottomStrip + overhang;
    const qreal x0 = std::round(target.left() + std::max(pad, (width - contentWidth) / 2));
    const qreal y0 = std::round(target.top() + std::max(pad, (height - contentHeight) / 2));
    l.matrix =
        QRectF(x0 + rowAxis + rowLabels, y0 + titleHeight + columnAxis + columnLabels, matrixWidth, matrixHeight);
    if (options_.showColorBar) {
        l.colorBar = QRectF(l.matrix.right() + rightStrip + pad, l.matrix.top(), barWidth, matrixHeight);
    }
    if (bottomStrip > 0) {
        l.sumStrip = QRectF(l.matrix.left(), l.matrix.bottom() + stripGap, matrixWidth, bottomStrip - stripGap);
    } else if (rightStrip > 0) {
        l.sumStrip = QRectF(l.matrix.right() + stripGap, l.matrix.top(), rightStrip - stripGap, matrixHeight);
    }
    if (!options_.title.isEmpty()) {
        const qreal titleWidth =
            std::min(QFontMetricsF(titleFontFor(options_.font)).horizontalAdvance(options_.title), width - 2 * pad);
        const qreal left = std::clamp(l.matrix.center().x() - titleWidth / 2, target.left() + pad,
                                      std::max(target.left() + pad, target.right() - pad - titleWidth));
        l.title = QRectF(left, y0, titleWidth, titleHeight - pad / 2);
    }
    if (rowAxis > 0) {
        l.rowAxisTitle = QRectF(x0, l.matrix.top(), rowAxis, matrixHeight);
    }
    if (columnAxis > 0) {
        l.columnAxisTitle = QRectF(l.matrix.left(), y0 + titleHeight, matrixWidth, columnAxis);
    }
    layout_ = l;
}

QRectF HeatmapRenderer::matrixRect() const { return layout_.matrix; }

QRectF HeatmapRenderer::colorBarRect() const { return layout_.colorBar; }

QRectF HeatmapRenderer::cellRect(int row, int column) const {
    if (row < 0 || column < 0 || row >= map_.rows || column >= map_.cols || layout_.matrix.isEmpty()) {
        return QRectF();
    }
    return QRectF(layout_.matrix.left() + column * layout_.cellWidth, layout_.matrix.top() + row * layout_.cellHeight,
                  layout_.cellWidth, layout_.cellHeight);
}

std::optional<QPoint> HeatmapRenderer::cellAt(const QPointF& pos) const {
    const QRectF& m = layout_.matrix;
    if (isEmpty() || m.isEmpty() || pos.x() < m.left() || pos.y() < m.top() || pos.x() >= m.right() ||
        pos.y() >= m.bottom()) {
        return std::nullopt;
    }
    const int column = std::clamp(static_cast<int>((pos.x() - m.left()) / layout_.cellWidth), 0, map_.cols - 1);
    const int row = std::clamp(static_cast<int>((pos.y() - m.top()) / layout_.cellHeight), 0, map_.rows - 1);
    return QPoint(column, row);
}

std::optional<int> HeatmapRenderer::rowLabelAt(const QPointF& pos) const {
    const QRectF& m = layout_.matrix;
    if (isEmpty() || m.isEmpty() || !options_.showLabels || layout_.cellHeight <= 0) {
        return std::nullopt;
    }
    // Anywhere left of the matrix within its height: short labels are easy to hit.
    if (pos.x() < layout_.target.left() || pos.x() >= m.left() || pos.y() < m.top() || pos.y() >= m.bottom()) {
        return std::nullopt;
    }
    return std::clamp(static_cast<int>((pos.y() - m.top()) / layout_.cellHeight), 0, map_.rows - 1);
}

std::optional<int> HeatmapRenderer::columnLabelAt(const QPointF& pos) const {
    const QRectF& m = layout_.matrix;
    if (isEmpty() || m.isEmpty() || !options_.showLabels || layout_.cellWidth <= 0) {
        return std::nullopt;
    }
    const qreal top = layout_.title.isEmpty() ? layout_.target.top() : layout_.title.bottom();
    if (pos.y() < top || pos.y() >= m.top() || pos.x() < m.left() || pos.x() >= m.right()) {
        return std::nullopt;
    }
    return std::clamp(static_cast<int>((pos.x() - m.left()) / layout_.cellWidth), 0, map_.cols - 1);
}

QRectF HeatmapRenderer::sumStripRect() const { return hasSelection() ? layout_.sumStrip : QRectF(); }

QRectF HeatmapRenderer::sumStripCellRect(int index) const {
    const QRectF& strip = layout_.sumStrip;
    if (strip.isEmpty() || !hasSelection()) {
        return QRectF();
    }
    if (!options_.selectedRows.empty()) {
        if (index < 0 || index >= map_.cols) return QRectF();
        return QRectF(strip.left() + index * layout_.cellWidth, strip.top(), layout_.cellWidth, strip.height());
    }
    if (index < 0 || index >= map_.rows) return QRectF();
    return QRectF(strip.left(), strip.top() + index * layout_.cellHeight, strip.width(), layout_.cellHeight);
}

std::optional<int> HeatmapRenderer::sumStripCellAt(const QPointF& pos) const {
    const QRectF strip = sumStripRect();
    if (strip.isEmpty() || !strip.contains(pos)) {
        return std::nullopt;
    }
    if (!options_.selectedRows.empty()) {
        return std::clamp(static_cast<int>((pos.x() - strip.left()) / layout_.cellWidth), 0, map_.cols - 1);
    }
    return std::clamp(static_cast<int>((pos.y() - strip.top()) / layout_.cellHeight), 0, map_.rows - 1);
}

qreal HeatmapRenderer::sumStripExtent() const {
    const QFontMetricsF metrics(options_.font);
    if (!options_.selectedRows.empty()) {
        return std::round(metrics.height() * 1.5);
    }
    // A column strip is as wide as its widest sum, so that its numbers fit.
    qreal widest = metrics.horizontalAdvance(QStringLiteral("0.00"));
    for (double sum : selectionSums()) {
        widest = std::max(widest, metrics.horizontalAdvance(QString::number(sum, 'f', 2)));
    }
    return std::ceil(std::max(widest + 8, metrics.height() * 1.5));
}

QColor HeatmapRenderer::selectionColor() const {
    // Orange is on none of the colour maps' paths through viridis, magma, cividis or grey; lighter on a
    // dark background.
    return contrastingTextColor(options_.backgroundColor.rgb()) == QColor(Qt::white) ? QColor(0xff, 0xa0, 0x40)
                                                                                      : QColor(0xd9, 0x5f, 0x02);
}

bool HeatmapRenderer::numbersVisible() const {
    return options_.showNumbers && !isEmpty() && layout_.cellWidth >= options_.minCellForNumbers &&
           layout_.cellHeight >= options_.minCellForNumbers * 0.6;
}

// ---- painting ------------------------------------------------------------------------------------

void HeatmapRenderer::paint(QPainter& painter, const QRectF& target, const QRectF& exposed) const {
    painter.save();
    if (options_.backgroundColor.alpha() > 0) {
        painter.fillRect(exposed.isNull() ? target : exposed.intersected(target), options_.backgroundColor);
    }
    layout(target);
    const QRectF visible = exposed.isNull() ? target : exposed.intersected(target);
    if (isEmpty() || matrixImage().isNull()) {
        paintEmpty(
            painter, target,
            isEmpty() ? emptyText()
                      : tr("Attention map too large to draw (%1 × %2)").arg(map_.rows).arg(map_.cols));
        painter.restore();
        return;
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    paintMatrix(painter, visible);
    paintNumbers(painter, visible);
    paintHighlight(painter);
    paintSelection(painter);
    paintLabels(painter, visible);

    painter.setPen(options_.textColor);
    if (!layout_.title.isEmpty()) {
        const QFont font = titleFontFor(options_.font);
        painter.setFont(font);
        const QString text = QFontMetricsF(font).elidedText(options_.title, Qt::ElideRight, layout_.title.width() + 1);
        painter.drawText(layout_.title, Qt::AlignHCenter | Qt::AlignVCenter, text);
    }
    painter.setFont(options_.font);
    if (!layout_.columnAxisTitle.isEmpty()) {
        painter.drawText(layout_.columnAxisTitle, Qt::AlignHCenter | Qt::AlignTop, options_.columnAxisTitle);
    }
    if (!layout_.rowAxisTitle.isEmpty()) {
        const QRectF r = layout_.rowAxisTitle;
        // Chinese reads best upright, one character under the other; other scripts are turned.
        const QString& title = options_.rowAxisTitle;
        const bool han = std::all_of(title.begin(), title.end(),
                                     [](QChar c) { return c.script() == QChar::Script_Han; });
        const qreal step = QFontMetricsF(options_.font).height();
        if (han && !title.isEmpty() && step * title.size() <= r.height()) {
            qreal y = r.center().y() - step * title.size() / 2;
            for (QChar c : title) {
                painter.drawText(QRectF(r.left(), y, r.width(), step), Qt::AlignCenter, QString(c));
                y += step;
            }
        } else {
            painter.save();
            painter.translate(r.left(), r.bottom());
            painter.rotate(-90);
            painter.drawText(QRectF(0, 0, r.height(), r.width()), Qt::AlignHCenter | Qt::AlignTop, title);
            painter.restore();
        }
    }
    if (options_.showColorBar && !layout_.colorBar.isEmpty()) {
        const auto [low, high] = valueRange();
        paintColorBar(painter, layout_.colorBar, colormap(), low, high, options_.font, options_.textColor);
    }
    painter.restore();
}

void HeatmapRenderer::paintEmpty(QPainter& painter, const QRectF& target, const QString& text) const {
    QColor color = options_.textColor;
    color.setAlphaF(0.6f);
    painter.setPen(color);
    painter.setFont(scaledFont(options_.font, 1.1, false));
    painter.drawText(target, Qt::AlignCenter | Qt::TextWordWrap, text);
}

void HeatmapRenderer::paintMatrix(QPainter& painter, const QRectF& visible) const {
    const QRectF& m = layout_.matrix;
    const QRectF shown = m.intersected(visible);
    if (shown.isEmpty() || layout_.cellWidth <= 0 || layout_.cellHeight <= 0) {
        return;
    }
    // Only the visible cells: a zoomed-in view of a large map stays as cheap as the full view.
    const int c0 =
        std::clamp(static_cast<int>(std::floor((shown.left() - m.left()) / layout_.cellWidth)), 0, map_.cols - 1);
    const int c1 =
        std::clamp(static_cast<int>(std::ceil((shown.right() - m.left()) / layout_.cellWidth)), c0 + 1, map_.cols);
    const int r0 =
        std::clamp(static_cast<int>(std::floor((shown.top() - m.top()) / layout_.cellHeight)), 0, map_.rows - 1);
    const int r1 =
        std::clamp(static_cast<int>(std::ceil((shown.bottom() - m.top()) / layout_.cellHeight)), r0 + 1, map_.rows);
    const QRect source(c0, r0, c1 - c0, r1 - r0);
    const QRectF destination(m.left() + c0 * layout_.cellWidth, m.top() + r0 * layout_.cellHeight,
                             source.width() * layout_.cellWidth, source.height() * layout_.cellHeight);
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.setRenderHint(QPainter::Antialiasing, false);
    if (isVectorDevice(painter)) {
        // SVG and PDF viewers smooth embedded images; whole blocks of pixels per cell keep edges sharp.
        const int longest = std::max(source.width(), source.height());
        const int factor = std::clamp(2048 / longest, 1, 32);
        const QImage cells = matrixImage().copy(source);
        painter.drawImage(
            destination,
            factor == 1 ? cells : cells.scaled(cells.size() * factor, Qt::IgnoreAspectRatio, Qt::FastTransformation));
    } else {
        painter.drawImage(destination, matrixImage(), source);
    }
    painter.restore();
}

void HeatmapRenderer::paintNumbers(QPainter& painter, const QRectF& visible) const {
    if (!numbersVisible()) {
        return;
    }
    const QRectF& m = layout_.matrix;
    const QRectF shown = m.intersected(visible);
    if (shown.isEmpty()) {
        return;
    }
    const qreal cw = layout_.cellWidth;
    const qreal ch = layout_.cellHeight;
    const int c0 = std::clamp(static_cast<int>((shown.left() - m.left()) / cw), 0, map_.cols - 1);
    const int c1 = std::clamp(static_cast<int>(std::ceil((shown.right() - m.left()) / cw)), c0, map_.cols);
    const int r0 = std::clamp(static_cast<int>((shown.top() - m.top()) / ch), 0, map_.rows - 1);
    const int r1 = std::clamp(static_cast<int>(std::ceil((shown.bottom() - m.top()) / ch)), r0, map_.rows);
    QFont font = options_.font;
    const int pixels =
        static_cast<int>(std::min<qreal>({static_cast<qreal>(options_.font.pixelSize()), cw * 0.3, ch * 0.45}));
    font.setPixelSize(std::max(6, pixels));
    painter.save();
    painter.setFont(font);
    const QColor light(Qt::white);
    QColor current;
    for (int r = r0; r < r1; ++r) {
        for (int c = c0; c < c1; ++c) {
            const double w = map_.at(r, c);
            const QColor color = contrastingTextColor(colorFor(w));
            if (color != current) {
                painter.setPen(color);
                current = color;
            }
            painter.drawText(cellRect(r, c), Qt::AlignCenter, QString::number(w, 'f', 2));
        }
    }
    painter.restore();
}

void HeatmapRenderer::paintHighlight(QPainter& painter) const {
    const int row = options_.highlightRow;
    const int column = options_.highlightColumn;
    if (row < 0 && column < 0) {
        return;
    }
    const QRectF& m = layout_.matrix;
    auto outline = [&painter](const QRectF& rect) {
        // A white line on a dark halo stays visible on every colour map.
        painter.setPen(QPen(QColor(0, 0, 0, 150), 3.0));
        painter.drawRect(rect);
        painter.setPen(QPen(QColor(255, 255, 255), 1.4));
        painter.drawRect(rect);
    };
    painter.save();
    painter.setBrush(Qt::NoBrush);
    if (row >= 0) {
        outline(QRectF(m.left(), m.top() + row * layout_.cellHeight, m.width(), layout_.cellHeight));
    }
    if (column >= 0) {
        outline(QRectF(m.left() + column * layout_.cellWidth, m.top(), layout_.cellWidth, m.height()));
    }
    painter.restore();
}

void HeatmapRenderer::paintSelection(QPainter& painter) const {
    if (!hasSelection() || layout_.matrix.isEmpty()) {
        return;
    }
    const QRectF& m = layout_.matrix;
    const bool rows = !options_.selectedRows.empty();
    const std::vector<int>& selected = rows ? options_.selectedRows : options_.selectedColumns;
    const QColor accent = selectionColor();
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setBrush(Qt::NoBrush);
    // One outline per run of adjacent indices.
    for (std::size_t i = 0; i < selected.size();) {
        std::size_t j = i;
        while (j + 1 < selected.size() && selected[j + 1] == selected[j] + 1) ++j;
        const QRectF band = rows ? QRectF(m.left(), m.top() + selected[i] * layout_.cellHeight, m.width(),
                                          (selected[j] - selected[i] + 1) * layout_.cellHeight)
                                 : QRectF(m.left() + selected[i] * layout_.cellWidth, m.top(),
                                          (selected[j] - selected[i] + 1) * layout_.cellWidth, m.height());
        painter.setPen(QPen(QColor(0, 0, 0, 150), 4.0));
        painter.drawRect(band);
        painter.setPen(QPen(accent, 2.0));
        painter.drawRect(band);
        i = j + 1;
    }

    const QRectF strip = layout_.sumStrip;
    if (!strip.isEmpty()) {
        const std::vector<double> sums = selectionSums();
        const double count = static_cast<double>(selected.size());
        QFont font = options_.font;
        const QFontMetricsF metrics(font);
        for (std::size_t i = 0; i < sums.size(); ++i) {
            const QRectF cell = sumStripCellRect(static_cast<int>(i));
            const QRgb color = colorFor(sums[i] / count);
            painter.fillRect(cell, QColor(color));
            const QString text = QString::number(sums[i], 'f', 2);
            if (metrics.horizontalAdvance(text) + 4 <= cell.width() && metrics.height() <= cell.height() + 2) {
                painter.setPen(contrastingTextColor(color));
                painter.setFont(font);
                painter.drawText(cell, Qt::AlignCenter, text);
            }
        }
        painter.setPen(QPen(accent, 2.0));
        painter.drawRect(strip);
        // "Σ" where the other labels are: left of a row strip, above a column strip.
        painter.setPen(accent);
        painter.setFont(scaledFont(options_.font, 1.1, true));
        const qreal line = metrics.height();
        const QString sigma = QStringLiteral("\u03a3");
        if (rows) {
            painter.drawText(QRectF(strip.left() - kTickLength - kLabelGap - 3 * line, strip.top(), 3 * line,
                                    strip.height()),
                             Qt::AlignRight | Qt::AlignVCenter, sigma);
        } else {
            painter.drawText(QRectF(strip.left(), strip.top() - kTickLength - line, strip.width(), line),
                             Qt::AlignHCenter | Qt::AlignBottom, sigma);
        }
    }
    painter.restore();
}

void HeatmapRenderer::paintLabels(QPainter& painter, const QRectF& visible) const {
    if (!options_.showLabels || layout_.matrix.isEmpty()) {
        return;
    }
    const QRectF& m = layout_.matrix;
    const QFont normal = options_.font;
    const QFont bold = scaledFont(options_.font, 1.0, true);
    const QFontMetricsF normalMetrics(normal);
    const QFontMetricsF boldMetrics(bold);
    const qreal line = normalMetrics.height();
    const qreal cw = layout_.cellWidth;
    const qreal ch = layout_.cellHeight;
    painter.save();
    painter.setPen(QPen(options_.textColor, 1.0));

    // Row labels, right-aligned left of the matrix.
    const qreal rowRight = m.left() - kTickLength - kLabelGap;
    const QColor accent = selectionColor();
    auto isSelected = [](const std::vector<int>& selected, int i) {
        return std::binary_search(selected.begin(), selected.end(), i);
    };
    auto drawRow = [&](int r, bool highlighted) {
        const bool selected = isSelected(options_.selectedRows, r);
        highlighted = highlighted || selected;
        painter.setPen(QPen(selected ? accent : options_.textColor, 1.0));
        const qreal cy = m.top() + (r + 0.5) * ch;
        const QFontMetricsF& metrics = highlighted ? boldMetrics : normalMetrics;
        const QString text = metrics.elidedText(rowLabel(r), Qt::ElideRight, layout_.rowLabelWidth + 1);
        const QRectF box(rowRight - layout_.rowLabelWidth, cy - line / 2, layout_.rowLabelWidth, line);
        if (highlighted && layout_.rowStride > 1) {
            painter.fillRect(box.adjusted(box.width() - metrics.horizontalAdvance(text) - 2, 0, 0, 0),
                             options_.backgroundColor);
        }
        painter.setFont(highlighted ? bold : normal);
        painter.drawText(box, Qt::AlignRight | Qt::AlignVCenter, text);
        painter.drawLine(QPointF(m.left() - kTickLength, cy), QPointF(m.left(), cy));
    };
    const int rowFirst = std::max(0, static_cast<int>((visible.top() - m.top() - line) / std::max(ch, 1e-9)));
    const int rowLast =
        std::min(map_.rows - 1, static_cast<int>((visible.bottom() - m.top() + line) / std::max(ch, 1e-9)));
    const int rowStride = layout_.rowStride;
    for (int r = (rowFirst + rowStride - 1) / rowStride * rowStride; r <= rowLast; r += rowStride) {
        if (r != options_.highlightRow && !isSelected(options_.selectedRows, r)) {
            drawRow(r, false);
        }
    }
    // Selected and highlighted labels are drawn even between the strided ones, over them.
    for (int r : options_.selectedRows) {
        if (r != options_.highlightRow && r >= rowFirst && r <= rowLast) {
            drawRow(r, true);
        }
    }
    if (options_.highlightRow >= 0) {
        drawRow(options_.highlightRow, true);
    }

    // Column labels above the matrix: horizontal when they fit the cell, else reading upwards.
    const qreal columnBottom = m.top() - kTickLength - kLabelGap;
    auto drawColumn = [&](int c, bool highlighted) {
        const bool selected = isSelected(options_.selectedColumns, c);
        highlighted = highlighted || selected;
        painter.setPen(QPen(selected ? accent : options_.textColor, 1.0));
        const qreal cx = m.left() + (c + 0.5) * cw;
        const QFontMetricsF& metrics = highlighted ? boldMetrics : normalMetrics;
        const qreal extent = layout_.columnLabelExtent;
        const QString text = metrics.elidedText(columnLabel(c), Qt::ElideRight,
                                                layout_.rotateColumnLabels ? extent + 1 : std::max(extent, 1.0) + 4);
        painter.setFont(highlighted ? bold : normal);
        if (layout_.rotateColumnLabels) {
            painter.save();
            painter.translate(cx, columnBottom);
            painter.rotate(-90);
            const QRectF box(0, -line / 2, extent, line);
            if (highlighted && layout_.columnStride > 1) {
                painter.fillRect(QRectF(0, -line / 2, metrics.horizontalAdvance(text) + 2, line),
                                 options_.backgroundColor);
            }
            painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, text);
            painter.restore();
        } else {
            const qreal w = std::max(cw, metrics.horizontalAdvance(text)) + 2;
            painter.drawText(QRectF(cx - w / 2, columnBottom - line, w, line), Qt::AlignHCenter | Qt::AlignBottom,
                             text);
        }
        painter.drawLine(QPointF(cx, m.top() - kTickLength), QPointF(cx, m.top()));
    };
    const int columnFirst = std::max(0, static_cast<int>((visible.left() - m.left() - line) / std::max(cw, 1e-9)));
    const int columnLast =
        std::min(map_.cols - 1, static_cast<int>((visible.right() - m.left() + line) / std::max(cw, 1e-9)));
    const int columnStride = layout_.columnStride;
    for (int c = (columnFirst + columnStride - 1) / columnStride * columnStride; c <= columnLast; c += columnStride) {
        if (c != options_.highlightColumn && !isSelected(options_.selectedColumns, c)) {
            drawColumn(c, false);
        }
    }
    for (int c : options_.selectedColumns) {
        if (c != options_.highlightColumn && c >= columnFirst && c <= columnLast) {
            drawColumn(c, true);
        }
    }
    if (options_.highlightColumn >= 0) {
        drawColumn(options_.highlightColumn, true);
    }
    painter.restore();
}

qreal HeatmapRenderer::colorBarLabelWidth(double low, double high, const QFont& font) {
    int decimals = 0;
    const std::vector<double> ticks = niceTicks(low, high, 8, &decimals);
    const QFontMetricsF metrics(font);
    qreal width = 0.0;
    for (double v : ticks) {
        width = std::max(width, metrics.horizontalAdvance(QString::number(v, 'f', decimals)));
    }
    return std::ceil(width);
}

void HeatmapRenderer::paintColorBar(QPainter& painter, const QRectF& bar, const Colormap& colormap, double low,
                                    double high, const QFont& font, const QColor& textColor) {
    if (bar.isEmpty()) {
        return;
    }
    QImage gradient(1, Colormap::kSize, QImage::Format_RGB32);
    for (int i = 0; i < Colormap::kSize; ++i) {
        gradient.setPixel(0, Colormap::kSize - 1 - i, colormap.at(i));
    }
    const QFontMetricsF metrics(font);
    const qreal line = metrics.height();
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, true);
    painter.drawImage(bar, gradient);
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setPen(QPen(textColor, 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar);
    painter.setFont(font);
    const int maxTicks = std::clamp(static_cast<int>(bar.height() / (line * 1.6)) + 1, 2, 8);
    int decimals = 0;
    const std::vector<double> ticks = niceTicks(low, high, maxTicks, &decimals);
    const double span = high - low;
    for (double v : ticks) {
        const qreal y = span > 0 ? bar.bottom() - (v - low) / span * bar.height() : bar.bottom();
        painter.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + kTickLength, y));
        const QRectF box(bar.right() + kTickLength + kLabelGap, y - line / 2,
                         metrics.horizontalAdvance(QString::number(v, 'f', decimals)) + 2, line);
        painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, QString::number(v, 'f', decimals));
    }
    painter.restore();
}

// ---- export --------------------------------------------------------------------------------------

std::optional<ExportFormat> HeatmapRenderer::formatForPath(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png")) {
        return ExportFormat::Png;
    }
    if (suffix == QLatin1String("svg")) {
        return ExportFormat::Svg;
    }
    if (suffix == QLatin1String("pdf")) {
        return ExportFormat::Pdf;
    }
    if (suffix == QLatin1String("csv")) {
        return ExportFormat::Csv;
    }
    if (suffix == QLatin1String("npy")) {
        return ExportFormat::Npy;
    }
    return std::nullopt;
}

bool HeatmapRenderer::exportFile(const QString& path, QString* error, double scale, QSize size) const {
    const std::optional<ExportFormat> format = formatForPath(path);
    if (!format) {
        setError(
            error,
            tr("cannot export '%1': unknown file type (use .png, .svg, .pdf, .csv or .npy)").arg(path));
        return false;
    }
    switch (*format) {
    case ExportFormat::Csv:
        return exportCsv(path, error);
    case ExportFormat::Npy:
        return exportNpy(path, error);
    default:
        return exportImage(path, *format, error, scale, size);
    }
}

bool HeatmapRenderer::exportImage(const QString& path, ExportFormat format, QString* error, double scale,
                                  QSize size) const {
    if (isEmpty()) {
        setError(error, tr("cannot export '%1': %2").arg(path, emptyText().toLower()));
        return false;
    }
    if (format == ExportFormat::Csv || format == ExportFormat::Npy) {
        return format == ExportFormat::Csv ? exportCsv(path, error) : exportNpy(path, error);
    }
    if (size.isEmpty()) {
        size = preferredSize();
    }
    HeatmapRenderer copy(*this);  // exporting must not disturb the layout a widget hit-tests against
    copy.setHighlight(-1, -1);
    const PaintFunction paint = [&copy](QPainter& painter, const QRectF& target) { copy.paint(painter, target); };
    switch (format) {
    case ExportFormat::Png:
        return writePng(path, size, scale, options_.backgroundColor, paint, error);
    case ExportFormat::Svg:
        return writeSvg(path, size, options_.title, paint, error);
    default:
        return writePdf(path, size, options_.title, paint, error);
    }
}

bool HeatmapRenderer::exportCsv(const QString& path, QString* error) const {
    if (isEmpty()) {
        setError(error, tr("cannot export '%1': %2").arg(path, emptyText().toLower()));
        return false;
    }
    return writeFile(path, csvBytes(map_, rowLabels_, columnLabels_), error);
}

bool HeatmapRenderer::exportNpy(const QString& path, QString* error) const {
    if (isEmpty()) {
        setError(error, tr("cannot export '%1': %2").arg(path, emptyText().toLower()));
        return false;
    }
    return writeFile(path, npyBytes(map_), error);
}

QByteArray HeatmapRenderer::csvBytes(const AttentionMap& map, const QStringList& rowLabels,
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

QByteArray HeatmapRenderer::npyBytes(const AttentionMap& map) {
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

bool HeatmapRenderer::writeFile(const QString& path, const QByteArray& bytes, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        setError(error, cannotWrite(path, file.errorString()));
        return false;
    }
    if (file.write(bytes) != bytes.size()) {
        setError(error, cannotWrite(path, file.errorString()));
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        setError(error, cannotWrite(path, file.errorString()));
        return false;
    }
    return true;
}

bool HeatmapRenderer::writePng(const QString& path, QSize size, double scale, const QColor& background,
                               const PaintFunction& paint, QString* error) {
    if (!(scale > 0.0) || scale > 16.0) {
        setError(error, cannotWrite(path, tr("scale %1 is outside (0, 16]").arg(scale)));
        return false;
    }
    const QSize pixels(static_cast<int>(std::lround(size.width() * scale)),
                       static_cast<int>(std::lround(size.height() * scale)));
    if (pixels.isEmpty() || pixels.width() > kMaxImageSide || pixels.height() > kMaxImageSide) {
        setError(
            error,
            cannotWrite(
                path,
                tr("an image of %1 x %2 pixels is too large").arg(pixels.width()).arg(pixels.height())));
        return false;
    }
    try {
        QImage image(pixels, background.alpha() == 255 ? QImage::Format_RGB32 : QImage::Format_ARGB32_Premultiplied);
        if (image.isNull()) {
            setError(error, cannotWrite(path, tr("out of memory for the image")));
            return false;
        }
        image.setDevicePixelRatio(scale);
        const int dotsPerMeter = static_cast<int>(std::lround(96.0 * scale / 0.0254));
        image.setDotsPerMeterX(dotsPerMeter);
        image.setDotsPerMeterY(dotsPerMeter);
        image.fill(background);
        {
            QPainter painter(&image);
            painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
            paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
        }
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly)) {
            setError(error, cannotWrite(path, file.errorString()));
            return false;
        }
        if (!image.save(&file, "PNG")) {
            file.cancelWriting();
            setError(error, cannotWrite(path, tr("PNG encoding failed")));
            return false;
        }
        if (!file.commit()) {
            setError(error, cannotWrite(path, file.errorString()));
            return false;
        }
    } catch (const std::exception& e) {
        setError(error, cannotWrite(path, QString::fromUtf8(e.what())));
        return false;
    }
    return true;
}

bool HeatmapRenderer::writeSvg(const QString& path, QSize size, const QString& title, const PaintFunction& paint,
                               QString* error) {
    if (size.isEmpty()) {
        setError(error, cannotWrite(path, tr("empty image size")));
        return false;
    }
    try {
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly)) {
            setError(error, cannotWrite(path, file.errorString()));
            return false;
        }
        QSvgGenerator generator;
        generator.setOutputDevice(&file);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setResolution(96);
        generator.setTitle(title.isEmpty() ? QStringLiteral("Attention heatmap") : title);
        generator.setDescription(QStringLiteral("Drawn by AttnLab"));
        QPainter painter;
        if (!painter.begin(&generator)) {
            file.cancelWriting();
            setError(error, cannotWrite(path, tr("cannot start the SVG painter")));
            return false;
        }
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
        painter.end();
        if (!file.commit()) {
            setError(error, cannotWrite(path, file.errorString()));
            return false;
        }
    } catch (const std::exception& e) {
        setError(error, cannotWrite(path, QString::fromUtf8(e.what())));
        return false;
    }
    return true;
}

bool HeatmapRenderer::writePdf(const QString& path, QSize size, const QString& title, const PaintFunction& paint,
                               QString* error) {
    if (size.isEmpty()) {
        setError(error, cannotWrite(path, tr("empty image size")));
        return false;
    }
    try {
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly)) {
            setError(error, cannotWrite(path, file.errorString()));
            return false;
        }
        {
            QPdfWriter pdf(&file);
            pdf.setResolution(96);  // one logical pixel = 1/96 inch, as on screen
            pdf.setTitle(title.isEmpty() ? QStringLiteral("Attention heatmap") : title);
            pdf.setCreator(QStringLiteral("AttnLab"));
            const qreal w = size.width() * 72.0 / 96.0;
            const qreal h = size.height() * 72.0 / 96.0;
            const QPageSize page(QSizeF(std::min(w, h), std::max(w, h)), QPageSize::Point, QString(),
                                 QPageSize::ExactMatch);
            pdf.setPageLayout(QPageLayout(page, w > h ? QPageLayout::Landscape : QPageLayout::Portrait, QMarginsF()));
            QPainter painter;
            if (!painter.begin(&pdf)) {
                file.cancelWriting();
                setError(error, cannotWrite(path, tr("cannot start the PDF painter")));
                return false;
            }
            painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
            paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
            painter.end();
        }
        if (!file.commit()) {
            setError(error, cannotWrite(path, file.errorString()));
            return false;
        }
    } catch (const std::exception& e) {
        setError(error, cannotWrite(path, QString::fromUtf8(e.what())));
        return false;
    }
    return true;
}

}  // namespace attnlab
