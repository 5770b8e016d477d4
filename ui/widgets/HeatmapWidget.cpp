#include "widgets/HeatmapWidget.h"

#include <QEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {
double gDefaultMassShare = 1.0;  // GUI thread only
}  // namespace

namespace {

constexpr double kMaxZoom = 64.0;
constexpr double kZoomStep = 1.25;
constexpr qreal kDragThreshold = 4.0;

}  // namespace

HeatmapWidget::HeatmapWidget(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    applyPalette();
    renderer_.setMassShare(gDefaultMassShare);
}

void HeatmapWidget::setAttention(const AttentionMap& map, const QStringList& rowLabels,
                                 const QStringList& columnLabels) {
    const bool sameShape = map.rows == renderer_.rows() && map.cols == renderer_.columns();
    const bool hadSelection = renderer_.hasSelection();
    renderer_.setMap(map, rowLabels, columnLabels);
    if (!sameShape) {
        // A new sentence: the old zoom, hover and selection no longer mean anything. A live update of
        // the same sentence (training) keeps them.
        zoom_ = 1.0;
        pan_ = QPointF();
        hoverRow_ = hoverColumn_ = -1;
        renderer_.setSelection({}, {});
        updateCursor();
    }
    externalRow_ = externalRow_ < map.rows ? externalRow_ : -1;
    externalColumn_ = externalColumn_ < map.cols ? externalColumn_ : -1;
    applyHighlight();
    updateGeometry();
    if (hadSelection && !sameShape) {
        Q_EMIT selectionChanged();
    } else if (renderer_.hasSelection()) {
        Q_EMIT selectionChanged();  // same tokens, new weights: the sums changed
    }
}

void HeatmapWidget::setAttention(const AttentionMap& map, const std::vector<std::string>& rowLabels,
                                 const std::vector<std::string>& columnLabels) {
    setAttention(map, HeatmapRenderer::toStringList(rowLabels), HeatmapRenderer::toStringList(columnLabels));
}

void HeatmapWidget::clear() { setAttention(AttentionMap{}, QStringList(), QStringList()); }

void HeatmapWidget::setColormap(ColormapId id) {
    renderer_.setColormap(id);
    update();
}

void HeatmapWidget::setDefaultMassShare(double share) {
    gDefaultMassShare = std::isfinite(share) ? std::clamp(share, 0.01, 1.0) : 1.0;
}

double HeatmapWidget::defaultMassShare() { return gDefaultMassShare; }

void HeatmapWidget::setMassShare(double share) {
    renderer_.setMassShare(share);
    update();
}

void HeatmapWidget::setShowNumbers(bool on) {
    renderer_.setShowNumbers(on);
    update();
}

void HeatmapWidget::setShowColorBar(bool on) {
    renderer_.setShowColorBar(on);
    update();
}

void HeatmapWidget::setFixedScale(bool on) {
    renderer_.setScale(on ? ScaleMode::Unit : ScaleMode::DataMax);
    update();
}

void HeatmapWidget::setValueRange(double low, double high) {
    renderer_.setScale(ScaleMode::Fixed, low, high);
    update();
}

void HeatmapWidget::setTitle(const QString& title) {
    renderer_.setTitle(title);
    update();
}

void HeatmapWidget::setAxisTitles(const QString& rowAxis, const QString& columnAxis) {
    renderer_.setAxisTitles(rowAxis, columnAxis);
    update();
}

void HeatmapWidget::setKeepAspect(bool on) {
    HeatmapOptions options = renderer_.options();
    options.keepAspect = on;
    renderer_.setOptions(options);
    update();
}

void HeatmapWidget::highlightToken(int row, int column) {
    externalRow_ = row;
    externalColumn_ = column;
    applyHighlight();
}

void HeatmapWidget::setSelectedRows(const std::vector<int>& rows) { setSelection(rows, {}); }

void HeatmapWidget::setSelectedColumns(const std::vector<int>& columns) { setSelection({}, columns); }

void HeatmapWidget::clearSelection() { setSelection({}, {}); }

