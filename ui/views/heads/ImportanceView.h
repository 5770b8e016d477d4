#pragma once
// Which heads of a Transformer matter (Michel, Levy & Neubig 2019), for every task's Transformer:
// Measure switches each head off alone over the run's held-out items (the change in loss and in the
// task's metric: BLEU for translation, accuracy for the classifier and the ViT, MAE for the
// forecaster) and ranks the heads by gradient importance (|dL/d gate| summed over the items,
// normalised per layer), on the task's worker between training batches (engine/HeadStudy.h; the
// translation's through engine/translation/HeadImportance.h). Shown: a layers x heads grid for each
// kind the model has, coloured by importance, the heads in a table, and the pruning chart: the
// metric as heads are switched off in order of importance against random orders. Export: the chart
// (PNG, SVG, PDF) or the heads as CSV (kind, layer, head from 1; importance, gradient, delta_loss,
// delta_<metric>, loss, <metric>).
#include "views/View.h"

#include "engine/HeadStudy.h"

#include <QByteArray>
#include <QHash>
#include <QWidget>

class QChart;
class QLabel;
class QLineSeries;
class QProgressBar;
class QPushButton;
class QScatterSeries;
class QSpinBox;
class QTableWidget;
class QValueAxis;

namespace attnlab {

class HeatmapWidget;

class ImportanceView : public QWidget, public View {
    Q_OBJECT

public:
    // `items` names what the task measures its heads on, in the plural and the interface language
    // ("texts", "images", ...); empty: sentence pairs. The view's texts use it.
    explicit ImportanceView(const QString& items = QString(), QWidget* parent = nullptr);

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;
    void modelChanged(const ModelInfo* model) override;
    void modelAvailable(bool available) override;
    void applyColormap(ColormapId id) override;
    bool exportsFigure() const override { return hasReport_; }
    bool exportsMatrix() const override { return hasReport_; }
    bool exportView(const QString& path, double scale, QString* error) const override;

    // The answers to measureRequested.
    void setProgress(int done, int total);
    void setReport(const HeadStudyReport& report, const QString& source);
    void setFailed(const QString& message);
    // Whether the model has heads to measure (a Transformer or a ViT); the translation's
    // modelChanged decides it itself, the other tasks tell the view when their model changes.
    void setModelHasHeads(bool has);

    bool hasReport() const { return hasReport_; }
    const HeadStudyReport& report() const { return report_; }
    QPushButton* measureButton() const { return measure_; }
    HeatmapWidget* grid(MapKind kind) const;
    QLineSeries* pruningSeries() const { return pruning_; }
    QLineSeries* randomSeries() const { return random_; }
    QTableWidget* table() const { return table_; }
    QString status() const;
    // kind,layer,head,importance,gradient,delta_loss,delta_M,loss,M (layers and heads from 1; M the
    // metric in lower case: bleu, accuracy, mae).
    QByteArray csv() const;

Q_SIGNALS:
    void measureRequested(int limit);

private:
    void setBusy(bool busy);
    QString itemsName() const;
    void showIdleStatus();

    QString items_;
    QLabel* intro_;
    QPushButton* measure_;
    QLabel* limitLabel_;
    QSpinBox* limit_;
    QProgressBar* progress_;
    QLabel* status_;
    HeatmapWidget* encoder_;
    HeatmapWidget* decoder_;
    HeatmapWidget* cross_;
    QTableWidget* table_;
    QChart* chart_;
    QValueAxis* x_;
    QValueAxis* y_;
    QLineSeries* pruning_;
    QLineSeries* random_;
    QHash<QLineSeries*, QScatterSeries*> markers_;
    HeadStudyReport report_;
    bool hasReport_ = false;
    bool transformer_ = false;
    bool available_ = false;
};

}  // namespace attnlab
