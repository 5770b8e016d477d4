#pragma once
// The embedding projector (TensorFlow's, exBERT's search beside it) for a translation model: the
// encoder state of every word of the validation sentences at a chosen layer, projected to two
// dimensions by PCA on the worker (projectEncoderStates), drawn as a scatter plot coloured by
// token (the eight most frequent words each a colour, the rest grey) or by position. Clicking a
// point shows its sentence and the words whose states lie nearest by cosine similarity. Export:
// the chart (PNG, SVG, PDF) or the points as CSV (x, y, sentence, position, token).
#include "views/View.h"

#include "engine/translation/EncoderStates.h"

#include <QByteArray>
#include <QList>
#include <QWidget>

class QChart;
class QComboBox;
class QLabel;
class QPushButton;
class QScatterSeries;
class QSpinBox;
class QValueAxis;

namespace attnlab {

class ProjectorView : public QWidget, public View {
    Q_OBJECT

public:
    explicit ProjectorView(QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;
    void modelChanged(const ModelInfo* model) override;
    void modelAvailable(bool available) override;
    bool exportsFigure() const override { return hasProjection_; }
    bool exportsMatrix() const override { return hasProjection_; }
    bool exportView(const QString& path, double scale, QString* error) const override;

    void setProjection(const StateProjection& projection, const QString& corpus);
    void setFailed(const QString& message);
    // Shows point `index`'s sentence and its nearest neighbours (what a click on it does).
    void selectPoint(std::size_t index);

    bool hasProjection() const { return hasProjection_; }
    const StateProjection& projection() const { return projection_; }
    QPushButton* projectButton() const { return project_; }
    QComboBox* colourBy() const { return colourBy_; }
    const QList<QScatterSeries*>& series() const { return series_; }
    QString details() const;
    QString status() const;
    QByteArray csv() const;  // x,y,sentence,position,token

Q_SIGNALS:
    void projectRequested(int layer, int sentences);

private:
    void redraw();
    void setBusy(bool busy);

    QPushButton* project_;
    QSpinBox* layer_;
    QSpinBox* limit_;
    QComboBox* colourBy_;
    QLabel* status_;
    QLabel* details_;
    QChart* chart_;
    QValueAxis* x_;
    QValueAxis* y_;
    QList<QScatterSeries*> series_;
    QList<std::vector<std::size_t>> seriesPoints_;  // the point indices of each series, in order
    StateProjection projection_;
    bool hasProjection_ = false;
    bool transformer_ = false;
    bool available_ = false;
    int layers_ = 1;
};

}  // namespace attnlab
