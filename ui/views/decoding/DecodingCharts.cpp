#include "views/decoding/DecodingCharts.h"

#include "render/Colormap.h"

#include <QFontMetricsF>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <map>

namespace attnlab {

namespace {

const QColor kCard(255, 255, 255);
const QColor kBorder(210, 210, 210);
const QColor kText(30, 30, 30);
const QColor kMuted(120, 120, 120);
const QColor kKept(59, 118, 175);
const QColor kChosen(224, 123, 57);
const QColor kDropped(200, 200, 200);
const QColor kCut(200, 40, 40);
const QColor kFinishedFill(221, 239, 217);
const QColor kFinishedLine(70, 140, 60);
const QColor kBestFill(252, 227, 207);
const QColor kNewRow(255, 246, 204);

constexpr double kPad = 12;

void paintCard(QPainter& painter, const QRectF& area) {
    painter.setPen(QPen(kBorder, 1));
    painter.setBrush(kCard);
    painter.drawRoundedRect(area.adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
}

QString percent(double p) {
    if (p >= 0.1) return QLocale().toString(100.0 * p, 'f', 0) + QLatin1Char('%');
    if (p >= 0.001) return QLocale().toString(100.0 * p, 'f', 1) + QLatin1Char('%');
    return QStringLiteral("<0.1%");
}

// A log-probability with two decimals, never "-0.00".
QString score(float value) {
    const double rounded = std::round(static_cast<double>(value) * 100.0) / 100.0;
    return QLocale().toString(rounded == 0.0 ? 0.0 : rounded, 'f', 2);
}

QColor signedColour(double value, double scale) {
    const double t = scale > 0 ? std::clamp(value / scale, -1.0, 1.0) : 0.0;
    return QColor(Colormap::color(ColormapId::RdBuR, 0.5 + 0.5 * t));
}

// ---- the candidate chart's geometry -------------------------------------------------------------------

constexpr double kBarRow = 24;
constexpr double kChartHeader = 30;
constexpr double kChartFooter = 40;

}  // namespace

// ==== CandidateChart ====================================================================================

CandidateChart::CandidateChart(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void CandidateChart::setStep(const DecodingStep& step, const QString& title) {
    step_ = step;
    title_ = title;
    message_.clear();
    updateGeometry();
    update();
}

void CandidateChart::showMessage(const QString& message) {
    step_ = DecodingStep{};
    title_.clear();
    message_ = message;
    updateGeometry();
    update();
}

QSize CandidateChart::sizeHint() const {
    const int rows = std::max<int>(3, static_cast<int>(step_.candidates.size()));
    return {320, static_cast<int>(kChartHeader + rows * kBarRow + kChartFooter + 2 * kPad)};
}

QSize CandidateChart::minimumSizeHint() const { return {220, 120}; }

void CandidateChart::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setFont(font());
    paintChart(painter, QRectF(rect()));
}

void CandidateChart::paintChart(QPainter& painter, const QRectF& area) const {
    paintCard(painter, area);
    const QRectF inner = area.adjusted(kPad, kPad, -kPad, -kPad);
    const QFont base = painter.font();
    if (step_.candidates.empty()) {
        painter.setPen(kMuted);
        painter.drawText(inner, Qt::AlignCenter | Qt::TextWordWrap, message_);
        return;
    }
    QFont bold = base;
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(kText);
    painter.drawText(QRectF(inner.left(), inner.top(), inner.width(), kChartHeader - 6),
                     Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, title_);
    painter.setFont(base);
    const QFontMetricsF fm(base);
    double labelWidth = 40;
    for (const TokenCandidate& c : step_.candidates)
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(QString::fromStdString(c.token)) + 8);
    labelWidth = std::min(labelWidth, inner.width() * 0.35);
    const double valueWidth = fm.horizontalAdvance(QStringLiteral("100% ◀")) + 8;
    const double barLeft = inner.left() + labelWidth;
    const double barSpan = std::max(20.0, inner.width() - labelWidth - valueWidth);
    double top = 0;
    for (const TokenCandidate& c : step_.candidates) top = std::max(top, static_cast<double>(c.probability));
    if (top <= 0) top = 1;

