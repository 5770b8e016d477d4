#pragma once
// Which heads of a translation Transformer matter (Michel, Levy & Neubig 2019): Measure switches
// each head off alone over the run's validation pairs (the change in loss and BLEU) and ranks the
// heads by gradient importance (|dL/d gate| summed over the sentences, normalised per layer), on
// the worker between training batches (engine/translation/HeadImportance.h). Shown: a layers x
// heads grid per kind coloured by importance, the heads in a table, and the pruning chart: BLEU as
// heads are switched off in order of importance against random orders. Export: the chart (PNG, SVG,
// PDF) or the heads as CSV (kind, layer, head from 1; importance, delta_loss, delta_bleu).
#include "views/View.h"

#include "engine/translation/HeadImportance.h"

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
    explicit ImportanceView(QWidget* parent = nullptr);

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
    void setReport(const HeadImportanceReport& report, const QString& corpus);
    void setFailed(const QString& message);

    bool hasReport() const { return hasReport_; }
    const HeadImportanceReport& report() const { return report_; }
    QPushButton* measureButton() const { return measure_; }
    HeatmapWidget* grid(MapKind kind) const;
    QLineSeries* pruningSeries() const { return pruning_; }
    QLineSeries* randomSeries() const { return random_; }
    QTableWidget* table() const { return table_; }
    QString status() const;
    // kind,layer,head,importance,gradient,delta_loss,delta_bleu,loss,bleu (layers and heads from 1).
    QByteArray csv() const;

Q_SIGNALS:
    void measureRequested(int limit);

private:
    void setBusy(bool busy);

    QPushButton* measure_;
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
    HeadImportanceReport report_;
    bool hasReport_ = false;
    bool transformer_ = false;
    bool available_ = false;
};

}  // namespace attnlab