void HeatmapWidget::setSelection(const std::vector<int>& rows, const std::vector<int>& columns) {
    const std::vector<int> oldRows = renderer_.selectedRows();
    const std::vector<int> oldColumns = renderer_.selectedColumns();
    renderer_.setSelection(rows, columns);
    if (renderer_.selectedRows() == oldRows && renderer_.selectedColumns() == oldColumns) {
        return;
    }
    update();
    Q_EMIT selectionChanged();
}

std::vector<int> HeatmapWidget::toggled(std::vector<int> indices, int index) {
    const auto found = std::find(indices.begin(), indices.end(), index);
    if (found != indices.end()) {
        indices.erase(found);
    } else {
        indices.push_back(index);
    }
    return indices;
}

void HeatmapWidget::clickAt(const QPointF& pos, Qt::KeyboardModifiers modifiers) {
    renderer_.layout(contentRect());
    const bool add = modifiers & Qt::ControlModifier;
    if (const std::optional<int> row = renderer_.rowLabelAt(pos)) {
        // A label alone selects just its token (or deselects it when it is all that is selected).
        const bool only = selectedRows() == std::vector<int>{*row};
        setSelectedRows(add ? toggled(selectedRows(), *row) : only ? std::vector<int>{} : std::vector<int>{*row});
        return;
    }
    if (const std::optional<int> column = renderer_.columnLabelAt(pos)) {
        const bool only = selectedColumns() == std::vector<int>{*column};
        setSelectedColumns(add ? toggled(selectedColumns(), *column)
                               : only ? std::vector<int>{} : std::vector<int>{*column});
        return;
    }
    const std::optional<QPoint> cell = renderer_.cellAt(pos);
    if (cell && add) {
        const bool columns = (modifiers & Qt::ShiftModifier) || !selectedColumns().empty();
        if (columns) {
            setSelectedColumns(toggled(selectedColumns(), cell->x()));
        } else {
            setSelectedRows(toggled(selectedRows(), cell->y()));
        }
        return;
    }
    if (renderer_.sumStripCellAt(pos)) {
        return;  // reading the strip keeps the selection that made it
    }
    clearSelection();
    if (cell) {
        Q_EMIT cellClicked(cell->y(), cell->x());
    }
}

