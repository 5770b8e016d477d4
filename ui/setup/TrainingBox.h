#pragma once
// The "Training" group of a task's setup panel (ClassifierSetupPanel, ImageSetupPanel,
// ForecastSetupPanel): epochs, learning rate, batch size, seed, gradient clip and the held-out
// share, read and written as any options type with those fields (epochs, learningRate, batchSize,
// seed, clip, and validationFraction, or a forecaster's tailFraction: ClassifierTrainingOptions,
// VisionTrainingOptions, ForecastTrainingOptions). read() starts from the options last written, so
// the fields the box does not show (threads, a forecaster's stride, ...) come along.
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QString>
#include <cstdint>

class QVBoxLayout;

namespace attnlab {

// A spin box from low to high showing value, with a tooltip.
QSpinBox* makeSpinBox(int low, int high, int value, const QString& tip);

class TrainingBox {
    Q_DECLARE_TR_FUNCTIONS(attnlab::TrainingBox)
public:
    QSpinBox* epochs = nullptr;
    QDoubleSpinBox* learningRate = nullptr;
    QSpinBox* batch = nullptr;
    QSpinBox* seed = nullptr;
    QDoubleSpinBox* clip = nullptr;
    QDoubleSpinBox* heldOut = nullptr;  // the validation share, or a forecaster's held-out tail

    // Where Batch size stands in the form: after Learning rate, or before it.
    enum class Order { RateThenBatch, BatchThenRate };

    // The group added to layout, showing `defaults`; the tooltips say what an epoch and a batch pass over.
    template <typename Options>
    static TrainingBox add(QVBoxLayout* layout, const Options& defaults, const QString& epochsTip,
                           const QString& batchTip, Order order) {
        Options copy = defaults;
        return build(layout, defaults.epochs, defaults.learningRate, defaults.batchSize,
                     static_cast<int>(defaults.seed), defaults.clip, heldOutOf(copy, 0), isTail(copy, 0), epochsTip,
                     batchTip, order);
    }

    // `base` with the shown fields put in (base: the options the panel last wrote).
    template <typename Options>
    Options read(Options base = {}) const {
        base.epochs = epochs->value();
        base.learningRate = learningRate->value();
        base.batchSize = batch->value();
        base.seed = static_cast<std::uint64_t>(seed->value());
        base.clip = clip->value();
        heldOutOf(base, 0) = heldOut->value();
        return base;
    }

    template <typename Options>
    void write(const Options& o) const {
        epochs->setValue(o.epochs);
        learningRate->setValue(o.learningRate);
        batch->setValue(o.batchSize);
        seed->setValue(static_cast<int>(o.seed));
        clip->setValue(o.clip);
        Options copy = o;
        heldOut->setValue(heldOutOf(copy, 0));
    }

    // What the options hold out: a forecaster the series' tail (tailFraction), the others a share
    // (validationFraction). A reference to the field.
    template <typename O>
    static double& heldOutShare(O& o) { return heldOutOf(o, 0); }

private:
    template <typename O>
    static auto heldOutOf(O& o, int) -> decltype((o.tailFraction)) { return o.tailFraction; }
    template <typename O>
    static auto heldOutOf(O& o, long) -> decltype((o.validationFraction)) { return o.validationFraction; }
    template <typename O>
    static auto isTail(O& o, int) -> decltype((void)o.tailFraction, true) { return true; }
    template <typename O>
    static bool isTail(O&, long) { return false; }

    static TrainingBox build(QVBoxLayout* layout, int epochs, double learningRate, int batch, int seed, double clip,
                             double heldOut, bool tail, const QString& epochsTip, const QString& batchTip, Order order);
};

}  // namespace attnlab
