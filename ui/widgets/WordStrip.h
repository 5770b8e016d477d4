#pragma once
// Rows of words, each word on a background coloured by its weight: the picture the explanation lab
// is read from (attention, gradient, integrated gradients, ... one row each, for the same words).
// Every row uses one colour scale, the diverging RdBu_r map centred on 0: a row's values are
// divided by its largest magnitude, so a positive weight goes from white to red and a negative one
// (gradient x input, leave-one-out) from white to blue, and rows in different units compare by shape.
// Words wrap to the widget's width; a word can be marked (underlined: a gold rationale word).
// Hovering a word shows its exact value. The same painting is exported through FigureWriter.
#include "render/FigureWriter.h"
#include <QStringList>
#include <QWidget>
#include <vector>

namespace attnlab {

struct WordRow {
    QString label;               // e.g. "attention"; shown left of the row
    std::vector<double> values;  // one per word; NaN = no value (drawn grey)
};

class WordStrip : public QWidget {
    Q_OBJECT
public:
    explicit WordStrip(QWidget* parent = nullptr);
    // Rows whose value count differs from the word count are refused (ignored).
    void setWords(const QStringList& words, const std::vector<WordRow>& rows);
    // Words to underline (e.g. the gold rationale); indices past the end are ignored.
    void setMarked(const std::vector<int>& indices);
    void clear();
    bool isEmpty() const { return c_.words.isEmpty(); }
    const QStringList& words() const { return c_.words; }
    const std::vector<WordRow>& rows() const { return c_.rows; }
    // The word under a point (widget coordinates): row and word index, or -1s.
    std::pair<int, int> wordAt(const QPoint& point) const;
    QString toolTipFor(int row, int word) const;
    // The rows as a figure (dark on white), width in logical pixels.
    Figure figure(const QString& title, int width = 900) const;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Box {
        int row, word;
        QRectF rect;
    };
    struct Content {
        QStringList words;
        std::vector<WordRow> rows;
        std::vector<bool> marked;
    };
    // Lays the rows out in `width`: the boxes, and the total height.
    static std::vector<Box> layout(const Content& c, const QFont& font, double width, double* height);
    static void paintRows(const Content& c, QPainter& painter, const QFont& font, double width);
    static double labelWidth(const Content& c, const QFont& font);

    Content c_;
};

}  // namespace attnlab
