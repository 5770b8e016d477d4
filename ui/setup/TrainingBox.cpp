#include "setup/TrainingBox.h"
#include "setup/LessonControls.h"
#include <QFormLayout>
#include <QGroupBox>
#include <QVBoxLayout>

namespace attnlab {

QSpinBox* makeSpinBox(int low, int high, int value, const QString& tip) {
    auto* box = new QSpinBox;
    box->setRange(low, high);
    box->setValue(value);
    box->setToolTip(tip);
    return box;
}

TrainingBox TrainingBox::build(QVBoxLayout* layout, int epochs, double learningRate, int batch, int seed, double clip,
                               double heldOut, bool tail, const QString& epochsTip, const QString& batchTip,
                               Order order) {
    TrainingBox b;
    auto* group = new QGroupBox(tr("Training"));
    auto* form = new QFormLayout(group);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    b.epochs = makeSpinBox(1, 1000, epochs, epochsTip);
    b.learningRate = new QDoubleSpinBox;
    b.learningRate->setDecimals(4);
    b.learningRate->setRange(0.0001, 0.1);
    b.learningRate->setSingleStep(0.0005);
    b.learningRate->setValue(learningRate);
    b.batch = makeSpinBox(1, 1024, batch, batchTip);
    b.seed = makeSpinBox(0, 1000000, seed, tr("The seed of the weights and the batches."));
    form->addRow(tr("Epochs:"), b.epochs);
    if (order == Order::BatchThenRate) form->addRow(tr("Batch size:"), b.batch);
    form->addRow(tr("Learning rate:"), b.learningRate);
    if (order == Order::RateThenBatch) form->addRow(tr("Batch size:"), b.batch);
    form->addRow(tr("Seed:"), b.seed);
    b.clip = new QDoubleSpinBox;
    b.clip->setRange(0.0, 100.0);
    b.clip->setSingleStep(0.5);
    b.clip->setValue(clip);
    b.clip->setSpecialValueText(tr("off"));
    b.clip->setToolTip(tr("Largest allowed gradient norm; clipping keeps one bad batch from wrecking the model."));
    b.heldOut = new QDoubleSpinBox;
    b.heldOut->setRange(0.05, 0.5);
    b.heldOut->setSingleStep(0.05);
    b.heldOut->setValue(heldOut);
    b.heldOut->setToolTip(tail ? tr("The share of the series at its end held out: validation and the forecasts "
                                    "shown are made there.")
                               : tr("The share held out to measure loss and accuracy on unseen data (when there "
                                    "is no test set)."));
    form->addRow(tr("Gradient clip:"), b.clip);
    form->addRow(tail ? tr("Held-out tail:") : tr("Validation share:"), b.heldOut);
    markLessonControls({{b.epochs, "epochs"}, {b.learningRate, "learning_rate"}, {b.batch, "batch_size"}, {b.seed, "seed"},
                        {b.clip, "clip"}, {b.heldOut, "validation_fraction"}});
    layout->addWidget(group);
    return b;
}

}  // namespace attnlab