    double y = inner.top() + kChartHeader;
    bool chosenShown = false;
    int lastKeptRow = -1;
    for (std::size_t i = 0; i < step_.candidates.size(); ++i) {
        const TokenCandidate& c = step_.candidates[i];
        const QString token = QString::fromStdString(c.token);
        const bool chosen = !chosenShown && c.token == step_.chosen;
        if (chosen) chosenShown = true;
        if (c.kept) lastKeptRow = static_cast<int>(i);
        const QRectF row(inner.left(), y, inner.width(), kBarRow);
        painter.setPen(c.kept ? kText : kMuted);
        painter.setFont(chosen ? bold : base);
        painter.drawText(QRectF(row.left(), row.top(), labelWidth - 8, row.height()),
                         Qt::AlignRight | Qt::AlignVCenter | Qt::TextSingleLine,
                         fm.elidedText(token, Qt::ElideRight, labelWidth - 8));
        const double w = barSpan * std::clamp(static_cast<double>(c.probability) / top, 0.0, 1.0);
        painter.setPen(Qt::NoPen);
        painter.setBrush(chosen ? kChosen : (c.kept ? kKept : kDropped));
        painter.drawRect(QRectF(barLeft, row.top() + 4, std::max(w, 1.0), row.height() - 8));
        painter.setPen(c.kept ? kText : kMuted);
        painter.drawText(QRectF(barLeft + w + 4, row.top(), valueWidth + barSpan - w, row.height()),
                         Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                         percent(c.probability) + (chosen ? QStringLiteral(" ◀") : QString()));
        y += kBarRow;
    }
    painter.setFont(base);
    // The cut: a dashed line under the last kept token, when a cut token is shown below it.
    const int shown = static_cast<int>(step_.candidates.size());
    const bool cutShown = lastKeptRow >= 0 && lastKeptRow + 1 < shown;
    if (cutShown) {
        const double cutY = inner.top() + kChartHeader + (lastKeptRow + 1) * kBarRow;
        painter.setPen(QPen(kCut, 1.5, Qt::DashLine));
        painter.drawLine(QPointF(inner.left(), cutY), QPointF(inner.right(), cutY));
    }
    QString footer;
    if (step_.keptCount == 1)
        footer = CandidateChart::tr("Only 1 token survives the cut: it is chosen for certain.");
    else
        footer = CandidateChart::tr("The cut keeps %1 tokens, %2 of the probability; each is drawn in proportion.")
                     .arg(step_.keptCount)
                     .arg(percent(step_.keptMass));
    if (step_.keptCount > shown) footer += QLatin1Char(' ') + CandidateChart::tr("The %1 most probable are shown.").arg(shown);
    painter.setPen(cutShown ? kCut : kMuted);
    painter.drawText(QRectF(inner.left(), y + 4, inner.width(), kChartFooter - 4),
                     Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, footer);
}

// ==== BeamTreeWidget ====================================================================================

namespace {
constexpr double kColumn = 122;
constexpr double kNodeW = 104;
constexpr double kNodeH = 42;
constexpr double kRowStep = 54;
constexpr double kTreeTop = 34;
constexpr double kTreeLegend = 30;
}  // namespace

BeamTreeWidget::BeamTreeWidget(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

void BeamTreeWidget::setTree(const std::vector<BeamNode>& tree) {
    tree_ = tree;
    selected_ = -1;
    layoutNodes();
    updateGeometry();
    resize(contentSize());  // a smaller tree after a larger one shrinks the scrolled area too
    update();
}

void BeamTreeWidget::clear() { setTree({}); }

void BeamTreeWidget::select(int node) {
    selected_ = node >= 0 && node < static_cast<int>(tree_.size()) ? node : -1;
    update();
}

void BeamTreeWidget::layoutNodes() {
    rects_.assign(tree_.size(), QRectF());
    std::map<int, int> rank;
    steps_ = 0;
    for (std::size_t i = 0; i < tree_.size(); ++i) {
        const int step = tree_[i].step;
        const int r = rank[step]++;
        steps_ = std::max(steps_, step + 1);
        rects_[i] = QRectF(kPad + step * kColumn, kTreeTop + r * kRowStep, kNodeW, kNodeH);
    }
}

QSize BeamTreeWidget::contentSize() const {
    double bottom = kTreeTop + kNodeH;
    for (const QRectF& r : rects_) bottom = std::max(bottom, r.bottom());
    const QFontMetricsF fm(font());
    const double legend = fm.horizontalAdvance(legendNote()) + 2 * kPad;
    const double width = std::max(legend, 2 * kPad + std::max(1, steps_) * kColumn);
    return {static_cast<int>(std::max(420.0, width)), static_cast<int>(bottom + 2 * kTreeLegend + kPad)};
}

QString BeamTreeWidget::legendNote() {
    return BeamTreeWidget::tr("box: the token's probability · the hypothesis' log-probability");
}

QRectF BeamTreeWidget::nodeRect(int node) const {
    return node >= 0 && node < static_cast<int>(rects_.size()) ? rects_[static_cast<std::size_t>(node)] : QRectF();
}

int BeamTreeWidget::nodeAt(const QPointF& point) const {
    for (std::size_t i = 0; i < rects_.size(); ++i)
        if (rects_[i].contains(point)) return static_cast<int>(i);
    return -1;
}

void BeamTreeWidget::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setFont(font());
    paintTree(painter, QRectF(QPointF(0, 0), QSizeF(std::max(width(), contentSize().width()),
                                                     std::max(height(), contentSize().height()))));
}

void BeamTreeWidget::mousePressEvent(QMouseEvent* event) {
    const int node = nodeAt(event->position());
    if (node < 0) return;
    select(node);
    Q_EMIT nodeClicked(node);
}

void BeamTreeWidget::paintTree(QPainter& painter, const QRectF& area) const {
    paintCard(painter, area);
    const QPointF origin = area.topLeft();
    const QFont base = painter.font();
    QFont bold = base;
    bold.setBold(true);
    QFont small = base;
    small.setPointSizeF(base.pointSizeF() * 0.85);
    painter.setPen(kMuted);
    for (int s = 0; s < steps_; ++s)
        painter.drawText(QRectF(origin.x() + kPad + s * kColumn, origin.y() + 8, kNodeW, 20), Qt::AlignCenter,
                         BeamTreeWidget::tr("step %1").arg(s + 1));
    // Edges first, the best path's last so that it lies on top.
    for (int pass = 0; pass < 2; ++pass) {
        for (std::size_t i = 0; i < tree_.size(); ++i) {
            const BeamNode& n = tree_[i];
            if (n.parent < 0 || (pass == 1) != n.best) continue;
            const QRectF a = rects_[static_cast<std::size_t>(n.parent)].translated(origin);
            const QRectF b = rects_[i].translated(origin);
            const QPointF from(a.right(), a.center().y()), to(b.left(), b.center().y());
            QPainterPath path(from);
            const double dx = (to.x() - from.x()) / 2;
            path.cubicTo(from + QPointF(dx, 0), to - QPointF(dx, 0), to);
            painter.setBrush(Qt::NoBrush);
            painter.setPen(n.best ? QPen(kChosen, 2.6) : QPen(kDropped, 1.2));
            painter.drawPath(path);
        }
    }
    for (std::size_t i = 0; i < tree_.size(); ++i) {
        const BeamNode& n = tree_[i];
        const QRectF r = rects_[i].translated(origin);
        QColor fill = kCard, line = kMuted;
        if (n.finished) fill = kFinishedFill, line = kFinishedLine;
        if (n.best) fill = kBestFill, line = kChosen;
        painter.setBrush(fill);
        painter.setPen(QPen(line, n.best ? 2.0 : 1.0));
        painter.drawRoundedRect(r, 5, 5);
        if (static_cast<int>(i) == selected_) {
            painter.setBrush(Qt::NoBrush);
            painter.setPen(QPen(kKept, 2.5));
            painter.drawRoundedRect(r.adjusted(-3, -3, 3, 3), 7, 7);
        }
        painter.setPen(kText);
        painter.setFont(bold);
        const QFontMetricsF fm(bold);
        painter.drawText(QRectF(r.left() + 4, r.top() + 2, r.width() - 8, r.height() / 2),
                         Qt::AlignCenter | Qt::TextSingleLine,
                         fm.elidedText(QString::fromStdString(n.token), Qt::ElideRight, r.width() - 8));
        painter.setFont(small);
        painter.setPen(kMuted);
        painter.drawText(QRectF(r.left() + 2, r.center().y(), r.width() - 4, r.height() / 2 - 2),
                         Qt::AlignCenter | Qt::TextSingleLine,
                         QStringLiteral("%1 · %2").arg(percent(n.tokenProbability), score(n.score)));
    }
    painter.setFont(base);
    // Legend.
    const double y = origin.y() + contentSize().height() - kPad - 20 - kTreeLegend;
    double x = origin.x() + kPad;
    const struct {
        QColor fill, line;
        QString text;
    } items[] = {{kBestFill, kChosen, BeamTreeWidget::tr("the translation")},
                 {kFinishedFill, kFinishedLine, BeamTreeWidget::tr("ended with </s>")},
                 {kCard, kMuted, BeamTreeWidget::tr("dropped later")}};
    const QFontMetricsF fm(base);
    for (const auto& item : items) {
        painter.setBrush(item.fill);
        painter.setPen(item.line);
        painter.drawRoundedRect(QRectF(x, y + 3, 14, 14), 3, 3);
        painter.setPen(kText);
        painter.drawText(QPointF(x + 20, y + 15), item.text);
        x += 20 + fm.horizontalAdvance(item.text) + 18;
    }
    painter.setPen(kMuted);
    painter.drawText(QPointF(origin.x() + kPad, y + 15 + kTreeLegend), legendNote());
}

// ==== CacheTable ========================================================================================

namespace {
constexpr double kCacheRow = 22;
constexpr double kCacheHeader = 40;
}  // namespace

CacheTable::CacheTable(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void CacheTable::setCache(const KeyValueCache& cache, int layer, int head, int step, const std::vector<float>& weights) {
    cache_ = cache;
    layer_ = std::clamp(layer, 0, std::max(0, cache.layers - 1));
    head_ = std::clamp(head, 0, std::max(0, cache.heads - 1));
    step_ = std::clamp(step, 0, std::max(0, cache.rows() - 1));
    weights_ = weights;
    updateGeometry();
    update();
}

void CacheTable::clear() {
    cache_ = KeyValueCache{};
    weights_.clear();
    updateGeometry();
    update();
}

QSize CacheTable::contentSize() const {
    const int rows = std::max(1, cache_.rows());
    return {560, static_cast<int>(kCacheHeader + rows * kCacheRow + 2 * kPad + 8)};
}

void CacheTable::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setFont(font());
    paintTable(painter, QRectF(rect()));
}

void CacheTable::paintTable(QPainter& painter, const QRectF& area) const {
    paintCard(painter, area);
    const QRectF inner = area.adjusted(kPad, kPad, -kPad, -kPad);
    if (cache_.empty()) {
        painter.setPen(kMuted);
        painter.drawText(inner, Qt::AlignCenter | Qt::TextWordWrap, CacheTable::tr("No cache to show."));
        return;
    }
    const QFont base = painter.font();
    const QFontMetricsF fm(base);
    double tokenWidth = fm.horizontalAdvance(CacheTable::tr("token")) + 8;
    for (int r = 0; r <= step_; ++r)
        tokenWidth = std::max(tokenWidth, fm.horizontalAdvance(QString::fromStdString(cache_.tokens[static_cast<std::size_t>(r)])) + 8);
    tokenWidth = std::min(tokenWidth, 120.0);
    const double indexWidth = fm.horizontalAdvance(QStringLiteral("00")) + 10;
    QFont bold = base;
    bold.setBold(true);
    const QString weightHeader = CacheTable::tr("new query's weight");
    const double weightWidth =
        std::max(QFontMetricsF(bold).horizontalAdvance(weightHeader) + 6, std::min(170.0, inner.width() * 0.25));
    const double gap = 14;
    const double vectorsWidth = std::max(60.0, inner.width() - indexWidth - tokenWidth - weightWidth - 3 * gap);
    const int dk = cache_.headDim;
    const double cell = std::clamp((vectorsWidth - gap) / 2.0 / std::max(1, dk), 2.0, 16.0);
    const double stripWidth = cell * dk;
    const double keyLeft = inner.left() + indexWidth + tokenWidth + gap;
    const double valueLeft = keyLeft + stripWidth + gap;
    const double weightLeft = valueLeft + stripWidth + gap;
    // One colour scale per table: the largest magnitude of this layer and head's keys (values apart).
    double keyScale = 0, valueScale = 0;
    for (int r = 0; r < cache_.rows(); ++r)
        for (int c = 0; c < dk; ++c) {
            keyScale = std::max(keyScale, std::abs(static_cast<double>(cache_.key(layer_, head_, r, c))));
            valueScale = std::max(valueScale, std::abs(static_cast<double>(cache_.value(layer_, head_, r, c))));
        }
    painter.setFont(bold);
    painter.setPen(kText);
    const double headY = inner.top();
    painter.drawText(QRectF(inner.left() + indexWidth, headY, tokenWidth, 20), Qt::AlignLeft | Qt::AlignVCenter,
                     CacheTable::tr("token"));
    painter.drawText(QRectF(keyLeft, headY, stripWidth + gap, 20), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                     CacheTable::tr("key k"));
    painter.drawText(QRectF(valueLeft, headY, stripWidth + gap, 20), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                     CacheTable::tr("value v"));
    painter.drawText(QRectF(weightLeft, headY, weightWidth, 20), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                     weightHeader);
    painter.setFont(base);
    painter.setPen(kMuted);
    painter.drawText(QRectF(keyLeft, headY + 18, 2 * stripWidth + gap, 18), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                     CacheTable::tr("%1 numbers each (layer %2, head %3)").arg(dk).arg(layer_ + 1).arg(head_ + 1));
    for (int r = 0; r <= step_; ++r) {
        const double y = inner.top() + kCacheHeader + r * kCacheRow;
        const bool newest = r == step_;
        if (newest) {
            painter.setPen(QPen(kChosen, 1.5));
            painter.setBrush(kNewRow);
            painter.drawRoundedRect(QRectF(inner.left() - 4, y, inner.width() + 8, kCacheRow), 4, 4);
        }
        painter.setPen(newest ? kText : kMuted);
        painter.drawText(QRectF(inner.left(), y, indexWidth - 4, kCacheRow), Qt::AlignRight | Qt::AlignVCenter,
                         QString::number(r));
        painter.setPen(kText);
        painter.setFont(newest ? bold : base);
        painter.drawText(QRectF(inner.left() + indexWidth, y, tokenWidth, kCacheRow), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                         fm.elidedText(QString::fromStdString(cache_.tokens[static_cast<std::size_t>(r)]), Qt::ElideRight,
                                       tokenWidth - 4));
        painter.setFont(base);
        painter.setPen(Qt::NoPen);
        for (int c = 0; c < dk; ++c) {
            painter.setBrush(signedColour(cache_.key(layer_, head_, r, c), keyScale));
            painter.drawRect(QRectF(keyLeft + c * cell, y + 3, cell, kCacheRow - 6));
            painter.setBrush(signedColour(cache_.value(layer_, head_, r, c), valueScale));
            painter.drawRect(QRectF(valueLeft + c * cell, y + 3, cell, kCacheRow - 6));
        }
        if (r < static_cast<int>(weights_.size())) {
            const double w = std::clamp(static_cast<double>(weights_[static_cast<std::size_t>(r)]), 0.0, 1.0);
            const double barSpan = weightWidth - fm.horizontalAdvance(QStringLiteral("100%")) - 8;
            painter.setBrush(kKept);
            painter.drawRect(QRectF(weightLeft, y + 5, std::max(1.0, barSpan * w), kCacheRow - 10));
            painter.setPen(kText);
            painter.drawText(QRectF(weightLeft + barSpan * w + 4, y, weightWidth, kCacheRow),
                             Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, percent(w));
        }
        if (newest) {
            painter.setPen(kChosen);
            painter.drawText(QRectF(weightLeft, y, weightWidth, kCacheRow), Qt::AlignRight | Qt::AlignVCenter,
                             weights_.empty() ? CacheTable::tr("new") : QString());
        }
    }
}

}  // namespace attnlab
