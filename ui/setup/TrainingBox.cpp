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

TrainingBox TrainingBox::build(QVBoxLayout* layout, int epochs, double learningRate, int batch, int seed,
                               const QString& epochsTip, const QString& batchTip, Order order) {
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
    markLessonControls({{b.epochs, "epochs"}, {b.learningRate, "learning_rate"}, {b.batch, "batch_size"}, {b.seed, "seed"}});
    layout->addWidget(group);
    return b;
}

}  // namespace attnlab
