#include "views/lm/LmCurvesView.h"
#include "render/FigureWriter.h"
#include <QColor>
#include <QLineSeries>
#include <cmath>

namespace attnlab {

namespace {

QByteArray csvField(double v) { return std::isfinite(v) ? QByteArray::number(v, 'g', 9) : QByteArray(); }

}  // namespace

LmCurvesView::LmCurvesView(QWidget* parent)
    : EpochCurvesView({tr("Train a language model: its loss and how well it copies a repeated sequence appear here "
                          "at every report."),
                       tr("Loss"), tr("Training loss"), tr("Held-out loss"), tr("nats per token"),
                       tr("Copying a repeated sequence"), tr("step"), tr("share")},
                      1.1, 200, parent) {
    copy_ = addScoreLine(tr("Copy accuracy (the second copy's next token)"), QColor(0xd6, 0x27, 0x28), false);
}

QString LmCurvesView::viewTitle() const { return tr("Curves"); }

QString LmCurvesView::viewToolTip() const {
    return tr("The training and held-out loss and the copy accuracy, against the training step.");
}

void LmCurvesView::addReport(const LmStepMetrics& m) {
    reports_.push_back(m);
    appendLoss(m.step, m.trainLoss, m.validationLoss);
    append(copy_, m.step, m.circuits.copyAccuracy);
    showEpoch(m.step, tr("Step %1 (pass %2 over the text): loss %3, held out %4; copy accuracy %5; %6 tokens/s")
                          .arg(m.step)
                          .arg(m.epoch)
                          .arg(m.trainLoss, 0, 'f', 3)
                          .arg(m.validationLoss, 0, 'f', 3)
                          .arg(m.circuits.copyAccuracy, 0, 'f', 2)
                          .arg(std::lround(m.tokensPerSecond)));
}

bool LmCurvesView::exportView(const QString& path, double scale, QString* error) const {
    if (reports_.empty()) return fail(error, tr("No curves yet: they fill as the model trains."));
    const std::optional<ExportFormat> format = FigureWriter::formatForPath(path);
    if (format == ExportFormat::Npy) return fail(error, tr("The curves are written as CSV, not NPY."));
    if (format == ExportFormat::Csv) {
        QByteArray csv("step,train_loss,held_out_loss,copy_accuracy,icl,tokens_per_second\n");
        for (const LmStepMetrics& m : reports_)
            csv += QByteArray::number(m.step) + ',' + csvField(m.trainLoss) + ',' + csvField(m.validationLoss) + ',' +
                   csvField(m.circuits.copyAccuracy) + ',' + csvField(m.circuits.inContextLearning) + ',' +
                   csvField(m.tokensPerSecond) + '\n';
        return FigureWriter::report(FigureWriter::writeBytes(path, csv), error);
    }
    return exportCurves(tr("Language model training"), path, scale, error);
}

}  // namespace attnlab
