#pragma once
// The line view on screen (render/LineViewRenderer.h paints it): hovering a token keeps only its
// lines (leaving the view shows every line again), clicking a head's colour chip hides or shows
// that head's lines. Its height follows the tokens (put it in a scroll area for long sentences).
#include "render/LineViewRenderer.h"

#include <QWidget>

namespace attnlab {

class LineViewWidget : public QWidget {
    Q_OBJECT

public:
    explicit LineViewWidget(QWidget* parent = nullptr);

    void setMaps(const std::vector<AttentionMap>& heads, const QStringList& leftLabels, const QStringList& rightLabels);
    void clear();
    void setTitle(const QString& title);
    void setThreshold(double massShare);
    void setHeadVisible(int head, bool visible);
    // Hover by hand (tests, the benchmark): the lines of one token, or all (Side::None).
    void focusToken(LineViewRenderer::Side side, int token);

    const LineViewRenderer& renderer() const { return lines_; }
    // The pixel centre of a chip or a token's label band, for tests.
    QPointF chipCenter(int head) const;
    QPointF tokenCenter(LineViewRenderer::Side side, int token) const;

    bool exportImage(const QString& path, QString* error = nullptr, double scale = 1.0) const {
        return lines_.exportImage(path, error, scale);
    }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void headToggled(int head, bool visible);
    void thresholdChanged(double massShare);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    LineViewRenderer lines_;
};

}  // namespace attnlab
