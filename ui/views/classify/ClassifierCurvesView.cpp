#include "views/classify/ClassifierCurvesView.h"

#include "render/FigureWriter.h"

#include <QColor>
#include <QLineSeries>

#include <cmath>

namespace attnlab {

namespace {

const QColor kRationaleColor(0x8c, 0x56, 0x4b);

QByteArray csvNumber(double v) { return std::isfinite(v) ? QByteArray::number(v, 'g', 9) : QByteArray(); }

}  // namespace

ClassifierCurvesView::ClassifierCurvesView(QWidget* parent)
    : EpochCurvesView({tr("Train a classifier: its loss, accuracy and F1 appear here after every epoch."), tr("Loss"),
                       tr("Training loss"), tr("Validation loss"), tr("cross-entropy per text"),
                       tr("Validation scores"), tr("epoch"), tr("share (0 to 1)")},
                      1.15, 260, parent) {
    accuracy_ = addScoreLine(tr("Validation accuracy"), QColor(0x2c, 0xa0, 0x2c), false);
    macroF1_ = addScoreLine(tr("Macro F1"), QColor(0x94, 0x67, 0xbd), false);
    rationaleMass_ = addScoreLine(tr("Rationale mass (attention on the gold words)"), kRationaleColor, false);
    uniformRationaleMass_ = addScoreLine(tr("Rationale mass of uniform attention"), kRationaleColor, true);
    clear();
}

void ClassifierCurvesView::setRationaleShown(bool shown) {
    for (QLineSeries* line : {rationaleMass_, uniformRationaleMass_}) setLineShown(line, shown);
}

void ClassifierCurvesView::clearMore() {
    metrics_.clear();
    setRationaleShown(false);
}

void ClassifierCurvesView::addEpoch(const ClassifierEpochMetrics& m) {
    metrics_.push_back(m);
    const double x = m.epoch;
    appendLoss(m.epoch, m.trainLoss, m.validationLoss);
    append(accuracy_, x, m.accuracy);
    append(macroF1_, x, m.macroF1);
    // The uniform mass is drawn only beside a measured one: without attention it compares nothing.
    const bool rationale = std::isfinite(m.rationaleMass);
    if (rationale) {
        append(rationaleMass_, x, m.rationaleMass);
        append(uniformRationaleMass_, x, m.uniformRationaleMass);
        setRationaleShown(true);
    }

    QString summary = tr("Epoch %1:  validation loss %2 · accuracy %3% · macro F1 %4")
                          .arg(m.epoch)
                          .arg(m.validationLoss, 0, 'f', 3)
                          .arg(100.0 * m.accuracy, 0, 'f', 1)
                          .arg(m.macroF1, 0, 'f', 3);
    if (rationale)
        summary += QStringLiteral(" · ") + tr("rationale mass %1 (uniform %2)")
                                              .arg(m.rationaleMass, 0, 'f', 2)
                                              .arg(m.uniformRationaleMass, 0, 'f', 2);
    if (std::isfinite(m.attentionEntropy))
        summary += QStringLiteral(" · ") + tr("attention entropy %1 nats (uniform %2)")
                                              .arg(m.attentionEntropy, 0, 'f', 2)
                                              .arg(m.uniformEntropy, 0, 'f', 2);
    if (std::isfinite(m.pairsPerSecond) && m.pairsPerSecond > 0)
        summary += QStringLiteral(" · ") + tr("%1 texts/s").arg(m.pairsPerSecond, 0, 'f', 0);
    showEpoch(m.epoch, summary);
}

QByteArray ClassifierCurvesView::csv() const {
    QByteArray out("epoch,train_loss,val_loss,val_accuracy,val_macro_f1,rationale_mass,attention_entropy\n");
    for (const ClassifierEpochMetrics& m : metrics_) {
        out += QByteArray::number(m.epoch);
        for (double v : {m.trainLoss, m.validationLoss, m.accuracy, m.macroF1, m.rationaleMass, m.attentionEntropy}) {
            out += ',';
            out += csvNumber(v);
        }
        out += '\n';
    }
    return out;
}

// ---- View ----------------------------------------------------------------------------------------

QString ClassifierCurvesView::viewTitle() const { return tr("Curves"); }

QString ClassifierCurvesView::viewToolTip() const {
    return tr("The classifier's loss, accuracy, macro F1 and attention on the gold words after every epoch.");
}

bool ClassifierCurvesView::exportView(const QString& path, double scale, QString* error) const {
    const std::optional<ExportFormat> format = FigureWriter::formatForPath(path);
    if (format == ExportFormat::Npy)
        return fail(error, tr("the curves are exported as CSV, not NPY: save the file with the .csv extension"));
    if (format && metrics_.empty())
        return fail(error, tr("there are no curves to export yet: train a classifier first"));
    if (format == ExportFormat::Csv) return FigureWriter::report(FigureWriter::writeBytes(path, csv()), error);
    // Images; an unknown extension is refused by the writer with its usual message.
    return exportCurves(tr("Classifier training curves"), path, scale, error);
}

}  // namespace attnlab
