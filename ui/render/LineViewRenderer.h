#pragma once
// The line view (BertViz's "head view", Vig 2019): the tokens that attend in a column on the left,
// the tokens attended to in a column on the right, and a line from each left token to each right
// token it attends to, its opacity the weight, one colour per head. A row of colour chips above
// toggles the heads. Hovering a token (on either side) keeps only its lines. A threshold keeps, in
// each row, only the largest weights that together reach a share of its mass (exBERT).
//
// Long sentences: lines lighter than kMinimumWeight are not drawn (they would be invisible), and a
// paint draws at most kLineBudget lines, the heaviest first, so a 200-token, 8-head map paints in
// a few milliseconds; linesDrawn() says how many the last paint drew and how many it left out.
// Paints onto any QPainter; LineViewWidget adds the mouse, exports use it alone.
#include "render/FigureWriter.h"

#include "base/AttentionMap.h"

#include <QColor>
#include <QCoreApplication>
#include <QFont>
#include <QRectF>
#include <QStringList>

#include <utility>
#include <vector>

class QPainter;

namespace attnlab {

class LineViewRenderer {
    Q_DECLARE_TR_FUNCTIONS(attnlab::LineViewRenderer)

public:
    static constexpr double kMinimumWeight = 0.01;
    static constexpr int kLineBudget = 12000;

    // One line: head `head`, from left token `row` to right token `column`.
    struct Line {
        float weight = 0.0f;
        int head = 0;
        int row = 0;
        int column = 0;
    };
    enum class Side { None, Left, Right };
    struct Hit {
        enum class Kind { None, Chip, Left, Right };
        Kind kind = Kind::None;
        int index = -1;  // the head (Chip) or the token
    };

    LineViewRenderer();

    // The heads of one layer (each rows x columns, rows the left tokens). Resets the visible heads
    // to all (when the head count changes) and the focus.
    void setMaps(const std::vector<AttentionMap>& heads, const QStringList& leftLabels, const QStringList& rightLabels);
    void clear();
    bool isEmpty() const { return heads_.empty(); }
    int headCount() const { return static_cast<int>(heads_.size()); }
    int leftCount() const { return static_cast<int>(left_.size()); }
    int rightCount() const { return static_cast<int>(right_.size()); }

    void setHeadVisible(int head, bool visible);
    bool isHeadVisible(int head) const;
    // The share of each row's mass to keep, in (0, 1]; 1 keeps every weight.
    void setThreshold(double massShare);
    double threshold() const { return threshold_; }
    // Only the lines of one token (Side::None: every line).
    void setFocus(Side side, int token);
    Side focusSide() const { return focusSide_; }
    int focusToken() const { return focusToken_; }
    void setTitle(const QString& title) { title_ = title; }
    const QString& title() const { return title_; }

    static QColor headColor(int head);

    // The lines the current heads, threshold and focus keep, heaviest first, the light ones
    // (below kMinimumWeight) included: what the view means, before any budget.
    std::vector<Line> keptLines() const;
    // How many keptLines() has, and how many of them weigh kMinimumWeight or more (without sorting).
    std::pair<std::size_t, std::size_t> keptCounts() const;
    // What the last paint() drew, and what it left out for the budget (or as too light to see).
    int linesDrawn() const { return drawn_; }
    int linesLeftOut() const { return leftOut_; }

    QSize preferredSize() const;
    Hit hitTest(const QRectF& target, const QPointF& pos) const;
    // `exposed` (empty: all of target) is the part to repaint: lines that do not cross it are skipped
    // (they count neither as drawn nor as left out).
    void paint(QPainter& painter, const QRectF& target, const QColor& textColor, const QColor& background,
               const QRectF& exposed = QRectF()) const;
    // Dark on white, without the focus; size 0 means preferredSize().
    Figure figure(QSize size = {}) const;
    bool exportImage(const QString& path, QString* error = nullptr, double scale = 1.0, QSize size = {}) const;

private:
    struct Geometry {
        QRectF title;
        std::vector<QRectF> chips;
        std::vector<QRectF> left;   // one label box per left token
        std::vector<QRectF> right;  // one per right token
        qreal leftAnchor = 0.0;     // x where the lines start
        qreal rightAnchor = 0.0;    // x where they end
    };
    Geometry geometry(const QRectF& target) const;
    void rebuild();                        // sorted_ and light_ from the maps and the threshold
    static bool heavierFirst(const Line& a, const Line& b);
    bool keeps(const Line& line) const;    // visible head and focus

    std::vector<AttentionMap> heads_;
    QStringList left_;
    QStringList right_;
    std::vector<bool> visible_;
    // Every line the threshold keeps: those of kMinimumWeight or more heaviest first (the ones a
    // paint may draw), the lighter ones apart and unsorted (never drawn, only counted): sorting them
    // too cost a 200-token, 8-head map tens of milliseconds at every threshold change.
    std::vector<Line> sorted_;
    std::vector<Line> light_;
    double threshold_ = 1.0;
    Side focusSide_ = Side::None;
    int focusToken_ = -1;
    QString title_;
    QFont font_;
    mutable int drawn_ = 0;
    mutable int leftOut_ = 0;
};

}  // namespace attnlab
