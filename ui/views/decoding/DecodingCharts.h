#pragma once
// The decoding lab's pictures, each a widget that paints itself and the same picture as a figure
// (FigureWriter): one step's next-token distribution with the sampling cut drawn, the tree of a beam
// search, and the Transformer decoder's key/value cache growing by one row per step. They paint
// dark on a light card of their own, so the window and an exported figure look the same.
#include "base/AttentionMap.h"
#include "render/FigureWriter.h"

#include <QString>
#include <QWidget>

#include <vector>

namespace attnlab {

// One step's most probable next tokens as bars: kept tokens blue, the token drawn orange, tokens
// the top-k / top-p cut removed grey, and a dashed line where the cut falls.
class CandidateChart : public QWidget {
    Q_OBJECT
public:
    explicit CandidateChart(QWidget* parent = nullptr);
    // `title` names the step; an empty step (no candidates) shows `message` instead.
    void setStep(const DecodingStep& step, const QString& title);
    void showMessage(const QString& message);
    bool hasStep() const { return !step_.candidates.empty(); }
    const DecodingStep& step() const { return step_; }
    void paintChart(QPainter& painter, const QRectF& area) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    DecodingStep step_;
    QString title_;
    QString message_;
};

// A beam search's hypotheses, one column per output step; each kept hypothesis a box with its
// token and score joined to its prefix. The returned translation's path is orange, hypotheses that
// ended with </s> green, the others (dropped later) white. A click selects a hypothesis.
class BeamTreeWidget : public QWidget {
    Q_OBJECT
public:
    explicit BeamTreeWidget(QWidget* parent = nullptr);
    void setTree(const std::vector<BeamNode>& tree);
    void clear();
    const std::vector<BeamNode>& tree() const { return tree_; }
    int selected() const { return selected_; }
    void select(int node);           // -1: none
    int nodeAt(const QPointF& point) const;  // widget coordinates; -1 if none
    QRectF nodeRect(int node) const;
    QSize contentSize() const;
    void paintTree(QPainter& painter, const QRectF& area) const;
    QSize sizeHint() const override { return contentSize(); }

Q_SIGNALS:
    void nodeClicked(int node);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    void layoutNodes();
    static QString legendNote();
    std::vector<BeamNode> tree_;
    std::vector<QRectF> rects_;  // per node, in content coordinates
    int steps_ = 0;
    int selected_ = -1;
};

// The decoder's key/value cache at one step of one layer and head: a row per cached input (rows
// 0..step, the newest outlined), its key and value vectors as cells (blue negative, red positive,
// on one scale per table), and the new query's attention over those rows.
class CacheTable : public QWidget {
    Q_OBJECT
public:
    explicit CacheTable(QWidget* parent = nullptr);
    // `weights`: the step's self-attention over rows 0..step (may be empty: not captured).
    void setCache(const KeyValueCache& cache, int layer, int head, int step, const std::vector<float>& weights);
    void clear();
    int shownRows() const { return cache_.empty() ? 0 : step_ + 1; }
    void paintTable(QPainter& painter, const QRectF& area) const;
    QSize contentSize() const;
    QSize sizeHint() const override { return contentSize(); }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    KeyValueCache cache_;
    int layer_ = 0, head_ = 0, step_ = 0;
    std::vector<float> weights_;
};

}  // namespace attnlab
