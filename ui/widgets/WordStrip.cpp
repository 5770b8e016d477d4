#include "widgets/WordStrip.h"
#include "render/Colormap.h"
#include <QEvent>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

constexpr double kPad = 4;      // inside a word's box
constexpr double kGap = 4;      // between words
constexpr double kRowGap = 10;  // between rows
constexpr double kMinWidth = 240;

double rowScale(const WordRow& row) {
    double m = 0;
    for (double v : row.values)
        if (std::isfinite(v)) m = std::max(m, std::abs(v));
    return m;
}

QColor backgroundFor(double value, double scale) {
    if (!std::isfinite(value)) return QColor(225, 225, 225);
    const double t = scale > 0 ? value / scale : 0;  // -1..1
    return QColor(Colormap::color(ColormapId::RdBuR, 0.5 + 0.5 * std::clamp(t, -1.0, 1.0)));
}

}  // namespace

WordStrip::WordStrip(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void WordStrip::setWords(const QStringList& words, const std::vector<WordRow>& rows) {
    c_.words = words;
    c_.rows.clear();
    for (const WordRow& row : rows)
        if (row.values.size() == static_cast<std::size_t>(words.size())) c_.rows.push_back(row);
    c_.marked.assign(static_cast<std::size_t>(words.size()), false);
    updateGeometry();
    update();
}

void WordStrip::setMarked(const std::vector<int>& indices) {
    c_.marked.assign(static_cast<std::size_t>(c_.words.size()), false);
    for (int i : indices)
        if (i >= 0 && i < c_.words.size()) c_.marked[static_cast<std::size_t>(i)] = true;
    update();
}

void WordStrip::clear() {
    c_.words.clear();
    c_.rows.clear();
    c_.marked.clear();
    updateGeometry();
    update();
}

double WordStrip::labelWidth(const Content& c, const QFont& font) {
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF fm(bold);
    double w = 0;
    for (const WordRow& row : c.rows) w = std::max(w, fm.horizontalAdvance(row.label));
    return w > 0 ? w + 12 : 0;
}

std::vector<WordStrip::Box> WordStrip::layout(const Content& c, const QFont& font, double width, double* height) {
    std::vector<Box> boxes;
    const QFontMetricsF fm(font);
    const double lineHeight = fm.height() + 2 * kPad;
    const double left = labelWidth(c, font);
    const double right = std::max(width, kMinWidth);
    double y = 0;
    const int rowCount = static_cast<int>(c.rows.size());
    for (int r = 0; r < rowCount; ++r) {
        double x = left;
        for (int w = 0; w < c.words.size(); ++w) {
            const double boxWidth = fm.horizontalAdvance(c.words[w]) + 2 * kPad;
            if (x > left && x + boxWidth > right) {
                x = left;
                y += lineHeight + 2;
            }
            boxes.push_back({r, w, QRectF(x, y, boxWidth, lineHeight)});
            x += boxWidth + kGap;
        }
        y += lineHeight + kRowGap;
    }
    *height = rowCount > 0 ? y - kRowGap : 0;
    return boxes;
}

void WordStrip::paintRows(const Content& c, QPainter& painter, const QFont& font, double width) {
    double height = 0;
    const std::vector<Box> boxes = layout(c, font, width, &height);
    std::vector<double> scales;
    for (const WordRow& row : c.rows) scales.push_back(rowScale(row));
    painter.setFont(font);
    QFont bold = font;
    bold.setBold(true);
    int labelled = -1;
    for (const Box& b : boxes) {
        const WordRow& row = c.rows[static_cast<std::size_t>(b.row)];
        if (b.row != labelled) {
            labelled = b.row;
            painter.setFont(bold);
            painter.setPen(QColor(40, 40, 40));
            painter.drawText(QRectF(0, b.rect.top(), labelWidth(c, font), b.rect.height()),
                             Qt::AlignLeft | Qt::AlignVCenter, row.label);
            painter.setFont(font);
        }
        const double value = row.values[static_cast<std::size_t>(b.word)];
        const QColor fill = backgroundFor(value, scales[static_cast<std::size_t>(b.row)]);
        painter.setPen(Qt::NoPen);
        painter.setBrush(fill);
        painter.drawRoundedRect(b.rect, 3, 3);
        // Dark text on light boxes, white on the darkest ones.
        painter.setPen(fill.lightnessF() < 0.45 ? Qt::white : QColor(20, 20, 20));
        painter.drawText(b.rect, Qt::AlignCenter, c.words[b.word]);
        if (c.marked[static_cast<std::size_t>(b.word)]) {
            painter.setPen(QPen(QColor(20, 20, 20), 2));
            painter.drawLine(QPointF(b.rect.left() + 2, b.rect.bottom() - 1.5),
                             QPointF(b.rect.right() - 2, b.rect.bottom() - 1.5));
        }
    }
}

int WordStrip::heightForWidth(int width) const {
    double height = 0;
    layout(c_, font(), width, &height);
    return static_cast<int>(std::ceil(height)) + 2;
}

QSize WordStrip::sizeHint() const { return {600, std::max(heightForWidth(600), 24)}; }

QSize WordStrip::minimumSizeHint() const { return {static_cast<int>(kMinWidth), std::max(heightForWidth(width()), 24)}; }

void WordStrip::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    paintRows(c_, painter, font(), width());
}

