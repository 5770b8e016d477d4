#pragma once
// What the training curves of the tasks with one model each (ClassifierCurvesView, ImageCurvesView)
// share: a summary line of the latest epoch over two charts stacked in a splitter, the loss (training
// and validation, from 0 to a round top) and the validation scores on 0..1, both against the epoch
// (1 to the latest, a tick every 1, 2, 5, 10 ... epochs, at most 10); lines with a dot at every epoch
// whose legend entries follow them; a placeholder until the first epoch; the export of both charts.
// A view adds its score lines, feeds each epoch's points and ends it with showEpoch().
//
// The view's texts stay in the view's own translation context: every text this class shows is
// given to it, already translated, by the view.
#include "views/View.h"

#include <QHash>
#include <QString>
#include <QWidget>

class QChart;
class QChartView;
class QColor;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QSplitter;
class QValueAxis;
class QVBoxLayout;

namespace attnlab {

class EpochCurvesView : public QWidget, public View {
    Q_OBJECT
public:
    // View
    void clearView() override { clear(); }
    void runStarted() override { clear(); }
    bool exportsFigure() const override { return epochs() > 0; }

    // Forgets every epoch: the placeholder again.
    void clear();
    int epochs() const { return epochs_; }

    QChart* lossChart() const { return lossChart_; }
    QChart* scoreChart() const { return scoreChart_; }
    QLineSeries* trainLossSeries() const { return trainLoss_; }
    QLineSeries* validationLossSeries() const { return validationLoss_; }
    QValueAxis* epochAxis() const { return lossX_; }  // the score chart's follows it
    QValueAxis* lossAxis() const { return lossY_; }

protected:
    // The texts, in the view's interface language.
    struct Texts {
        QString placeholder;  // until the first epoch
        QString lossTitle;
        QString trainLoss;
        QString validationLoss;
        QString lossUnit;  // the loss axis's title
        QString scoreTitle;
        QString epoch;  // the epoch axes' title
        QString share;  // the score axis's title
    };
    // summaryScale enlarges the summary's font; chartHeight is each chart's minimum height.
    EpochCurvesView(const Texts& texts, double summaryScale, int chartHeight, QWidget* parent);

    // A line on the score chart (dashed for a baseline), with its dots.
    QLineSeries* addScoreLine(const QString& name, const QColor& color, bool dashed);
    void append(QLineSeries* line, double x, double y);  // a non-finite y is left out
    void appendLoss(int epoch, double train, double validation);
    // Shows or hides a line, its dots and its legend entry (the dots' entry stays hidden).
    void setLineShown(QLineSeries* line, bool shown);
    // An epoch's points are in: the summary says `summary`, the charts show, the axes follow.
    void showEpoch(int epoch, const QString& summary);
    // Both charts through FigureWriter (PNG, SVG, PDF), titled `title`.
    bool exportCurves(const QString& title, const QString& path, double scale, QString* error) const;

    // What clear() forgets besides the epochs and the points of every line.
    virtual void clearMore() {}

    QVBoxLayout* layout_;  // the summary, the placeholder and the charts; a view may add below

private:
    QLineSeries* addLine(QChart* chart, const QString& name, const QColor& color, bool dashed);
    void updateRanges();

    int epochs_ = 0;
    int lastEpoch_ = 0;
    QLabel* summary_;
    QLabel* placeholder_;
    QSplitter* charts_;
    QChart* lossChart_;
    QChart* scoreChart_;
    QValueAxis* lossX_;
    QValueAxis* lossY_;
    QValueAxis* scoreX_;
    QValueAxis* scoreY_;
    QLineSeries* trainLoss_;
    QLineSeries* validationLoss_;
    QHash<QLineSeries*, QScatterSeries*> markers_;  // the dots of each line
};

}  // namespace attnlab