QString HeatmapWidget::selectionSummary(int maxItems) const {
    if (!hasSelection()) {
        return QString();
    }
    const bool rows = !selectedRows().empty();
    const std::vector<int>& selected = rows ? selectedRows() : selectedColumns();
    QStringList names;
    for (int i : selected) names << (rows ? renderer_.rowLabel(i) : renderer_.columnLabel(i));
    const std::vector<double> sums = selectionSums();
    std::vector<int> order(sums.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    // Largest first as shown (two decimals): equal-looking sums keep the token order.
    auto shown = [&sums](int i) { return std::llround(sums[static_cast<std::size_t>(i)] * 100.0); };
    std::stable_sort(order.begin(), order.end(), [&shown](int a, int b) { return shown(a) > shown(b); });
    QStringList items;
    for (int i = 0; i < static_cast<int>(order.size()) && i < maxItems; ++i) {
        const int index = order[static_cast<std::size_t>(i)];
        items << QStringLiteral("%1 %2").arg(rows ? renderer_.columnLabel(index) : renderer_.rowLabel(index),
                                             QString::number(sums[static_cast<std::size_t>(index)], 'f', 2));
    }
    if (static_cast<int>(order.size()) > maxItems) items << QStringLiteral("\u2026");
    const QString what = rows ? tr("Σ output rows %1") : tr("Σ source columns %1");
    return QStringLiteral("%1 \u2192 %2")
        .arg(what.arg(names.join(QStringLiteral(", "))), items.join(QStringLiteral(" \u00b7 ")));
}

QString HeatmapWidget::toolTipForSum(int index) const {
    const std::vector<double> sums = selectionSums();
    if (index < 0 || index >= static_cast<int>(sums.size())) {
        return QString();
    }
    const bool rows = !selectedRows().empty();
    QStringList names;
    for (int i : rows ? selectedRows() : selectedColumns())
        names << (rows ? renderer_.rowLabel(i) : renderer_.columnLabel(i));
    // Rows summed: "Σ rows → source"; columns summed: "target → Σ columns", in reading order.
    const QString sum = QStringLiteral("\u03a3 ") + names.join(QStringLiteral(", "));
    const QString other = rows ? renderer_.columnLabel(index) : renderer_.rowLabel(index);
    return QStringLiteral("%1 \u2192 %2: %3")
        .arg(rows ? sum : other, rows ? other : sum, QString::number(sums[static_cast<std::size_t>(index)], 'f', 4));
}

QRectF HeatmapWidget::contentRect() const { return QRectF(pan_, QSizeF(size()) * zoom_); }

QRectF HeatmapWidget::cellRect(int row, int column) const {
    renderer_.layout(contentRect());
    return renderer_.cellRect(row, column);
}

QString HeatmapWidget::toolTipFor(int row, int column) const {
    const double w = renderer_.weight(row, column);
    if (std::isnan(w) && (row < 0 || row >= renderer_.rows() || column < 0 || column >= renderer_.columns())) {
        return QString();
    }
    return QStringLiteral("%1 \u2192 %2: %3")
        .arg(renderer_.rowLabel(row), renderer_.columnLabel(column), QString::number(w, 'f', 4));
}

bool HeatmapWidget::exportTo(const QString& path, QString* error, double scale) const {
    HeatmapRenderer copy(renderer_);
    const HeatmapOptions defaults;
    copy.setColors(defaults.textColor, defaults.backgroundColor);
    copy.setHighlight(-1, -1);
    copy.setSelection({}, {});
    return copy.exportFile(path, error, scale);
}

QSize HeatmapWidget::sizeHint() const {
    return renderer_.preferredSize().boundedTo(QSize(960, 760)).expandedTo(QSize(320, 240));
}

QSize HeatmapWidget::minimumSizeHint() const { return QSize(160, 120); }

void HeatmapWidget::zoomIn() { zoomAt(kZoomStep, QPointF(width() / 2.0, height() / 2.0)); }

void HeatmapWidget::zoomOut() { zoomAt(1.0 / kZoomStep, QPointF(width() / 2.0, height() / 2.0)); }

void HeatmapWidget::resetZoom() {
    if (zoom_ == 1.0 && pan_.isNull()) {
        return;
    }
    zoom_ = 1.0;
    pan_ = QPointF();
    updateCursor();
    update();
    Q_EMIT zoomChanged(zoom_);
}

void HeatmapWidget::zoomAt(double factor, const QPointF& anchor) {
    const double zoom = std::clamp(zoom_ * factor, 1.0, kMaxZoom);
    if (zoom == zoom_) {
        return;
    }
    // Keep the point under the anchor where it is.
    pan_ = anchor - (anchor - pan_) * (zoom / zoom_);
    zoom_ = zoom;
    clampPan();
    updateCursor();
    update();
    Q_EMIT zoomChanged(zoom_);
}

void HeatmapWidget::clampPan() {
    const QSizeF content = QSizeF(size()) * zoom_;
    pan_.setX(std::clamp(pan_.x(), std::min(0.0, width() - content.width()), 0.0));
    pan_.setY(std::clamp(pan_.y(), std::min(0.0, height() - content.height()), 0.0));
}

void HeatmapWidget::applyHighlight() {
    if (hoverRow_ >= 0) {
        renderer_.setHighlight(hoverRow_, hoverColumn_);
    } else {
        renderer_.setHighlight(externalRow_, externalColumn_);
    }
    update();
}

void HeatmapWidget::applyPalette() {
    renderer_.setColors(palette().color(QPalette::WindowText), palette().color(QPalette::Window));
}

void HeatmapWidget::updateCursor() {
    if (dragging_) {
        setCursor(Qt::ClosedHandCursor);
    } else if (zoom_ > 1.0) {
        setCursor(Qt::OpenHandCursor);
    } else {
        unsetCursor();
    }
}

void HeatmapWidget::updateHover(const QPointF& pos, const QPoint& globalPos) {
    renderer_.layout(contentRect());
    const std::optional<QPoint> cell = renderer_.cellAt(pos);
    if (!cell) {
        clearHover();
        if (const std::optional<int> sum = renderer_.sumStripCellAt(pos)) {
            QToolTip::showText(globalPos, toolTipForSum(*sum), this,
                               renderer_.sumStripCellRect(*sum).toAlignedRect());
        }
        return;
    }
    const int row = cell->y();
    const int column = cell->x();
    if (row == hoverRow_ && column == hoverColumn_) {
        return;
    }
    hoverRow_ = row;
    hoverColumn_ = column;
    applyHighlight();
    QToolTip::showText(globalPos, toolTipFor(row, column), this, renderer_.cellRect(row, column).toAlignedRect());
    Q_EMIT cellHovered(row, column, renderer_.weight(row, column));
}

void HeatmapWidget::clearHover() {
    if (hoverRow_ < 0) {
        return;
    }
    hoverRow_ = hoverColumn_ = -1;
    QToolTip::hideText();
    applyHighlight();
    Q_EMIT hoverLeft();
}

void HeatmapWidget::paintEvent(QPaintEvent* event) {
    applyPalette();
    QPainter painter(this);
    painter.fillRect(event->rect(), palette().color(QPalette::Window));
    renderer_.paint(painter, contentRect(), QRectF(event->rect()));
}

void HeatmapWidget::mouseMoveEvent(QMouseEvent* event) {
    if (dragging_ && (event->buttons() & Qt::LeftButton)) {
        const QPointF delta = event->position() - dragStart_;
        if (!dragMoved_ && delta.manhattanLength() < kDragThreshold) {
            return;
        }
        dragMoved_ = true;
        if (zoom_ > 1.0) {
            pan_ = panAtDragStart_ + delta;
            clampPan();
            update();
        }
        return;
    }
    updateHover(event->position(), event->globalPosition().toPoint());
}

void HeatmapWidget::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    dragging_ = true;
    dragMoved_ = false;
    dragStart_ = event->position();
    panAtDragStart_ = pan_;
    if (zoom_ > 1.0) {
        setCursor(Qt::ClosedHandCursor);
    }
}