std::pair<int, int> WordStrip::wordAt(const QPoint& point) const {
    double height = 0;
    for (const Box& b : layout(c_, font(), width(), &height))
        if (b.rect.contains(point)) return {b.row, b.word};
    return {-1, -1};
}

QString WordStrip::toolTipFor(int row, int word) const {
    if (row < 0 || row >= static_cast<int>(c_.rows.size()) || word < 0 || word >= c_.words.size()) return QString();
    const double v = c_.rows[static_cast<std::size_t>(row)].values[static_cast<std::size_t>(word)];
    QString text = QStringLiteral("%1 · %2: %3")
                       .arg(c_.rows[static_cast<std::size_t>(row)].label, c_.words[word],
                            std::isfinite(v) ? QString::number(v, 'g', 4) : QStringLiteral("–"));
    if (c_.marked[static_cast<std::size_t>(word)]) text += QStringLiteral(" · ") + tr("rationale word");
    return text;
}

bool WordStrip::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto [row, word] = wordAt(help->pos());
        const QString tip = toolTipFor(row, word);
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(event);
}

Figure WordStrip::figure(const QString& title, int width) const {
    QFont font = this->font();
    font.setPointSizeF(std::max(font.pointSizeF(), 11.0));
    const double margin = 16;
    double height = 0;
    layout(c_, font, width - 2 * margin, &height);
    QFont titleFont = font;
    titleFont.setBold(true);
    titleFont.setPointSizeF(font.pointSizeF() * 1.15);
    const double titleHeight = title.isEmpty() ? 0 : QFontMetricsF(titleFont).height() + 8;
    Figure f;
    f.size = QSize(width, static_cast<int>(std::ceil(height + titleHeight + 2 * margin)));
    f.title = title;
    // The figure paints from a copy, so it outlives changes to the widget.
    f.paint = [c = c_, font, titleFont, title, margin, titleHeight](QPainter& painter, const QRectF& rect) {
        painter.fillRect(rect, Qt::white);
        painter.setRenderHint(QPainter::Antialiasing);
        if (!title.isEmpty()) {
            painter.setFont(titleFont);
            painter.setPen(QColor(20, 20, 20));
            painter.drawText(QRectF(rect.left() + margin, rect.top() + margin, rect.width() - 2 * margin, titleHeight),
                             Qt::AlignLeft | Qt::AlignTop, title);
        }
        painter.save();
        painter.translate(rect.left() + margin, rect.top() + margin + titleHeight);
        paintRows(c, painter, font, rect.width() - 2 * margin);
        painter.restore();
    };
    return f;
}

}  // namespace attnlab
