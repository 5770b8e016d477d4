#pragma once
// The "Training" group of a task's setup panel (ClassifierSetupPanel, ImageSetupPanel): epochs,
// learning rate, batch size and seed, read and written as any options type with those fields
// (epochs, learningRate, batchSize, seed: ClassifierTrainingOptions, VisionTrainingOptions).
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

    // Where Batch size stands in the form: after Learning rate, or before it.
    enum class Order { RateThenBatch, BatchThenRate };

    // The group added to layout, showing `defaults`; the tooltips say what an epoch and a batch pass over.
    template <typename Options>
    static TrainingBox add(QVBoxLayout* layout, const Options& defaults, const QString& epochsTip,
                           const QString& batchTip, Order order) {
        return build(layout, defaults.epochs, defaults.learningRate, defaults.batchSize,
                     static_cast<int>(defaults.seed), epochsTip, batchTip, order);
    }

    template <typename Options>
    Options read() const {
        Options o;
        o.epochs = epochs->value();
        o.learningRate = learningRate->value();
        o.batchSize = batch->value();
        o.seed = static_cast<std::uint64_t>(seed->value());
        return o;
    }

    template <typename Options>
    void write(const Options& o) const {
        epochs->setValue(o.epochs);
        learningRate->setValue(o.learningRate);
        batch->setValue(o.batchSize);
        seed->setValue(static_cast<int>(o.seed));
    }

private:
    static TrainingBox build(QVBoxLayout* layout, int epochs, double learningRate, int batch, int seed,
                             const QString& epochsTip, const QString& batchTip, Order order);
};

}  // namespace attnlab