void HeatmapWidget::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !dragging_) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    dragging_ = false;
    updateCursor();
    if (!dragMoved_) {
        clickAt(event->position(), event->modifiers());
    }
}

void HeatmapWidget::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    if (const std::optional<int> column = renderer_.columnLabelAt(event->position())) {
        Q_EMIT columnLabelDoubleClicked(*column);
        return;
    }
    resetZoom();
}

void HeatmapWidget::wheelEvent(QWheelEvent* event) {
    const QPoint steps = event->angleDelta();
    if (event->modifiers() & Qt::ControlModifier) {
        if (steps.y() != 0) {
            zoomAt(std::pow(kZoomStep, steps.y() / 120.0), event->position());
        }
        event->accept();
        return;
    }
    if (zoom_ > 1.0) {
        const QPoint pixels = event->pixelDelta();
        QPointF delta = !pixels.isNull() ? QPointF(pixels) : QPointF(steps) / 120.0 * 40.0;
        if (event->modifiers() & Qt::ShiftModifier) {
            delta = QPointF(delta.y(), delta.x());
        }
        pan_ += delta;
        clampPan();
        update();
        event->accept();
        return;
    }
    event->ignore();  // let an enclosing scroll area have it
}

void HeatmapWidget::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_0:
        resetZoom();
        break;
    case Qt::Key_Escape:
        if (!hasSelection()) {
            QWidget::keyPressEvent(event);
            return;
        }
        clearSelection();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void HeatmapWidget::leaveEvent(QEvent* event) {
    clearHover();
    QWidget::leaveEvent(event);
}

void HeatmapWidget::resizeEvent(QResizeEvent* event) {
    clampPan();
    QWidget::resizeEvent(event);
}

void HeatmapWidget::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        applyPalette();
        update();
    }
    QWidget::changeEvent(event);
}

}  // namespace attnlab
