#include "task/translate/TrainingSettingsWidget.h"
#include "setup/LessonControls.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>
#include <QThread>

#include <algorithm>

namespace attnlab {

TrainingSettingsWidget::TrainingSettingsWidget(QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    learningRate_ = new QDoubleSpinBox;
    learningRate_->setDecimals(5);
    learningRate_->setRange(0.00001, 1.0);
    learningRate_->setSingleStep(0.0005);
    learningRate_->setValue(0.001);
    learningRate_->setToolTip(tr("Step size of the Adam optimiser: too high diverges, too low learns slowly."));

    batch_ = new QSpinBox;
    batch_->setRange(1, 1024);
    batch_->setValue(32);
    batch_->setToolTip(tr("Sentence pairs per training step; one step is one batch."));

    epochs_ = new QSpinBox;
    epochs_->setRange(1, 10000);
    epochs_->setValue(10);
    epochs_->setToolTip(tr("Passes over the training pairs; validation metrics are computed after each."));

    seed_ = new QSpinBox;
    seed_->setRange(0, 999999999);
    seed_->setValue(1);
    seed_->setToolTip(tr("Seeds the weights, the shuffling and the validation split: same seed, same run."));

    threads_ = new QSpinBox;
    threads_->setRange(1, std::max(1, QThread::idealThreadCount()));
    threads_->setValue(1);
    threads_->setToolTip(tr("CPU threads that train the parts of each batch side by side; a run repeats exactly for the same seed and number of threads."));

    validation_ = new QDoubleSpinBox;
    validation_->setRange(0.0, 0.5);
    validation_->setSingleStep(0.05);
    validation_->setValue(0.1);
    validation_->setToolTip(tr("Share of the pairs held out to measure loss, accuracy and BLEU on unseen data."));

    clip_ = new QDoubleSpinBox;
    clip_->setRange(0.0, 100.0);
    clip_->setSingleStep(0.5);
    clip_->setValue(1.0);
    clip_->setSpecialValueText(tr("off"));
    clip_->setToolTip(tr("Largest allowed gradient norm; clipping keeps one bad batch from wrecking the model."));

    teacherForcing_ = new QDoubleSpinBox;
    teacherForcing_->setRange(0.0, 1.0);
    teacherForcing_->setSingleStep(0.1);
    teacherForcing_->setValue(1.0);
    teacherForcing_->setToolTip(tr("GRU only: how often the decoder is fed the correct previous word instead of "
                                   "its own guess."));

    // The attention losses' weights: 0 (off) to 10.
    auto lossWeight = [this](const QString& toolTip) {
        auto* box = new QDoubleSpinBox;
        box->setRange(0.0, 10.0);
        box->setSingleStep(0.1);
        box->setDecimals(2);
        box->setSpecialValueText(tr("off"));
        box->setToolTip(toolTip);
        return box;
    };
    coverage_ = lossWeight(tr("Adds a penalty when the source words' shares of the attention are uneven (Xu et al. "
                             "2015): every word gets looked at. Its effect shows in Diagnostics' coverage. Words "
                             "with no counterpart (\"the\") are then attended too."));
    guided_ = lossWeight(tr("Pulls the cross-attention toward the gold word links (Garg et al. 2019): a "
                           "Transformer's last-layer first head, a GRU's one map. Needs word links (the built-in "
                           "datasets have them). The AER curve then scores that head."));

    form->addRow(tr("Learning rate:"), learningRate_);
    form->addRow(tr("Batch size:"), batch_);
    form->addRow(tr("Epochs:"), epochs_);
    form->addRow(tr("Seed:"), seed_);
    form->addRow(tr("Threads:"), threads_);
    form->addRow(tr("Validation share:"), validation_);
    form->addRow(tr("Gradient clip:"), clip_);
    form->addRow(tr("Teacher forcing:"), teacherForcing_);
    form->addRow(tr("Coverage penalty:"), coverage_);
    form->addRow(tr("Guided alignment:"), guided_);
    markLessonControls({{learningRate_, "learning_rate"}, {batch_, "batch_size"}, {epochs_, "epochs"}, {seed_, "seed"},
                        {threads_, "threads"}, {validation_, "validation_fraction"}, {clip_, "clip"},
                        {teacherForcing_, "teacher_forcing"}, {coverage_, "coverage_penalty"},
                        {guided_, "guided_alignment"}});

    auto notify = [this] { Q_EMIT changed(); };
    for (QDoubleSpinBox* box : {learningRate_, validation_, clip_, teacherForcing_, coverage_, guided_})
        connect(box, &QDoubleSpinBox::valueChanged, this, notify);
    for (QSpinBox* box : {batch_, epochs_, seed_, threads_}) connect(box, &QSpinBox::valueChanged, this, notify);
}

TranslationTrainingOptions TrainingSettingsWidget::options() const {
    TranslationTrainingOptions o;
    o.learningRate = learningRate_->value();
    o.batchSize = batch_->value();
    o.epochs = epochs_->value();
    o.seed = static_cast<std::uint64_t>(seed_->value());
    o.threads = threads_->value();
    o.validationFraction = validation_->value();
    o.clip = clip_->value();
    o.teacherForcing = teacherForcing_->value();
    o.coveragePenalty = coverage_->value();
    o.guidedAlignment = guided_->value();
    o.alignmentLayer = alignmentLayer_;
    o.alignmentHead = alignmentHead_;
    return o;
}

void TrainingSettingsWidget::setOptions(const TranslationTrainingOptions& o) {
    learningRate_->setValue(o.learningRate);
    batch_->setValue(o.batchSize);
    epochs_->setValue(o.epochs);
    seed_->setValue(static_cast<int>(std::min<std::uint64_t>(o.seed, 999999999)));
    threads_->setValue(o.threads);
    validation_->setValue(o.validationFraction);
    clip_->setValue(o.clip);
    teacherForcing_->setValue(o.teacherForcing);
    coverage_->setValue(o.coveragePenalty);
    guided_->setValue(o.guidedAlignment);
    alignmentLayer_ = o.alignmentLayer;
    alignmentHead_ = o.alignmentHead;
}

}  // namespace attnlab
